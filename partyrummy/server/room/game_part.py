"""The one face of a night's game: `GamePart`, which each way to play implements, and `Table`, what a part sees
of its room.

The room holds the lobby, the seats, the connections, its lock and its journal; the game itself is one of the
parts (phones_play.py: cards on the phones; real_play.py: real cards on the table), chosen once, by the room,
from the night's mode. A part never reaches back into the room: it gets a `Table` (the journaled state, the
clock, and the room's three ways to change: journal, changed, tell), and everything the part knows of its mode
stays inside it: its commands, the replay of its journal events, its caller, its views and its score sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Protocol

from ...rules.commands import Arrive, Leave
from ...rules.errors import GameOver
from ...rules.events import GameEnded
from .moments import moments_of
from .pace import Beat, Pace, Timing, clocks
from .room_view import TableCache
from .score_sheet import Score
from .seats import Links, Viewer
from .state import GameReplay, RoomState

__all__ = ["GamePart", "PacedPart", "Table", "SeatEvent", "seat_schema"]

Schema = dict[str, tuple[str, bool]]  # each field to (kind, required); kinds are transport/payloads.py's
Outcome = tuple[Any, list[Any]]  # a command's single apply: the game after it, and what it announced


def seat_schema(**fields: tuple[str, bool]) -> Schema:
    """A seat's event takes an optional `seat`: one the sender may answer for (real cards); the TV may say
    `override` to answer for a seat whose phone is connected."""
    return {**fields, "seat": ("int", False), "override": ("bool", False)}


@dataclass(frozen=True)
class SeatEvent:
    """An event a way to play takes: its payload's schema, who may send it ("seat": a seat's move, which the
    part checks; "vip": the TV or the VIP's phone), and the engine command it makes, from (seat, the answering
    phone's seat or None for the TV, payload). The event table (transport/events.py) is built from these."""

    schema: Schema
    command: Callable[[int | None, int | None, dict[str, Any]], Any]
    who: str = "seat"


@dataclass(frozen=True)
class Table:
    """What a game part may use of its room (the room's lock is held whenever a part is called)."""

    state: RoomState  # the journaled state: seats, the game, the pause, the host's choices
    clock: Callable[[], float]  # monotonic seconds
    journal: Callable[[dict[str, Any]], None]  # write an event before it is applied (refuses, changing nothing)
    changed: Callable[[bool], None]  # something changed (`True`: a player's own move, which may go out batched)
    # A notice to one seat's devices, each in its language: (seat, code, message key, its params, more fields).
    tell: Callable[[int, str, str, dict[str, Any], dict[str, Any]], None]
    version: Callable[[], int]  # the room's view version: what the parts' caches are keyed by
    links: Links  # each seat's live connections (a phone connected, or gone since when)


class GamePart(GameReplay, Protocol):
    """One way to play a night: its journal events replayed (GameReplay), and what follows. Every method is called
    under the room's lock."""

    mode: ClassVar[str]  # the name the lobby and the views use for it ("phones", "real")
    events: ClassVar[dict[str, SeatEvent]]  # the events it takes: the event table is built from every part's

    # -- The lobby's rules of this way to play ----------------------------------------------------

    def check_seat(self, fields: dict[str, Any]) -> None:
        """Refuse a seat this way of playing cannot have (a bot with real cards; a phone-less player on phones)."""

    def check_arrive(self, fields: dict[str, Any]) -> Any:
        """Refuse, changing nothing, a newcomer the game cannot deal in; else the outcome, for `arrive` to make."""

    def check_leave(self, seat: int) -> Any:
        """Refuse, changing nothing, a seat the hand cannot lose; else the outcome, for `leave` to make."""

    def check_draws(self, draws: str) -> None:
        """Refuse a way of drawing from the shoe (one of variants.DRAWS) that this way of playing cannot deal."""

    # -- Play -----------------------------------------------------------------------------------

    def answer(self, viewer: Viewer, seat: int | None, event: str, data: dict[str, Any]) -> None:
        """A seat's event (`seat`: the sender's own, None for the TV or a guest), checked and applied."""

    def call_now(self) -> None:
        """The host's "Call now"."""

    def pause(self, paused: bool) -> None:
        """The room was paused or resumed (the room owns the pause; a part restarts its clocks)."""

    # -- The caller -----------------------------------------------------------------------------

    def track(self) -> bool:
        """After any change: start the clocks of a new phase. Returns whether the table moved on."""

    def tick(self) -> float | None:
        """Make any call due now; return when one is due next (monotonic; None: only a change can bring one)."""

    def clocks(self) -> dict[str, Any]:
        """The countdowns the screens show, in seconds from now."""

    # -- What it shows ------------------------------------------------------------------------------

    def public(self) -> dict[str, Any] | None:
        """The game's table, the same for every viewer (a whitelist of what all may see); None before the first
        deal."""

    def mine(self, viewer: Viewer, seat: int | None) -> dict[str, Any] | None:
        """What this viewer alone may see of the game, kept apart from the table (None before the first deal):
        its keys complete the table's into the viewer's view."""

    def sheet(self, game: Any) -> list[list[Score | None]]:
        """A game's score sheet for the CSV: each seat's cells, hand by hand."""

    def take_moments(self) -> list[dict[str, Any]]:
        """What the game's changes since the last call meant on the screens (moments.py)."""


