"""Where the night seats its guests: a newcomer at the emptiest table, and between games everyone again.

Tables stay balanced (their sizes differ by at most one): a newcomer goes to the table with the fewest seats
(the first such), and a reseat deals the guests round the tables as cards are dealt round a ring.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["emptiest", "mix", "balance", "final"]


def emptiest(sizes: Sequence[int], most: int) -> int | None:
    """The table a newcomer sits at: the one with the fewest seats, the first of them; None if all are full."""
    free = [i for i, n in enumerate(sizes) if n < most]
    return min(free, key=lambda i: (sizes[i], i)) if free else None


def _dealt(order: Sequence[str], tables: int) -> dict[str, int]:
    """Guests in this order dealt round the tables: the first to table 1, the second to table 2 …"""
    return {key: i % tables for i, key in enumerate(order)}


def mix(where: dict[str, int], tables: int, seed: int | str) -> dict[str, int]:
    """Everyone to a table drawn at random (from the seed), the tables balanced."""
    order = sorted(where)
    random.Random(f"{seed}:mix").shuffle(order)
    return _dealt(order, tables)


def balance(where: dict[str, int], tables: int) -> dict[str, int]:
    """As few moves as make the tables balanced: from the fullest table (its last comers first) to the emptiest."""
    at: list[list[str]] = [[k for k in where if where[k] == t] for t in range(tables)]
    moved = dict(where)
    while True:
        sizes = [len(a) for a in at]
        big, small = sizes.index(max(sizes)), sizes.index(min(sizes))
        if sizes[big] - sizes[small] <= 1:
            return moved
        key = at[big].pop()
        at[small].append(key)
        moved[key] = small


def final(where: dict[str, int], tables: int, ranking: Sequence[str]) -> dict[str, int]:
    """The leaders at table 1 (as many as a balanced table holds), everyone else dealt round the other tables."""
    size = -(-len(where) // tables)  # a balanced table's larger size
    ranked = [k for k in ranking if k in where] + sorted(k for k in where if k not in ranking)
    leaders, rest = ranked[:size], ranked[size:]
    return {**dict.fromkeys(leaders, 0), **{k: 1 + t for k, t in _dealt(rest, tables - 1).items()}}
