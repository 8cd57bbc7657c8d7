"""Small updates of JSON views: what changed from one view to the next, applying it, and a client's copy.

The server sends each connection the changes since the view it last sent it (docs/protocol.md, `update`);
clients apply them to the view they hold. A change is one of:

- ``[value]``: the new value, whole (any JSON value, null included);
- ``[]``: the key is gone (in an object only);
- ``{...}``: changes inside, when old and new are both objects or both lists. Of an object: by key. Of a
  list: by index (``"0"``, ``"1"``, ...), with ``"len"`` the new length when it changed; items past the old
  length come whole, in order.

An object whose ``"id"`` changed is another thing (a card): it goes whole, never a field at a time. A list
in which more than half the items were replaced goes whole too (a hand that lost a card from the middle); one
whose items changed in place (the seats at a call: a few fields each) goes as their changes.
Inside objects and lists, values Python holds equal (``1``, ``1.0``, ``True``) count as unchanged, as
`==` runs in C where a walk would not: views keep each field's type, so this never hides a change there.
Nothing here mutates its arguments: `apply` makes new objects along the changed paths and shares the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Change", "diff", "changes", "apply", "update", "merge", "Replica"]

Change = list[Any] | dict[str, Any]


def diff(old: Any, new: Any) -> Change | None:
    """The change that turns `old` into `new`, or None when they are equal."""
    if old is new:
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        if old.get("id") != new.get("id"):
            return [new]
        changes = _diff_object(old, new)
        return changes or None
    if isinstance(old, list | tuple) and isinstance(new, list | tuple):
        return _diff_list(old, new)
    if type(old) is type(new) and old == new:
        return None
    return [new]


def _diff_object(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            changes[key] = [value]
            continue
        before = old[key]
        # `==` runs in C: most of a view is unchanged, so most parts stop here.
        if before is value or (type(before) is type(value) and before == value):
            continue
        change = diff(before, value)
        if change is not None:
            changes[key] = change
    for key in old.keys() - new.keys():
        changes[key] = []
    return changes


def _diff_list(old: list | tuple, new: list | tuple) -> Change | None:
    common = min(len(old), len(new))
    changes: dict[str, Any] = {}
    replaced = 0  # items that changed into another (a value, or an object with another id): they go whole
    for i in range(common):
        before, value = old[i], new[i]
        if before is value or (type(before) is type(value) and before == value):
            continue
        change = diff(before, value)
        if change is not None:
            changes[str(i)] = change
            replaced += isinstance(change, list)
    grown = len(new) - common
    # Items that shifted (a card gone from the middle of a hand) come whole, one by one: past half, the list goes
    # whole. Items changed in place (the seats at a call, each a few fields) go as their changes however many.
    if replaced + grown > len(new) / 2:
        return [new]
    for i in range(common, len(new)):
        changes[str(i)] = [new[i]]
    if len(new) != len(old):
        changes["len"] = len(new)
    return changes or None


def apply(old: Any, change: Change | None) -> Any:
    """`old` with `change` made; `old` itself is left as it was."""
    if change is None:
        return old
    if isinstance(change, list):
        if len(change) != 1:
            raise ValueError("a whole value is a list of one item")
        return change[0]
    if isinstance(old, dict):
        result = dict(old)
        for key, inner in change.items():
            if inner == []:
                result.pop(key, None)
            else:
                result[key] = apply(old.get(key), inner)
        return result
    if isinstance(old, list | tuple):
        size = change.get("len", len(old))
        result = list(old[:size])
        for key in sorted((k for k in change if k != "len"), key=int):
            i = int(key)
            if i < len(result):
                result[i] = apply(result[i], change[key])
            elif i == len(result) and isinstance(change[key], list) and len(change[key]) == 1:
                result.append(change[key][0])
            else:
                raise ValueError(f"item {i} of a list of {len(result)}")
        if len(result) != size:
            raise ValueError(f"a list of {len(result)} items, not {size}")
        return result
    raise ValueError(f"changes inside a {type(old).__name__}")


def changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """What changed from one object to the next, as an object of changes by key, as the `table` and `mine` updates
    carry it (a new object altogether: each of its keys whole); None when nothing did."""
    change = diff(old, new)
    return {key: [value] for key, value in new.items()} if isinstance(change, list) else change


def update(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The update message that takes a client from the part `old` to the part `new` (both with a `v`)."""
    changes = diff({k: v for k, v in old.items() if k != "v"}, {k: v for k, v in new.items() if k != "v"})
    return {"v": new["v"], "base": old["v"], "changes": changes if isinstance(changes, dict) else {}}


