"""The whole game played with real cards: one hand after another, the scores, the host's corrections.

The scorebook is game.py's score table for this mode: the same variants,
the same hand sizes, totals that add up every hand, and the same winners
(lowest total; ties as the variant says). What it adds is how each score
came (solved from cards, or typed) and the host's corrections: each one
keeps the old value, and the last can be undone. A game is (variant,
players, seed, commands): `replay` rebuilds it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import AlreadyDone, BadCommand, GameOver, OutOfPhase, RummyError
from ..variants import Variant
from . import table as table_machine
from .commands import (
    AllowHelpers,
    Call,
    Command,
    Correct,
    SetPhoneless,
    UndoCorrection,
)
from .entry import Entry, most_points
from .events import (
    Corrected,
    CorrectionUndone,
    Event,
    GameEnded,
    HelpersAllowed,
    PhonelessSet,
)
from .table import Phase, TableHand

__all__ = ["Cell", "Correction", "Scorebook", "new_book", "apply", "replay", "winners"]


@dataclass(frozen=True)
class Correction:
    """The host changed one cell: hand `hand_no`, `seat`, from `old` to `new`."""

    hand_no: int
    seat: int
    old: int
    new: int


@dataclass(frozen=True)
class Cell:
    """One score as the TV and the CSV show it."""

    points: int
    how: str  # "cards" (solved) or "typed"
    corrected_from: int | None = None  # the score as entered, when the host has corrected it


@dataclass(frozen=True)
class Scorebook:
    variant: Variant
    seed: int | str  # real cards need no shuffle; kept so a journal names its game as the other mode does
    hand: TableHand
    history: tuple[tuple[Entry, ...], ...] = ()  # each scored hand's entries, by seat (hand_no = index + 1)
    corrections: tuple[Correction, ...] = ()  # in the order made; undo takes back the last
    over: bool = False

    @property
    def players(self) -> int:
        return self.hand.players

    def cell(self, hand_no: int, seat: int) -> Cell:
        """A scored hand's cell, with the latest correction of it applied."""
        entry = self.history[hand_no - 1][seat]
        latest = [c.new for c in self.corrections if (c.hand_no, c.seat) == (hand_no, seat)]
        return Cell(latest[-1], entry.how, entry.points) if latest else Cell(entry.points, entry.how)

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """Each scored hand's points by seat, corrections applied."""
        return tuple(
            tuple(self.cell(h, s).points for s in range(self.players)) for h in range(1, len(self.history) + 1)
        )

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(points[s] for points in self.scores) for s in range(self.players))

    @property
    def winners(self) -> tuple[int, ...] | None:
        """None until the game is over; () when a tie means nobody won."""
        return winners(self.variant, self.totals) if self.over else None


def winners(variant: Variant, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The lowest totals win; a tie is shared, or nobody's when the variant says "no-winner" (as game.py)."""
    best = min(totals)
    won = tuple(seat for seat, total in enumerate(totals) if total == best)
    return () if len(won) > 1 and variant.ties == "no-winner" else won


def new_book(
    variant: Variant, players: int, seed: int | str, phoneless: tuple[int, ...] = (), helpers: bool = False
) -> tuple[Scorebook, list[Event]]:
    """Hand 1 of a new game; `phoneless` lists the seats playing without a phone."""
    flags = tuple(seat in phoneless for seat in range(players))
    hand, events = table_machine.deal(variant, 1, flags, helpers)
    return Scorebook(variant, seed, hand), events


def apply(book: Scorebook, command: Command) -> tuple[Scorebook, list[Event]]:
    """The game after `command`, or a RummyError with the game untouched."""
    match command:
        case Correct(hand_no=hand_no, seat=seat, points=points):
            return _correct(book, hand_no, seat, points)
        case UndoCorrection():
            return _undo(book)
    if book.over:
        raise GameOver("error.game_over")
    match command:
        case SetPhoneless(seat=seat, phoneless=phoneless):
            if not isinstance(seat, int) or not 0 <= seat < book.players:
                raise BadCommand("error.no_seat")
            flags = book.hand.phoneless[:seat] + (bool(phoneless),) + book.hand.phoneless[seat + 1 :]
            return replace(book, hand=replace(book.hand, phoneless=flags)), [PhonelessSet(seat, bool(phoneless))]
        case AllowHelpers(allowed=allowed):
            return replace(book, hand=replace(book.hand, helpers=bool(allowed))), [HelpersAllowed(bool(allowed))]
        case Call() if book.hand.phase is Phase.SCORED:
            return _next_hand(book)
    hand, events = table_machine.apply(book.hand, command)
    if hand.phase is Phase.SCORED:  # a scored hand accepts nothing, so this one was scored just now
        book = replace(book, history=book.history + (tuple(hand.entries),))
    return replace(book, hand=hand), events


def _next_hand(book: Scorebook) -> tuple[Scorebook, list[Event]]:
    if book.hand.hand_no == book.variant.hands:
        book = replace(book, over=True)
        return book, [GameEnded(book.totals, book.winners)]
    hand, events = table_machine.deal(book.variant, book.hand.hand_no + 1, book.hand.phoneless, book.hand.helpers)
    return replace(book, hand=hand), events


def _correct(book: Scorebook, hand_no: int, seat: int, points: int) -> tuple[Scorebook, list[Event]]:
    if not isinstance(hand_no, int) or not 1 <= hand_no <= len(book.history):
        raise OutOfPhase("error.not_scored_yet")
    if not isinstance(seat, int) or not 0 <= seat < book.players:
        raise BadCommand("error.no_seat")
    if not isinstance(points, int) or isinstance(points, bool):
        raise BadCommand("error.not_int", field="points")
    top = most_points(book.variant, hand_no)
    if not 0 <= points <= top:
        raise BadCommand("error.points_range", n=top)
    old = book.cell(hand_no, seat).points
    if points == old:
        raise AlreadyDone("error.same_score", n=points)
    book = replace(book, corrections=book.corrections + (Correction(hand_no, seat, old, points),))
    return book, [Corrected(hand_no, seat, old, points), *_ended_again(book)]


def _undo(book: Scorebook) -> tuple[Scorebook, list[Event]]:
    if not book.corrections:
        raise AlreadyDone("error.nothing_to_undo")
    last = book.corrections[-1]
    book = replace(book, corrections=book.corrections[:-1])
    return book, [CorrectionUndone(last.hand_no, last.seat, last.old), *_ended_again(book)]


def _ended_again(book: Scorebook) -> list[Event]:
    """A correction after the last hand may change who won: the ending is told again."""
    return [GameEnded(book.totals, book.winners)] if book.over else []


def replay(
    variant: Variant, players: int, seed: int | str, commands: list[Command], phoneless: tuple[int, ...] = ()
) -> Scorebook:
    """The game that `commands` make (refused commands are skipped, as they changed nothing)."""
    book, _ = new_book(variant, players, seed, phoneless)
    for command in commands:
        try:
            book, _ = apply(book, command)
        except RummyError:
            pass
    return book
