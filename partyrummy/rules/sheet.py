"""A game's score sheet as seats come and go, kept alike by both ways to play (phones/game.py's GameState and
realcards/scorebook.py's Scorebook): a newcomer's column added at the end, a leaver's taken out, and the
newcomers' starting scores given at the next deal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol, TypeVar

from .errors import BadCommand, OutOfPhase
from .variants import Variant

__all__ = ["Sheet", "add_newcomer", "start_newcomers", "without_seat"]


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
