"""The HTTP servers under the app: gevent's (the default) and Werkzeug's threaded one, each with what a party on
open Wi-Fi needs below the WSGI layer.

- TCP_NODELAY on every connection: without it, Nagle's algorithm meets delayed ACKs on our small frames and adds
  ~40 ms to every reveal (bench/room.py shows it).
- TCP connections counted per address as they are accepted (admission.Quota, limits.Limits.sockets): one past
  its address's share is closed at once, before a greenlet or a thread is spent on it.
- One deadline for a request's whole head (limits.Limits.head_s), however slowly it trickles in (deadlines.py);
  a connection that misses it is closed without a word, and one that is over or idle is not logged.
- The request's socket in its environ (guard.SOCKET_KEY), so the guard can bound the body's time, or shut the
  reading side of a body it will not read.
- No `Server: Werkzeug/x Python/y` banner: nothing on the LAN needs our versions.
"""

from __future__ import annotations

import socket
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from ..defences.admission import Admission, Quota
from ..defences.guard import SOCKET_KEY

__all__ = ["threaded_server", "gevent_server", "raise_descriptor_limit"]

# Tried in turn where the hard limit is "unlimited" (macOS), which setrlimit refuses above the kernel's own cap.
_DESCRIPTORS_TRIED = (65_536, 24_576, 10_240)
# Connections accepted in one go before the accept loop lets others run (those past their share included).
_ACCEPTS_AT_ONCE = 100


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open descriptors to what the machine allows (at most 65,536); the limit
    it has now. Each TCP connection holds one from the moment it is accepted (Linux's default soft limit: 1,024,
    macOS's 256)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return _DESCRIPTORS_TRIED[-1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else []
    for target in [min(t, _DESCRIPTORS_TRIED[0]) for t in wanted] + list(_DESCRIPTORS_TRIED):
        if target <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            continue
    return soft


class _Held:
    """The TCP connections a server holds, each with the share of `sockets` it was accepted from."""

    def __init__(self, sockets: Quota, send_buffer: int) -> None:
        self.sockets, self.send_buffer = sockets, send_buffer
        self.held: dict[int, tuple[str, str]] = {}

    def accept(self, sock: socket.socket, address: Any) -> bool:
        host = address[0] if isinstance(address, tuple) else str(address)
        kind = self.sockets.take(host)
        if kind is None:
            return False
        self.held[id(sock)] = (host, kind)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # The kernel keeps this much unread for a client, not the megabytes it would grow to for one that never reads
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
        return True

    def closed(self, sock: socket.socket) -> None:
        held = self.held.pop(id(sock), None)
        if held is not None:
            self.sockets.give(*held)


def threaded_server(listener: socket.socket, app: Any, admission: Admission) -> Any:
    """Werkzeug's threaded server on `listener`, as above (a thread per connection: kept for comparing)."""
    watchdog, head_s = admission.watchdog, admission.limits.head_s

    class Handler(WSGIRequestHandler):
        def connection_dropped(self, error: BaseException, environ: dict | None = None) -> None:
            # Engine.IO ends a WebSocket by raising ConnectionError; Werkzeug would then read the socket again
            # for a next request and log the phone's close frame as a bad request. A dropped connection is over.
            self.close_connection = True

        def handle_one_request(self) -> None:
            self.head_watch = watchdog.watch(self.connection, head_s)
            try:
                super().handle_one_request()
            finally:
                self.head_watch.cancel()
            if self.head_watch.fired:
                self.close_connection = True

        def parse_request(self) -> bool:
            try:
                ok = super().parse_request()
            finally:
                self.head_watch.cancel()
            return ok and not self.head_watch.fired

        def log_error(self, format: str, *args: object) -> None:
            if not format.startswith("Request timed out"):  # a silent stranger is not the host's business
                super().log_error(format, *args)

        def send_response(self, code: int, message: str | None = None) -> None:
            self.log_request(code)
            self.send_response_only(code, message)
            self.send_header("Date", self.date_time_string())

    class Server(ThreadedWSGIServer):
        daemon_threads = True  # Ctrl-C must not wait for every phone's WebSocket to end
        block_on_close = False

        def verify_request(self, request: Any, client_address: Any) -> bool:
            return held.accept(request, client_address)

        def shutdown_request(self, request: Any) -> None:
            held.closed(request)
            super().shutdown_request(request)

    held = _Held(admission.sockets, admission.limits.send_buffer)
    host, port = listener.getsockname()[:2]
    server = Server(host, port, app, handler=Handler, fd=listener.fileno())
    listener.close()  # Werkzeug holds its own copy of the socket
    return server


def gevent_server(listener: socket.socket, app: Any, admission: Admission) -> Any:
    """gevent's WSGI server on `listener`, as above. WebSockets are Engine.IO's simple-websocket driver on
    greenlets (the bounded one, server/transport/readahead.py), as in threading mode."""
    watchdog, head_s = admission.watchdog, admission.limits.head_s
    from gevent import get_hub
    from gevent.pywsgi import WSGIHandler, WSGIServer

    class Handler(WSGIHandler):
        def handle_one_request(self) -> object:
            self.head_watch = watchdog.watch(self.socket, head_s)
            try:
                answer = super().handle_one_request()
            finally:
                self.head_watch.cancel()
            return None if self.head_watch.fired else answer  # None: closed without a word, as a silent one is

        def read_request(self, raw_requestline: str) -> object:
            try:
                ok = super().read_request(raw_requestline)
            except OSError:  # its socket shut by the deadline while the headers were read
                if not self.head_watch.fired:
                    raise
                ok = False
            finally:
                self.head_watch.cancel()
            return ok and not self.head_watch.fired

        def get_environ(self) -> dict:
            environ = super().get_environ()
            environ[SOCKET_KEY] = self.socket
            return environ

        def process_result(self) -> None:
            upgrade = self.environ.get("HTTP_UPGRADE", "").lower() == "websocket"
            if upgrade and (self.status is None or self.status.startswith(b"200")):  # gevent's status: bytes
                # Engine.IO answers an upgrade 200 once its WebSocket has ended, or nothing if the page left in
                # the middle of it (a refusal is a 400, sent as usual). The socket was the WebSocket's: that
                # "200 OK" would reach the browser as a bad frame, and what follows is no next request (Werkzeug
                # is told the same by a ConnectionError).
                self.close_connection = True
                return
            super().process_result()

    class Server(WSGIServer):
        def do_read(self) -> tuple[socket.socket, Any] | None:
            for _ in range(_ACCEPTS_AT_ONCE):
                accepted = super().do_read()
                if not accepted:
                    return None
                if held.accept(*accepted):
                    return accepted
                accepted[0].close()  # past its address's share: closed before any greenlet is spent on it
            return None

        def do_close(self, sock: socket.socket, *args: Any) -> None:
            held.closed(sock)
            super().do_close(sock, *args)

        def server_close(self) -> None:
            self.stop(timeout=0.5)

    held = _Held(admission.sockets, admission.limits.send_buffer)
    hub = get_hub()
    hub.NOT_ERROR = (*hub.NOT_ERROR, KeyboardInterrupt)  # Ctrl+C ends serve_forever; the hub need not print it
    return Server(listener, app, log=None, handler_class=Handler)
