"""The night's standings: every game of every table, the raw totals, and the duplicate score.

Tables of the same size that were dealt the same cards (a duplicate round) compare each player with the players
who held the same seat at the other tables: for each hand, the player's penalty minus the average penalty of
those players; a player's duplicate score is the sum over the night (lower is better, 0 is par). Tables of
another size, or played with real cards, are compared with nobody: they count in the totals only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .state import Table

__all__ = ["Played", "Standing", "Standings", "standings"]


@dataclass(frozen=True)
class Played:
    """One table's game of a round, as its room's score sheet has it."""

    table: int  # the table's index in the night
    held: Table  # the round's record of it: its room, game and who held each seat
    names: tuple[str, ...]  # each seat's name on the sheet
    points: tuple[tuple[int | None, ...], ...]  # each seat's penalty, hand by hand (None: not dealt that hand)


@dataclass
class Standing:
    """One player's night: their name, where they play now, the games they played, their total and their
    duplicate score (None: never compared with anyone), and their place on the board."""

    key: str
    name: str
    table: int | None
    games: int = 0
    total: int = 0
    duplicate: float | None = None
    hands_compared: int = 0
    place: int = 0  # 1 for the best; players tied share a place


@dataclass
class Standings:
    """Everyone, best first, and what they are ranked by ("duplicate" when every game of the night was compared
    seat by seat with the other tables; else "totals")."""

    rows: list[Standing] = field(default_factory=list)
    ranked_by: str = "totals"


def _key(played: Played, seat: int) -> str:
    """Who held a seat: the night's guest, or (a seat the night did not fill: a bot's) the seat at that room."""
    guest = played.held.guests[seat] if seat < len(played.held.guests) else None
    return guest or f"{played.held.room}:{played.names[seat]}"


def _compared(group: list[Played]) -> dict[tuple[int, int], tuple[float, int]]:
    """For tables dealt alike: (table, seat) -> the seat's penalties minus the others' average over the hands both
    played, and how many hands that is."""
    out: dict[tuple[int, int], tuple[float, int]] = {}
    for played in group:
        for seat, row in enumerate(played.points):
            diff, hands = 0.0, 0
            for hand, points in enumerate(row):
                others = [
                    p.points[seat][hand]
                    for p in group
                    if p is not played and seat < len(p.points) and hand < len(p.points[seat])
                ]
                others = [o for o in others if o is not None]
                if points is not None and others:
                    diff, hands = diff + points - sum(others) / len(others), hands + 1
            out[(played.table, seat)] = (diff, hands)
    return out


def standings(rounds: list[list[Played]], names: dict[str, str], tables: dict[str, int]) -> Standings:
    """Everyone's night from each round's games (`names`, `tables`: each guest's name and table now: every guest
    is on the board, with or without a game played)."""
    rows: dict[str, Standing] = {}
    every_game_compared = bool(rounds)
    for games in rounds:
        alike: dict[int, list[Played]] = defaultdict(list)
        for played in games:
            if played.held.duplicate and not played.held.real:
                alike[len(played.names)].append(played)
        compared: dict[tuple[int, int], tuple[float, int]] = {}
        for group in alike.values():
            if len(group) > 1:
                compared |= _compared(group)
        for played in games:
            if (played.table, 0) not in compared:
                every_game_compared = False
            for seat, name in enumerate(played.names):
                key = _key(played, seat)
                row = rows.setdefault(key, Standing(key, names.get(key, name), tables.get(key)))
                row.games += 1
                row.total += sum(p for p in played.points[seat] if p is not None)
                if (played.table, seat) in compared:
                    diff, hands = compared[(played.table, seat)]
                    row.duplicate = round((row.duplicate or 0.0) + diff, 2)
                    row.hands_compared += hands
    for key, name in names.items():  # a guest yet to play a game is on the board too, after those who have
        rows.setdefault(key, Standing(key, name, tables.get(key)))
    ranked_by = "duplicate" if every_game_compared else "totals"
    # Those who played more games first (a latecomer's fewer games are no better night), then the score; ties share
    # a place.
    if ranked_by == "duplicate":
        score = lambda r: (-r.games, r.duplicate or 0.0, r.total)  # noqa: E731
    else:
        score = lambda r: (-r.games, r.total)  # noqa: E731
    order = sorted(rows.values(), key=lambda r: (*score(r), r.name))
    for i, row in enumerate(order):
        row.place = order[i - 1].place if i and score(order[i - 1]) == score(row) else i + 1
    return Standings(order, ranked_by)
