"""Token buckets: how many events a connection, an address and all guests together, and how many joins or
handshakes an address, may send."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .limits import Rate

__all__ = ["TokenBucket", "Limiter", "SharedBudget"]


@dataclass
class TokenBucket:
    """`capacity` events at once, refilled at `rate` a second."""

    capacity: float
    rate: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.capacity
        self.stamp = self.clock()

    @classmethod
    def of(cls, rate: Rate) -> TokenBucket:
        return cls(rate.burst, rate.per_s)

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Limiter:
    """One bucket per key (a connection, an address); forgotten when the key goes."""

    def __init__(self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity, self.rate, self.clock = capacity, rate, clock
        self.buckets: dict[str, TokenBucket] = {}

    @classmethod
    def of(cls, rate: Rate) -> Limiter:
        return cls(rate.burst, rate.per_s)

    def allow(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 10_000:  # bounded: a flood of keys cannot grow it forever
                self.buckets.clear()
            bucket = self.buckets[key] = TokenBucket(self.capacity, self.rate, self.clock)
        return bucket.take()

    def forget(self, key: str) -> None:
        self.buckets.pop(key, None)


class SharedBudget:
    """Events of many keys (guest addresses) that share one budget: each key its own bucket, and one bucket for them
    all. Once the shared bucket is spent, a key still under its fair share of the shared rate (that rate over the
    keys that sent in the last second, or so far in this one) goes on: a few busy keys cannot starve the quiet ones,
    and what goes on past the shared bucket is at most its rate again."""

    WINDOW_S = 1.0

    def __init__(self, each: Rate, together: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.each = Limiter(each.burst, each.per_s, clock)
        self.together = TokenBucket(together.burst, together.per_s, clock)
        self.clock = clock
        self.window = clock()  # when the current second began
        self.used: dict[str, int] = {}  # events let through this second, by key
        self.active = 1  # keys that sent in the last second (at least one)

    def allow(self, key: str) -> bool:
        """Whether `key` may send one more event now."""
        if not self.each.allow(key):
            return False
        now = self.clock()
        if now - self.window >= self.WINDOW_S:
            self.active = max(len(self.used), 1) if now - self.window < 2 * self.WINDOW_S else 1
            self.used = {}
            self.window = now
        used = self.used.get(key, 0)
        sharing = max(self.active, len(self.used) + (key not in self.used))  # this second's keys count at once
        if self.together.take() or used < self.together.rate / sharing:
            self.used[key] = used + 1
            return True
        return False
