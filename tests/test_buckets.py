"""Token buckets for events and joins."""

from __future__ import annotations

from partyrummy.server.defences.buckets import Limiter, TokenBucket

from .clock import Clock


def test_a_bucket_allows_a_burst_then_its_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(capacity=3, rate=2, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now = 0.5  # one token back
    assert [bucket.take() for _ in range(2)] == [True, False]
    clock.now = 100  # never more than the capacity
    assert sum(bucket.take() for _ in range(10)) == 3


def test_each_key_has_its_own_bucket() -> None:
    limiter = Limiter(capacity=1, rate=0.001, clock=Clock())
    assert limiter.allow("a") and not limiter.allow("a")
    assert limiter.allow("b")
    limiter.forget("a")
    assert limiter.allow("a")
