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

from ..rules.variants import Variant
from .app import create_app
from .collector import fewer_full_collections
from .defences.limits import LIMITS
from .defences.netaddr import lan_address
from .storage.journal import Journal, default_data_path
from .transport.httpd import gevent_server, raise_descriptor_limit, threaded_server

__all__ = ["serve", "DEFAULT_PORT", "PORTS_TRIED"]

# Not 5000 (AirPlay Receiver on many Macs) nor 8000/8080 (every other dev server): "3-13", the hand sizes.
DEFAULT_PORT = 3313
PORTS_TRIED = 20  # on a clash, the next ports looked at for a free one


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (OSError if taken or not ours to use)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Werkzeug does: a restart need not wait
        sock.bind((host, port))
        # Connections not yet accepted wait here: a crowd arriving at once (each phone opens several) and a guest's
        # flood of connections, which the server accepts only to close past its address's share, both fit.
        sock.listen(1024)
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
    limits = LIMITS.for_descriptors(raise_descriptor_limit())  # every TCP connection holds a descriptor
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
                "LIMITS": limits,
            }
        )
    except Exception as error:  # opening the rooms' file is what fails here; the host gets one line, not a traceback
        listener.close()
        print(f"partyrummy: {_start_failure(error, data)}", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    admission = app.extensions["partyrummy.admission"]  # the limits as the app made them (a load test's scaled)
    serving = threaded_server if args.async_mode == "threading" else gevent_server
    server = serving(listener, app, admission)
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
