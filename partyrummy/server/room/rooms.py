"""All rooms of one server, found by code or by connection; each awake room has its caller thread.

A room sleeps (no thread) when nobody is connected and nothing is due, and wakes on its next connection.
Rooms of the last days stay in the journal and are loaded when first asked for by code. At most `limit`
rooms are held in memory: to make room for another, the one asleep the longest is let go (it stays in the
journal and comes back on its code); when every room held is awake, a new one is refused.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable

from ...i18n import Catalogs, default_catalogs
from ...rules.variants import DEFAULT_VARIANT, Variant
from ..defences.limits import LIMITS
from ..storage.journal import Journal, NotSaved
from .room import Refused, Room

__all__ = ["Rooms", "CODE_ALPHABET", "new_code"]

log = logging.getLogger(__name__)

# No look-alikes: no B/8, G/6, I/1, O/0/Q/D, S/5, U/V, Z/2.
CODE_ALPHABET = "ACEFHJKLMNPRTWXY"
_CODES = len(CODE_ALPHABET) ** 4
_TRIES = 64  # random tries before looking for a free code in order
_ASKED_S = 10.0  # a room asked for by code this recently is not let go


def new_code(taken: set[str]) -> str:
    """A room code nobody is using (random: codes cannot be guessed from each other); Refused if none is left."""
    for _ in range(_TRIES):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
        if code not in taken:
            return code
    # Nearly full: pick among the free codes directly, so this never loops for ever.
    start = secrets.randbelow(_CODES)
    for step in range(_CODES):
        n = (start + step) % _CODES
        code = "".join(CODE_ALPHABET[(n >> shift) & 15] for shift in (12, 8, 4, 0))
        if code not in taken:
            return code
    raise Refused("error.no_codes")


class Rooms:
    def __init__(
        self,
        variants: dict[str, Variant],
        send: Callable[[str, str, dict], None],
        start_caller: Callable[[Room], None],
        seed: int | None = None,
        journal: Journal | None = None,
        catalogs: Catalogs | None = None,
        limit: int = LIMITS.rooms,
        publish: Callable[[str, str, dict], None] | None = None,
    ) -> None:
        self.catalogs = catalogs or default_catalogs()
        self.limit = limit
        self.seed = seed
        self.journal = journal
        self.variants = variants
        self.send = send
        self.publish = publish  # to every connection of a room at once (a Socket.IO room named by its code)
        self.start_caller = start_caller
        self.lock = threading.Lock()
        self.by_code: dict[str, Room] = {}
        self.by_sid: dict[str, Room] = {}
        self.newest: Room | None = None
        self.awake_rooms: set[str] = set()  # codes of rooms whose caller thread runs
        self.slept: dict[str, int] = {}  # codes of rooms asleep, in the order they fell asleep (oldest first)
        self.sleeps = 0

    def _room(self, code: str) -> Room:
        record = self.journal.append_all if self.journal else (lambda code, events: None)
        return Room(
            code,
            self.variants,
            DEFAULT_VARIANT,
            self.send,
            seed=self.seed,
            record=record,
            catalogs=self.catalogs,
            publish=self.publish,
        )

    def _make_room(self) -> None:
        """Before a room is added (the caller holds self.lock): let the longest asleep go if memory is full, or
        refuse."""
        if len(self.by_code) < self.limit:
            return
        now = time.monotonic()
        for code in sorted(self.slept, key=self.slept.__getitem__):
            room = self.by_code.get(code)
            # Not one just asked for: a phone may be on its way in (found, not yet attached).
            if room is not None and room is not self.newest and not room.viewers and now - room.asked > _ASKED_S:
                del self.by_code[code], self.slept[code]
                return
        raise Refused("error.too_many_rooms")

    def create(self) -> Room:
        """A new room, awake; its code is one no room of the last days has (an older one's may be reused)."""
        with self.lock:
            self._make_room()
            taken = set(self.by_code) | (self.journal.recent_codes() if self.journal else set())
            room = self._room(new_code(taken))
            if self.journal:
                try:
                    self.journal.open_room(room.code, room.host_token)
                except NotSaved as error:
                    raise Refused("error.not_saved") from error
            self.by_code[room.code] = self.newest = room
        self.awake(room)
        return room

    def _load(self, code: str) -> Room | None:
        """A room of the last days from the journal (asleep), or None. The caller holds self.lock."""
        found = self.journal.recent_rooms(code) if self.journal else []
        if not found:
            return None
        _, host_token, events = found[0]
        self._make_room()
        room = self._room(code)
        room.host_token = host_token
        try:
            with room.lock:
                room.restore(events)
        except Exception:  # a room the current rules cannot replay stays in the file, unloaded
            log.exception("could not restore room %s", code)
            return None
        self.by_code[code] = room
        self._asleep(code)
        return room

    def _asleep(self, code: str) -> None:
        self.sleeps += 1
        self.slept[code] = self.sleeps

    def restore(self) -> int:
        """Bring back the TV's room (the newest of the last days) at start; the others load when asked for."""
        code = self.journal.newest_room() if self.journal else None
        if code is None:
            return 0
        with self.lock:
            room = self._load(code)
            self.newest = room
        return int(room is not None)

    def awake(self, room: Room) -> None:
        """Make sure the room's caller thread runs (a connection arrived, or the room is new)."""
        with self.lock:
            if room.code in self.awake_rooms:
                return
            self.awake_rooms.add(room.code)
            self.slept.pop(room.code, None)
        room.wake.set()
        self.start_caller(room)

    def sleep(self, room: Room) -> bool:
        """Called by an idle caller thread: True (and the thread ends) if nobody is connected to the room."""
        with self.lock, room.lock:
            if room.viewers:
                return False
            self.awake_rooms.discard(room.code)
            self._asleep(room.code)
            return True

    def current(self) -> Room:
        """The room the TV shows: the newest one, or a new lobby if there is none."""
        return self.newest or self.create()

    def get(self, code: str) -> Room | None:
        """The room with this code (loaded from the journal if it is of the last days), or None.

        Refused ("error.too_many_rooms") when it would have to be loaded and every room held is awake."""
        if not isinstance(code, str) or len(code) != 4:
            return None
        code = code.upper()
        room = self.by_code.get(code)
        if room is None and self.journal is not None and all(ch in CODE_ALPHABET for ch in code):
            with self.lock:
                room = self.by_code.get(code) or self._load(code)
        if room is not None:
            room.asked = time.monotonic()
        return room
