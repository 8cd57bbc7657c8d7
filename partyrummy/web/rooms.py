"""All rooms of one server, found by code or by connection, each with its caller thread."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable

from ..variants import DEFAULT_VARIANT, Variant
from .room import Room

__all__ = ["Rooms", "CODE_ALPHABET", "new_code"]

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
    ) -> None:
        self.seed = seed
        self.variants = variants
        self.send = send
        self.start_caller = start_caller
        self.lock = threading.Lock()
        self.by_code: dict[str, Room] = {}
        self.by_sid: dict[str, Room] = {}
        self.newest: Room | None = None

    def create(self) -> Room:
        with self.lock:
            room = Room(new_code(set(self.by_code)), self.variants, DEFAULT_VARIANT, self.send, seed=self.seed)
            self.by_code[room.code] = room
            self.newest = room
        self.start_caller(room)
        return room

    def current(self) -> Room:
        """The room the TV shows: the newest one, or a new lobby if there is none."""
        return self.newest or self.create()

    def get(self, code: str) -> Room | None:
        return self.by_code.get(code.upper()) if isinstance(code, str) else None
