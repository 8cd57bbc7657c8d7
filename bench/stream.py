"""Lean updates: bytes and server CPU of sending each connection the changes, against sending whole views.

A room of 12 phones and a TV, in-process (no sockets): random legal play, each command sent out on its own
(as people's moves are, seconds apart). Every broadcast is recorded, then sent again through the
server's send path (partyrummy/web/stream.py) and, for comparison, as whole views; both serialised as the
wire would (json.dumps). Prints bytes per phone per broadcast and per cycle, and the CPU per broadcast.

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

from partyrummy.delta import apply_update  # noqa: E402
from partyrummy.variants import default_variants  # noqa: E402
from partyrummy.web.room import Room, Viewer  # noqa: E402
from partyrummy.web.stream import Stream  # noqa: E402
from tests.play import random_command  # noqa: E402

Broadcast = list[tuple[str, dict]]  # (sid, view) for every connection of one broadcast


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def record_game(players: int, seed: int) -> tuple[list[Broadcast], int]:
    """Every broadcast of one game of random legal play, and how many cycles it had."""
    party = default_variants()["party"]
    variants = {"party": replace(party, beat_s=0, match_window_s=0, hurry_after_s=0)}
    sent: list[tuple[str, str, dict]] = []
    clock = Clock()
    room = Room("BNCH", variants, "party", lambda sid, event, data: sent.append((sid, event, data)), clock)
    room.attach("tv", Viewer("host", room.host_token))
    for i in range(players):
        room.join(f"phone-{i}", f"P{i}")
    room.start(seed=seed)
    rng = random.Random(seed)
    cycles = 0
    while not room.game.over:
        before = (room.game.hand.hand_no, room.game.hand.cycle)
        room.play(random_command(room.game, rng))
        cycles += (room.game.hand.hand_no, room.game.hand.cycle) != before
        for _ in range(2):  # the first flush of a player's move schedules the batch, the next sends it
            clock.now += 1.0
            room.flush()
    broadcasts: list[Broadcast] = []
    current: dict[str, dict] = {}
    for sid, event, data in sent:
        if event != "state":
            continue
        if sid in current:  # a connection's second view: the next broadcast has begun
            broadcasts.append(list(current.items()))
            current = {}
        current[sid] = data
    broadcasts.append(list(current.items()))
    return broadcasts, cycles


def measure(broadcasts: list[Broadcast]) -> dict[str, float]:
    """Send the broadcasts through the stream and as whole views; bytes to the phones, CPU per broadcast."""
    out: list[tuple[str, str, dict]] = []
    stream = Stream(lambda sid, event, payload: out.append((sid, event, payload)))
    diff_s, whole_s, lean_s = [], [], []
    whole_bytes = lean_bytes = phones_sent = 0
    held: dict[str, dict] = {}
    for broadcast in broadcasts:
        out.clear()
        t0 = time.perf_counter()
        for sid, view in broadcast:
            stream.send(sid, "state", view)
        t1 = time.perf_counter()
        lean = [json.dumps(payload, separators=(",", ":")) for _, _, payload in out]
        t2 = time.perf_counter()
        whole = [json.dumps(view, separators=(",", ":")) for _, view in broadcast]
        t3 = time.perf_counter()
        diff_s.append(t1 - t0)
        lean_s.append(t2 - t1)
        whole_s.append(t3 - t2)
        for (sid, event, payload), text in zip(out, lean, strict=True):
            # Check on the way: the client's copy made from the updates is the view itself.
            held[sid] = payload if event == "state" else apply_update(held[sid], json.loads(text))
            if sid.startswith("phone-"):
                lean_bytes += len(text)
                phones_sent += 1
        whole_bytes += sum(len(t) for (sid, _), t in zip(broadcast, whole, strict=True) if sid.startswith("phone-"))
        assert all(held[sid] == view for sid, view in broadcast), "a copy differs from its view"
    return {
        "broadcasts": len(broadcasts),
        "phone_messages": phones_sent,
        "whole_bytes": whole_bytes,
        "lean_bytes": lean_bytes,
        "diff_us": statistics.median(diff_s) * 1e6,
        "diff_us_p95": sorted(diff_s)[int(0.95 * len(diff_s))] * 1e6,
        "lean_dumps_us": statistics.median(lean_s) * 1e6,
        "whole_dumps_us": statistics.median(whole_s) * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    print(f"{args.players} phones and a TV, random legal play, each command sent on its own; {args.games} games")
    for seed in range(args.games):
        broadcasts, cycles = record_game(args.players, seed)
        m = measure(broadcasts)
        per = m["phone_messages"]
        print(
            f"game {seed}: {m['broadcasts']} broadcasts, {cycles} cycles; per phone per broadcast "
            f"{m['whole_bytes'] / per:,.0f} B whole, {m['lean_bytes'] / per:,.0f} B lean "
            f"({m['whole_bytes'] / max(1, m['lean_bytes']):.1f}x less); per phone per cycle "
            f"{m['whole_bytes'] / args.players / cycles / 1024:.1f} KB whole, "
            f"{m['lean_bytes'] / args.players / cycles / 1024:.1f} KB lean"
        )
        print(
            f"  CPU per broadcast (13 connections), median: working out the updates {m['diff_us']:.0f} us "
            f"(p95 {m['diff_us_p95']:.0f}), serialising them {m['lean_dumps_us']:.0f} us; "
            f"serialising whole views {m['whole_dumps_us']:.0f} us"
        )


if __name__ == "__main__":
    main()
