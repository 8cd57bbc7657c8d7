"""The room's journaled state, and how each journal event changes it (live, or replayed after a restart).

Everything here is what the journal can rebuild: the seats, the rule set, the game, the pause, the host's
choices, the night's results. Connections, clocks and tickets are not: they belong to the running room (a seat's
connections: seats.Links). The game's own events are its part's to apply (`GameReplay`, given by the room: the one
of the night's mode).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ...audience import predictions
from ...phones.bots import Bot
from ...rules.variants import Variant

__all__ = ["RoomState", "Seat", "GameReplay", "apply_event"]


@dataclass(eq=False)  # a seat is itself, whatever it holds: its live connections are looked up by it (seats.Links)
class Seat:
    """One place at the table, as the journal keeps it: who sits there, their key, and whether a bot plays it."""

    name: str
    token: str | None  # None: no phone holds it (a bot's seat, or open for a newcomer)
    colour: str
    joined: int  # join order: the earliest still seated is the VIP
    robot: Bot | None = None  # set: a bot of that strength plays the seat
    phoneless: bool = False  # real cards: a person at the table without a phone (the host answers for them)

    @property
    def open(self) -> bool:
        """Released and not yet taken: the caller plays it so the table is never held up."""
        return self.token is None and self.robot is None and not self.phoneless


@dataclass
class RoomState:
    """What the journal holds of a room."""

    variant_name: str
    seats: list[Seat] = field(default_factory=list)
    joins: int = 0  # the last join order handed out
    mode: str = "phones"  # how the night is played: the name of its game part
    game: Any = None  # the game being played (or the last one), of the night's part; None before the first
    paused: bool = False
    pace: str = "normal"  # the host's pace for the night: one of variants.PACES, a factor of every time
    allow_bot_takeover: bool = False  # whether a phone may take a bot's seat (the host's choice)
    allow_helpers: bool = False  # whether seated phones may answer for the seats without a phone
    phoneless_ready: bool = True  # real cards: the seats without a phone are Ready at each "Draw!" (the host's)
    locked: bool = False  # the host locked the room: only the TV and seats' phones (or a rejoin ticket) come in
    night: list[dict[str, Any]] = field(default_factory=list)  # finished games: winners and totals
    # Each finished game's sheet for the CSV, kept when the game leaves the table: (names, rows, totals).
    sheets: list[tuple[list[str], list, list[int]]] = field(default_factory=list)
    games: int = 0  # games dealt in this room (the audience's rounds are known by game and hand)
    audience: predictions.Book = field(default_factory=predictions.Book)  # its members, their picks and points

    @property
    def playing(self) -> bool:
        """Whether a game is on (dealt and not over)."""
        return self.game is not None and not self.game.over

    @property
    def dealt(self) -> int:
        """How many seats the current game dealt in (every seat before the first game)."""
        return self.game.hand.players if self.game is not None else len(self.seats)

    @property
    def helped(self) -> frozenset[int]:
        """The seats a seated phone may answer for: those without a phone, when the host allows it."""
        return frozenset(i for i, s in enumerate(self.seats) if s.phoneless) if self.allow_helpers else frozenset()

    def set_game(self, game: Any, ended: bool, sheet: Any = None) -> None:
        """The game after a command; a game that `ended` goes into the night's results (with its `sheet`).

        A correction after the last hand tells the ending again: it replaces that game's result.
        """
        if ended and self.game is not None and self.game.over:
            self.night.pop()
            self.sheets.pop()
        self.game = game
        if ended:
            self.sheets.append(([s.name for s in self.seats], sheet, list(game.totals)))
            self.night.append(
                {
                    "winners": [self.seats[s].name for s in game.winners],
                    "totals": {self.seats[s].name: t for s, t in enumerate(game.totals)},
                }
            )

    def forget_finished_game(self) -> None:
        """Back to the lobby after a game (the host's choice, or seats rearranged: its table would name the wrong
        people). The night keeps its result and its sheet."""
        if self.game is not None and self.game.over:
            self.game = None


class GameReplay(Protocol):
    """A game part's journal events, replayed (live, or after a restart): pure changes of the state. The rest
    of a part's face is room.game_part.GamePart, which extends this."""

    def begin(self, state: RoomState, variant: Variant, seed: int, draws: str = "one-shoe") -> None:
        """A new game in `state.game`, dealt to the seats, drawing from the shoe the `draws` way."""

    def replay(self, state: RoomState, command: dict[str, Any]) -> None:
        """One of its commands, as journaled."""

    def arrive(self, state: RoomState, seat: int, outcome: Any = None) -> None:
        """A seat joined mid-game: dealt in at the next hand (`outcome`: what `check_arrive` found, made so; None
        when replayed, and worked out again)."""

    def leave(self, state: RoomState, seat: int, outcome: Any = None) -> None:
        """A seat left mid-game (`outcome`: what `check_leave` found, as for `arrive`)."""


