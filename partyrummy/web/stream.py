"""What each connection was last sent, so that a new view goes out as the changes since then (an `update`).

A connection's first view (on connecting) goes whole, as `state`; each later one as an `update` against
the one before, and none at all when nothing it can see changed. The room shares one view object between
connections that see the same (a room's watchers, a second TV), so the same pair of views is worked out
once per broadcast, not once per connection: a broadcast runs on one thread, so each thread keeps the few
pairs it worked out last, and no lock is shared by every room (one was: at 70 rooms a quarter of the
server's time sat on it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import socketio

from ..delta import update

__all__ = ["Stream", "ForgettingManager"]

# Pairs of views (last sent, new) whose update a thread keeps for the other devices of the same broadcast.
# Only the host's and the watchers' views have several devices, so a few pairs are enough; each keeps both
# views alive (they share the room's table) until the thread's next broadcasts push it out.
PAIRS = 4


class Stream:
    """The send path of views: `send(sid, "state", view)` emits the view whole or as an update.

    `emit(sid, event, payload)` does the sending; other events pass straight through. `forget(sid)` when the
    connection is gone releases what was kept for it.
    """

    def __init__(self, emit: Callable[[str, str, dict], None]) -> None:
        self.emit = emit
        self.sent: dict[str, dict[str, Any]] = {}  # sid -> the last view it was sent (never mutated)
        self._local = threading.local()  # each thread's pairs: {(id(old), id(new)): (old, new, update)}

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
        message = self._update(old, payload)
        if not message["changes"]:
            # Nothing this connection can see changed (another seat's picker, say): nothing goes out, and its
            # next update is counted from the view it holds. A version alone would tell it that someone acted.
            return
        self.sent[sid] = payload
        self.emit(sid, "update", message)

    def forget(self, sid: str) -> None:
        """The connection is gone: drop its last view."""
        self.sent.pop(sid, None)

    def _update(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
        # Keyed by identity; the entry holds both views, so neither id can be reused while it is kept.
        pairs = getattr(self._local, "pairs", None)
        if pairs is None:
            pairs = self._local.pairs = OrderedDict()
        key = (id(old), id(new))
        kept = pairs.get(key)
        if kept is not None:
            return kept[2]
        message = update(old, new)
        pairs[key] = (old, new, message)
        if len(pairs) > PAIRS:
            pairs.popitem(last=False)
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
