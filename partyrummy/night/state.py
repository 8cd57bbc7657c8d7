"""A night's journaled state, and how each of its events changes it (live, or replayed after a restart).

The night holds who its guests are and where each sits, and, for each round (a game dealt at every table at once),
which room played it, which game of that room it was, and who sat in each seat. The scores themselves stay in the
rooms' own journals: the night reads them back (standings.py), so nothing is kept twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Guest", "Round", "Table", "NightState", "apply_event"]


@dataclass
class Guest:
    """One person (or bot) the night seated: the key their phone keeps, their name, their table and seat token."""

    key: str  # the night's own key for this guest (kept by their phone): where do I sit now?
    name: str
    table: int  # the table's index in the night
    token: str  # the token of their seat in that table's room


@dataclass(frozen=True)
class Table:
    """One game of one table in a round: its room, the game's index in that room, and who held each seat."""

    room: str
    game: int  # the index of this game among the room's games
    guests: tuple[str | None, ...]  # each seat's guest key (None: a seat the night did not fill, such as a bot's)
    duplicate: bool  # dealt the same cards as the other tables of its size (own order: each seat its own shoe)
    real: bool = False  # played with real cards: its scores count in the totals only


@dataclass(frozen=True)
class Round:
    """One game at every table, dealt at once from one seed."""

    seed: int
    tables: tuple[Table, ...]


@dataclass
class NightState:
    """What the journal holds of a night."""

    code: str
    tables: list[str] = field(default_factory=list)  # each table's room code, table 1 first
    variant: str = ""
    guests: dict[str, Guest] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)

    def at(self, table: int) -> list[Guest]:
        """The guests the night seated at a table, in the order they came."""
        return [g for g in self.guests.values() if g.table == table]


def apply_event(state: NightState, event: dict[str, Any]) -> None:
    """Make one recorded change to the night."""
    kind = event["t"]
    if kind == "tables":
        state.tables = list(event["rooms"])
        state.variant = event["variant"]
    elif kind == "variant":
        state.variant = event["name"]
    elif kind == "guest":
        state.guests[event["key"]] = Guest(event["key"], event["name"], event["table"], event["token"])
    elif kind == "seat":  # moved to another table (or back to the same one): a new seat there
        guest = state.guests[event["key"]]
        guest.table, guest.token = event["table"], event["token"]
    elif kind == "round":
        tables = tuple(Table(t["room"], t["game"], tuple(t["guests"]), t["duplicate"]) for t in event["tables"])
        state.rounds.append(Round(event["seed"], tables))
    else:
        raise ValueError(f"unknown night event {kind!r}")
