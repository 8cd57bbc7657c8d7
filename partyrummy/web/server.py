"""`partyrummy` with no command: serve the party on the LAN and print where to find it."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import logging
import socket
import sqlite3
import sys
import threading
import webbrowser
from pathlib import Path
from urllib.parse import urlsplit

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from ..variants import Variant
from .app import create_app
from .collector import fewer_full_collections
from .journal import Journal, default_data_path
from .netaddr import lan_address

__all__ = ["serve", "NoDelayServer", "QuietHandler", "DEFAULT_PORT", "PORTS_TRIED"]

# Not 5000 (AirPlay Receiver on many Macs) nor 8000/8080 (every other dev server): "3-13", the hand sizes.
DEFAULT_PORT = 3313
PORTS_TRIED = 20  # on a clash, the next ports looked at for a free one


HEAD_TIMEOUT_S = 10.0  # a phone sends its request's head at once; only a stranger's junk takes longer


class QuietHandler(WSGIRequestHandler):
    """Werkzeug's request handler, minus two things the host's terminal and the network need not see.

    - After a WebSocket session, engine.io's driver ends the request by raising ConnectionError, and
      Werkzeug calls connection_dropped() but then, the request being HTTP/1.1 keep-alive, reads the
      socket again for a next request: what it finds is the phone's WebSocket close frame
      (b"\\x88\\x82..."), logged as "code 400, Bad request syntax". A dropped connection is over.
    - No `Server: Werkzeug/x Python/y` banner: nothing on the LAN needs our versions.

    And one thing it adds: a connection must send its request's head within HEAD_TIMEOUT_S, or it is
    closed. Without it, a stranger's socket that never sends a request (or sends it a byte at a time)
    held a thread and a file for ever. Once the head is in, the timeout is lifted: a long-polling wait or a
    WebSocket may be quiet for longer, and the app bounds request bodies itself (limits.Guard).
    """

    def connection_dropped(self, error: BaseException, environ: dict | None = None) -> None:
        self.close_connection = True

    def handle_one_request(self) -> None:
        self.connection.settimeout(HEAD_TIMEOUT_S)
        super().handle_one_request()

    def parse_request(self) -> bool:
        ok = super().parse_request()
        self.connection.settimeout(None)
        return ok

    def log_error(self, format: str, *args: object) -> None:
        if not format.startswith("Request timed out"):  # a silent stranger is not the host's business
            super().log_error(format, *args)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.log_request(code)
        self.send_response_only(code, message)
        self.send_header("Date", self.date_time_string())


class NoDelayServer(ThreadedWSGIServer):
    """Werkzeug's threaded server with TCP_NODELAY on every connection.

    Without it, Nagle's algorithm meets delayed ACKs on our small frames and
    adds ~40 ms to every reveal (FACTS.md; bench/room.py shows it).
    """

    daemon_threads = True  # Ctrl-C must not wait for every phone's WebSocket to end
    block_on_close = False

    def get_request(self) -> tuple[socket.socket, object]:
        conn, address = super().get_request()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, address


def _gevent(listener: socket.socket, app: object) -> object:
    """gevent's WSGI server, with TCP_NODELAY like NoDelayServer, the request-head timeout of QuietHandler, and
    the same two methods serve() calls. WebSockets are Engine.IO's simple-websocket driver on greenlets (the
    bounded one, web/readahead.py), as in threading mode."""
    from gevent import get_hub
    from gevent.pywsgi import WSGIHandler, WSGIServer

    class HeadTimeoutHandler(WSGIHandler):
        """A connection sends its request's head within HEAD_TIMEOUT_S or is closed (see QuietHandler)."""

        timed_out = False

        def handle_one_request(self) -> object:
            self.socket.settimeout(HEAD_TIMEOUT_S)
            answer = super().handle_one_request()
            return None if self.timed_out else answer  # None: closed without a word, as a silent one is

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

        def read_request(self, raw_requestline: str) -> object:
            try:
                return super().read_request(raw_requestline)
            except TimeoutError:
                self.timed_out = True
                return False
            finally:
                if self.socket is not None:
                    self.socket.settimeout(None)

    class NoDelayGevent(WSGIServer):
        def handle(self, sock: socket.socket, address: object) -> None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            super().handle(sock, address)

        def server_close(self) -> None:
            self.stop(timeout=0.5)

    hub = get_hub()
    hub.NOT_ERROR = (*hub.NOT_ERROR, KeyboardInterrupt)  # Ctrl+C ends serve_forever; the hub need not print it
    return NoDelayGevent(listener, app, log=None, handler_class=HeadTimeoutHandler)


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (OSError if taken or not ours to use)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Werkzeug does: a restart need not wait
        sock.bind((host, port))
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock


def _free_port_after(host: str, port: int) -> int | None:
    for candidate in range(port + 1, min(port + 1 + PORTS_TRIED, 65536)):
        try:
            _bind(host, candidate).close()
            return candidate
        except OSError:
            continue
    return None