def merge(table: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """A viewer's whole view: the table everyone sees, with their own part in it (`mine`'s keys complete the
    table's room and game: `you`, a picker…)."""
    room = {**table["room"], **(mine.get("room") or {})}
    game = None if table.get("game") is None else {**table["game"], **(mine.get("game") or {})}
    return {"room": room, "game": game}


class _Chain:
    """One part of a view (the table, or a viewer's own part) and the updates that carry it from version to version:
    an update that does not follow waits (a client may handle messages out of order) until its gap is filled."""

    def __init__(self) -> None:
        self.value: dict[str, Any] | None = None
        self.v = -1
        self.pending: dict[int, dict[str, Any]] = {}  # updates by their base
        self.last: dict[str, Any] | None = None  # the last update applied
        self.moments: list[dict[str, Any]] = []  # what the updates applied since the view was last shown meant

    def reset(self, value: dict[str, Any], v: int) -> None:
        self.value, self.v, self.last, self.moments = value, v, None, []  # a whole part: nothing seen happen
        self.drain()

    def receive(self, message: dict[str, Any]) -> bool:
        if self.value is not None and message["v"] <= self.v:
            return False  # older than the copy
        self.pending[message["base"]] = message
        return self.drain()

    def drain(self) -> bool:
        moved = False
        while self.value is not None and self.v in self.pending:
            message = self.pending.pop(self.v)
            self.value, self.v, self.last = apply(self.value, message["changes"]), message["v"], message
            self.moments += message.get("moments", [])
            moved = True
        self.pending = {base: m for base, m in self.pending.items() if m["v"] > self.v}
        return moved


@dataclass
class Replica:
    """A client's copy of its view, from whole states (`state`, `sync`) and the two kinds of update: the table's,
    which every connection of the room receives, and its own part's (`mine`).

    `full` and `receive` say whether the copy moved on. An update that does not follow its part waits (a
    client that handles messages on several threads may see them out of order) and makes `behind` true: the
    client should `sync`, unless the missing one turns up first. `state` is the whole view, the table with the
    viewer's own part in it, and `v` the newer of the two parts' versions.
    """

    table: _Chain = field(default_factory=_Chain)
    mine: _Chain = field(default_factory=_Chain)
    state: dict[str, Any] | None = None  # the whole view, as of the last moment both parts went together
    moments: list[dict[str, Any]] = field(default_factory=list)  # what the table's updates to it meant (none: whole)
    goes_with: int = -1  # the table version the viewer's own part goes with (`table_v`)

    def _show(self) -> bool:
        """The whole view anew, when the two parts go together (the table of the version the own part names)."""
        if self.table.value is None or self.mine.value is None or self.table.v != self.goes_with:
            return False
        self.state = {"v": max(self.table.v, self.mine.v), **merge(self.table.value, self.mine.value)}
        self.moments, self.table.moments = self.table.moments, []
        return True

    @property
    def behind(self) -> bool:
        """An update came that does not follow its part, and none since has filled the gap. (Before the first
        whole state nothing is missing: that state is on its way, and what follows it will be applied.)"""
        return self.mine.value is not None and bool(self.table.pending or self.mine.pending)

    def full(self, state: dict[str, Any], force: bool = False) -> bool:
        """A whole state: kept if either of its parts is newer than the copy's (or `force`); then any waiting update
        that follows it."""
        if not force and self.mine.value is not None and state["v"] <= self.mine.v and state["table_v"] <= self.table.v:
            return False
        self.goes_with = state["table_v"]
        self.table.reset(state["table"], state["table_v"])
        self.mine.reset(state["mine"], state["v"])
        self._follow()
        return self._show()

    def receive(self, event: str, message: dict[str, Any]) -> bool:
        """An update of the table (`event` "table") or of the viewer's own part ("mine")."""
        moved = (self.table if event == "table" else self.mine).receive(message)
        self._follow()
        return moved and self._show()

    def _follow(self) -> None:
        # The own part's last update says which table it goes with.
        if self.mine.last is not None:
            self.goes_with = self.mine.last.get("table_v", self.goes_with)
