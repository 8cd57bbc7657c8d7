"""A game of hands as both ways to play keep it alike (phones/game.py's GameState and realcards/scorebook.py's
Scorebook): its score sheet as seats come and go (a newcomer's column added at the end, a leaver's taken out, the
newcomers' starting scores given at the next deal), a scored hand's row, the next deal, and a replay."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from .errors import BadCommand, OutOfPhase, RummyError
from .seating import left_of
from .variants import Variant

__all__ = ["Sheet", "add_newcomer", "start_newcomers", "without_seat", "next_deal", "with_row", "replay"]


class Sheet(Protocol):
    """A game record (a frozen dataclass) with a score sheet: by seat its start, and each scored hand's row."""

    variant: Variant
    hand: Any  # the hand being played: its `players` are the seats dealt in
    start_scores: tuple[int | None, ...]  # by seat: 0, or a newcomer's starting score (None until dealt in)
    history: tuple[tuple[Any, ...], ...]  # each scored hand's row, by seat (None: not dealt in)

    @property
    def players(self) -> int: ...

    @property
    def totals(self) -> tuple[int, ...]: ...


S = TypeVar("S", bound=Sheet)
G = TypeVar("G")  # a game, of either way to play
C = TypeVar("C")  # one of its commands


def add_newcomer(game: S) -> S:
    """A newcomer's seat at the end, blank for the hands already played; refused, changing nothing, when the
    variant lets no newcomer in or the table is full."""
    if game.variant.newcomers != "next-hand":
        raise OutOfPhase("error.started_watch")
    if game.players >= game.variant.max_players:
        raise BadCommand("error.table_full", n=game.variant.max_players)
    history = tuple(row + (None,) for row in game.history)
    return replace(game, start_scores=game.start_scores + (None,), history=history)


def start_newcomers(game: S) -> S:
    """Before the next deal: the newcomers get their starting score now (their cells of the hands they missed
    stay blank)."""
    dealt = game.hand.players
    return replace(game, start_scores=game.start_scores[:dealt] + game.totals[dealt:])


def without_seat(game: S, seat: int) -> S:
    """The sheet with a seat's column taken out, the seats after it moving up one; refused when it is no seat."""
    if not isinstance(seat, int) or not 0 <= seat < game.players:
        raise BadCommand("error.no_seat")

    def without(values: tuple) -> tuple:
        return values[:seat] + values[seat + 1 :]

    return replace(game, start_scores=without(game.start_scores), history=tuple(without(row) for row in game.history))


def next_deal(game: S) -> tuple[S, int, int]:
    """What the next deal starts from, in either way to play: the game with its newcomers' starting scores given,
    the next dealer (the deal moves one seat left each hand) and the next hand's number."""
    return start_newcomers(game), left_of(game.hand.dealer, game.players), game.hand.hand_no + 1


def with_row(game: S, row: tuple[Any, ...]) -> S:
    """A scored hand's row written into the sheet (the seats it dealt in), blank for the newcomers waiting."""
    return replace(game, history=game.history + (row + (None,) * (game.players - len(row)),))


def replay(start: G, apply: Callable[[G, C], tuple[G, Any]], commands: Iterable[C]) -> G:
    """The game that `commands` make from `start` (those refused are skipped: they changed nothing), for either way
    to play: its `apply` is the one step."""
    game = start
    for command in commands:
        try:
            game, _ = apply(game, command)
        except RummyError:
            pass
    return game
