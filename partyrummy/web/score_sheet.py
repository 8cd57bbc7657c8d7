"""The night's score sheet as the CSV writes it: each hand's points, how they were entered, what a correction replaced.

Both ways of playing give the same rows: with cards on the phones every score was "played" (the engine
dealt and scored the hand); with real cards it was solved from the "cards" tapped in, or "typed", and the
host may have corrected it (the score as entered is kept beside it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import GameState
from ..realcards.scorebook import Scorebook

__all__ = ["Score", "PLAYED", "scores_by_seat"]

PLAYED = "played"  # cards on the phones: the engine dealt and scored the hand


@dataclass(frozen=True)
class Score:
    """One cell of the sheet: the points, how they came, and the points as entered before a correction."""

    points: int
    how: str  # "played", "cards" or "typed"
    corrected_from: int | None = None


def scores_by_seat(game: GameState | Scorebook) -> list[list[Score | None]]:
    """Each seat's cells, hand by hand (None: that seat was not dealt in that hand)."""
    if isinstance(game, Scorebook):
        hands = range(1, len(game.history) + 1)
        return [[_cell(game, h, seat) for h in hands] for seat in range(game.players)]
    return [
        [None if points[seat] is None else Score(points[seat], PLAYED) for points in game.history]
        for seat in range(game.players)
    ]


def _cell(book: Scorebook, hand_no: int, seat: int) -> Score | None:
    cell = book.cell(hand_no, seat)
    return None if cell is None else Score(cell.points, cell.how, cell.corrected_from)
