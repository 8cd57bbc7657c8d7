"""The app factory: every mutable thing of a server is made here and lives in the app."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from flask import Flask
from flask_socketio import SocketIO

from ..i18n import default_catalogs
from ..resources import resource_path
from ..variants import Variant, default_variants
from .journal import Journal, default_data_path
from .pages import register_pages
from .room import Room
from .rooms import Rooms
from .sockets import register_sockets

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def create_app(config: dict[str, Any] | None = None) -> tuple[Flask, SocketIO]:
    """A Flask app and its SocketIO server.

    Config: PUBLIC_URL (for the QR code), VARIANTS, SEED (fixed deals), DATA (the rooms' SQLite file),
    EVENT_RATE (events a second one connection may send, default 10), ASYNC_MODE ("threading" or "gevent").
    """
    config = dict(config or {})
    app = Flask(
        __name__,
        template_folder=str(resource_path("templates")),
        static_folder=str(resource_path("static")),
        static_url_path="/static",
    )
    app.config.update(DEBUG=False, PUBLIC_URL="http://127.0.0.1:5000")
    app.config.update(config)
    variants: dict[str, Variant] = app.config.get("VARIANTS") or default_variants()
    socketio = SocketIO(
        app,
        # Threads and simple-websocket: `pip install` is all it needs. "gevent" (if installed) is for benchmarks.
        async_mode=app.config.get("ASYNC_MODE") or "threading",
        max_http_buffer_size=16_384,  # the largest message a game needs is well under 1 KB
        logger=False,
        engineio_logger=False,
    )

    def send(sid: str, event: str, payload: dict) -> None:
        socketio.emit(event, payload, to=sid)

    def start_caller(room: Room) -> None:
        socketio.start_background_task(_caller_loop, room)

    journal = Journal(app.config.get("DATA") or default_data_path())
    # Opens the TV page on a screen other than this laptop's; kept, so such a screen survives a restart.
    app.config["SCREEN_KEY"] = journal.setting("screen_key", lambda: secrets.token_urlsafe(12))
    rooms = Rooms(
        variants, send, start_caller, seed=app.config.get("SEED"), journal=journal, catalogs=default_catalogs()
    )
    rooms.restore()
    app.extensions["partyrummy.rooms"] = rooms
    register_pages(app, rooms, app.config["PUBLIC_URL"], app.config["SCREEN_KEY"])
    register_sockets(
        socketio, rooms, event_rate=app.config.get("EVENT_RATE") or 10, public_url=app.config["PUBLIC_URL"]
    )
    return app, socketio


def _caller_loop(room: Room) -> None:
    """The caller of one room: make each due call, then sleep until the next is due or something changes."""
    while True:
        room.wake.clear()
        try:
            with room.lock:
                due = room.tick()
                room.flush()
                now = room.clock()
                if room.batch_due is not None:  # moves waiting to go out together
                    due = room.batch_due if due is None else min(due, room.batch_due)
        except Exception:  # keep calling even if one tick fails
            log.exception("caller of room %s", room.code)
            due, now = None, 0.0
        room.wake.wait(None if due is None else max(0.0, due - now))
