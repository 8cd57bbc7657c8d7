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

    def set_game(self, game: GameState, events: list) -> None:
        """The game after a command; a game that ended goes into the night's results."""
        self.game = game
        if any(isinstance(event, GameEnded) for event in events):
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


def apply_event(state: RoomState, event: dict[str, Any], variants: dict) -> None:
    """Make one recorded change to `state` (`variants`: the rule sets a "start" may name)."""
    match event["t"]:
        case "join":
            state.joins = event["joined"]
            seat = Seat(event["name"], event["token"], event["colour"], event["joined"])
            seat.robot = robot_of(event)
            state.seats.append(seat)
            if event.get("late"):
                state.game, _ = engine.apply(state.game, Arrive())
        case "remove":
            state.forget_finished_game()
            if state.game is not None:
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
        case "takeover":
            state.allow_bot_takeover = event["allow"]
        case "variant":
            state.variant_name = event["name"]
        case "start":
            state.variant_name = event["variant"]
            state.game, _ = engine.new_game(variants[state.variant_name], len(state.seats), event["seed"])
            state.hints.clear()
            state.paused = False
        case "cmd":
            state.set_game(*engine.apply(state.game, command_from_dict(event["cmd"])))
        case "pause":
            state.paused = event["paused"]
