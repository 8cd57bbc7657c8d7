"""Real cards on the table: the server's cost of one update to a room of 12 (8 phones, 4 without), in score entry.

In-process, no sockets: a room in real mode with helpers allowed, the four phone-less seats' pickers holding
13 cards each (the TV and every helper phone see them laid out). Prints the solver runs and the CPU one
broadcast (every connection's view) costs.

python bench/real_view.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyrummy.realcards import views  # noqa: E402
from partyrummy.rules.variants import default_variants  # noqa: E402
from partyrummy.server.room.room import Room, Viewer  # noqa: E402

HAND = ("AS", "2S", "3S", "5H", "6H", "7H", "9C", "9D", "9S", "JD", "QC", "KH", "4D")


def entry_room() -> Room:
    """Twelve seats in score entry of a 13-card hand, the phone-less pickers full, helpers allowed."""
    variant = replace(default_variants()["party"], hand_sizes=(13,), setup_match=True)
    room = Room("BNCH", {"party": variant}, "party", lambda sid, event, data: None)
    tv = Viewer("host", room.host_token)
    room.attach("tv", tv)
    room.set_mode("real")
    for i in range(8):
        room.join(f"p{i}", f"P{i}")
    for i in range(4):
        room.add_person(f"N{i}")
    room.set_helpers(True)
    room.start(seed=1)
    room.call_now()  # the cards are dealt: Draw!

    def all_ready(seats: range) -> None:  # the phones' seats: those without one are Ready at each "Draw!"
        for i in seats:
            room.answer(room.viewers[f"p{i}"], "ready", {})

    all_ready(range(8))
    room.call_now()  # Discard!: the match window
    room.answer(room.viewers["p0"], "match", {})
    room.call_now()  # the last cycle for everyone else
    all_ready(range(1, 8))
    room.call_now()  # its Discard! ends the hand: score entry
    assert room.state.game.hand.phase.value == "entry", room.state.game.hand.phase
    for i in range(8, 12):
        room.answer(tv, "draft", {"seat": i, "cards": list(HAND)})
    return room


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    room = entry_room()
    solves = 0
    real_draft_view = views.draft_view

    def counted(*a, **k):
        nonlocal solves
        solves += 1
        return real_draft_view(*a, **k)

    times = []
    with mock.patch("partyrummy.server.room.real_play.draft_view", counted):
        for _ in range(args.repeat):
            room.version += 1  # a new version: nothing cached from the last broadcast
            start = time.perf_counter()
            room.broadcast()
            times.append(time.perf_counter() - start)
    print(f"one broadcast to {len(room.viewers)} connections (12 seats, 4 without a phone, helpers on, entry):")
    print(f"  phone-less pickers laid out: {solves / args.repeat:.1f} per broadcast")
    print(
        f"  CPU per broadcast: median {statistics.median(times) * 1e3:.2f} ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e3:.2f} ms ({args.repeat} broadcasts)"
    )


if __name__ == "__main__":
    main()
