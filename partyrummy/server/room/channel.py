"""One published view, as the room and its audience each keep one: a table every connection of a Socket.IO room
shares, published to them all at once as its changes; each connection's own part, sent to it alone (as its changes:
transport/stream.py keeps what each was sent); and the versions both are known by.

A client holds the table of `table_v` and its own part of `v`, and shows the two together (docs/protocol.md,
`table` and `mine`). The first table is published to nobody: every connection is sent it whole, with its state.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ...wire.delta import changes as changes_of

__all__ = ["Channel"]


class Channel:
    """A table published to the Socket.IO room `name` (`publish(name, event, payload)`), and own parts sent to one
    connection each (`send(sid, event, payload)`)."""

    def __init__(
        self, name: str, publish: Callable[[str, str, dict], None], send: Callable[[str, str, dict], None]
    ) -> None:
        self.name = name
        self._publish, self._send = publish, send
        self.table: dict[str, Any] | None = None  # the table as last published
        self.table_v = 0  # and the version it was published at

    def publish(
        self, table: dict[str, Any], v: int, moments: list[dict[str, Any]] | None = None, clocks_moved: bool = False
    ) -> bool:
        """The table as of version `v`: its changes since the last one, to every connection at once, with the
        `moments` they came with (moments.py); whether there were any (the first table: none, its connections hold
        it whole and saw nothing happen). `clocks_moved`: a countdown's end moved though its seconds read the same,
        so the table goes out even with no change (a screen counts each countdown from the update that says it)."""
        if self.table is None:
            self.table, self.table_v = table, v
            return False
        changes = changes_of(self.table, table)
        self.table = table
        if changes is None and not moments and not clocks_moved:
            return False
        base, self.table_v = self.table_v, v
        update = {"v": v, "base": base, "changes": changes or {}}
        self._publish(self.name, "table", update | {"moments": moments} if moments else update)
        return True

    def parts(
        self,
        v: int,
        owners: Iterable[tuple[str, Hashable, Any]],
        part: Callable[[Any], dict[str, Any]],
        always: bool,
    ) -> None:
        """Each connection's own part as of version `v`, sent to it as its changes, if any (`always`: even none,
        after a new table, so that each shows the two together). `owners`: each connection, whose part it shows (a
        seat's devices share one, worked out once) and what `part` makes it of (the first connection's)."""
        made: dict[Hashable, dict[str, Any]] = {}
        for sid, owner, subject in owners:
            if owner not in made:
                mine = {"v": v, "table_v": self.table_v, "mine": part(subject)}
                made[owner] = mine | {"always": True} if always else mine
            self._send(sid, "mine", made[owner])

    def state(self, v: int, table: dict[str, Any] | None, mine: dict[str, Any]) -> dict[str, Any]:
        """A connection's whole view: `table` (the one published, or the same version's with its clocks counted
        from now), its own part `mine`, and their versions."""
        return {"v": v, "table_v": self.table_v, "table": table, "mine": mine}
