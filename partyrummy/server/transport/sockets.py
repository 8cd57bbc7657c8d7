"""Socket.IO handlers: thin. Who may connect; then each event of events.py's table: check the payload, find the
sender's room and seat, act under the room's lock.

Guards run in a fixed order: payload shape → who is asking (the token, never
a seat number from the client) → the room or engine. A refusal is the
acknowledgement to the sender only; nobody else hears of it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import ConnectionRefusedError, SocketIO

from ...i18n import DEFAULT_LANGUAGE
from ...rules.errors import BadCommand, RummyError
from ..defences.admission import Admission
from ..defences.buckets import Limiter, SharedBudget
from ..room.audience import Ticket
from ..room.room import Refused, Viewer
from ..room.rooms import Rooms
from .backlog import Backlog
from .events import EVENTS, Event, Sender
from .events import refusal as who_may
from .payloads import MALFORMED, check

__all__ = ["register_sockets", "guard_sessions"]

log = logging.getLogger(__name__)

class SlowDown(Refused):
    """Over the rate limit: a client may wait a moment and send it again."""

    code = "slow_down"


def guard_sessions(socketio: SocketIO, admission: Admission) -> Backlog:
    """Count every Engine.IO session against its address (refused past its quota, before any Socket.IO), close
    those that have not connected in time (a session held open without a connection holds the server's room), and
    drop those whose client does not read what it is sent (backlog.py): the backlog's sweep, for tests to watch.

    A session is closed without waiting for anything: Engine.IO's own disconnect() waits until a long-polling
    session's last packets are read, by a GET that a stranger's session never sends, and would stop the sweeper
    there for good."""
    eio, sessions = socketio.server.eio, admission.sessions
    opened, closed = eio.handlers["connect"], eio.handlers["disconnect"]
    sweeping = threading.Lock()  # held while the sweeper runs: one at a time, started by a new session
    backlog = Backlog(eio, admission.limits, socketio.start_background_task, socketio.sleep)

    def on_open(eio_sid: str, environ: dict) -> Any:
        if not sessions.open(eio_sid, environ.get("REMOTE_ADDR") or "?"):
            return False  # Engine.IO answers 401 and forgets the session
        if sweeping.acquire(blocking=False):
            socketio.start_background_task(sweep)
        backlog.start()
        return opened(eio_sid, environ)

    def on_close(eio_sid: str, *reason: Any) -> Any:
        sessions.close(eio_sid)
        return closed(eio_sid, *reason)

    def sweep() -> None:
        while True:
            while sessions.waiting():
                for eio_sid in sessions.overdue():
                    session = eio.sockets.pop(eio_sid, None)
                    if session is not None:
                        session.close(wait=False, reason=eio.reason.SERVER_DISCONNECT)
                    sessions.close(eio_sid)  # already gone from Engine.IO: forget it all the same
                socketio.sleep(0.25)
            sweeping.release()
            # A session may have come in between the last look and the release: then sweep on.
            if not (sessions.waiting() and sweeping.acquire(blocking=False)):
                return

    eio.on("connect", on_open)
    eio.on("disconnect", on_close)
    return backlog


def register_sockets(
    socketio: SocketIO,
    rooms: Rooms,
    admission: Admission,
    is_local: Callable[[str], bool],
    public_url: str = "http://127.0.0.1:5000",
) -> None:
    """Wire every event of docs/protocol.md to its action; who may connect is `admission`'s to say."""
    limits, connections, sessions, seat_addresses = (
        admission.limits, admission.connections, admission.sessions, admission.seats
    )
    # A phone sends a few events a cycle. A connection's events are handled one after another in its own reading
    # thread (async_handlers=False), so a flood costs that connection's thread and no new ones; far over the
    # rate, readahead.py cuts it off. The TV answers for several seats at once (four hands of 13 cards tapped in
    # on its picker): its bound is its own, far above a phone's, never a guest's. Guests (not seated: watching,
    # joining, the audience) also share a budget, by address and all together, which the table never waits on: a
    # guest's script on many connections is told to slow down while the TV and the seats go on.
    events, host_events = Limiter.of(limits.rate("events")), Limiter.of(limits.rate("host_events"))
    guests = SharedBudget(limits.rate("address"), limits.rate("guests"))
    members = Limiter.of(limits.rate("member"))  # an audience member's events, by its token
    # Connecting: a burst from one address, then slowly, so room codes cannot be tried fast; the laptop itself
    # (its TV tabs, `partyrummy bots`, tests) connects far more, but not without bound.
    joins, local_joins = Limiter.of(limits.joins), Limiter.of(limits.local_joins)
    catalogs = rooms.catalogs
    engine_sids: dict[str, str] = {}  # Socket.IO sid -> its Engine.IO session's

    def device(sid: str) -> str | None:
        """The address a connection came from, None for the laptop's own."""
        address = connections.address_of(sid)
        return None if address is None or is_local(address) else address

    def allowed(sid: str) -> bool:
        """Whether this connection may send one more event now: the TV within its own rate; a seat within a
        connection's; a guest within a connection's, its address's and all guests' (the laptop's own: a
        connection's alone); an audience member's also within a member's, on however many connections."""
        room = rooms.by_sid.get(sid)
        viewer = room.viewers.get(sid) if room is not None else None
        if viewer is not None and viewer.role == "host":
            return host_events.allow(sid)
        if not events.allow(sid):
            return False
        if viewer is not None and viewer.role == "audience" and viewer.token and not members.allow(viewer.token):
            return False
        address = device(sid)
        return address is None or viewer is not None and viewer.role == "player" or guests.allow(address)

    def lang_of(sid: str) -> str:
        room = rooms.by_sid.get(sid)
        viewer = room.viewers.get(sid) if room is not None else None
        return viewer.lang if viewer is not None else DEFAULT_LANGUAGE

    def refusal(error: RummyError, sid: str | None = None) -> dict[str, Any]:
        """The acknowledgement of a refused event: a stable code, and the sentence in the sender's language."""
        message = catalogs.text(lang_of(sid or request.sid), error.key, **error.params)
        return {"ok": False, "error": {"code": error.code, "message": message}}

    def let_go(sid: str) -> None:
        """End a connection from the server's side: its client is told (so it does not come back by itself), and
        its Engine.IO session closed at once, so that what it held is free for others now rather than once the
        session times out."""
        eio_sid = engine_sids.get(sid)
        socketio.server.disconnect(sid)
        session = socketio.server.eio.sockets.pop(eio_sid, None) if eio_sid is not None else None
        if session is not None:
            session.close(wait=False)  # the goodbye goes out after what was queued; nothing waits for it

    def reserved(name: str) -> dict[str, Any]:
        """The answer to an *event* a client named "connect" or "disconnect": a refusal like any unknown event."""
        error = SlowDown("error.slow_down") if not allowed(request.sid) else None
        return refusal(error or BadCommand("error.reserved_event", event=name))

    # python-socketio hands a client's *event* named "connect" or "disconnect" to these same
    # handlers, so each checks that it is the real thing before touching the room.
    def on_connect(auth: Any = None) -> bool | dict[str, Any]:
        if request.sid in rooms.by_sid:
            return reserved("connect")  # already connected: an event named "connect", not a connection
        auth = auth if isinstance(auth, dict) else {}
        lang = catalogs.find(auth.get("lang"))  # absent or unknown: the nearest we have, else English

        def refuse(code: str, key: str) -> ConnectionRefusedError:
            return ConnectionRefusedError(catalogs.text(lang, key), {"code": code})

        address = request.remote_addr or "?"
        if not (local_joins if is_local(address) else joins).allow(address):
            raise refuse("too_many_tries", "error.too_many_tries")
        try:
            room = rooms.get(auth.get("room"))
        except Refused as error:  # every room the server may hold is in use
            message = catalogs.text(lang, error.key, **error.params)
            raise ConnectionRefusedError(message, {"code": "too_many_rooms"}) from error
        if room is None:
            raise refuse("no_room", "error.no_room")
        token = auth.get("token") if isinstance(auth.get("token"), str) else None
        screens: set[str] = set()  # a seat's connections already in
        with room.lock:
            if auth.get("role") == "host" and room.is_host(token):
                viewer = Viewer("host", token, lang)
            elif (seat := room.seat_of(token)) is not None:
                viewer = Viewer("player", token, lang)
                screens = set(room.links[room.state.seats[seat]].sids)
            elif auth.get("role") == "audience" and room.audience.admits(token):
                # A member (its token), or anyone while the host lets an audience in, the room locked or not.
                viewer = Viewer("audience", token if room.audience.member_of(token) is not None else None, lang)
            elif not room.state.locked:
                viewer = Viewer("guest", lang=lang)
            elif room.may_enter_locked(auth.get("ticket")):
                viewer = Viewer("guest", lang=lang, ticket=auth["ticket"])
            else:
                raise refuse("locked", "error.room_locked")
        # The audience is guests: a member has no share of the seats' reserve (two hundred of them would use it up).
        seated = viewer.role in ("host", "player")
        if len(screens) >= limits.seat_screens:
            # A seat on as many screens as it may be: its first connection goes (most likely a phone's from before
            # it slept), so the phone coming back is in, and one seat's token never holds the seats' reserve.
            oldest = connections.oldest(screens)
            if oldest is not None:
                let_go(oldest)
        if not connections.admit(request.sid, address, seated=seated):
            raise refuse("too_many", "error.too_many_connections")
        if seated:
            seat_addresses.add(token, address)  # a seat (or the TV) comes back from here: it finds room, whatever
        engine_sids[request.sid] = eio_sid = socketio.server.manager.eio_sid_from_sid(request.sid, "/")
        sessions.connected(eio_sid)
        # The table's changes go to the room's connections at once (the audience's, to the audience's).
        socketio.server.enter_room(request.sid, room.channel_name(viewer))
        with room.lock:
            rooms.by_sid[request.sid] = room
            room.attach(request.sid, viewer)
            room.flush()
        rooms.awake(room)
        return True

    def on_disconnect(*_: Any) -> dict[str, Any] | None:
        if socketio.server.manager.is_connected(request.sid, "/"):
            return reserved("disconnect")  # still connected: an event named "disconnect", not a disconnection
        events.forget(request.sid)
        host_events.forget(request.sid)
        connections.forget(request.sid)
        eio_sid = engine_sids.pop(request.sid, None)
        if eio_sid is not None:  # the session may live on without a connection: not for long
            sessions.idle(eio_sid)
        room = rooms.by_sid.pop(request.sid, None)
        if room is not None:
            with room.lock:
                room.detach(request.sid)
                room.flush()
        return None

    def on_unknown(event: Any, *args: Any) -> dict[str, Any]:
        error = SlowDown("error.slow_down") if not allowed(request.sid) else None
        if error is None and event == MALFORMED:  # the decoder refused it: too big, too deep, or not JSON
            problem = args[0] if args and args[0] in ("too_big", "too_deep") else "not_json"
            error = BadCommand(f"error.{problem}", kb=limits.message_bytes // 1024)
        return refusal(error or BadCommand("error.unknown_event", event=str(event)[:20]))

    socketio.on_event("connect", on_connect)
    socketio.on_event("disconnect", on_disconnect)
    socketio.on_event("*", on_unknown)  # any event without a handler of its own, and what the decoder refused

    def handle(name: str, event: Event) -> Callable[..., dict[str, Any]]:
        """The handler of one event of the table, its guards in a fixed order: rate, shape, who, then the room.
        Socket.IO's own handler (the sender's sid first): none of them reads Flask's request, and a request context
        for each event cost a sixth of a phone's event (its URL matched again, each time)."""

        def handler(sid: str, *args: Any) -> dict[str, Any]:
            try:
                if not allowed(sid):
                    raise SlowDown("error.slow_down")
                if len(args) > 1:
                    raise BadCommand("error.one_object")
                payload = check(event.schema, args[0] if args else None)
                room = rooms.by_sid.get(sid)
                if room is None:
                    raise BadCommand("error.no_room_reload")
                with room.lock:
                    viewer = room.viewers[sid]
                    refused = who_may(event, room, viewer)
                    if refused is not None:
                        raise refused
                    try:
                        result = event.act(room, viewer, payload, Sender(sid, public_url, device(sid)))
                    finally:
                        room.settle()  # a refusal changes no game, but may be news (a false Match!)
                    unseated = room.take_unseated()
                for gone, token in unseated:  # a seat released, removed or claimed: its old token is no key
                    seat_addresses.forget(token)
                    if not connections.unseated(gone):
                        let_go(gone)  # its screens watch as guests, if the guests' share has room
                if isinstance(result, Ticket):
                    result = result.wait()  # written with the picks that came in with it, then answered
                if result and "token" in result:  # a seat joined, taken or claimed: its address is a seat's now
                    seat_addresses.add(result["token"], connections.address_of(sid) or "?")
                return {"ok": True, **(result or {})}
            except RummyError as error:
                return refusal(error, sid)
            except Exception:  # a bug must not take the room down; log it, tell the sender
                log.exception("error handling %s", name)
                message = catalogs.text(lang_of(sid), "error.server")
                return {"ok": False, "error": {"code": "server", "message": message}}

        return handler

    for name, event in EVENTS.items():
        socketio.server.on(name, handle(name, event))
