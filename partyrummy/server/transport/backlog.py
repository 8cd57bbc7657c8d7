"""Connections that do not read what they are sent: found, and dropped, before what waits for them holds the laptop.

What the server sends a connection waits in two places: its Engine.IO queue (every packet not yet written: a
long-polling client that never asks for them, or a WebSocket whose writer is blocked), then the kernel's buffer of
its socket (kept small: httpd.py). A client that sends and never reads (a script asking for the whole view over and
over) fills both, and nothing else would ever let them go. One loop looks at every session once a second: a session
whose queue holds more than `Limits.backlog_bytes`, or a WebSocket that could not hand the kernel a frame for
`Limits.send_s`, is dropped. Its socket is shut first (so a writer blocked on it wakes), then the session is closed
without waiting for anyone: dropping a connection never waits on it, and the room only hears that it left.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..defences.limits import Limits

__all__ = ["Backlog", "Frames", "queued_bytes"]

log = logging.getLogger(__name__)

SWEEP_S = 1.0  # how often every session is looked at


class Frames(Protocol):
    """What a WebSocket's writer is doing (readahead.py keeps one for each WebSocket, on its Engine.IO session as
    `session.frames`): since when it has been handing the kernel one frame (None: idle), and how to shut its
    socket."""

    since: float | None

    def cut(self) -> None: ...


def queued_bytes(session: Any) -> int:
    """What waits in an Engine.IO session's queue, in characters of its packets (its byte size, near enough)."""
    total = 0
    for packet in list(getattr(session.queue, "queue", ())):
        data = getattr(packet, "data", None)
        total += len(data) if isinstance(data, str | bytes) else 16
    return total


class Backlog:
    """The loop that drops sessions whose clients do not read (`start` it with each new session: it ends once no
    session is left, and the next starts it again)."""

    def __init__(
        self,
        eio: Any,
        limits: Limits,
        spawn: Callable[..., Any],
        sleep: Callable[[float], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.eio, self.limits, self.spawn, self.sleep, self.clock = eio, limits, spawn, sleep, clock
        self.running = threading.Lock()  # held while the loop runs: one at a time
        self.dropped = 0

    def start(self) -> None:
        if self.running.acquire(blocking=False):
            self.spawn(self._run)

    def _run(self) -> None:
        while True:
            while self.eio.sockets:
                self.sleep(SWEEP_S)
                self.sweep()
            self.running.release()
            if not (self.eio.sockets and self.running.acquire(blocking=False)):
                return  # a session that came in between the look and the release starts it again, or this goes on

    def sweep(self) -> int:
        """Drop every session that holds too much unsent, or whose WebSocket could not send for too long; how many."""
        now, dropped = self.clock(), 0
        for eio_sid, session in list(self.eio.sockets.items()):
            frames = getattr(session, "frames", None)
            stuck = frames is not None and frames.since is not None and now - frames.since > self.limits.send_s
            if stuck or queued_bytes(session) > self.limits.backlog_bytes:
                self.drop(eio_sid, session, frames)
                dropped += 1
        self.dropped += dropped
        return dropped

    def drop(self, eio_sid: str, session: Any, frames: Frames | None) -> None:
        if frames is not None:
            frames.cut()  # its writer, blocked on a client that never reads, wakes and ends
        self.eio.sockets.pop(eio_sid, None)
        try:
            session.close(wait=False, abort=True, reason=self.eio.reason.SERVER_DISCONNECT)
        except Exception:  # noqa: BLE001  a session half gone already: it is out of the list, which is what counts
            log.debug("closing session %s", eio_sid, exc_info=True)
