"""The errors a command can meet, each with a stable code and a sentence a player can read.

RummyError                 anything the engine refuses; the state is unchanged
├── BadCommand             not a command this game knows (bad seat, source, card id)
├── OutOfPhase             a real command at the wrong moment ("It is the draw phase: draw first")
├── Stale                  meant for an earlier cycle
├── AlreadyDone            this seat has already done that this cycle
├── NotHeld                a card the player does not hold
├── NotComplete            a Match! claim on a hand that does not all meld
├── CannotDraw             nothing to draw from there (an empty shoe or pile)
├── Waiting                the caller cannot call yet: someone has not acted
└── GameOver               the game has ended
"""

from __future__ import annotations

__all__ = [
    "RummyError",
    "BadCommand",
    "OutOfPhase",
    "Stale",
    "AlreadyDone",
    "NotHeld",
    "NotComplete",
    "CannotDraw",
    "Waiting",
    "GameOver",
]


class RummyError(Exception):
    """A refused command. `code` is stable for programs; `message` is for people."""

    code = "refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class BadCommand(RummyError):
    code = "bad_command"


class OutOfPhase(RummyError):
    code = "out_of_phase"


class Stale(RummyError):
    code = "stale"


class AlreadyDone(RummyError):
    code = "already_done"


class NotHeld(RummyError):
    code = "not_held"


class NotComplete(RummyError):
    code = "not_complete"


class CannotDraw(RummyError):
    code = "cannot_draw"


class Waiting(RummyError):
    code = "waiting"


class GameOver(RummyError):
    code = "game_over"
