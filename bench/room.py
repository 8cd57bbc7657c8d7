"""Reveal latency: 12 real Socket.IO clients on loopback play cycles against a live server.

For each cycle it measures the time from the last pick to every client holding
the revealed table, and prints p50/p95/p99 (target: p95 under 25 ms). With
--baseline it runs a bare Flask-SocketIO fan-out (a folder holding its
server.py and client.py, given with --fanout or $PARTYRUMMY_FANOUT; it is not
part of this repository) on the same machine in the same run and prints our
latency as a ratio of it.

    python bench/room.py [--cycles 200] [--async-mode threading] [--baseline --fanout DIR]

The bare fan-out runs on threads (Flask-SocketIO's own run, as a plain app would).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live import Client, LiveServer, free_port  # noqa: E402


class Seat(Client):
    """A client that notes when it first saw each cycle's reveal."""

    def __init__(self, *args, **kwargs) -> None:
        self.revealed: dict[int, float] = {}
        self.seen = threading.Event()
        super().__init__(*args, **kwargs)

    def _on_state(self, data: dict) -> None:
        game = data.get("game")
        if game:
            # The reveal of cycle c is a state past cycle c's choosing.
            done = game["cycle"] - (0 if game["phase"] == "reveal" else 1)
            if done not in self.revealed and done >= 1:
                self.revealed[done] = time.perf_counter()
        super()._on_state(data)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(cycles: int, mode: str, players: int = 12) -> list[float]:
    # As fast as the caller allows, so far above a phone's event rate: lift the limit for this load.
    server = LiveServer("--variants", str(ROOT / "bench" / "room.toml"), "--event-rate", "10000", "--async-mode", mode)
    try:
        code, token = server.tv_page()
        host = Client(server.url, code, role="host", token=token)
        assert host.call("variant", {"name": "bench"})["ok"]
        seats = [Seat(server.url, code) for _ in range(players)]
        for i, seat in enumerate(seats):
            assert seat.join(f"B{i}")["ok"]
        assert host.call("start")["ok"]
        latencies = []
        for cycle in range(1, cycles + 1):
            for seat in seats:
                seat.wait_for(lambda s, c=cycle: s["game"] and s["game"]["cycle"] == c and s["game"]["phase"] == "draw")
                assert seat.call("draw", {"source": "shoe", "cycle": cycle})["ok"]
            for seat in seats[:-1]:
                drawn = seat.wait_for(lambda s: s["game"]["you"]["drawn"])["game"]["you"]["drawn"]["id"]
                assert seat.call("choose", {"card_id": drawn, "cycle": cycle})["ok"]
            last = seats[-1]
            drawn = last.wait_for(lambda s: s["game"]["you"]["drawn"])["game"]["you"]["drawn"]["id"]
            # Steady state: every client has caught up with the other picks before the last one.
            for seat in seats:
                seat.wait_for(lambda s: sum(x["picked"] for x in s["game"]["seats"]) == players - 1)
            t0 = time.perf_counter()
            last.sio.emit("choose", {"card_id": drawn, "cycle": cycle})
            for seat in seats:
                seat.wait_for(lambda s, c=cycle, seat=seat: seat.revealed.get(c) is not None)
            latencies.append(max(seat.revealed[cycle] for seat in seats) - t0)
        for client in [host, *seats]:
            client.close()
        return latencies
    finally:
        server.stop()


def baseline(cycles: int, tools: Path | None) -> list[float] | None:
    """The bare fan-out's p50/p95/p99 over `cycles`, or None without its folder."""
    if tools is None or not (tools / "server.py").exists():
        return None
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(tools / "server.py"), str(port), "threading"],
        env={"NODELAY": "1", "PATH": ""},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(1.5)  # the tool prints nothing when ready; give it a moment to bind
        out = subprocess.run(
            [sys.executable, str(tools / "client.py"), str(port), "1", str(cycles)],
            capture_output=True,
            text=True,
            timeout=300,
        ).stdout
        return [
            float(part.split("=")[1].rstrip("ms")) / 1000 for part in out.split() if part[:3] in ("p50", "p95", "p99")
        ]
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--async-mode", default="gevent", choices=("gevent", "threading"), help="our server's")
    parser.add_argument("--baseline", action="store_true", help="also run the bare fan-out (see --fanout)")
    parser.add_argument(
        "--fanout",
        type=Path,
        default=os.environ.get("PARTYRUMMY_FANOUT"),
        help="the bare fan-out's folder (its server.py and client.py); default $PARTYRUMMY_FANOUT",
    )
    args = parser.parse_args()
    lat = run(args.cycles, args.async_mode)
    ms = [x * 1000 for x in (percentile(lat, 0.5), percentile(lat, 0.95), percentile(lat, 0.99))]
    print(f"12 clients, {len(lat)} cycles ({args.async_mode}): last pick -> every client holds the reveal")
    print(f"  partyrummy  p50 {ms[0]:6.1f} ms   p95 {ms[1]:6.1f} ms   p99 {ms[2]:6.1f} ms   (target: p95 < 25 ms)")
    if args.baseline:
        bare = baseline(args.cycles, Path(args.fanout) if args.fanout else None)
        if bare:
            b = [x * 1000 for x in bare]
            print(f"  bare stack  p50 {b[0]:6.1f} ms   p95 {b[1]:6.1f} ms   p99 {b[2]:6.1f} ms")
            print(f"  ratio       p50 {ms[0] / b[0]:6.1f} x    p95 {ms[1] / b[1]:6.1f} x")
        else:
            print("  (no bare fan-out folder given, --fanout: baseline skipped)")


if __name__ == "__main__":
    main()