# The host's choices, each an event setting one field of the state: its name, and the event's key for the value.
_SETTINGS = {
    "takeover": ("allow_bot_takeover", "allow"),
    "helpers": ("allow_helpers", "allow"),
    "phoneless_ready": ("phoneless_ready", "ready"),
    "variant": ("variant_name", "name"),
    "pause": ("paused", "paused"),
    "pace": ("pace", "pace"),
    "lock": ("locked", "locked"),
}


def apply_event(
    state: RoomState, event: dict[str, Any], variants: dict[str, Variant], part: GameReplay, outcome: Any = None
) -> None:
    """Make one recorded change to `state`; the game's own events go to `part`, the night's way to play.
    `outcome`: a newcomer's or a leaver's effect on the game, as the part checked it before the event was
    written (live: made as found; replayed: None, worked out again)."""
    match event["t"]:
        case "join":
            state.joins = event["joined"]
            seat = Seat(event["name"], event["token"], event["colour"], event["joined"])
            seat.robot = _robot_of(event)
            seat.phoneless = bool(event.get("phoneless"))
            state.seats.append(seat)
            if event.get("late"):
                part.arrive(state, len(state.seats) - 1, outcome)
        case "remove":
            state.forget_finished_game()
            if state.game is not None:
                part.leave(state, event["seat"], outcome)
            state.seats.pop(event["seat"])
        case "move":
            state.forget_finished_game()
            state.seats.insert(event["to"], state.seats.pop(event["seat"]))
        case "seat":
            seat = state.seats[event["seat"]]
            seat.token = event["token"]
            seat.name = event.get("name", seat.name)
            seat.robot = _robot_of(event)
            if "joined" in event:  # taken by a newcomer, or claimed: last in the VIP order
                seat.joined = state.joins = event["joined"]
            if seat.token is not None:  # a player without a phone scanned their seat's QR: they have one now
                seat.phoneless = False
        case "mode":
            state.mode = event["mode"]
            state.game = None  # the last game was of the other way to play: the night keeps its result
        case "start":
            state.variant_name = event["variant"]
            # "draws" only in an own-order game's start: journals without it (and earlier ones) deal one shoe.
            part.begin(state, variants[state.variant_name], event["seed"], event.get("draws", "one-shoe"))
            state.paused = False
            state.games += 1
        case "cmd" | "real":  # "real": real cards' commands, as journals of earlier versions name them
            part.replay(state, event["cmd"])
        case "lobby":
            state.forget_finished_game()
        case kind if kind in _SETTINGS:  # one of the host's choices
            field, key = _SETTINGS[kind]
            setattr(state, field, event[key])
        case "audience":  # the audience's own moves (partyrummy.audience.predictions)
            state.audience = predictions.apply(state.audience, predictions.from_dict(event))


def _robot_of(event: dict[str, Any]) -> Bot | None:
    """The bot a journal event seats, if any."""
    return Bot(event["bot"]) if event.get("bot") else None
