"""Python's cycle collector, tuned for a process holding many rooms of live connections (the server, and the
load generator's processes, which must not be slower than it)."""

from __future__ import annotations

import gc

__all__ = ["FULL_AFTER", "fewer_full_collections"]

FULL_AFTER = 1000  # collections of the middle generation between two full ones (Python's default: 10)


def fewer_full_collections() -> None:
    """Freeze what exists now out of the collector's way, and make full collections rarer.

    Its full collections walk every object alive (each connection's last view, the rooms' engines): at 120
    rooms they stopped the whole process for 100 to 300 ms about every ten seconds, and a reveal in flight
    waited that long (bench/RESULTS.md). What exists once the server is set up is frozen out of its way, and
    a full collection comes after FULL_AFTER younger ones instead of 10; young objects are collected as before,
    and cycles among old ones are still reclaimed, later.
    """
    young, middle, _ = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(young, middle, FULL_AFTER)
