"""What each connection was last sent of its own part of the view, so that the next goes out as the changes
since then (a `mine` update); the table's changes go to the whole room at once (room/channel.py).

A connection's first view (on connecting, or when it asks) goes whole, as `state`: the table and its own part.
Each later change of its own part goes as a `mine` update against the one it holds, and none at all when
nothing of its own changed. The room shares one part object between connections that see the same (a room's
watchers, a second TV), so the same pair is worked out once per broadcast, not once per connection: a
broadcast runs on one thread, so each thread keeps the few pairs it worked out last, and no lock is shared
by every room (one was: at 70 rooms a quarter of the server's time sat on it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import socketio

from ...wire.delta import changes as changes_of

__all__ = ["Stream", "ForgettingManager"]

# Pairs of own parts (last sent, new) whose changes a thread keeps for the other devices of the same broadcast.
# Only the host's and the watchers' parts have several devices, so a few pairs are enough.
PAIRS = 4


class Stream:
    """The send path of a connection's own part: `send(sid, "state", state)` records what the whole state
    held of it (`"sync"`: the same for a state a sync's answer carries, sent by the answer), and
    `send(sid, "mine", {"v", "table_v", "mine"})` emits the changes since then (`"always"`: even none, when the
    table changed in the same broadcast, so that the client shows the two together).

    `emit(sid, event, payload)` does the sending; other events pass straight through. `forget(sid)` when the
    connection is gone releases what was kept for it.
    """

    def __init__(self, emit: Callable[[str, str, dict], None]) -> None:
        self.emit = emit
        self.sent: dict[str, tuple[int, dict[str, Any]]] = {}  # sid -> (version, own part) it holds (never mutated)
        self._local = threading.local()  # each thread's pairs: {(id(old), id(new)): (old, new, changes)}

    def send(self, sid: str, event: str, payload: dict[str, Any]) -> None:
        """Send one connection an event; its own part (`mine`) goes as the changes since the one it holds."""
        if event in ("state", "sync"):
            self.sent[sid] = (payload["v"], payload["mine"])
            if event == "sync":
                return  # a whole state in a sync's answer: kept, the answer carries it
        elif event == "mine":
            held = self.sent.get(sid)
            if held is None or payload["v"] <= held[0]:
                return  # no whole state yet (it comes on connecting), or nothing newer than what it holds
            changes = self._changes(held[1], payload["mine"])
            if not changes and not payload.get("always"):
                return  # nothing of its own changed, nor the table: not even a version goes out
            self.sent[sid] = (payload["v"], payload["mine"])
            payload = {"v": payload["v"], "base": held[0], "table_v": payload["table_v"], "changes": changes}
        self.emit(sid, event, payload)

    def forget(self, sid: str) -> None:
        """The connection is gone: drop its last part."""
        self.sent.pop(sid, None)

    def _changes(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
        # Keyed by identity; the entry holds both parts, so neither id can be reused while it is kept.
        pairs = getattr(self._local, "pairs", None)
        if pairs is None:
            pairs = self._local.pairs = OrderedDict()
        key = (id(old), id(new))
        kept = pairs.get(key)
        if kept is not None:
            return kept[2]
        changes = changes_of(old, new) or {}
        pairs[key] = (old, new, changes)
        if len(pairs) > PAIRS:
            pairs.popitem(last=False)
        return changes


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
