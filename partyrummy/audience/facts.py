"""What the audience may know of a room: the facts its predictions need, read off the public table alone.

The public table is what every viewer of the room sees alike (docs/protocol.md, `table`): the seats' names, the
phase, the cycle, who called Match! and in what order, and once a hand is scored every seat's points. Both ways to
play say these in the same words (`scored`, `game_over`, `matched`, `cycle`, `totals`), except a scored hand's
points: `history` with cards on the phones, `sheet` with real cards. Nothing here ever reads a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Facts", "facts_of"]


@dataclass(frozen=True)
class Facts:
    """The room as the audience may know it, at one moment."""

    game: int  # games dealt in this room so far (0: none yet); the game on the table is the last of them
    hand: int  # the hand on the table (0: no game on the table)
    seats: tuple[str, ...]  # every seat's name, in seat order: those the next hand deals in
    dealt: tuple[str, ...] = ()  # the names of the seats the hand on the table dealt in
    playing: bool = False  # a hand is in play: dealt, not yet scored
    begun: bool = False  # … and its first "Draw!" was called, or someone called Match!
    scored: bool = False  # the hand on the table is scored
    over: bool = False  # the game on the table is over
    totals: tuple[int, ...] = ()  # each seat's running total, by seat
    first: str | None = None  # who called Match! first this hand
    points: tuple[int | None, ...] | None = None  # once scored: each dealt seat's points this hand (None: not in it)

    @property
    def target(self) -> tuple[int, int] | None:
        """The hand the audience may predict now, as (game, hand): the next one to be dealt, or the one just dealt
        while nothing of it is known yet; None while a hand is being played."""
        if self.hand == 0 or self.over:
            return (self.game + 1, 1)
        if self.scored:
            return (self.game, self.hand + 1)
        return None if self.begun else (self.game, self.hand)

    @property
    def players(self) -> tuple[str, ...]:
        """Who the predicted hand deals in: the seats dealt in already, or, before the deal, every seat."""
        return self.dealt if self.playing else self.seats

    def leader(self) -> str | None:
        """The player with the lowest total among those the predicted hand deals in (ties: the first seated);
        before the first game, the first seated."""
        names = self.players
        if not names:
            return None
        totals = [self.totals[i] if i < len(self.totals) else 0 for i in range(len(names))]
        return names[min(range(len(names)), key=lambda i: (totals[i], i))]


def _hand_points(game: dict[str, Any]) -> tuple[int | None, ...] | None:
    """A scored hand's points by seat, in either way to play's words (`history` or `sheet`, one row a hand)."""
    if not game.get("scored"):
        return None
    rows = game.get("history")
    if rows is None:
        rows = [[None if cell is None else cell["points"] for cell in row] for row in game.get("sheet") or []]
    if len(rows) < game["hand_no"]:
        return None
    return tuple(rows[game["hand_no"] - 1])


def facts_of(table: dict[str, Any], games: int) -> Facts:
    """The facts of a room's public table (`{"room": …, "game": …}`); `games`: how many games it has dealt."""
    seats = tuple(s["name"] for s in table["room"]["seats"])
    game = table.get("game")
    if not game:
        return Facts(game=games, hand=0, seats=seats)
    dealt = seats[: len(game["seats"])]
    matched = game.get("matched") or []
    over = bool(game.get("game_over"))
    scored = bool(game.get("scored")) or over
    return Facts(
        game=games,
        hand=game["hand_no"],
        seats=seats,
        dealt=dealt,
        playing=not scored,
        begun=game.get("cycle", 0) >= 1 or bool(matched),
        scored=scored,
        over=over,
        totals=tuple(game.get("totals") or ()),
        first=dealt[matched[0]["seat"]] if matched and matched[0]["seat"] < len(dealt) else None,
        points=_hand_points(game),
    )
