"""The errors a command can meet, each with a stable code and a message key a player's language can fill.

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
    """A refused command. `code` is stable for programs; `key` and `params` make the sentence for people.

    The engine speaks no language: `key` names a message of the catalogs
    (partyrummy/locales), which the web layer fills with `params` in the
    language of whoever sent the command.
    """

    code = "refused"

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return f"{self.key} {self.params}" if self.params else self.key


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
