"""Every event a client may send, once: its payload's schema, who may send it, and what it does to the room.

sockets.py registers each with Socket.IO from this table and checks its payload against its schema
(payloads.py); docs/protocol.md documents each (tests/test_events.py holds the two to each other). Who:
- "anyone": any connection;
- "guest": a connection not seated (a seated one is refused);
- "seat": a seat's move, for the night's game part to check (the TV may answer for a seat too, where the
  part allows it);
- "vip": the TV, or the VIP's phone (the first-joined person still seated runs the evening);
- "host": the TV alone;
- "audience": a member of the audience (a connection that joined it, with its token).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..pages.qr import qr_svg
from ..room.audience import Ticket
from ..room.game_part import GamePart
from ..room.refused import Refused
from ..room.room import PARTS, TICKET_S, Room, Viewer

__all__ = ["EVENTS", "Event", "Sender", "WHO", "refusal"]

WHO = ("anyone", "guest", "seat", "vip", "host", "audience")


@dataclass(frozen=True)
class Sender:
    """Who sent the event, as the action needs it: the connection, the address phones use, and the device's own
    address (None: the laptop itself)."""

    sid: str
    public_url: str
    device: str | None = None


# An action's answer: its fields, or a Ticket to wait for out of the room's lock (a pick, written with its batch).
Action = Callable[[Room, Viewer, dict[str, Any], Sender], dict[str, Any] | Ticket | None]


@dataclass(frozen=True)
class Event:
    """One client event: `schema` maps each field to (kind, required); kinds are payloads.py's."""

    schema: dict[str, tuple[str, bool]]
    who: str
    act: Action


def _join(room: Room, viewer: Viewer, data: dict, sender: Sender) -> dict:
    index = room.join(sender.sid, data["name"])
    return {"seat": index, "token": room.state.seats[index].token}


def _take(room: Room, viewer: Viewer, data: dict, sender: Sender) -> dict:
    token = room.take(sender.sid, data["seat"], data["name"])
    return {"seat": data["seat"], "token": token}


def _claim(room: Room, viewer: Viewer, data: dict, sender: Sender) -> dict:
    seat, token = room.claim(sender.sid, data["ticket"])
    return {"seat": seat, "token": token}


