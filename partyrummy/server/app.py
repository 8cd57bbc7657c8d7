"""The app factory: every mutable thing of a server is made here and lives in the app."""

from __future__ import annotations

import logging
import secrets
import socket
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from flask_socketio import SocketIO

from ..i18n import default_catalogs
from ..resources import resource_path
from ..rules.variants import Variant, default_variants
from .defences.admission import Admission
from .defences.guard import Guard
from .defences.limits import LIMITS, Limits
from .defences.netaddr import interface_addresses, is_loopback
from .pages.assets import register_assets
from .pages.pages import register_pages
from .room.room import Refused, Room
from .room.rooms import Rooms
from .storage.journal import Journal, NotSaved, default_data_path
from .transport.payloads import WirePacket
from .transport.readahead import bounded_websocket
from .transport.sockets import guard_sessions, register_sockets
from .transport.stream import ForgettingManager, Stream

__all__ = ["create_app", "served_names", "IDLE_S"]

log = logging.getLogger(__name__)

# A room nobody is connected to, with nothing due, lets its caller thread go after this long (it sleeps);
# the next connection wakes it.
IDLE_S = 60.0


def served_names(public_url: str, extra: set[str] | None = None) -> set[str]:
    """The Host names this server answers to: loopback, this machine's names and addresses, the public URL's."""
    names = {"localhost", "127.0.0.1", "::1", "::ffff:127.0.0.1"}
    names |= {address for _, address in interface_addresses()}
    host = socket.gethostname().lower()
    names |= {host, f"{host}.local", host.split(".")[0]}
    if urlsplit(public_url).hostname:
        names.add(urlsplit(public_url).hostname.lower())
    return names | (extra or set())


def create_app(config: dict[str, Any] | None = None) -> tuple[Flask, SocketIO]:
    """A Flask app and its SocketIO server.

    Config: PUBLIC_URL (for the QR code), VARIANTS, SEED (fixed deals), DATA (the rooms' SQLite file),
    EVENT_RATE (events a second one connection may send, default 10), ASYNC_MODE ("threading" or "gevent"),
    HOSTS (more Host names to answer to), HOLDER (how the journal's lock names this server to a second one),
    LIMITS (a limits.Limits: the command line's, sized under its descriptors; tests change some),
    CAPACITY (load tests: the laptop's own share of everything held raised by as many),
    IS_LOCAL (tests only, set in code: which peer addresses are the laptop; loopback by default).
    """
    config = dict(config or {})
    app = Flask(
        __name__,
        template_folder=str(resource_path("templates")),
        static_folder=None,  # /static is served minified and compressed (pages/assets.py)
    )
    app.config.update(DEBUG=False, PUBLIC_URL="http://127.0.0.1:5000")
    app.config.update(config)
    variants: dict[str, Variant] = app.config.get("VARIANTS") or default_variants()
    limits: Limits = app.config.get("LIMITS") or LIMITS
    if app.config.get("EVENT_RATE"):
        limits = limits.changed({"event_rate": app.config["EVENT_RATE"]})
    if app.config.get("CAPACITY"):  # load tests only (hidden --capacity): the laptop's shares, scaled
        limits = limits.scaled(app.config["CAPACITY"])
    is_local = app.config.get("IS_LOCAL") or is_loopback  # the laptop itself: one answer for every check
    admission = Admission.of(limits, is_local)

    def emit(sid: str, event: str, payload: dict) -> None:
        socketio.emit(event, payload, to=sid)

    def publish(code: str, event: str, payload: dict) -> None:
        """To every connection of a room at once: python-socketio encodes the packet once for them all."""
        socketio.emit(event, payload, to=code)

    # Views go out as the changes since the connection's last one; what it was sent is dropped when it leaves.
    stream = Stream(emit)
    socketio = SocketIO(
        app,
        # The command line serves on gevent (server/serve.py); an app made in-process (tests) on threads.
        async_mode=app.config.get("ASYNC_MODE") or "threading",
        max_http_buffer_size=limits.transport_bytes,
        serializer=WirePacket,  # a depth- and size-limited decoder: bad JSON is answered, never a traceback
        # One connection's events are handled in order in its own reading thread, not a new thread each:
        # a flood costs its sender's thread, never the server's.
        async_handlers=False,
        client_manager=ForgettingManager(stream.forget),
        logger=False,
        engineio_logger=False,
    )

    eio = socketio.server.eio
    # A copy: the driver's table is shared by every server of the process. In either mode, simple-websocket with
    # a reader bounded and cut off on a flood (with gevent, on greenlets: the CLI patches threading first).
    eio._async = {**eio._async, "websocket": bounded_websocket(limits.rate("flood"))}

    def start_caller(room: Room) -> None:
        socketio.start_background_task(_caller_loop, room, rooms.sleep)

    public_url = app.config["PUBLIC_URL"]
    journal = Journal(app.config.get("DATA") or default_data_path(), holder=app.config.get("HOLDER") or public_url)
    # Opens the TV page on a screen other than this laptop's; kept, so such a screen survives a restart.
    app.config["SCREEN_KEY"] = journal.setting("screen_key", lambda: secrets.token_urlsafe(12))
    rooms = Rooms(
        variants,
        stream.send,
        start_caller,
        seed=app.config.get("SEED"),
        journal=journal,
        catalogs=default_catalogs(),
        limit=limits.rooms,
        publish=publish,
    )
    rooms.restore()
    app.extensions["partyrummy.rooms"] = rooms
    app.extensions["partyrummy.stream"] = stream
    app.extensions["partyrummy.admission"] = admission
    register_assets(app, resource_path("static"))
    register_pages(app, rooms, public_url, app.config["SCREEN_KEY"], is_local)

    app.extensions["partyrummy.backlog"] = guard_sessions(socketio, admission)
    register_sockets(
        socketio,
        rooms,
        admission,
        is_local,
        public_url=public_url,
    )
    app.wsgi_app = Guard(  # type: ignore[method-assign]
        app.wsgi_app,
        hosts=served_names(public_url, set(app.config.get("HOSTS") or ())),
        limits=limits,
        requests=admission.requests,
        session_address=admission.sessions.opened_by,
        watchdog=admission.watchdog,
    )
    return app, socketio


def _caller_loop(room: Room, sleep: Any) -> None:
    """The caller of one room: make each due call, then sleep until the next deadline (a command that brings a
    sooner one wakes it: Room.replan).

    With nobody connected and nothing due for IDLE_S, the thread ends and the room sleeps (`sleep(room)`
    decides under the rooms' lock, so a connection arriving meanwhile keeps it awake).
    """
    failing = False
    while True:
        room.wake.clear()
        try:
            with room.lock:
                room.sleeps_until = float("-inf")  # awake: nothing it does here need wake it again
                due = room.tick()
                room.announce_drops()
                room.flush()
                deadline = room.sleeps_until = room.next_deadline(due)
                now = room.clock()
            failing = False
        except Refused as error:  # the disk refused a call: nothing was applied; try again in a moment
            if not failing and isinstance(error.__cause__, NotSaved):
                log.warning("room %s: could not save (%s); trying again", room.code, error.__cause__)
            failing = True
            now = room.clock()
            deadline = room.sleeps_until = now + 1.0
        except Exception:  # keep calling even if one tick fails
            log.exception("caller of room %s", room.code)
            deadline, now = None, 0.0
        woken = room.wake.wait(IDLE_S if deadline is None else max(0.0, deadline - now))
        if not woken and deadline is None and sleep(room):
            return