class PacedPart:
    """What both ways to play do alike (each subclass is a GamePart): the caller's clock of the current phase,
    the public table worked out once a version, the journal's commands and seats made, and a command's outcome
    made, a finished game into the night."""

    commands: ClassVar[ModuleType]  # the engine's commands: its Call, and command_from_dict

    def __init__(self, table: Table) -> None:
        self.table = table
        self.pace = Pace()
        self.tables = TableCache()  # the public table, once a version
        self.moments: list[dict[str, Any]] = []  # what the game's changes meant on the screens, until sent

    def take_moments(self) -> list[dict[str, Any]]:
        """The moments since the last call (moments.py), to go with the table's change they came with."""
        moments, self.moments = self.moments, []
        return moments

    def _begun(self, state: RoomState, game: Any, events: list[Any]) -> None:
        """A new game dealt: after a game on the table ("Play again"), its deal is a moment too."""
        if state.game is not None:
            self.moments += moments_of(events, game.variant.hands, over_before=False)
        state.game = game

    @property
    def game(self) -> Any:
        """The game being played (or the last one), None before the first deal."""
        return self.table.state.game

    def _beat(self) -> Beat | None:
        """Where the hand is, as the caller sees it (None: no game on)."""
        raise NotImplementedError

    def _timing(self) -> Timing:
        """The variant's times for this way to play, at the night's pace."""
        raise NotImplementedError

    def _table(self, game: Any) -> dict[str, Any]:
        """The public table of this game."""
        raise NotImplementedError

    def sheet(self, game: Any) -> list[list[Score | None]]:
        raise NotImplementedError

    def _run(self, state: RoomState, game: Any, command: Any) -> Outcome:
        """The engine's single apply of one command to `game`: pure, it refuses before anything changes."""
        raise NotImplementedError

    # -- Its journal events -----------------------------------------------------------

    def replay(self, state: RoomState, command: dict[str, Any]) -> None:
        decoded = self.commands.command_from_dict(command)
        if decoded is None:  # a command of an earlier version that means nothing now
            return
        try:
            self._apply(state, decoded)
        except GameOver:  # an earlier version's journal: its last call came after the last hand, which now ends it
            if not isinstance(decoded, self.commands.Call):
                raise

    def arrive(self, state: RoomState, seat: int, outcome: Outcome | None = None) -> None:
        self._commit(state, *(outcome or self._run(state, state.game, Arrive())))

    def leave(self, state: RoomState, seat: int, outcome: Outcome | None = None) -> None:
        self._commit(state, *(outcome or self._run(state, state.game, Leave(seat))))

    def _apply(self, state: RoomState, command: Any) -> None:
        self._commit(state, *self._run(state, state.game, command))

    def check_arrive(self, fields: dict[str, Any]) -> Outcome:
        return self._run(self.table.state, self.game, Arrive())

    def check_leave(self, seat: int) -> Outcome:
        return self._run(self.table.state, self.game, Leave(seat))

    def _commit(self, state: RoomState, game: Any, events: list[Any]) -> None:
        """The game after one command, as its single apply made it (and what it meant on the screens); a game that
        ended goes into the night."""
        self.moments += moments_of(events, game.variant.hands, over_before=state.game.over)
        ended = any(isinstance(e, GameEnded) for e in events)
        state.set_game(game, ended, self.sheet(game) if ended else None)

    def pause(self, paused: bool) -> None:
        if not paused:
            self.pace.resume(self.table.clock())

    def track(self) -> bool:
        beat = self._beat()
        return beat is not None and self.pace.track(beat, self.table.clock())

    def clocks(self) -> dict[str, Any]:
        beat = self._beat()
        timing = self._timing() if beat is not None else None
        return clocks(beat, timing, self.pace, self.table.state.paused, self.table.clock())

    def public(self) -> dict[str, Any] | None:
        """The table everyone sees alike (once a version), None before the first deal."""
        game = self.game
        return None if game is None else self.tables.get(self.table.version(), lambda: self._table(game))
