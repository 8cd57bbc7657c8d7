"""How many rooms one server holds: R rooms of 12 remote bots each, playing as fast as the caller allows.

Each bot is a real Socket.IO client (partyrummy.client.remote_bots), in this process;
the server is `partyrummy` in its own process. For each R it plays for a while
and prints the reveal latency (the last pick of a cycle to every bot of that
room holding the revealed table) at p50/p95/p99, the server's CPU (a share of
one core) and resident memory, and at the end the largest R whose p95 stays
under 100 ms. The bots share the machine with the server, so on a small
machine they take part of the CPU the server would have.

    python bench/scale.py [--rooms 1,3,6,10,25,50] [--seconds 15]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from room import percentile  # noqa: E402

from partyrummy.client.remote_bots import RemoteBot, play  # noqa: E402
from partyrummy.rules.variants import default_variants  # noqa: E402
from tests.live import LiveServer  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


class TimedBot(RemoteBot):
    """A bot that notes when it sent each cycle's pick and when it first saw that cycle revealed."""

    def __init__(self, *args, **kwargs) -> None:
        self.picked: dict[tuple, float] = {}
        self.revealed: dict[tuple, float] = {}
        self.last_key: tuple | None = None
        super().__init__(*args, **kwargs)

    def _on_state(self, state: dict) -> None:
        game = state.get("game")
        if game and not game["game_over"]:
            now = time.perf_counter()
            key = (game["hand_no"], game["cycle"])
            # The reveal of (hand, cycle) is any later state: "Discard!" and the next "Draw!" may come as one.
            revealed_now = game["phase"] in ("reveal", "scored")
            for k in list(self.picked):
                if k not in self.revealed and (k < key or (k == key and revealed_now)):
                    self.revealed[k] = now
        super()._on_state(state)

    def send(self, event: str, data: dict | None = None) -> dict:
        if event == "choose" and self.state and self.state["game"]:
            game = self.state["game"]
            self.picked[(game["hand_no"], game["cycle"])] = time.perf_counter()
        return super().send(event, data)

    def step(self) -> bool:
        state = self.state
        if self.leader and state and state["game"] and state["game"]["game_over"] and self.acted != state["v"]:
            self.acted = state["v"]
            self.send("start")  # play again: the load goes on for as long as the run lasts
            return True
        return super().step()


def server_usage(pid: int) -> tuple[float, int]:
    """(CPU seconds so far, resident bytes) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICKS
    rss = next(
        int(line.split()[1]) * 1024
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("VmRSS")
    )
    return cpu, rss


def run_rooms(server: LiveServer, rooms: int, seconds: float, strength: str) -> dict:
    variants = default_variants()
    bots: list[TimedBot] = []
    for _ in range(rooms):
        # A new room is a POST from the TV page (a GET could come from any web page).
        urllib.request.urlopen(
            urllib.request.Request(server.url + "/new", method="POST", headers={"Origin": server.url}), timeout=10
        ).close()
        code = server.tv_page()[0]
        room_bots = [TimedBot(server.url, code, f"Bot {i + 1}", strength, variants, leader=i == 0) for i in range(12)]
        for bot in room_bots:
            bot.join()
        server_client = room_bots[0]
        assert server_client.send("variant", {"name": "bench"})["ok"]
        bots += room_bots
    cpu0, _ = server_usage(server.proc.pid)
    mine0 = time.process_time()
    t0 = time.perf_counter()
    for bot in bots[::12]:
        assert bot.send("start")["ok"]
    play(bots, time.monotonic() + seconds)  # the leaders deal again after each game
    wall = time.perf_counter() - t0
    cpu1, rss = server_usage(server.proc.pid)
    mine = (time.process_time() - mine0) / wall
    latencies = []
    for r in range(rooms):
        group = bots[r * 12 : (r + 1) * 12]
        keys = set.intersection(*(set(b.picked) for b in group))
        for key in keys:
            if all(key in b.revealed for b in group):
                latencies.append(max(b.revealed[key] for b in group) - max(b.picked[key] for b in group))
    for bot in bots:
        bot.close()
    errors = [b.error for b in bots if b.error]
    return {"latencies": latencies, "cpu": (cpu1 - cpu0) / wall, "rss": rss, "errors": errors, "bots_cpu": mine}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", default="1,3,6,10,25,50", help="the values of R to try, in order")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--async-mode", default="gevent", choices=("gevent", "threading"))  # the server's default first
    parser.add_argument("--strength", default="easy", help="the bots' strength (easy thinks least: more load per CPU)")
    args = parser.parse_args()
    extra = ["--variants", str(ROOT / "bench" / "room.toml"), "--event-rate", "10000"]
    extra += ["--async-mode", args.async_mode]
    print(f"server async mode: {args.async_mode}; {os.cpu_count()} cores; {args.strength} bots in this process")
    print(
        f"{'rooms':>5} {'clients':>7} {'cycles':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'server CPU':>10} {'RSS MB':>7} {'bots CPU':>8}"
    )
    best = None
    for rooms in [int(r) for r in args.rooms.split(",")]:
        server = LiveServer(*extra)
        try:
            result = run_rooms(server, rooms, args.seconds, args.strength)
        finally:
            server.stop()
        lat = result["latencies"]
        if not lat:
            print(f"{rooms:>5}  no cycle completed")
            break
        p50, p95, p99 = (percentile(lat, q) * 1000 for q in (0.5, 0.95, 0.99))
        print(
            f"{rooms:>5} {rooms * 12:>7} {len(lat):>7} {p50:>7.1f} {p95:>7.1f} {p99:>7.1f} "
            f"{result['cpu']:>10.0%} {result['rss'] / 2**20:>7.0f} {result['bots_cpu']:>8.0%}"
            + (f"  errors: {result['errors'][:2]}" if result["errors"] else "")
        )
        if p95 < 100:
            best = rooms
        if p95 > 2000:  # far past playable: larger R says nothing more
            break
    print(f"largest R with p95 under 100 ms: {best if best is not None else 'none'}")


if __name__ == "__main__":
    main()
