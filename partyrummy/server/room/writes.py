"""A room's journal as its parts write to it: each change written before it is made, in the order they came.

A part may keep changes waiting to go with the room's next write (the audience's picks: two hundred members guess
in the same seconds, and a commit costs far more than a row): it says so once (`first`), and each write takes what
waits there first, then tells the part whether it was kept. A disk that refuses refuses the whole write: nothing of
it is made, and the refusal says so in words a player can read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..storage.journal import NotSaved
from .refused import Refused

__all__ = ["Writes"]

Waiting = Callable[[], list[dict[str, Any]]]  # what a part has waiting to be written
Written = Callable[[Refused | None], None]  # told once it is: None if kept, else the refusal


class Writes:
    """The journal of one room (`record(code, events)` writes them in one transaction, or raises NotSaved)."""

    def __init__(self, code: str, record: Callable[[str, list[dict[str, Any]]], None]) -> None:
        self.code, self.record = code, record
        self.waiting: list[tuple[Waiting, Written]] = []

    def first(self, waiting: Waiting, written: Written) -> None:
        """A part's changes waiting for a write: every write takes them first, then tells the part."""
        self.waiting.append((waiting, written))

    def __call__(self, *events: dict[str, Any]) -> None:
        """Write what waits, then `events`, in one write; a refusal (Refused, "not saved") changes nothing."""
        early = [event for waiting, _ in self.waiting for event in waiting()]
        try:
            self.record(self.code, [*early, *events])
        except NotSaved as error:
            refused = Refused("error.not_saved")
            for _, written in self.waiting:
                written(refused)
            raise refused from error
        for _, written in self.waiting:
            written(None)
