"""Shape checks for every incoming event, before anything reaches a room or the engine."""

from __future__ import annotations

from typing import Any

from ..commands import SOURCES
from ..errors import BadCommand

__all__ = ["SCHEMAS", "check", "clean_name"]

_MAX_INT = 1_000_000

# event -> {field: (kind, required)}; kinds: "int", "name", "source", "bool", "str"
SCHEMAS: dict[str, dict[str, tuple[str, bool]]] = {
    "join": {"name": ("name", True)},
    "sync": {},
    "draw": {"source": ("source", True), "cycle": ("int", False)},
    "choose": {"card_id": ("int", True), "cycle": ("int", False)},
    "match": {},
    "start": {},
    "call_now": {},
    "pause": {"paused": ("bool", True)},
    "remove": {"seat": ("int", True)},
    "move": {"seat": ("int", True), "to": ("int", True)},
    "variant": {"name": ("str", True)},
    "release": {"seat": ("int", True)},
    "rejoin_code": {"seat": ("int", True)},
    "take": {"seat": ("int", True), "name": ("name", True)},
    "claim": {"ticket": ("str", True)},
    "add_bot": {"strength": ("str", True)},
    "bot_seat": {"seat": ("int", True), "strength": ("str", True)},
    "lang": {"lang": ("str", True)},
}


def clean_name(value: Any) -> str:
    """A player's name: trimmed, 1-20 characters, no control characters."""
    if not isinstance(value, str):
        raise BadCommand("error.name_text")
    name = " ".join(value.split())
    if not 1 <= len(name) <= 20:
        raise BadCommand("error.name_length")
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in name):
        raise BadCommand("error.name_control")
    return name


def check(event: str, data: Any) -> dict[str, Any]:
    """The payload of `event` with every field checked, or BadCommand saying what is wrong."""
    schema = SCHEMAS[event]
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
        return clean_name(value)
    if not isinstance(value, str) or len(value) > 40:
        raise BadCommand("error.not_text", field=key)
    return value
