"""Token buckets for events and joins, and the budget guests share."""

from __future__ import annotations

from partyrummy.server.defences.buckets import Limiter, SharedBudget, TokenBucket
from partyrummy.server.defences.limits import Rate

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


def test_an_address_is_held_to_its_own_rate_whatever_the_others_do() -> None:
    clock = Clock()
    budget = SharedBudget(Rate(burst=4, per_s=2), Rate(burst=100, per_s=50), clock)
    assert [budget.allow("10.0.0.2") for _ in range(5)] == [True] * 4 + [False]
    assert budget.allow("10.0.0.3")  # another address has its own
    clock.now = 0.5  # one back
    assert [budget.allow("10.0.0.2") for _ in range(2)] == [True, False]


def test_once_the_guests_budget_is_spent_the_busy_addresses_wait_and_a_quiet_one_goes_on() -> None:
    clock = Clock()
    budget = SharedBudget(Rate(burst=20, per_s=20), Rate(burst=20, per_s=20), clock)
    busy = [f"10.0.0.{n}" for n in range(10, 20)]
    let_through = 0
    quiet = []
    for tick in range(1, 101):  # ten seconds: each busy address offers 20 a second, all of them 200
        clock.now = tick / 10
        for address in busy:
            let_through += sum(budget.allow(address) for _ in range(2))
        if tick % 5 == 0:  # a guest who sends twice a second
            quiet.append(budget.allow("10.0.0.99"))
    # Together they had the guests' 20 a second (after its burst), and at most as much again past it: their fair
    # shares of it. Never the 200 a second they asked for.
    assert 20 * 10 <= let_through <= 2 * 20 * 10 + 20 + 2 * len(busy)
    assert all(quiet)  # under its fair share, the budget spent or not
