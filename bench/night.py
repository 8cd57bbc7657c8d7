"""How long a night of 12 takes at a human pace, with the Match! window sat out to its clock ("before") and with
every seat saying Match! or Play on / Ready as it would ("after").

python bench/night.py [--nights 3] [--players 12] [--variant party] [--seed 1]

The server's own caller decides every call: each way to play's game part (server/room/phones_play.py,
real_play.py) with its pace (pace.py), on a virtual clock, so a night of an hour takes a second. People act after
the delays bench/load.py's human pace uses (a draw 1-4 s after "Draw!", a pick 2-8 s after the draw, Match! 0.5-2 s
into its window; with real cards, Ready 3-10 s after "Draw!", a hand entered 10-40 s after the hand ends), and the
host moves on from a scored hand after 2-5 s. With cards on the phones the bots decide what to draw, discard and
when to call Match!; with real cards a seat calls Match! when the same night on the phones had it do so.
Everything is seeded: "before" and "after" play the very same hands.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyrummy.phones.bots import Bot, bot_move  # noqa: E402
from partyrummy.phones.commands import Ready  # noqa: E402
from partyrummy.phones.hand import MATCH_WINDOWS, Phase  # noqa: E402
from partyrummy.realcards.phases import Phase as TablePhase  # noqa: E402
from partyrummy.rules.variants import default_variants  # noqa: E402
from partyrummy.server.room.game_part import Table  # noqa: E402
from partyrummy.server.room.phones_play import PhonesPlay  # noqa: E402
from partyrummy.server.room.real_play import RealPlay  # noqa: E402
from partyrummy.server.room.seats import Links  # noqa: E402
from partyrummy.server.room.state import RoomState, Seat  # noqa: E402

HUMAN = {"draw": (1, 4), "choose": (2, 8), "match": (0.5, 2), "next": (2, 5), "ready": (3, 10), "enter": (10, 40)}


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


def _room(variant: str, players: int, mode: str, seed: int) -> tuple[Clock, RoomState, object]:
    """A room of `players` connected phones on a virtual clock, its game begun and its caller started."""
    clock = Clock()
    state = RoomState(variant, seats=[Seat(f"P{i}", f"t{i}", "#000", i + 1) for i in range(players)], mode=mode)
    links = Links()
    for seat in state.seats:
        links[seat].sids = {f"sid{seat.joined}"}  # every phone connected
    parts: dict[str, object] = {}

    def changed(batch: bool) -> None:
        parts["part"].track()

    table = Table(state, clock, lambda event: None, changed, lambda *told: None, lambda: 0, links)
    part = (PhonesPlay if mode == "phones" else RealPlay)(table)
    parts["part"] = part
    part.begin(state, default_variants()[variant], seed)
    part.track()
    return clock, state, part


def _phases(state: RoomState) -> Iterator[tuple[Any, tuple, bool]]:
    """The night, moment by moment until its game is over: the hand, the key of its phase, and whether that phase
    is new since the last moment."""
    seen = None
    while not state.game.over:
        hand = state.game.hand
        key = (hand.hand_no, hand.cycle, hand.phase)
        yield hand, key, key != seen
        seen = key


def _caller(clock: Clock, state: RoomState, part, key: tuple, due: dict[int, float]) -> bool:
    """The caller's turn, then the clock on to the next thing due; False when the caller called (everyone sees
    the new phase first)."""
    later = part.tick()
    hand = state.game.hand
    if state.game.over or (hand.hand_no, hand.cycle, hand.phase) != key:
        return False
    times = [t for t in (later, *due.values()) if t is not None]
    clock.now = max(clock.now, min(times))
    return True


def phones_night(variant: str, players: int, seed: int, sit_out: bool) -> tuple[float, list[tuple[int, int, int]]]:
    """A night with cards on the phones: its length in seconds, and (hand, cycle, seat) of each Match!."""
    rng = random.Random(seed)
    clock, state, part = _room(variant, players, "phones", seed)
    bots = [Bot("sharp") for _ in range(players)]
    due: dict[int, float] = {}  # seat -> when it acts next (drawn anew at each change of phase)
    next_at: float | None = None
    matches = []
    for hand, key, new in _phases(state):
        if new:
            due.clear()
            if hand.phase is Phase.SCORED:
                next_at = clock.now + rng.uniform(*HUMAN["next"])
            for seat in range(hand.players):
                kind = "match" if hand.phase in MATCH_WINDOWS else "draw" if hand.drawn[seat] is None else "choose"
                due[seat] = clock.now + rng.uniform(*HUMAN[kind])
        if hand.phase is Phase.SCORED:
            clock.now = next_at
            part.call_now()
            continue
        if not _caller(clock, state, part, key, due):
            continue
        for seat, at in sorted(due.items(), key=lambda item: item[1]):
            if at > clock.now or state.game.over:
                continue
            hand = state.game.hand
            move = bot_move(hand, seat, bots[seat])
            if move is None or (sit_out and isinstance(move, Ready)):
                del due[seat]
                continue
            part.play(move)
            if type(move).__name__ == "CallMatch":
                matches.append((hand.hand_no, hand.cycle, seat))
            if hand.phase not in MATCH_WINDOWS and state.game.hand.drawn[seat] is not None:
                due[seat] = clock.now + rng.uniform(*HUMAN["choose"])  # drawn: the pick comes next
            else:
                del due[seat]
    return clock.now, matches


def real_night(variant: str, players: int, seed: int, sit_out: bool, matches: list) -> float:
    """A night with real cards: its length in seconds (the Match! calls where the phones' night had them)."""
    from partyrummy.realcards.commands import CallMatch, TypePoints
    from partyrummy.realcards.commands import Ready as TableReady
    from partyrummy.realcards.entry import most_points

    rng = random.Random(seed)
    clock, state, part = _room(variant, players, "real", seed)
    calls = {(h, c): s for h, c, s in matches}
    due: dict[int, float] = {}
    for hand, key, new in _phases(state):
        if new:
            due.clear()
            for seat in range(hand.players):
                kind = {TablePhase.READY: "ready", TablePhase.LAST_READY: "ready", TablePhase.REVEAL: "match",
                        TablePhase.ENTRY: "enter", TablePhase.SETUP: "next", TablePhase.SCORED: "next"}.get(hand.phase)
                if kind:
                    due[seat] = clock.now + rng.uniform(*HUMAN[kind])
        if not _caller(clock, state, part, key, due):
            continue
        for seat, at in sorted(due.items(), key=lambda item: item[1]):
            hand = state.game.hand
            if at > clock.now or state.game.over or (hand.hand_no, hand.cycle, hand.phase) != key:
                continue
            del due[seat]
            if hand.phase in (TablePhase.SETUP, TablePhase.SCORED):
                if seat == 0:
                    part.call_now()  # the host: cards are dealt, or the next hand
                continue
            if seat in hand.matched:
                if hand.phase is TablePhase.ENTRY or hand.phase is TablePhase.LAST_READY:
                    part.play(TypePoints(seat, 0))
                continue
            if hand.phase is TablePhase.ENTRY:
                part.play(TypePoints(seat, rng.randint(1, most_points(hand.variant, hand.hand_no))))
            elif hand.phase is TablePhase.REVEAL:
                caller = calls.get((hand.hand_no, hand.cycle))
                late = caller is None and hand.cycle >= hand.size + 2 and seat == hand.hand_no % players
                if caller == seat or late:
                    part.play(CallMatch(seat))  # as on the phones' night (or, if it went on longer, someone does)
                elif not sit_out:
                    part.play(TableReady(seat, True, None, hand.cycle))
            elif not hand.ready[seat]:
                part.play(TableReady(seat, True, None, hand.cycle))
    return clock.now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=3)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--variant", default="party")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = f"{args.seed}..{args.seed + args.nights - 1}"
    print(f"nights of {args.players} at a human pace, variant {args.variant}, seeds {seeds}")
    for name in ("phones", "real"):
        before, after = [], []
        for seed in range(args.seed, args.seed + args.nights):
            length, matches = phones_night(args.variant, args.players, seed, sit_out=True)
            if name == "phones":
                before.append(length)
                after.append(phones_night(args.variant, args.players, seed, sit_out=False)[0])
            else:
                before.append(real_night(args.variant, args.players, seed, True, matches))
                after.append(real_night(args.variant, args.players, seed, False, matches))
        b, a = statistics.median(before) / 60, statistics.median(after) / 60
        label = "cards on the phones" if name == "phones" else "real cards on the table"
        print(f"  {label}: window sat out {b:.1f} min, every seat saying {a:.1f} min (median), "
              f"{(1 - a / b) * 100:.0f}% shorter; each night: {[round(x / 60, 1) for x in before]} -> "
              f"{[round(x / 60, 1) for x in after]}")


if __name__ == "__main__":
    main()
