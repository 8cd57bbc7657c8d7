"""Who gets in: what each address, all guests together, and the laptop itself may hold of the server.

Three things are held: open HTTP requests (a WebSocket is one for its whole life), Engine.IO sessions
(connected or not) and Socket.IO connections. Each is a `Quota`: capped per guest address, and for all guests
together, while the laptop (its TV, `partyrummy bots`, benchmarks) has a total of its own that guests cannot
use up. On top of that, Engine.IO sessions must connect (Socket.IO's CONNECT) within `connect_s` or they are
closed (`Sessions`), and a seated phone coming back finds room even when guests hold every connection
(`Connections` lets a watcher go for it: the table matters more than watchers).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Quota", "Sessions", "Connections", "CONNECT_S"]

# A page sends its Socket.IO CONNECT right after the Engine.IO handshake; a session without one this long
# after is a stranger's (or a page that gave up): it is closed.
CONNECT_S = 5.0


@dataclass
class Quota:
    """Things held by address: at most `per_address` for one guest address and `guests` for all guests together;
    the laptop's own (`is_local`) up to `local`, whatever the guests hold. Thread-safe."""

    per_address: int
    guests: int
    local: int
    is_local: Callable[[str], bool]
    held: Counter[str] = field(default_factory=Counter)
    guest_total: int = 0
    local_total: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def take(self, address: str) -> bool:
        """Hold one more for `address`, if it may; False (nothing held) if not."""
        with self.lock:
            return self._take(address)

    def _take(self, address: str) -> bool:
        if self.is_local(address):
            if self.local_total >= self.local:
                return False
            self.local_total += 1
        else:
            if self.guest_total >= self.guests or self.held[address] >= self.per_address:
                return False
            self.guest_total += 1
        self.held[address] += 1
        return True

    def give(self, address: str) -> None:
        """One held by `address` is let go."""
        with self.lock:
            self._give(address)

    def _give(self, address: str) -> None:
        if self.held[address] <= 0:
            return
        self.held[address] -= 1
        if not self.held[address]:
            del self.held[address]
        if self.is_local(address):
            self.local_total -= 1
        else:
            self.guest_total -= 1


class Sessions:
    """Engine.IO sessions by address (a `Quota`), and those still to send their Socket.IO CONNECT, with a deadline."""

    def __init__(self, quota: Quota, connect_s: float = CONNECT_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.quota, self.connect_s, self.clock = quota, connect_s, clock
        self.lock = threading.Lock()
        self.address: dict[str, str] = {}  # Engine.IO sid -> the address that opened it
        self.pending: dict[str, float] = {}  # Engine.IO sid -> when it must have connected

    def open(self, eio_sid: str, address: str) -> bool:
        """A new session: counted against its address, and due to connect; False if it may not be opened."""
        if not self.quota.take(address):
            return False
        with self.lock:
            self.address[eio_sid] = address
            self.pending[eio_sid] = self.clock() + self.connect_s
        return True

    def connected(self, eio_sid: str) -> None:
        """The session's Socket.IO connection was accepted: it may stay."""
        with self.lock:
            self.pending.pop(eio_sid, None)

    def idle(self, eio_sid: str) -> None:
        """Its Socket.IO connection ended but the session lives on: it must connect again in time."""
        with self.lock:
            if eio_sid in self.address:
                self.pending[eio_sid] = self.clock() + self.connect_s

    def close(self, eio_sid: str) -> None:
        """The session ended."""
        with self.lock:
            address = self.address.pop(eio_sid, None)
            self.pending.pop(eio_sid, None)
        if address is not None:
            self.quota.give(address)

    def overdue(self) -> list[str]:
        """Sessions past their deadline to connect (to be closed)."""
        now = self.clock()
        with self.lock:
            return [sid for sid, due in self.pending.items() if due <= now]

    def waiting(self) -> bool:
        """Whether any session is still to connect."""
        with self.lock:
            return bool(self.pending)


class Connections:
    """Open Socket.IO connections by address (a `Quota`); a seated phone or the TV may have a watcher let go to get
    in."""

    def __init__(self, quota: Quota, watching: Callable[[str], bool]) -> None:
        self.quota = quota
        self.watching = watching  # whether a connection only watches (no seat): the first to go for a seat
        self.address: dict[str, str] = {}  # sid -> address

    def admit(self, sid: str, address: str, seated: bool = False) -> tuple[bool, str | None]:
        """Whether `sid` may connect, and the watcher to disconnect to make room for it (seated only), if any."""
        quota = self.quota
        with quota.lock:
            if quota._take(address):
                self.address[sid] = address
                return True, None
            if not seated or quota.is_local(address) or quota.held[address] >= quota.per_address:
                return False, None
            victim = self._watcher()
            if victim is None:
                return False, None
            # The watcher's place is the newcomer's at once: its own disconnect then finds nothing to give back.
            quota._give(self.address.pop(victim))
            quota._take(address)
            self.address[sid] = address
            return True, victim

    def _watcher(self) -> str | None:
        """A guest's connection that only watches: the newest from the address holding the most."""
        held = self.quota.held
        guests = [(held[a], n, sid) for n, (sid, a) in enumerate(self.address.items()) if not self.quota.is_local(a)]
        for _, _, sid in sorted(guests, reverse=True):
            if self.watching(sid):
                return sid
        return None

    def forget(self, sid: str) -> None:
        """A connection ended."""
        with self.quota.lock:
            address = self.address.pop(sid, None)
            if address is not None:
                self.quota._give(address)