def _rejoin_code(room: Room, viewer: Viewer, data: dict, sender: Sender) -> dict:
    # The TV alone asks: a ticket is a seat's key, never sent to a phone. It rides in the URL's fragment,
    # which browsers never send to a server or a log.
    url = f"{sender.public_url.rstrip('/')}/join/{room.code}#claim={room.ticket(data['seat'])}"
    return {"url": url, "svg": qr_svg(url), "minutes": TICKET_S // 60}


def _audience_join(room: Room, viewer: Viewer, data: dict, sender: Sender) -> dict:
    # Kept as a seat's token is (the member comes back as itself), but never a seat's: its address is a guest's.
    member, token = room.audience.join(sender.sid, viewer, data["name"], sender.device)
    if viewer.role == "audience":  # the connection is the member now (its reconnections bring the token)
        room.viewers[sender.sid] = replace(viewer, token=token)
    return {"member": member, "audience_token": token}


def _audience_seat(room: Room, viewer: Viewer, data: dict, sender: Sender) -> dict:
    seat, token = room.take_offer(sender.sid)
    return {"seat": seat, "token": token}


def _game_event(name: str) -> Action:
    """An event of the game (a seat's move; the host's correction), for the night's part: it knows its own events
    and refuses the others."""
    return lambda room, viewer, data, sender: room.answer(viewer, name, data)


def _from_parts(parts: tuple[type[GamePart], ...]) -> dict[str, Event]:
    """The game's events, as each way to play declares them (one event shared by two ways to play, such as
    `match`, must be declared alike)."""
    table: dict[str, Event] = {}
    for part in parts:
        for name, declared in part.events.items():
            event = Event(declared.schema, declared.who, _game_event(name))
            if name in table and (table[name].schema, table[name].who) != (event.schema, event.who):
                raise TypeError(f"{name} is declared differently by two ways to play")
            table[name] = event
    return table


EVENTS: dict[str, Event] = {
    # Anyone
    "sync": Event({}, "anyone", lambda r, v, d, s: {"state": r.sync(s.sid, v)}),
    "lang": Event({"lang": ("str", True)}, "anyone", lambda r, v, d, s: r.set_lang(s.sid, d["lang"])),
    "claim": Event({"ticket": ("str", True)}, "anyone", _claim),
    # A guest
    "join": Event({"name": ("name", True)}, "guest", _join),
    "take": Event({"seat": ("int", True), "name": ("name", True)}, "guest", _take),
    # The TV, or the VIP's phone
    "start": Event({}, "vip", lambda r, v, d, s: r.start()),
    "call_now": Event({}, "vip", lambda r, v, d, s: r.call_now()),
    "pause": Event({"paused": ("bool", True)}, "vip", lambda r, v, d, s: r.set_paused(d["paused"])),
    "pace": Event({"pace": ("str", True)}, "vip", lambda r, v, d, s: r.set_pace(d["pace"])),
    # The TV alone
    "remove": Event({"seat": ("int", True)}, "host", lambda r, v, d, s: r.remove(d["seat"])),
    "release": Event({"seat": ("int", True)}, "host", lambda r, v, d, s: r.release(d["seat"])),
    "rejoin_code": Event({"seat": ("int", True)}, "host", _rejoin_code),
    "add_bot": Event({"strength": ("str", True)}, "host", lambda r, v, d, s: {"seat": r.add_bot(d["strength"])}),
    "bot_seat": Event(
        {"seat": ("int", True), "strength": ("str", True)},
        "host",
        lambda r, v, d, s: r.give_to_bot(d["seat"], d["strength"]),
    ),
    "move": Event({"seat": ("int", True), "to": ("int", True)}, "host", lambda r, v, d, s: r.move(d["seat"], d["to"])),
    "variant": Event({"name": ("str", True)}, "host", lambda r, v, d, s: r.choose_variant(d["name"])),
    "allow_bot_takeover": Event({"allow": ("bool", True)}, "host", lambda r, v, d, s: r.set_bot_takeover(d["allow"])),
    "mode": Event({"mode": ("str", True)}, "host", lambda r, v, d, s: r.set_mode(d["mode"])),
    "add_person": Event({"name": ("name", True)}, "host", lambda r, v, d, s: {"seat": r.add_person(d["name"])}),
    "allow_helpers": Event({"allow": ("bool", True)}, "host", lambda r, v, d, s: r.set_helpers(d["allow"])),
    "phoneless_ready": Event(
        {"ready": ("bool", True)}, "host", lambda r, v, d, s: r.set_phoneless_ready(d["ready"])
    ),
    "lock": Event({"locked": ("bool", True)}, "host", lambda r, v, d, s: r.set_locked(d["locked"])),
    "lobby": Event({}, "host", lambda r, v, d, s: r.to_lobby()),
    "audience": Event(
        {"on": ("bool", True), "cap": ("int", False)},
        "host",
        lambda r, v, d, s: r.audience.settings(d["on"], d.get("cap")),
    ),
    "audience_offer": Event(
        {"member": ("int", True), "offered": ("bool", False)},
        "host",
        lambda r, v, d, s: r.audience.offer(d["member"], d.get("offered", True)),
    ),
    "audience_remove": Event(
        {"member": ("int", True), "together": ("bool", False)},
        "host",
        lambda r, v, d, s: {"removed": r.audience.remove(d["member"], d.get("together", False))},
    ),
    # The audience: anyone not seated joins it; a member predicts, and takes a seat the host offered
    "audience_join": Event({"name": ("name", True)}, "anyone", _audience_join),
    "predict": Event(
        {"question": ("str", True), "option": ("str", True)},
        "audience",
        lambda r, v, d, s: r.audience.pick(s.sid, d["question"], d["option"]),  # answered once written
    ),
    "audience_seat": Event({}, "audience", _audience_seat),
    # A seat's moves, and the host's corrections: as each way to play declares them
    **_from_parts(PARTS),
}


def refusal(event: Event, room: Room, viewer: Viewer) -> Refused | None:
    """The one place that says who may send what: why this connection may not send this event at all, or None if
    it may (a seat's move is then its part's to check: whose seat, which phase)."""
    if event.who == "host" and viewer.role != "host" or event.who == "vip" and not room.may_host(viewer):
        return Refused("error.host_only")
    if event.who == "guest" and viewer.role == "player":
        return Refused("error.seated_already")
    if event.who == "audience" and viewer.role != "audience":
        return Refused("error.audience_first")
    if event.who == "guest" and viewer.role == "audience":
        return Refused("error.audience_already")
    return None
