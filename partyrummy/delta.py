"""Small updates of JSON views: what changed from one view to the next, applying it, and a client's copy.

The server sends each connection the changes since the view it last sent it (docs/protocol.md, `update`);
clients apply them to the view they hold. A change is one of:

- ``[value]``: the new value, whole (any JSON value, null included);
- ``[]``: the key is gone (in an object only);
- ``{...}``: changes inside, when old and new are both objects or both lists. Of an object: by key. Of a
  list: by index (``"0"``, ``"1"``, ...), with ``"len"`` the new length when it changed; items past the old
  length come whole, in order.

An object whose ``"id"`` changed is another thing (a card): it goes whole, never a field at a time. A list
in which more than half the items changed goes whole too (a hand that lost a card from the middle).
Values Python holds equal are one value here (``1``, ``1.0`` and ``True``): a view keeps each field's type.
Nothing here mutates its arguments: `apply` makes new objects along the changed paths and shares the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Change", "diff", "apply", "update", "apply_update", "Replica"]

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
        # `==` runs in C: most of a view is unchanged, so most keys stop here.
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
    for i in range(common):
        change = diff(old[i], new[i])
        if change is not None:
            changes[str(i)] = change
    grown = len(new) - common
    if len(changes) + grown > len(new) / 2:
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


def update(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The `update` message that takes a client from the view `old` to the view `new` (both with a `v`)."""
    changes = diff({k: v for k, v in old.items() if k != "v"}, {k: v for k, v in new.items() if k != "v"})
    return {"v": new["v"], "base": old["v"], "changes": changes if isinstance(changes, dict) else {}}


def apply_update(state: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The view after `message`, an `update` whose `base` is `state`'s `v`."""
    return apply(state, message["changes"]) | {"v": message["v"]}


@dataclass
class Replica:
    """A client's copy of its view, from full states (`state`, `sync`) and updates.

    `receive` and `full` say whether the copy moved on. An update that does not follow the copy waits in
    `pending` (a client that handles messages on several threads may see them out of order) and makes
    `behind` true: the client should `sync`, unless the missing one turns up first.
    """

    state: dict[str, Any] | None = None
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)  # updates by their base

    @property
    def behind(self) -> bool:
        """An update came that does not follow the copy, and none since has filled the gap."""
        return bool(self.pending)

    def full(self, state: dict[str, Any], force: bool = False) -> bool:
        """A whole view: kept if newer than the copy (or `force`); then any waiting update that follows it."""
        if not force and self.state is not None and state["v"] <= self.state["v"]:
            return False
        self.state = state
        self._drain()
        return True

    def receive(self, message: dict[str, Any]) -> bool:
        """An update: applied if it follows the copy, kept for later if it is ahead, dropped if it is old."""
        if self.state is not None and message["v"] <= self.state["v"]:
            return False
        self.pending[message["base"]] = message
        return self._drain()

    def _drain(self) -> bool:
        moved = False
        while self.state is not None and self.state["v"] in self.pending:
            self.state = apply_update(self.state, self.pending.pop(self.state["v"]))
            moved = True
        if self.state is not None:
            self.pending = {base: m for base, m in self.pending.items() if m["v"] > self.state["v"]}
        return moved
