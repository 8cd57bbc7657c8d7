"""The real-cards hand's phases, the one table of what each phase accepts, and the hand's state.

`table.py` moves a `TableHand` from phase to phase; this module says which commands each phase takes and
who may answer for a seat. The hand keeps no clock and no pause: when the caller calls is the room's pace
(server/room/pace.py), which says so with `Call(force=True)` when the hurry has run out.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from enum import StrEnum

from ..rules.cards import Card
from ..rules.hands import NumberedHand
from ..rules.variants import Variant
from .commands import Call, CallMatch, Confirm, Done, Draft, Out, Ready, TypePoints, Withdraw
from .entry import Entry

__all__ = ["Phase", "ACCEPTS", "WINDOWS", "TableHand", "may_answer", "a_seat"]


class Phase(StrEnum):
    SETUP = "setup"  # people deal; a complete hand may call Match! before the first Draw! (when the variant says so)
    READY = "ready"  # "Draw!": everyone draws and holds a discard face down, then taps Ready
    REVEAL = "reveal"  # "Discard!": the match window, until the next "Draw!"
    LAST_READY = "last_ready"  # someone matched: the last cycle for everyone else
    TURN = "turn"  # turns: one seat plays, then taps Done or Out!
    LAST_TURN = "last_turn"  # someone went out: everyone else has one more turn
    ENTRY = "entry"  # the hand is over: every seat enters its cards or points
    SCORED = "scored"


_ENTRY = (Draft, Confirm, TypePoints)
# The one table of what each phase accepts; anything else is OutOfPhase.
ACCEPTS: dict[Phase, tuple[type, ...]] = {
    Phase.SETUP: (CallMatch, Withdraw, Call),
    Phase.READY: (Ready, Call),
    Phase.REVEAL: (CallMatch, Withdraw, Ready, Call),
    Phase.LAST_READY: (Ready, Call, *_ENTRY),
    Phase.TURN: (Done, Out, Call),
    Phase.LAST_TURN: (Done, Call, *_ENTRY),
    Phase.ENTRY: _ENTRY,
    Phase.SCORED: (),
}
WINDOWS = frozenset({Phase.SETUP, Phase.REVEAL})


@dataclass(frozen=True)
class TableHand(NumberedHand):
    """One hand at a table of real cards: the pace, the Match! calls and the entries; never a card it was not told."""

    variant: Variant
    hand_no: int
    phase: Phase
    players: int  # the seats dealt in
    cycle: int = 0  # "Draw!" calls so far (turns: turns begun), for stale taps
    ready: tuple[bool, ...] = ()
    matched: tuple[int, ...] = ()  # seats in the order they called Match! (turns: who went out)
    on_deal: tuple[int, ...] = ()  # of those, the seats that called it on the deal (before the first "Draw!")
    dealer: int = 0  # the seat that deals (hand 1's drawn from the seed, as hand.py does); it moves left each hand
    turn: int | None = None  # turns: the seat whose turn it is
    to_play: tuple[int, ...] = ()  # turns: the seats still to have their one more turn
    drafts: tuple[tuple[Card, ...], ...] = ()  # the picker of each seat, as tapped so far
    entries: tuple[Entry | None, ...] = ()  # each seat's confirmed score for the hand

    def window_done(self) -> bool:
        """In the match window: whether every seat has called Match! or gone on (its Ready)."""
        return not self.waiting_for()

    def waiting_for(self) -> list[int]:
        """The seats the table waits for: not ready (caller), whose turn it is (turns), not entered (entry); in
        the match window, those that have neither called Match! nor gone on (the window ends once there are none)."""
        if self.phase in (Phase.READY, Phase.LAST_READY, Phase.REVEAL):
            return [s for s in range(self.players) if s not in self.matched and not self.ready[s]]
        if self.phase in (Phase.TURN, Phase.LAST_TURN):
            return [self.turn]
        if self.phase is Phase.ENTRY:
            return [s for s in range(self.players) if self.entries[s] is None]
        return []


def may_answer(hand: TableHand, seat: int, by: int | None, helped: Set[int] = frozenset()) -> bool:
    """Whether `by` (None: the host) may act for `seat`: its own phone, the host, or a seated phone for a seat
    of `helped` (the room's: the seats without a phone, when the host lets phones answer for them)."""
    return by is None or by == seat or (seat in helped and a_seat(hand, by))


def a_seat(hand: TableHand, seat: object) -> bool:
    """Whether `seat` names a seat of this hand (a bool is no seat, though Python counts it as an int)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < hand.players
