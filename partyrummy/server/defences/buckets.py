"""Token buckets: how many events a connection, and how many joins or handshakes an address, may send."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .limits import Rate

__all__ = ["TokenBucket", "Limiter"]


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
