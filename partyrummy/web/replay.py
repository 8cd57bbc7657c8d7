"""The room's journaled state, and how each journal event changes it (live, or replayed after a restart).

Everything here is what the journal can rebuild: the seats, the rule set, the game, the pause, the night's
results. Connections, clocks and tickets are not: they belong to the running room.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import game as engine
from ..commands import Arrive, GameEnded, Leave, command_from_dict
from ..game import GameState
from ..realcards import commands as real
from ..realcards import scorebook
from ..realcards.scorebook import Scorebook
from .robots import robot_of
from .seats import Seat

__all__ = ["RoomState", "apply_event"]


@dataclass
class RoomState:
    """What the journal holds of a room."""

    variant_name: str
    seats: list[Seat] = field(default_factory=list)
    joins: int = 0  # the last join order handed out
    game: GameState | None = None
    paused: bool = False
    allow_bot_takeover: bool = False  # whether a phone may take a bot's seat (the host's choice)
    night: list[dict[str, Any]] = field(default_factory=list)  # finished games: winners and totals
    hints: dict = field(default_factory=dict)  # hints already worked out, by hand
    mode: str = "phones"  # how the night is played: "phones" (cards on the phones) or "real" (real cards)
    book: Scorebook | None = None  # the real-cards game being played (or the last one), None before the first
    allow_helpers: bool = False  # real cards: whether seated phones may answer for the seats without a phone
    locked: bool = False  # the host locked the room: only the TV and seats' phones (or a rejoin ticket) come in

    @property
    def current(self) -> GameState | Scorebook | None:
        """The game of the way this night is played (or its last one), None before the first."""
        return self.book if self.mode == "real" else self.game

    @property
    def playing(self) -> bool:
        """Whether a game is on (dealt and not over), in either mode."""
        return self.current is not None and not self.current.over

    @property
    def dealt(self) -> int:
        """How many seats the current game dealt in (every seat before the first game)."""
        return self.current.hand.players if self.current is not None else len(self.seats)

    def set_game(self, game: GameState | Scorebook, events: list) -> None:
        """The game after a command; a game that ended goes into the night's results.

        With real cards a correction after the last hand tells the ending again: it replaces that game's result.
        """
        ended_before = self.book is not None and self.book.over
        if isinstance(game, Scorebook):
            self.book = game
        else:
            self.game = game
        if any(isinstance(event, GameEnded) for event in events):
            if ended_before and game is self.book:
                self.night.pop()
            self.night.append(
                {
                    "winners": [self.seats[s].name for s in game.winners],
                    "totals": {self.seats[s].name: t for s, t in enumerate(game.totals)},
                }
            )

    def forget_finished_game(self) -> None:
        """Rearranging seats after a game: its table would name the wrong people. The night keeps its result."""
        if self.game is not None and self.game.over:
            self.game = None
        if self.book is not None and self.book.over:
            self.book = None

    def apply_real(self, command: real.Command) -> None:
        """One real-cards command on the game (raises, changing nothing, if the engine refuses it)."""
        self.set_game(*scorebook.apply(self.book, command))


def apply_event(state: RoomState, event: dict[str, Any], variants: dict) -> None:
    """Make one recorded change to `state` (`variants`: the rule sets a "start" may name)."""
    match event["t"]:
        case "join":
            state.joins = event["joined"]
            seat = Seat(event["name"], event["token"], event["colour"], event["joined"])
            seat.robot = robot_of(event)
            seat.phoneless = bool(event.get("phoneless"))
            state.seats.append(seat)
            if event.get("late") and state.mode == "real":
                state.apply_real(real.Arrive(phoneless=seat.phoneless))
            elif event.get("late"):
                state.game, _ = engine.apply(state.game, Arrive())
        case "remove":
            state.forget_finished_game()
            if state.mode == "real" and state.book is not None:
                state.apply_real(real.Leave(event["seat"]))
            elif state.game is not None:
                state.game, _ = engine.apply(state.game, Leave(event["seat"]))
            state.seats.pop(event["seat"])
        case "move":
            state.forget_finished_game()
            state.seats.insert(event["to"], state.seats.pop(event["seat"]))
        case "seat":
            seat = state.seats[event["seat"]]
            seat.token = event["token"]
            seat.name = event.get("name", seat.name)
            seat.robot = robot_of(event)
            if "joined" in event:  # taken by a newcomer: last in the VIP order
                seat.joined = state.joins = event["joined"]
            if seat.phoneless and seat.token is not None:  # a player without a phone scanned their seat's QR
                seat.phoneless = False
                if state.playing and state.mode == "real":
                    state.apply_real(real.SetPhoneless(event["seat"], False))
        case "takeover":
            state.allow_bot_takeover = event["allow"]
        case "mode":
            state.mode = event["mode"]
        case "helpers":
            state.allow_helpers = event["allow"]
            if state.playing and state.mode == "real":
                state.apply_real(real.AllowHelpers(event["allow"]))
        case "variant":
            state.variant_name = event["name"]
        case "start" if state.mode == "real":
            state.variant_name = event["variant"]
            phoneless = tuple(i for i, seat in enumerate(state.seats) if seat.phoneless)
            state.game = None  # a finished game of cards on the phones: its table is gone, the night keeps it
            state.book, _ = scorebook.new_book(variants[state.variant_name], len(state.seats), event["seed"], phoneless)
            if state.allow_helpers:
                state.apply_real(real.AllowHelpers(True))
            state.paused = False
        case "start":
            state.variant_name = event["variant"]
            state.book = None
            state.game, _ = engine.new_game(variants[state.variant_name], len(state.seats), event["seed"])
            state.hints.clear()
            state.paused = False
        case "cmd":
            state.set_game(*engine.apply(state.game, command_from_dict(event["cmd"])))
        case "real":
            state.apply_real(real.command_from_dict(event["cmd"]))
        case "pause":
            state.paused = event["paused"]
        case "lock":
            state.locked = event["locked"]
