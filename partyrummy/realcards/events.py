"""Events out of the real-cards engine, as frozen records: what the shell turns into each viewer's update.

The hand's score, the end of the game, Match! and phase changes are the
same events as with cards on the phones (`partyrummy.rules.events`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.events import Arrived, GameEnded, HandScored, Matched, PhaseChanged

__all__ = [
    "TableSet",
    "Called",
    "ReadyChanged",
    "MatchWithdrawn",
    "TurnBegan",
    "WentOut",
    "Drafted",
    "Entered",
    "Corrected",
    "CorrectionUndone",
    "SeatLeft",
    "Arrived",
    "PhaseChanged",
    "Matched",
    "HandScored",
    "GameEnded",
    "Event",
]


@dataclass(frozen=True)
class TableSet:
    """What the TV announces at each deal: deal `size` cards each, then one face up on each of `piles`."""

    hand_no: int
    size: int
    wild_rank: int | None
    piles: int  # one per seat (caller pacing) or one shared pile (turns)
    dealer: int | None  # turns only: who deals, and who starts (on the dealer's left)
    starter: int | None


@dataclass(frozen=True)
class Called:
    """The caller called "draw" or "discard"; `late`: seats not ready when a hurried "Discard!" came."""

    word: str
    late: tuple[int, ...] = ()


@dataclass(frozen=True)
class ReadyChanged:
    seat: int
    ready: bool


@dataclass(frozen=True)
class MatchWithdrawn:
    seat: int


@dataclass(frozen=True)
class TurnBegan:
    seat: int
    last: bool  # this seat's one more turn after someone went out


@dataclass(frozen=True)
class WentOut:
    seat: int


@dataclass(frozen=True)
class Drafted:
    """A seat's picker changed; the cards are the seat's own business until it confirms. `reopened`: the seat had
    entered its hand and takes it back to change it (until the hand is scored)."""

    seat: int
    count: int
    reopened: bool = False


@dataclass(frozen=True)
class Entered:
    """A seat's score for the hand: `how` is "cards" (solved) or "typed"; `claim` judges a Match! (None: none)."""

    seat: int
    points: int
    how: str
    claim: bool | None


@dataclass(frozen=True)
class Corrected:
    hand_no: int
    seat: int
    old: int
    new: int


@dataclass(frozen=True)
class CorrectionUndone:
    hand_no: int
    seat: int
    points: int  # the score the cell has again


@dataclass(frozen=True)
class SeatLeft:
    """A seat left the table; the seats after it move up one."""

    seat: int


Event = (
    TableSet
    | PhaseChanged
    | Called
    | ReadyChanged
    | Matched
    | MatchWithdrawn
    | TurnBegan
    | WentOut
    | Drafted
    | Entered
    | HandScored
    | Corrected
    | CorrectionUndone
    | SeatLeft
    | Arrived
    | GameEnded
)
