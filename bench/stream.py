"""The send path: bytes and server CPU of a room's broadcasts, the table once for the room and each connection's
own part apart, against sending each connection its whole view.

A room of 12 phones and a TV, in-process (no sockets): random legal play, each command sent out on its own
(as people's moves are, seconds apart), through the room's real send path (Room.broadcast: the table's changes
published once to the room, each connection's own part through partyrummy/server/transport/stream.py). Every message is
serialised as the wire would (json.dumps): the table's once a broadcast, as python-socketio encodes a room's
packet once. Each phone's copy, made from what it received, is checked against its whole view at every step.
Prints bytes per phone per broadcast and per cycle, and the CPU per broadcast (working the updates out and
encoding them), against whole views.

python bench/stream.py [--games 3] [--players 12]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyrummy.rules.variants import default_variants  # noqa: E402
from partyrummy.server.room.room import Room, Viewer  # noqa: E402
from partyrummy.server.transport.stream import Stream  # noqa: E402
from partyrummy.wire.delta import Replica  # noqa: E402
from tests.play import random_command  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def play(players: int, seed: int) -> dict[str, float]:
    """One game of random legal play, measured broadcast by broadcast."""
    party = default_variants()["party"]
    variants = {"party": replace(party, beat_s=0, match_window_s=0, hurry_after_s=0)}
    wire: list[tuple[str | None, str, str]] = []  # (sid, or None for the room; event; JSON text)
    stream = Stream(lambda sid, event, payload: wire.append((sid, event, json.dumps(payload, separators=(",", ":")))))

    def publish(code: str, event: str, payload: dict) -> None:
        wire.append((None, event, json.dumps(payload, separators=(",", ":"))))  # encoded once for the room

    clock = Clock()
    room = Room("BNCH", variants, "party", stream.send, clock, publish=publish)
    sids = ["tv", *(f"phone-{i}" for i in range(players))]
    room.attach("tv", Viewer("host", room.host_token))
    for i in range(players):
        room.join(f"phone-{i}", f"P{i}")
    room.start(seed=seed)
    copies = {sid: Replica() for sid in sids}
    rng = random.Random(seed)
    cycles = broadcasts = 0
    lean_bytes = whole_bytes = 0
    send_s: list[float] = []
    whole_s: list[float] = []

    def deliver() -> None:
        """What went out reaches the copies (the room's message reaches every connection)."""
        for sid, event, text in wire:
            for to in sids if sid is None else [sid]:
                message = json.loads(text)
                copies[to].full(message, force=True) if event == "state" else copies[to].receive(event, message)
        wire.clear()

    for sid in sids:  # each connection's whole state, as on connecting
        stream.send(sid, "state", room.state_for(room.viewers[sid]))
    deliver()
    while not room.state.game.over:
        before = (room.state.game.hand.hand_no, room.state.game.hand.cycle)
        room.play(random_command(room.state.game, rng))
        cycles += (room.state.game.hand.hand_no, room.state.game.hand.cycle) != before
        clock.now += 1.0
        t0 = time.perf_counter()
        room.broadcast()
        send_s.append(time.perf_counter() - t0)
        broadcasts += 1
        phones = [sid for sid in sids if sid != "tv"]
        lean_bytes += sum(len(text) * (len(phones) if sid is None else sid != "tv") for sid, _, text in wire)
        t0 = time.perf_counter()
        views = {sid: room.view(room.viewers[sid]) for sid in phones}
        texts = [json.dumps(view, separators=(",", ":")) for view in views.values()]
        whole_s.append(time.perf_counter() - t0)
        whole_bytes += sum(map(len, texts))
        deliver()
        for sid, view in views.items():  # each phone's copy is its whole view
            held = copies[sid].state
            assert {k: v for k, v in held.items() if k != "v"} == {k: v for k, v in view.items() if k != "v"}, sid
    return {
        "broadcasts": broadcasts,
        "cycles": cycles,
        "lean": lean_bytes / players,
        "whole": whole_bytes / players,
        "send_us": statistics.median(send_s) * 1e6,
        "send_us_p95": sorted(send_s)[int(0.95 * len(send_s))] * 1e6,
        "whole_us": statistics.median(whole_s) * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    print(f"{args.players} phones and a TV, random legal play, each command sent on its own; {args.games} games")
    for seed in range(args.games):
        m = play(args.players, seed)
        print(
            f"game {seed}: {m['broadcasts']} broadcasts, {m['cycles']} cycles; per phone per broadcast "
            f"{m['whole'] / m['broadcasts']:,.0f} B whole, {m['lean'] / m['broadcasts']:,.0f} B table and own part "
            f"({m['whole'] / max(1, m['lean']):.1f}x less); per phone per cycle "
            f"{m['whole'] / m['cycles'] / 1024:.1f} KB whole, {m['lean'] / m['cycles'] / 1024:.1f} KB"
        )
        print(
            f"  CPU per broadcast (13 connections), median: the table once and each own part, worked out and "
            f"encoded {m['send_us']:.0f} us (p95 {m['send_us_p95']:.0f}); whole views built and encoded "
            f"{m['whole_us']:.0f} us"
        )


if __name__ == "__main__":
    main()