def _listen(host: str, port: int | None) -> socket.socket | None:
    """Bind the port asked for; with no --port, the default or the next free one. Prints why not, if not."""
    wanted = port or DEFAULT_PORT
    try:
        return _bind(host, wanted)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            print(f"partyrummy: cannot listen on {host}:{wanted}: {error.strerror or error}", file=sys.stderr)
            return None
    free = _free_port_after(host, wanted)
    if port is None and free is not None:
        print(f"Port {wanted} is in use by another program; using port {free} instead.", flush=True)
        return _bind(host, free)
    offer = f" Port {free} is free: partyrummy --port {free}" if free else " Try another: partyrummy --port N"
    print(f"partyrummy: port {wanted} is in use by another program.{offer}", file=sys.stderr)
    return None


def _url_host(host: str) -> str:
    """The address phones would use for a server bound to `host`."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # a name, such as localhost or the laptop's own
    if ip.is_unspecified:
        return lan_address()
    return f"[{host}]" if ip.version == 6 else host


def _reach_note(host: str, public_url: str, given: bool) -> str | None:
    """What the host must know when phones cannot reach the printed address; None when they can."""
    if given:
        return None
    if _is_loopback(host):
        return "Only this computer can open it: phones need --host 0.0.0.0 (all interfaces)."
    if _is_loopback(urlsplit(public_url).hostname or ""):
        return "No network found: phones cannot reach this laptop. Join the Wi-Fi and start again (or --public-url)."
    return None


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _data_path(args: argparse.Namespace) -> Path:
    return Path(args.data).expanduser() if args.data else default_data_path()


def _renew_tv_key(path: Path) -> None:
    """Forget the kept TV key, so the app makes a new one (journal.setting makes a missing value)."""
    journal = Journal(path)
    try:
        with journal.lock:
            journal.db.execute("DELETE FROM settings WHERE name = ?", ("screen_key",))
    finally:
        journal.close()


def _start_failure(error: Exception, data: Path) -> str:
    """One line for the host on why the app could not start: nearly always its rooms' file (the journal)."""
    if isinstance(error, (OSError, sqlite3.Error)):
        reason = getattr(error, "strerror", None) or str(error)
        return f"cannot keep rooms in {data}: {reason} (--data: a file in a folder you can write)"
    # Such as another server holding the same file: the journal's own words say what to do.
    return f"cannot keep rooms in {data}: {error}"


def serve(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    """Serve until Ctrl+C; returns the exit code (non-zero if it could not start)."""
    data = _data_path(args)
    if data.is_dir():
        example = data / "rooms.sqlite3"
        print(f"partyrummy: --data {data} is a folder; give a file path, such as {example}", file=sys.stderr)
        return 2
    listener = _listen(args.host, args.port)
    if listener is None:
        return 1
    port = listener.getsockname()[1]
    public_url = (args.public_url or f"http://{_url_host(args.host)}:{port}").rstrip("/")
    try:
        if getattr(args, "new_tv_key", False):
            _renew_tv_key(data)
        app, _ = create_app(
            {
                "PUBLIC_URL": public_url,
                "VARIANTS": variants,
                "SEED": args.seed,
                "DATA": data,
                "EVENT_RATE": args.event_rate,
                "ASYNC_MODE": args.async_mode,
                "CAPACITY": getattr(args, "capacity", None),
            }
        )
    except Exception as error:  # opening the rooms' file is what fails here; the host gets one line, not a traceback
        listener.close()
        print(f"partyrummy: {_start_failure(error, data)}", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    if args.async_mode == "threading":
        server = NoDelayServer(args.host, port, app, handler=QuietHandler, fd=listener.fileno())
        listener.close()  # Werkzeug holds its own copy of the socket
    else:
        server = _gevent(listener, app)
    room = app.extensions["partyrummy.rooms"].current()
    tv = f"{public_url}/?key={app.config['SCREEN_KEY']}"
    fewer_full_collections()
    print("PartyRummy is ready.", flush=True)
    print(f"  TV (open this on the big screen; keep the key to yourself): {tv}", flush=True)
    join = f"{public_url}/join/{room.code}"
    print(f"  Phones join room {room.code} at {join} (or scan the QR code on the TV)", flush=True)
    note = _reach_note(args.host, public_url, bool(args.public_url))
    if note:
        print(f"  {note}", flush=True)
    print(f"  Listening on {args.host}:{port}. Ctrl+C to stop.", flush=True)
    print(f"  Rooms are kept in {data}", flush=True)
    if args.open:
        threading.Timer(0.5, webbrowser.open, args=(tv,)).start()
    try:
        server.serve_forever()  # Werkzeug's returns on Ctrl+C (it swallows KeyboardInterrupt); gevent's raises it
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("\nBye!", flush=True)
    return 0
