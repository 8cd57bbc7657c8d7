"""Commands into the real-cards engine, as frozen records, and as JSON for the journal.

A seat's command carries `by`: None when the host sent it (the TV or a host
phone), else the seat of the phone that sent it. A phone answers for its own
seat, and for a seat without a phone when the host allows it. Time comes in
as `now` (seconds, from the shell's clock) on the caller's commands only.
Commands convert to plain data and back for the journal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import BadCommand

__all__ = [
    "Call",
    "Pause",
    "Resume",
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
    "SetPhoneless",
    "AllowHelpers",
    "Leave",
    "Arrive",
    "Command",
    "command_to_dict",
    "command_from_dict",
]


# -- The caller (the host) ------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """The caller moves on: "Draw!", "Discard!", the next hand. `force`: the host's "call now"."""

    now: float
    force: bool = False


@dataclass(frozen=True)
class Pause:
    """The host pauses the caller: the hurry clock stops."""

    now: float


@dataclass(frozen=True)
class Resume:
    """The host resumes: the hurry clock runs on from where it stopped."""

    now: float


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


@dataclass(frozen=True)
class SetPhoneless:
    """The host marks a seat as playing without a phone (or with one again)."""

    seat: int
    phoneless: bool = True


@dataclass(frozen=True)
class AllowHelpers:
    """Whether seated phones may answer for the seats without a phone (the host always may)."""

    allowed: bool


@dataclass(frozen=True)
class Leave:
    """The host takes a player off the table, mid-hand or not: the ring closes up behind them."""

    seat: int


@dataclass(frozen=True)
class Arrive:
    """A newcomer takes a new seat at the end of the ring, dealt in at the next hand (when the variant lets them)."""

    phoneless: bool = False


Command = (
    Call
    | Pause
    | Resume
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
    | SetPhoneless
    | AllowHelpers
    | Leave
    | Arrive
)

_COMMANDS: dict[str, type] = {
    "call": Call,
    "pause": Pause,
    "resume": Resume,
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
    "set_phoneless": SetPhoneless,
    "allow_helpers": AllowHelpers,
    "leave": Leave,
    "arrive": Arrive,
}
_NAMES = {cls: name for name, cls in _COMMANDS.items()}


def command_to_dict(command: Command) -> dict:
    """A command as plain JSON-ready data, for the journal."""
    fields = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(command).items()}
    return {"type": _NAMES[type(command)], **fields}


def command_from_dict(data: dict) -> Command:
    """The inverse of `command_to_dict` (lists come back as tuples, so a replayed command equals the original)."""
    fields = dict(data)
    cls = _COMMANDS.get(fields.pop("type", None))
    if cls is None:
        raise BadCommand("error.unknown_command")
    known = {f.name for f in dataclasses.fields(cls)}
    if set(fields) - known:
        raise BadCommand("error.unknown_fields", fields=", ".join(sorted(set(fields) - known)))
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
