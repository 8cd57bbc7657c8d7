"""Commands into the engine and the events that come out, as frozen records.

A game is (variant, seed, commands): replaying the same commands from the
same seed gives the same game, card for card. Leave and Arrive, and the events
both ways to play announce alike, are the rules' (rules/commands.py,
rules/events.py), named here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.commands import Arrive, Leave
from ..rules.events import Arrived, GameEnded, HandScored, Matched, PhaseChanged

__all__ = [
    "SOURCES",
    "Command",
    "Draw",
    "Choose",
    "Call",
    "CallMatch",
    "Ready",
    "AutoPlay",
    "Leave",
    "Arrive",
    "Event",
    "Dealt",
    "Drew",
    "Chose",
    "PhaseChanged",
    "ShoeRefilled",
    "Revealed",
    "Matched",
    "HandScored",
    "GameEnded",
    "Left",
    "Arrived",
    "command_from_dict",
    "command_to_dict",
]

SOURCES = ("shoe", "pile")  # where a Draw takes its card: the shoe, or the right-hand neighbour's pile


# -- Commands -----------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """A player takes the top of the shoe or of their right-hand neighbour's pile."""

    seat: int
    source: str
    cycle: int | None = None  # when given, the command is refused if the cycle has moved on


@dataclass(frozen=True)
class Choose:
    """A player picks (or changes) the card they will discard at the next "Discard!"."""

    seat: int
    card_id: int
    cycle: int | None = None


@dataclass(frozen=True)
class Call:
    """The caller moves the table on: "Draw!", "Discard!", the next hand."""


@dataclass(frozen=True)
class CallMatch:
    """A player claims their hand is complete: "Match!"."""

    seat: int


@dataclass(frozen=True)
class Ready:
    """In a Match! window, a player says it goes on: ready for the next "Draw!" (False takes it back). The window
    ends once every seat still in the hand has called Match! or gone on."""

    seat: int
    ready: bool = True
    cycle: int | None = None


@dataclass(frozen=True)
class AutoPlay:
    """The caller plays for a slow player: draw from the shoe, discard the least-penalty card."""

    seat: int


Command = Draw | Choose | Call | CallMatch | Ready | AutoPlay | Leave | Arrive

_COMMANDS = {
    "draw": Draw,
    "choose": Choose,
    "call": Call,
    "match": CallMatch,
    "ready": Ready,
    "auto_play": AutoPlay,
    "leave": Leave,
    "arrive": Arrive,
}
_NAMES = {cls: name for name, cls in _COMMANDS.items()}


def command_to_dict(command: Command) -> dict:
    """A command as plain data, for the journal."""
    return {"type": _NAMES[type(command)], **command.__dict__}


def command_from_dict(data: dict) -> Command:
    """The inverse of `command_to_dict`."""
    fields = dict(data)
    return _COMMANDS[fields.pop("type")](**fields)


# -- Events -------------------------------------------------------------------


@dataclass(frozen=True)
class Dealt:
    hand_no: int
    size: int
    wild_rank: int | None


@dataclass(frozen=True)
class Drew:
    seat: int
    source: str
    card_id: int  # secret to the drawer when from the shoe: views decide who sees it


@dataclass(frozen=True)
class Chose:
    seat: int


@dataclass(frozen=True)
class ShoeRefilled:
    cards: int


@dataclass(frozen=True)
class Revealed:
    picks: tuple[tuple[int, int], ...]  # (seat, card id) in seat order


@dataclass(frozen=True)
class Left:
    seat: int
    returned: int  # cards (their hand and their pile) put under the shoe


Event = (
    Dealt | Drew | Chose | PhaseChanged | ShoeRefilled | Revealed | Matched | HandScored | GameEnded | Left | Arrived
)
