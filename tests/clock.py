"""A fake monotonic clock the tests move by hand: anything that takes a `clock` callable takes one."""

from __future__ import annotations


class Clock:
    """Returns `now`, which the test sets."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
