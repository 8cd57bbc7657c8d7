"""What one audience pick costs the server: a room of 12 bots in the lobby (its first round open) and an audience of
N members, each a real Socket.IO client, all picking at once, over and over; the server's CPU per pick, from /proc.

    python bench/picks.py [--members 200] [--each 10]

Each member sends its picks one after another (each waits for its answer), all members at once: the burst that
follows a deal, as fast as the server answers. It prints the picks answered, the server's CPU per pick (the ack,
the member's own part sent back, the journal's write and everything around them) and each answer's p50 and p95.
The server runs on the caller's machine at loopback, its event limit lifted (a member sends faster than a person).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import socketio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from room import percentile  # noqa: E402
from scale import server_usage  # noqa: E402

from tests.live import LiveServer  # noqa: E402

JOINING_AT_ONCE = 20  # under the server's bound on connections begun a second from one address, after its burst


async def seat(url: str, code: str, host_token: str, members: int) -> list[socketio.AsyncClient]:
    """The TV seats 12 bots; then the members join the audience, a few at a time."""
    tv = socketio.AsyncClient(reconnection=False)
    await tv.connect(url, auth={"role": "host", "room": code, "token": host_token})
    for _ in range(12):
        ack = await tv.call("add_bot", {"strength": "easy"})
        assert ack["ok"], ack
    fans: list[socketio.AsyncClient] = []

    async def join(n: int) -> None:
        fan = socketio.AsyncClient(reconnection=False)
        await fan.connect(url, auth={"role": "audience", "room": code})
        ack = await fan.call("audience_join", {"name": f"Fan {n + 1}"})
        assert ack["ok"], ack
        fans.append(fan)

    for first in range(0, members, JOINING_AT_ONCE):
        await asyncio.gather(*(join(n) for n in range(first, min(members, first + JOINING_AT_ONCE))))
    return [tv, *fans]


async def burst(fans: list[socketio.AsyncClient], each: int) -> list[float]:
    """Every member picks `each` times, answers awaited; each answer's time (a refusal ends the run)."""
    took: list[float] = []

    async def picks(fan: socketio.AsyncClient) -> None:
        for k in range(each):
            sent = time.perf_counter()
            ack = await fan.call("predict", {"question": "under", "option": ("yes", "no")[k % 2]}, timeout=30)
            took.append(time.perf_counter() - sent)
            if not ack["ok"]:
                raise SystemExit(f"picks: a pick was refused: {ack['error']}")

    await asyncio.gather(*(picks(fan) for fan in fans))
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=200, help="the audience (the server's most is 200)")
    parser.add_argument("--each", type=int, default=10, help="picks each member sends")
    args = parser.parse_args()
    server = LiveServer(
        "--variants", str(ROOT / "bench" / "load.toml"), "--event-rate", "10000", "--capacity", str(args.members + 50)
    )
    try:
        code, host_token = server.new_room()

        async def run() -> None:
            clients = await seat(server.url, code, host_token, args.members)
            await asyncio.sleep(1)  # the joins' updates sent: the server idle again
            cpu0, t0 = server_usage(server.proc.pid)[0], time.perf_counter()
            took = await burst(clients[1:], args.each)
            wall, cpu = time.perf_counter() - t0, server_usage(server.proc.pid)[0] - cpu0
            n = len(took)
            print(
                f"{n} picks by {args.members} members in {wall:.2f} s ({n / wall:.0f} a second): server CPU "
                f"{cpu:.2f} s, {cpu / n * 1e6:.0f} µs a pick; answered in {percentile(took, 0.5) * 1000:.1f} ms "
                f"(p50), {percentile(took, 0.95) * 1000:.1f} ms (p95)"
            )
            await asyncio.gather(*(client.disconnect() for client in clients))

        asyncio.run(run())
    finally:
        server.stop()


if __name__ == "__main__":
    main()
