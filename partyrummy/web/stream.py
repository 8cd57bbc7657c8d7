"""What each connection was last sent, so that a new view goes out as the changes since then (an `update`).

A connection's first view (on connecting) goes whole, as `state`; each later one as an `update` against
the one before. The room shares one view object between the devices of a seat (and between watchers), so
the same pair of views is worked out once per broadcast, not once per device.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import socketio

from ..delta import update

__all__ = ["Stream", "ForgettingManager"]

# Pairs of views (last sent, new) whose update is kept for the other devices of the same broadcast. A
# broadcast has one pair per seat and role: this is many rooms' worth.
PAIRS = 256


class Stream:
    """The send path of views: `send(sid, "state", view)` emits the view whole or as an update.

    `emit(sid, event, payload)` does the sending; other events pass straight through. `forget(sid)` when the
    connection is gone releases what was kept for it.
    """

    def __init__(self, emit: Callable[[str, str, dict], None]) -> None:
        self.emit = emit
        self.sent: dict[str, dict[str, Any]] = {}  # sid -> the last view it was sent (never mutated)
        self._pairs: OrderedDict[tuple[int, int], tuple[dict, dict, dict]] = OrderedDict()
        self._lock = threading.Lock()  # the pairs are shared by every room's thread

    def send(self, sid: str, event: str, payload: dict[str, Any]) -> None:
        """Send one connection an event; a view (`state`) goes as the changes since its last one."""
        if event != "state":
            self.emit(sid, event, payload)
            return
        old = self.sent.get(sid)
        if old is None:
            self.sent[sid] = payload
            self.emit(sid, "state", payload)
            return
        if payload["v"] <= old["v"]:
            return  # nothing newer than what it holds: a client drops it anyway
        self.sent[sid] = payload
        self.emit(sid, "update", self._update(old, payload))

    def forget(self, sid: str) -> None:
        """The connection is gone: drop its last view."""
        self.sent.pop(sid, None)

    def _update(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
        # Keyed by identity; the entry holds both views, so neither id can be reused while it is kept.
        key = (id(old), id(new))
        with self._lock:
            kept = self._pairs.get(key)
        if kept is not None:
            return kept[2]
        message = update(old, new)
        with self._lock:
            self._pairs[key] = (old, new, message)
            if len(self._pairs) > PAIRS:
                self._pairs.popitem(last=False)
        return message


class ForgettingManager(socketio.Manager):
    """python-socketio's list of connections, which also tells `gone(sid)` when a connection has left.

    It is called after the disconnect handler (so after the room let the connection go), and for a
    connection refused in its connect handler too.
    """

    def __init__(self, gone: Callable[[str], None]) -> None:
        super().__init__()
        self.gone = gone

    def disconnect(self, sid: str, namespace: str, **kwargs: Any) -> Any:
        """Forget the connection, then let python-socketio do the same."""
        self.gone(sid)
        return super().disconnect(sid, namespace, **kwargs)
