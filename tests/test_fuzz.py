"""Thousands of random and malformed events at a live server from several phones, during a real game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .live import LiveServer, act, phase, seated

EVENTS = [
    "join",
    "sync",
    "draw",
    "choose",
    "match",
    "start",
    "call_now",
    "pause",
    "remove",
    "move",
    "variant",
    "release",
    "take",
    "claim",
    "rejoin_code",
    "nonsense",
    "connect",
    "disconnect",
    "",
]
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=8,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "source": st.sampled_from(["shoe", "pile", "deck", ""]) | junk,
        "card_id": st.integers(-5, 300) | junk,
        "cycle": st.integers(-1, 60) | junk,
        "name": st.text(max_size=40) | junk,
        "seat": st.integers(-3, 15) | junk,
        "to": st.integers(-3, 15),
        "paused": st.booleans() | junk,
        "token": junk,
        "ticket": st.text(max_size=30) | junk,
    },
)
payloads = st.one_of(fields, junk)


def card_count(state: dict) -> int:
    game = state["game"]
    return game["shoe_count"] + sum(s["cards"] + s["pile_count"] for s in game["seats"])


@pytest.mark.slow  # 14 s here
def test_random_and_malformed_events_change_nothing_they_should_not() -> None:
    server = LiveServer("--event-rate", "100000")  # the noise must reach the handlers, not the rate limit
    host, phones = seated(server, "fast", 4)
    assert host.call("start")["ok"]
    sent = 0
    rng = random.Random(1)

    @settings(max_examples=2500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(event=st.sampled_from(EVENTS), payload=payloads)
    def throw(event, payload) -> None:
        nonlocal sent
        phone = phones[rng.randrange(len(phones))]
        if event in ("connect", "disconnect", ""):
            phone.sio.emit(event or "x", payload)  # reserved names and unknown events: no answer expected
        else:
            ack = phone.sio.call(event, payload, timeout=10)
            assert isinstance(ack, dict) and "ok" in ack, ack
            if not ack["ok"]:
                assert ack["error"]["message"] and ack["error"]["code"] != "server", (event, payload, ack)
        sent += 1
        if rng.random() < 0.05:  # keep the real game moving under the noise
            for p in phones:
                act(p)
            if phase(host.state) == "scored":
                host.call("call_now")

    try:
        throw()
        state = host.sync()["state"]
        assert state["game"] is not None and card_count(state) == 208
        for phone in phones:
            ack = phone.sync()
            assert ack["ok"], ack
        assert sent >= 2000
        log = "".join(server.output)
        assert "Traceback" not in log, log[-3000:]
    finally:
        for client in [host, *phones]:
            client.close()
        server.stop()
