"""Deadlines on sockets: a whole request head, or a whole request body, arrives in time or the socket is shut.

A socket's timeout bounds one read: a stranger sending a byte every few seconds keeps it alive for ever.
A `Watchdog` holds one deadline per thing awaited instead, and shuts the socket when it passes (both ways for a
head, so the connection ends; only its reading side for a body, so the server can still answer 408). Whoever
was waiting on the socket wakes at once, and `Watch.fired` tells it why. One loop (a thread, or a greenlet once
gevent has patched threading) serves every socket of the server.
"""

from __future__ import annotations

import heapq
import itertools
import socket
import threading
import time
from collections.abc import Callable

__all__ = ["Watchdog", "Watch"]


class Watch:
    """One deadline on one socket: `cancel()` once the thing awaited is in; `fired` if the socket was shut for it."""

    __slots__ = ("sock", "how", "due", "fired", "cancelled")

    def __init__(self, sock: socket.socket, how: int, due: float) -> None:
        self.sock, self.how, self.due = sock, how, due
        self.fired = self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


class Watchdog:
    """Shuts sockets whose deadline passed, looking every `tick` seconds (a deadline is kept to within a tick;
    `tick` None: nobody looks but who calls `fire_due`, as a test does)."""

    def __init__(self, tick: float | None = 0.25, clock: Callable[[], float] = time.monotonic) -> None:
        self.tick, self.clock = tick, clock
        self.due: list[tuple[float, int, Watch]] = []
        self.order = itertools.count()
        self.lock = threading.Lock()
        self.loop: threading.Thread | None = None

    def watch(self, sock: socket.socket, seconds: float, how: int = socket.SHUT_RDWR) -> Watch:
        """A deadline `seconds` from now for `sock`: past it, the socket is shut (`how`) unless cancelled first."""
        watch = Watch(sock, how, self.clock() + seconds)
        with self.lock:
            heapq.heappush(self.due, (watch.due, next(self.order), watch))
            if self.loop is None and self.tick is not None:
                self.loop = threading.Thread(target=self._run, name="deadlines", daemon=True)
                self.loop.start()
        return watch

    def _run(self) -> None:
        while True:
            time.sleep(self.tick)
            self.fire_due()

    def fire_due(self) -> int:
        """Shut every socket past its deadline now (the loop's work; a test may call it); how many were shut."""
        now, overdue = self.clock(), []
        with self.lock:
            while self.due and (self.due[0][0] <= now or self.due[0][2].cancelled):
                watch = heapq.heappop(self.due)[2]
                if not watch.cancelled:
                    overdue.append(watch)
        for watch in overdue:
            watch.fired = True
            try:
                watch.sock.shutdown(watch.how)
            except OSError:
                pass  # closed meanwhile: nothing to wake
        return len(overdue)
