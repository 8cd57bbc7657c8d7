"""The whole game played with real cards: one hand after another, the scores, the host's corrections.

The scorebook is game.py's score table for this mode: the same variants,
the same hand sizes, totals that add up every hand, the same winners
(lowest total; ties as the variant says) and the same seats coming and
going (a leaver's column goes; a newcomer waits at the end of the ring for
the next deal, which gives them game.py's starting score, and their cells
of the hands they missed stay blank). What it adds is how each score came
(solved from cards, or typed) and the host's corrections: each one keeps
the old value, and the last can be undone. A game is (variant, players,
seed, commands): `replay` rebuilds it exactly.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, replace

from ..rules import sheet
from ..rules.errors import AlreadyDone, BadCommand, GameOver, OutOfPhase
from ..rules.scoring import running_totals, winners
from ..rules.seating import first_dealer
from ..rules.sheet import add_newcomer, next_deal, with_row, without_seat
from ..rules.variants import Variant
from . import table as table_machine
from .commands import Arrive, Call, Command, Correct, Leave, UndoCorrection
from .entry import Entry, most_points
from .events import Arrived, Corrected, CorrectionUndone, Event, GameEnded, SeatLeft
from .table import Phase, TableHand

__all__ = ["Cell", "Correction", "Scorebook", "new_book", "apply", "replay"]


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
    start_scores: tuple[int | None, ...]  # by seat: 0, or a newcomer's starting score (None until dealt in)
    history: tuple[tuple[Entry | None, ...], ...] = ()  # each scored hand's entries by seat (None: not dealt in)
    corrections: tuple[Correction, ...] = ()  # in the order made; undo takes back the last
    over: bool = False

    @property
    def players(self) -> int:
        """Every seat, including newcomers waiting for the next deal."""
        return len(self.start_scores)

    def cell(self, hand_no: int, seat: int) -> Cell | None:
        """A scored hand's cell, with the latest correction of it applied (None: the seat was not dealt in)."""
        entry = self.history[hand_no - 1][seat]
        if entry is None:
            return None
        latest = [c.new for c in self.corrections if (c.hand_no, c.seat) == (hand_no, seat)]
        return Cell(latest[-1], entry.how, entry.points) if latest else Cell(entry.points, entry.how)

    @property
    def scores(self) -> tuple[tuple[int | None, ...], ...]:
        """Each scored hand's points by seat, corrections applied."""
        cells = ((self.cell(h, s) for s in range(self.players)) for h in range(1, len(self.history) + 1))
        return tuple(tuple(None if c is None else c.points for c in row) for row in cells)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total; a waiting newcomer shows the score they would start with now (as game.py)."""
        return running_totals(self.variant, self.start_scores[: self.hand.players], self.scores, self.players)

    @property
    def winners(self) -> tuple[int, ...] | None:
        """None until the game is over; () when a tie means nobody won."""
        return winners(self.variant, self.totals) if self.over else None


def new_book(variant: Variant, players: int, seed: int | str) -> tuple[Scorebook, list[Event]]:
    """Hand 1 of a new game."""
    hand, events = table_machine.deal(variant, 1, players, dealer=first_dealer(seed, players))
    return Scorebook(variant, seed, hand, start_scores=(0,) * players), events


def apply(book: Scorebook, command: Command, helped: Set[int] = frozenset()) -> tuple[Scorebook, list[Event]]:
    """The game after `command`, or a RummyError with the game untouched.

    `helped`: the seats a seated phone may answer for (the room's: its seats without a phone, when the host
    allows helpers); the host may always answer for any seat."""
    match command:
        case Correct(hand_no=hand_no, seat=seat, points=points):
            return _correct(book, hand_no, seat, points)
        case UndoCorrection():
            return _undo(book)
    if book.over:
        raise GameOver("error.game_over")
    match command:
        case Leave(seat=seat):
            return _leave(book, seat)
        case Arrive():
            return _arrive(book)
        case Call() if book.hand.phase is Phase.SCORED:
            return _next_hand(book)
    hand, events = table_machine.apply(book.hand, command, helped)
    return _with_hand(book, hand, events)


def _with_hand(book: Scorebook, hand: TableHand, events: list[Event]) -> tuple[Scorebook, list[Event]]:
    """The book with its hand moved on; a hand scored just now goes into the history."""
    if hand.phase is Phase.SCORED and book.hand.phase is not Phase.SCORED:
        book = with_row(book, tuple(hand.entries))
        if hand.hand_no == book.variant.hands:  # the last hand scored: the game is over at once
            book = replace(book, hand=hand, over=True)
            return book, events + [GameEnded(book.totals, book.winners)]
    return replace(book, hand=hand), events


def _next_hand(book: Scorebook) -> tuple[Scorebook, list[Event]]:
    book, dealer, hand_no = next_deal(book)
    hand, events = table_machine.deal(book.variant, hand_no, book.players, dealer)
    return replace(book, hand=hand), events


def _arrive(book: Scorebook) -> tuple[Scorebook, list[Event]]:
    """A newcomer (as game.py lets them in): a new seat at the end, dealt in at the next hand."""
    book = add_newcomer(book)
    return book, [Arrived(book.players - 1)]


def _leave(book: Scorebook, seat: int) -> tuple[Scorebook, list[Event]]:
    """The host takes a seat off: its column goes, its corrections too, and the seats after it move up one."""
    left = without_seat(book, seat)  # refuses a seat that is none, before the hand hears of it
    if seat < book.hand.players:
        hand, events = table_machine.leave(book.hand, seat)
    else:
        hand, events = book.hand, [SeatLeft(seat)]
    corrections = tuple(replace(c, seat=c.seat - (c.seat > seat)) for c in book.corrections if c.seat != seat)
    return _with_hand(replace(left, corrections=corrections), hand, events)


def _correct(book: Scorebook, hand_no: int, seat: int, points: int) -> tuple[Scorebook, list[Event]]:
    if not isinstance(hand_no, int) or isinstance(hand_no, bool) or not 1 <= hand_no <= len(book.history):
        raise OutOfPhase("error.not_scored_yet")
    if not isinstance(seat, int) or not 0 <= seat < book.players:
        raise BadCommand("error.no_seat")
    if not isinstance(points, int) or isinstance(points, bool):
        raise BadCommand("error.not_int", field="points")
    top = most_points(book.variant, hand_no)
    if not 0 <= points <= top:
        raise BadCommand("error.points_range", n=top)
    cell = book.cell(hand_no, seat)
    if cell is None:
        raise OutOfPhase("error.not_scored_yet")
    old = cell.points
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
    variant: Variant, players: int, seed: int | str, commands: list[Command], helped: Set[int] = frozenset()
) -> Scorebook:
    """The game that `commands` make (refused commands are skipped, as they changed nothing)."""
    return sheet.replay(new_book(variant, players, seed)[0], lambda b, c: apply(b, c, helped), commands)
