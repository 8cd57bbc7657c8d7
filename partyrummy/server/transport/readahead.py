"""WebSockets that read a connection no further ahead than its messages are handled, and cut off a flood
(in both concurrency modes: on threads, or on greenlets with gevent).

simple-websocket, which Engine.IO uses in threading mode, reads each socket in a thread of its own and
queues every message without bound. A client that floods would have its messages parsed as fast as it
sends them, starving every other thread of the interpreter, and piling up in memory. Here the reading
thread waits while a connection has READ_AHEAD messages not yet handled (the flood waits in its own TCP
buffers), and a connection that sends far more than the server's event rate allows (limits.Limits.rate("flood"):
far above play, where a phone sends a few a cycle) is closed at the socket: shutting it down also frees a writer
blocked on a client that never reads. Each WebSocket's writer says since when it has waited on the kernel for one
frame (backlog.py drops a client that leaves it waiting), and once the server has said goodbye nothing more of the
client is read: simple-websocket would read on for as long as the client sends.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import simple_websocket
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

from ..defences.buckets import TokenBucket
from ..defences.limits import LIMITS, Rate

__all__ = ["BoundedWebSocketWSGI", "bounded_websocket", "READ_AHEAD"]

READ_AHEAD = 16  # messages read but not yet handled, per connection
_WAIT_S = 1.0  # how often a waiting reader looks whether the connection closed meanwhile


class _WholeSends:
    """A socket whose send() sends all it is given, one frame after another.

    simple-websocket writes each frame with a single send(). A blocking socket sends it whole; gevent's
    socket, non-blocking underneath, sends what the kernel's buffer takes and returns the count, which
    simple-websocket does not look at: the rest of a large state to a phone that reads slowly was lost and
    the browser dropped the connection ("Invalid frame header"). sendall() under a lock, so that frames
    from two writers (the writer and a pong or close) never interleave.
    """

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._lock = threading.Lock()
        self.since: float | None = None  # since when a frame has waited for the kernel to take it (backlog.Frames)
        self.cut: Callable[[], None] = lambda: None  # shuts the connection (the server's, once it is made)

    def send(self, data: bytes, flags: int = 0) -> int:
        with self._lock:
            self.since = time.monotonic()
            try:
                self._sock.sendall(data, flags)
            finally:
                self.since = None
        return len(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _WholeFrames(simple_websocket.ws.Base):
    """Where simple-websocket's Server hands its socket to the base class: the socket sends whole frames."""

    def __init__(self, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
        super().__init__(_WholeSends(sock), *args, **kwargs)


class _BoundedServer(simple_websocket.Server, _WholeFrames):
    def __init__(self, *args: Any, budget: TokenBucket, **kwargs: Any) -> None:
        self.drained = threading.Event()  # before the reader thread starts in the base class
        self.budget = budget
        self.closed_here = False  # the server said goodbye: nothing more is read
        super().__init__(*args, **kwargs)
        self.sock.cut = self._cut

    def _handle_events(self) -> bool:
        before = len(self.input_buffer)
        keep_going = super()._handle_events()
        if self.closed_here:
            # simple-websocket's reader would read on after our close frame for as long as the client sends (it
            # sets `connected` from this answer): a client that ignores the goodbye keeps nothing open.
            return False
        for _ in range(len(self.input_buffer) - before):
            if not self.budget.take():
                self._cut()
                return False
        while keep_going and self.connected and len(self.input_buffer) >= READ_AHEAD:
            self.drained.clear()
            self.drained.wait(_WAIT_S)
        return keep_going

    def _cut(self) -> None:
        """Drop a flooding connection: what it sent and had not been handled is discarded with it."""
        self.input_buffer.clear()
        self.connected = False
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already gone
        self.event.set()  # the handler's receive() sees the connection closed

    def receive(self, timeout: float | None = None) -> Any:
        message = super().receive(timeout)
        self.drained.set()
        return message

    def close(self, reason: Any = None, message: Any = None) -> None:
        self.closed_here = True
        try:
            super().close(reason, message)
        finally:
            self.drained.set()  # a reader waiting for room wakes and sees the connection gone


class BoundedWebSocketWSGI(SimpleWebSocketWSGI):
    """Engine.IO's threading WebSocket driver, with the bounded reader above (the rest as the original)."""

    flood: Rate = LIMITS.rate("flood")  # what a connection may send before it is cut off

    def __call__(self, environ: dict, start_response: Any) -> Any:
        budget = TokenBucket.of(self.flood)
        self.ws = _BoundedServer(environ, budget=budget, **self.server_args)
        session = getattr(self.app, "__self__", None)  # the Engine.IO session this WebSocket carries
        if session is not None:
            session.frames = self.ws.sock  # the backlog's sweep sees a writer that the client keeps waiting
        try:
            ret = self.app(self)
        except OSError:
            # Engine.IO's upgrade answers the client's probe without asking whether it is still there: a page
            # that leaves mid-upgrade makes that send fail. A connection already closed simply ends.
            if self.ws.connected:
                raise
            ret = []
        if self.ws.mode == "gunicorn":
            raise StopIteration()
        if self.ws.mode == "werkzeug":
            raise ConnectionError()
        return ret


def bounded_websocket(flood: Rate) -> type[BoundedWebSocketWSGI]:
    """The driver for a server whose connections are cut off past `flood` (a test lifts the event rate)."""
    return type("BoundedWebSocketWSGI", (BoundedWebSocketWSGI,), {"flood": flood})
