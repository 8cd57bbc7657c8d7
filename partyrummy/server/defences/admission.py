"""Who gets in: what the laptop, a seat's address and any other guest may hold of the server.

Four things are held, each counted by a `Quota` of its own (limits.Share gives the numbers): TCP connections
(counted as they are accepted, server.py), open HTTP requests (a WebSocket is one for its whole life, guard.py),
Engine.IO sessions (connected or not) and Socket.IO connections. The laptop has a share guests cannot use up;
guests share the rest, capped per address; and a seat may draw on a reserve of its own when the guests' share is
full, so strangers holding everything never keep a seated phone out: its connections by its token (a few at
once, wherever from), what comes before them by the last few addresses its token came from (`SeatAddresses`).
Engine.IO sessions must also connect (Socket.IO's CONNECT) within their time, or are closed (`Sessions`).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from .deadlines import Watchdog
from .limits import Limits, Share

__all__ = ["Admission", "Quota", "SeatAddresses", "Sessions", "Connections", "LOCAL", "GUEST", "SEAT"]

# The share a thing was taken from, given back to the same one.
LOCAL, GUEST, SEAT = "local", "guest", "seat"


class SeatAddresses:
    """Guest addresses a seat was seen at lately: for each seat's token (or the TV's, on another screen), the last
    `per_seat` addresses it connected from (a phone and a tablet, a phone that changed networks), for the last
    `limit` tokens seen. A stranger's address is never one: it would need a seat's token. A seat's token brought
    from many addresses makes the last few of them a seat's, never all: the reserve stays the seats'.
    """

    def __init__(self, per_seat: int, limit: int) -> None:
        self.per_seat, self.limit = per_seat, limit
        self.seats: OrderedDict[str, list[str]] = OrderedDict()  # token -> its last addresses, the latest last
        self.counted: Counter[str] = Counter()  # address -> how many tokens list it
        self.lock = threading.Lock()

    def add(self, token: str, address: str) -> None:
        with self.lock:
            seen = self.seats.setdefault(token, [])
            self.seats.move_to_end(token)
            if address in seen:
                seen.remove(address)
            else:
                self.counted[address] += 1
            seen.append(address)
            while len(seen) > self.per_seat:
                self._uncount(seen.pop(0))
            while len(self.seats) > self.limit:
                for old in self.seats.popitem(last=False)[1]:
                    self._uncount(old)

    def forget(self, token: str) -> None:
        """A seat's token is no key any more (its seat was released, removed or claimed by another)."""
        with self.lock:
            for address in self.seats.pop(token, []):
                self._uncount(address)

    def _uncount(self, address: str) -> None:
        self.counted[address] -= 1
        if not self.counted[address]:
            del self.counted[address]

    def __contains__(self, address: object) -> bool:
        return address in self.counted


class Quota:
    """Things held by address, from three shares: the laptop's (`is_local`), the guests', and the seats' reserve,
    which an address may draw on once the guests' share refuses it and it is a seat's. Thread-safe."""

    def __init__(self, share: Share, is_local: Callable[[str], bool], seats: SeatAddresses | None = None) -> None:
        self.share, self.is_local, self.seats = share, is_local, seats
        self.held: dict[str, Counter[str]] = {LOCAL: Counter(), GUEST: Counter(), SEAT: Counter()}
        self.totals: Counter[str] = Counter()
        self.lock = threading.Lock()

    def take(self, address: str, seated: bool = False) -> str | None:
        """Hold one more for `address`: the share it came from, or None (nothing held) if it may not.
        `seated`: the caller knows it is a seat's (a seat's token), whether or not its address is known yet."""
        share = self.share
        with self.lock:
            if self.is_local(address):
                return self._hold(LOCAL, address) if self.totals[LOCAL] < share.local else None
            if self.totals[GUEST] < share.guests and self.held[GUEST][address] < share.per_address:
                return self._hold(GUEST, address)
            seat = seated or (self.seats is not None and address in self.seats)
            if seat and self.totals[SEAT] < share.seat_reserves and self.held[SEAT][address] < share.seat_reserve:
                return self._hold(SEAT, address)
            return None

    def _hold(self, kind: str, address: str) -> str:
        self.held[kind][address] += 1
        self.totals[kind] += 1
        return kind

    def give(self, address: str, kind: str) -> None:
        """One held by `address` from share `kind` is let go."""
        with self.lock:
            held = self.held[kind]
            if held[address] <= 0:
                return
            held[address] -= 1
            if not held[address]:
                del held[address]
            self.totals[kind] -= 1

    def holding(self, address: str) -> int:
        """How many `address` holds, from every share."""
        return sum(held[address] for held in self.held.values())


