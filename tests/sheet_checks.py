"""What both engines' property tests check of a game's score sheet (partyrummy/rules/sheet.py), as seats come
and go."""

from __future__ import annotations

from partyrummy.rules.sheet import Sheet


def check_one_column_a_seat(game: Sheet) -> None:
    """Every seat has one total and one cell a scored hand; a newcomer not yet dealt in has no start yet."""
    assert len(game.totals) == game.players >= game.hand.players
    assert all(len(row) == game.players for row in game.history)
    assert all(start is None for start in game.start_scores[game.hand.players :])
