"""The night's score sheet as the CSV writes it: each hand's points, how they were entered, what a correction replaced.

Both ways of playing give rows of the same cells (each game part makes its own, game_part.GamePart.sheet):
with cards on the phones every score was "played" (the engine dealt and scored the hand); with real cards it
was solved from the "cards" tapped in, or "typed", and the host may have corrected it (the score as entered
is kept beside it).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Score", "PLAYED"]

PLAYED = "played"  # cards on the phones: the engine dealt and scored the hand


@dataclass(frozen=True)
class Score:
    """One cell of the sheet: the points, how they came, and the points as entered before a correction."""

    points: int
    how: str  # "played", "cards" or "typed"
    corrected_from: int | None = None
