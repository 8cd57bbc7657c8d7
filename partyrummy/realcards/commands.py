"""Commands into the real-cards engine, as frozen records, and as JSON for the journal.

A seat's command carries `by`: None when the host sent it (the TV or a host
phone), else the seat of the phone that sent it. A phone answers for its own
seat, and for a seat without a phone when the host allows it (the room says
which seats those are, with each command it applies). The engine keeps no
clock: the room's pace decides when to call. Commands convert to plain data
and back for the journal; journals written by earlier versions still read.
Leave and Arrive are both ways to play's (rules/commands.py), named here too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..rules.commands import Arrive, Leave
from ..rules.errors import BadCommand

__all__ = [
    "Call",
    "Ready",
    "CallMatch",
    "Withdraw",
    "Done",
    "Out",
    "Draft",
    "Confirm",
    "TypePoints",
    "Correct",
    "UndoCorrection",
    "Leave",
    "Arrive",
    "Command",
    "command_to_dict",
    "command_from_dict",
]


# -- The caller (the host) ------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """The caller moves on: "Draw!", "Discard!", the next hand. `force`: "Discard!" without the slow ones (the
    hurry ran out, or the host's "call now")."""

    force: bool = False


# -- A seat, from its phone or answered for it -------------------------------------


@dataclass(frozen=True)
class Ready:
    """The seat has drawn and holds its discard face down (ready=False takes the tap back)."""

    seat: int
    ready: bool = True
    by: int | None = None
    cycle: int | None = None  # when given, refused once the cycle has moved on


@dataclass(frozen=True)
class CallMatch:
    """ "Match!": the seat says its hand is complete; the cards entered at the end check it."""

    seat: int
    by: int | None = None


@dataclass(frozen=True)
class Withdraw:
    """A Match! tapped by mistake, taken back before the caller moves on."""

    seat: int
    by: int | None = None


@dataclass(frozen=True)
class Done:
    """Turns: the seat has drawn and discarded; the next player's turn."""

    seat: int
    by: int | None = None
    cycle: int | None = None


@dataclass(frozen=True)
class Out:
    """Turns: the seat went out (all melded but the card it discarded); everyone else has one more turn."""

    seat: int
    by: int | None = None
    cycle: int | None = None


@dataclass(frozen=True)
class Draft:
    """The cards tapped so far on the picker (faces like "7H", "10S", "JK"; repeats allowed)."""

    seat: int
    cards: tuple[str, ...]
    by: int | None = None


@dataclass(frozen=True)
class Confirm:
    """The seat confirms its draft: the hand's score is what the solver makes of those cards."""

    seat: int
    by: int | None = None


@dataclass(frozen=True)
class TypePoints:
    """The seat counted its points itself: the score is marked typed, not solved."""

    seat: int
    points: int
    by: int | None = None


# -- The host's scorebook ---------------------------------------------------------


@dataclass(frozen=True)
class Correct:
    """The host puts a new score in a scored hand's cell; the old one is kept."""

    hand_no: int
    seat: int
    points: int


@dataclass(frozen=True)
class UndoCorrection:
    """The last correction is taken back."""


Command = (
    Call
    | Ready
    | CallMatch
    | Withdraw
    | Done
    | Out
    | Draft
    | Confirm
    | TypePoints
    | Correct
    | UndoCorrection
    | Leave
    | Arrive
)

_COMMANDS: dict[str, type] = {
    "call": Call,
    "ready": Ready,
    "match": CallMatch,
    "withdraw": Withdraw,
    "done": Done,
    "out": Out,
    "draft": Draft,
    "confirm": Confirm,
    "type_points": TypePoints,
    "correct": Correct,
    "undo_correction": UndoCorrection,
    "leave": Leave,
    "arrive": Arrive,
}
_NAMES = {cls: name for name, cls in _COMMANDS.items()}
# What journals of earlier versions hold and this one no longer needs: the engine's own pause (the room's now),
# and the call's time (the room's pace keeps the clock). Read and passed over.
_RETIRED = {"pause", "resume", "set_phoneless", "allow_helpers"}
_RETIRED_FIELDS = {"call": {"now"}, "arrive": {"phoneless"}}


def command_to_dict(command: Command) -> dict:
    """A command as plain JSON-ready data, for the journal."""
    fields = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(command).items()}
    return {"type": _NAMES[type(command)], **fields}


def command_from_dict(data: dict) -> Command | None:
    """The inverse of `command_to_dict` (lists come back as tuples, so a replayed command equals the original);
    None for a command an earlier version journaled that means nothing now."""
    fields = dict(data)
    name = fields.pop("type", None)
    if name in _RETIRED:
        return None
    for retired in _RETIRED_FIELDS.get(name, ()):
        fields.pop(retired, None)
    cls = _COMMANDS.get(name)
    if cls is None:
        raise BadCommand("error.unknown_command")
    known = {f.name for f in dataclasses.fields(cls)}
    if set(fields) - known:
        raise BadCommand("error.unknown_fields", fields=", ".join(sorted(set(fields) - known)))
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
