"""All rooms of one server, found by code or by connection, each with its caller thread."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable

from ..i18n import Catalogs, default_catalogs
from ..variants import DEFAULT_VARIANT, Variant
from .journal import Journal
from .room import Room

__all__ = ["Rooms", "CODE_ALPHABET", "new_code"]

log = logging.getLogger(__name__)

# No look-alikes: no B/8, G/6, I/1, O/0/Q/D, S/5, U/V, Z/2.
CODE_ALPHABET = "ACEFHJKLMNPRTWXY"


def new_code(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
        if code not in taken:
            return code


class Rooms:
    def __init__(
        self,
        variants: dict[str, Variant],
        send: Callable[[str, str, dict], None],
        start_caller: Callable[[Room], None],
        seed: int | None = None,
        journal: Journal | None = None,
        catalogs: Catalogs | None = None,
    ) -> None:
        self.catalogs = catalogs or default_catalogs()
        self.seed = seed
        self.journal = journal
        self.variants = variants
        self.send = send
        self.start_caller = start_caller
        self.lock = threading.Lock()
        self.by_code: dict[str, Room] = {}
        self.by_sid: dict[str, Room] = {}
        self.newest: Room | None = None

    def _room(self, code: str) -> Room:
        record = self.journal.append if self.journal else (lambda code, event: None)
        return Room(
            code, self.variants, DEFAULT_VARIANT, self.send, seed=self.seed, record=record, catalogs=self.catalogs
        )

    def _add(self, room: Room) -> None:
        self.by_code[room.code] = room
        self.newest = room
        self.start_caller(room)

    def create(self) -> Room:
        with self.lock:
            taken = set(self.by_code) | (self.journal.known_codes() if self.journal else set())
            room = self._room(new_code(taken))
            if self.journal:
                self.journal.open_room(room.code, room.host_token)
            self._add(room)
        return room

    def restore(self) -> int:
        """Bring back every room the journal holds from lately; returns how many."""
        if self.journal is None:
            return 0
        count = 0
        for code, host_token, events in self.journal.recent_rooms():
            room = self._room(code)
            room.host_token = host_token
            try:
                with room.lock:
                    room.restore(events)
            except Exception:  # a room the current rules cannot replay stays in the file, unloaded
                log.exception("could not restore room %s", code)
                continue
            with self.lock:
                self._add(room)
            count += 1
        return count

    def current(self) -> Room:
        """The room the TV shows: the newest one, or a new lobby if there is none."""
        return self.newest or self.create()

    def get(self, code: str) -> Room | None:
        return self.by_code.get(code.upper()) if isinstance(code, str) else None
