"""The room's own refusal: the one error a room raises besides the engine's."""

from __future__ import annotations

from ...rules.errors import RummyError

__all__ = ["Refused"]


class Refused(RummyError):
    """A room-level refusal (not the host, name taken, game started…)."""

    code = "refused"