class Sessions:
    """Engine.IO sessions by address (a `Quota`), and those still to send their Socket.IO CONNECT, with a deadline."""

    def __init__(self, quota: Quota, connect_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.quota, self.connect_s, self.clock = quota, connect_s, clock
        self.lock = threading.Lock()
        self.address: dict[str, tuple[str, str]] = {}  # Engine.IO sid -> the address that opened it, and its share
        self.pending: dict[str, float] = {}  # Engine.IO sid -> when it must have connected

    def open(self, eio_sid: str, address: str) -> bool:
        """A new session: counted against its address, and due to connect; False if it may not be opened."""
        kind = self.quota.take(address)
        if kind is None:
            return False
        with self.lock:
            self.address[eio_sid] = (address, kind)
            self.pending[eio_sid] = self.clock() + self.connect_s
        return True

    def opened_by(self, eio_sid: str) -> str | None:
        """The address that opened a live session; None for a session the server does not hold."""
        held = self.address.get(eio_sid)
        return held[0] if held is not None else None

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
            held = self.address.pop(eio_sid, None)
            self.pending.pop(eio_sid, None)
        if held is not None:
            self.quota.give(*held)

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
    """Open Socket.IO connections by address (a `Quota` that knows no seats' addresses): only a connection with a
    seat's token (or the TV's) may draw on the seats' reserve, and `oldest` finds a seat's first connection, to let
    it go when the seat is on as many screens as it may be."""

    def __init__(self, quota: Quota) -> None:
        self.quota = quota
        self.address: dict[str, tuple[str, str]] = {}  # sid -> its address, and the share it holds, oldest first

    def admit(self, sid: str, address: str, seated: bool = False) -> bool:
        """Whether `sid` may connect (then it is counted until `forget`)."""
        kind = self.quota.take(address, seated)
        if kind is None:
            return False
        self.address[sid] = (address, kind)
        return True

    def unseated(self, sid: str) -> bool:
        """A connection's seat is gone (released, removed, claimed by another): it holds a guest's share from now
        on, not the seats' reserve. False if the guests' share has no room for it (then it must go)."""
        held = self.address.get(sid)
        if held is None or held[1] != SEAT:
            return True
        self.quota.give(*held)
        kind = self.quota.take(held[0])
        if kind is None:
            del self.address[sid]
            return False
        self.address[sid] = (held[0], kind)
        return True

    def oldest(self, sids: set[str]) -> str | None:
        """The connection of these that came first (None: none of them is held)."""
        return next((sid for sid in self.address if sid in sids), None)

    def address_of(self, sid: str) -> str | None:
        """The address a live connection came from; None for one not held."""
        held = self.address.get(sid)
        return held[0] if held is not None else None

    def forget(self, sid: str) -> None:
        """A connection ended."""
        held = self.address.pop(sid, None)
        if held is not None:
            self.quota.give(*held)


@dataclass
class Admission:
    """Everything that says who gets in, made once per server: its limits, the seats' addresses, and the quotas of
    TCP connections, requests, sessions and connections, with the watchdog of their deadlines."""

    limits: Limits
    seats: SeatAddresses
    sockets: Quota
    requests: Quota
    sessions: Sessions
    connections: Connections
    watchdog: Watchdog

    @classmethod
    def of(cls, limits: Limits, is_local: Callable[[str], bool]) -> Admission:
        seats = SeatAddresses(limits.seat_screens, limits.seat_addresses)
        return cls(
            limits,
            seats,
            sockets=Quota(limits.sockets, is_local, seats),
            requests=Quota(limits.requests, is_local, seats),
            sessions=Sessions(Quota(limits.sessions, is_local, seats), limits.connect_s),
            # Before a Socket.IO connection nothing tells a seat's phone from anyone else at its address; from the
            # connection on, its token does: the seats' reserve is for seats' tokens alone.
            connections=Connections(Quota(limits.connections, is_local)),
            watchdog=Watchdog(),
        )
