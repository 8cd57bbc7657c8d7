"""What a guest's script on busy sockets does to the party: the TV's, the seated phones' and the audience's round
trips, quiet and then under the flood, and how soon a seated phone that drops is back.

    python bench/flood.py [--seconds 30] [--addresses 19] [--per-address 12] [--rate 9] [--attack busy]

The server is tests/lan_server.py (only 127.0.0.1 is the laptop, so 127.0.0.2 and up are guests of their own),
with the party rules at their own pace. A room of 12 seats (three seated phones from 127.0.0.2-4, nine bots) is
dealt its first hand; three audience members (127.0.0.5-7) watch. The TV (127.0.0.1) asks for its whole view four
times a second, each phone and member twice a second, each answer timed (a call not answered in 10 s counts as
10 s); one more seated phone drops and comes back every 5 s. After a quiet spell of the same length the attacker
(tests/flood.py, a process of its own) opens `--per-address` WebSockets from each of `--addresses` guest
addresses (127.0.0.20 and up), each sending `sync` `--rate` times a second and never reading what comes back.
`--attack seat`: the attacker takes the twelfth seat (a bot fewer) and brings its token on every connection instead.
It prints, for the quiet spell and the flood: each round trip's p50, p95 and worst, the slowest return of the
dropping phone, and the server's CPU (of one core), memory and open files.
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

from room import percentile  # noqa: E402
from scale import server_usage  # noqa: E402

from tests.live import LAN, Client, LiveServer  # noqa: E402

TIMEOUT_S = 10.0


class Asker:
    """A connection asking for its whole view every `every` seconds; each round trip, by the phase it began in."""

    def __init__(self, client: Client, every: float, phase: list[str]) -> None:
        self.client, self.every, self.phase = client, every, phase
        self.times: dict[str, list[float]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            phase, began = self.phase[0], time.perf_counter()
            try:
                ok = self.client.sio.call("sync", {}, timeout=TIMEOUT_S).get("ok")
                took = time.perf_counter() - began if ok else TIMEOUT_S
            except Exception:  # noqa: BLE001  not answered in time, or the connection dropped
                took = TIMEOUT_S
            self.times.setdefault(phase, []).append(took)


class Dropper:
    """A seated phone that drops and comes back with its token every 5 s: how long each return took."""

    def __init__(self, url: str, code: str, token: str, source: str, phase: list[str]) -> None:
        self.url, self.code, self.token, self.source, self.phase = url, code, token, source, phase
        self.times: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(5.0):
            phase, began = self.phase[0], time.perf_counter()
            while not self.stop.is_set():
                try:
                    back = Client(self.url, self.code, token=self.token, source=self.source)  # in, its view synced
                    break
                except Exception as error:  # noqa: BLE001  refused, or timed out: a phone tries again
                    self.errors.append(repr(error)[:120])
                    self.stop.wait(0.5)
            else:
                return
            self.times.setdefault(phase, []).append(time.perf_counter() - began)
            back.close()  # not timed: the test client's own close may wait for its long poll to end


def figures(times: list[float]) -> str:
    if not times:
        return "none"
    return (
        f"p50 {percentile(times, 0.5) * 1000:.0f} ms, p95 {percentile(times, 0.95) * 1000:.0f} ms, "
        f"worst {max(times) * 1000:.0f} ms ({len(times)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="the quiet spell, and then the flood")
    parser.add_argument("--addresses", type=int, default=19)
    parser.add_argument("--per-address", type=int, default=12)
    parser.add_argument("--rate", type=float, default=9.0, help="syncs a second on each attacking connection")
    parser.add_argument("--attack", default="busy", choices=("busy", "seat"))
    args = parser.parse_args()

    server = LiveServer(command=LAN)
    phase = ["quiet"]
    askers: list[Asker] = []
    clients: list[Client] = []
    try:
        code, host_token = server.tv_page()
        tv = Client(server.url, code, role="host", token=host_token)
        clients.append(tv)
        phones = [Client(server.url, code, source=f"127.0.0.{2 + i}") for i in range(4)]
        clients += phones
        for i, phone in enumerate(phones):
            assert phone.join(f"Phone {i + 1}")["ok"]
        for _ in range(8 - (args.attack == "seat")):
            assert tv.call("add_bot", {"strength": "easy"})["ok"]
        if args.attack == "seat":  # the attacker takes the last seat, and brings its token from everywhere
            mallory = Client(server.url, code, source="127.0.0.19")
            clients.append(mallory)
            assert mallory.join("Mallory")["ok"]
        fans = []
        for i in range(3):
            fan = Client(server.url, code, role="audience", source=f"127.0.0.{6 + i}")
            ack = fan.call("audience_join", {"name": f"Fan {i + 1}"})
            assert ack["ok"], ack
            fan.close()
            fans.append(
                Client(server.url, code, role="audience", token=ack["audience_token"], source=f"127.0.0.{6 + i}")
            )
        clients += fans
        assert tv.call("start")["ok"]
        tv.wait_for(lambda s: s.get("game") is not None and s["game"]["phase"] != "setup", timeout=30)
        askers = [Asker(tv, 0.25, phase)] + [Asker(c, 0.5, phase) for c in phones[:3] + fans]
        dropper = Dropper(server.url, code, phones[3].token, "127.0.0.5", phase)
        phones[3].close()
        usage = {}
        usage["quiet"] = server_usage(server.proc.pid), time.monotonic()
        time.sleep(args.seconds)
        sources = [f"127.0.0.{20 + i}" for i in range(args.addresses)]
        token = mallory.token if args.attack == "seat" else None
        command = [
            sys.executable,
            "-m",
            "tests.flood",
            args.attack,
            server.url,
            str(args.seconds),
            *sources,
            "--room",
            code,
            "--per-address",
            str(args.per_address),
            "--rate",
            str(args.rate),
            *([f"--token={token}"] if token else []),  # a token may begin with "-"
        ]
        attacker = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert attacker.stdout.readline().strip() == "on"
        cpu_mid, _ = server_usage(server.proc.pid)
        usage["flood"] = (cpu_mid, 0), time.monotonic()
        phase[0] = "flood"
        most_files = 0
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            most_files = max(most_files, len(os.listdir(f"/proc/{server.proc.pid}/fd")))
            time.sleep(0.5)
        phase[0] = "after"
        cpu_end, rss = server_usage(server.proc.pid)
        said = attacker.stdout.read().strip()
        attacker.wait(10)
        for part in (*askers, dropper):
            part.stop.set()
        for part in (*askers, dropper):
            part.thread.join(TIMEOUT_S + 5)
        (cpu0, _), t0 = usage["quiet"]
        (cpu1, _), t1 = usage["flood"]
        print(
            f"flood.py: {args.attack}, {args.addresses} addresses x {args.per_address} WebSockets, "
            f"{args.rate:g} a second each, {args.seconds:g} s quiet then {args.seconds:g} s of flood"
        )
        for name in ("quiet", "flood"):
            print(f"  {name}:")
            print(f"    TV:               {figures(askers[0].times.get(name, []))}")
            print(f"    seated phones:    {figures(sum((a.times.get(name, []) for a in askers[1:4]), []))}")
            print(f"    audience:         {figures(sum((a.times.get(name, []) for a in askers[4:]), []))}")
            print(f"    a phone's return: {figures(dropper.times.get(name, []))}")
        print(
            f"  server CPU: quiet {(cpu1 - cpu0) / (t1 - t0):.0%}, flood {(cpu_end - cpu1) / (end - t1):.0%} of a core;"
            f" {rss / 2**20:.0f} MB; at most {most_files} open files"
        )
        print(f"  attacker: {said}")
        if dropper.errors:
            print(f"  the returning phone was refused or timed out: {dropper.errors[:3]}")
    finally:
        for part in askers:
            part.stop.set()
        for client in clients:
            client.close()
        server.stop()


if __name__ == "__main__":
    main()
