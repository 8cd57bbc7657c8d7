"""Shape checks for every incoming event (against its schema in events.py), before anything reaches a room or the
engine; the wire's JSON, bounded."""

from __future__ import annotations

import json
import re
from typing import Any

from socketio.packet import Packet

from ...phones.commands import SOURCES
from ...rules.errors import BadCommand
from ...rules.names import clean_name
from ..defences.limits import LIMITS

__all__ = ["Schema", "check", "WirePacket", "MALFORMED"]

_MAX_INT = 1_000_000
MAX_MESSAGE, MAX_DEPTH, MAX_DIGITS = LIMITS.message_bytes, LIMITS.message_depth, LIMITS.number_digits
# The event name a message the decoder refused turns into, so it is answered like any other bad event.
MALFORMED = "\x00malformed"

# An event's fields: {field: (kind, required)}; kinds: "int", "card", "points", "name", "source", "bool", "str",
# "cards".
# Each event's is in server/transport/events.py's table.
Schema = dict[str, tuple[str, bool]]


def check(schema: Schema, data: Any) -> dict[str, Any]:
    """A payload with every field checked against its event's `schema`, or BadCommand saying what is wrong."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BadCommand("error.not_object")
    unknown = set(data) - set(schema)
    if unknown:
        raise BadCommand("error.unknown_fields", fields=", ".join(sorted(map(str, unknown)))[:80])
    out: dict[str, Any] = {}
    for key, (kind, required) in schema.items():
        if key not in data or data[key] is None:
            if required:
                raise BadCommand("error.missing_field", field=key)
            continue
        out[key] = _value(key, kind, data[key])
    return out


def _value(key: str, kind: str, value: Any) -> Any:
    if kind in ("card", "points"):  # any whole number: the engine names the card or the range it takes
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadCommand("error.not_int", field=key)
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or not -_MAX_INT < value < _MAX_INT:
            raise BadCommand("error.not_int", field=key)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise BadCommand("error.not_bool", field=key)
        return value
    if kind == "source":
        if value not in SOURCES:
            raise BadCommand("error.bad_source")
        return value
    if kind == "name":
        return clean_name(value, LIMITS.name_length)
    if kind == "cards":
        if not isinstance(value, list) or len(value) > LIMITS.hand_faces:
            raise BadCommand("error.not_cards")
        if not all(isinstance(face, str) for face in value):
            raise BadCommand("error.not_cards")
        for face in value:
            if not 0 < len(face) <= LIMITS.face_length:
                raise BadCommand("error.bad_card", card=face[:8])
        return value
    if not isinstance(value, str) or len(value) > LIMITS.text_length:
        raise BadCommand("error.not_text", field=key)
    return value


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def _too_deep(text: str) -> bool:
    """Whether JSON text nests deeper than MAX_DEPTH (counted outside strings, without parsing it)."""
    depth = 0
    for ch in _STRINGS.sub("", text):
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _whole(digits: str) -> int:
    if len(digits) > MAX_DIGITS:  # as python-engineio's own decoder: no 10,000-digit numbers to convert
        raise ValueError("number too long")
    return int(digits)


_DECODER = json.JSONDecoder(parse_int=_whole)  # one for every message (json.loads with a hook makes one a call)


class WireJSON:
    """The JSON python-socketio decodes events with: a message too big, too deep or not JSON never raises
    (which would leave it unanswered, with a traceback), it becomes the event MALFORMED, answered as refused."""

    dumps = staticmethod(json.dumps)

    @staticmethod
    def loads(text: str | bytes, **_: Any) -> Any:
        if len(text) > MAX_MESSAGE:
            return [MALFORMED, "too_big"]
        text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        if _too_deep(text):
            return [MALFORMED, "too_deep"]
        try:
            return _DECODER.decode(text)
        except (ValueError, RecursionError):
            return [MALFORMED, "not_json"]


class WirePacket(Packet):
    """Socket.IO packets decoded with WireJSON (given to the server as its serializer: this server only)."""

    json = WireJSON
    # This server sends JSON only, never bytes: without this, python-socketio walks every outgoing state, each
    # list and dict, looking for bytes before encoding it (470 -> 64 µs a 6.7 KB state, 30% of a busy server).
    uses_binary_events = False
