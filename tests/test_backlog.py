"""Connections that do not read: the sweep drops a session whose unsent packets pile up, or whose WebSocket could not
hand the kernel a frame for too long, its socket shut before it is closed; the others are left alone.

In-process, with stand-ins for Engine.IO's sessions; tests/test_siege.py drops real ones on a live server."""

from __future__ import annotations

from collections import deque
from types import SimpleNamespace

from partyrummy.server.defences.limits import LIMITS
from partyrummy.server.transport.backlog import Backlog, queued_bytes

from .clock import Clock


class Session:
    def __init__(self, queued: int = 0, sending_since: float | None = None) -> None:
        self.queue = SimpleNamespace(queue=deque(SimpleNamespace(data="x" * 1000) for _ in range(queued)))
        self.done: list[str] = []
        if sending_since is not None or queued == 0:
            self.frames = SimpleNamespace(since=sending_since, cut=lambda: self.done.append("cut"))

    def close(self, wait: bool = True, abort: bool = False, reason: str | None = None) -> None:
        assert not wait and abort  # never waits for a client that does not read
        self.done.append("closed")


def backlog(sessions: dict[str, Session], clock: Clock) -> Backlog:
    eio = SimpleNamespace(sockets=dict(sessions), reason=SimpleNamespace(SERVER_DISCONNECT="server disconnect"))
    return Backlog(eio, LIMITS, spawn=lambda *a: None, sleep=lambda s: None, clock=clock)


def test_a_session_whose_unsent_packets_pile_up_is_dropped_and_the_others_are_left() -> None:
    limit = LIMITS.backlog_bytes // 1000
    sessions = {"reads": Session(queued=3), "never-reads": Session(queued=limit + 1), "idle": Session()}
    sweep = backlog(sessions, Clock(100.0))
    assert queued_bytes(sessions["never-reads"]) > LIMITS.backlog_bytes >= queued_bytes(sessions["reads"])
    assert sweep.sweep() == 1
    assert sessions["never-reads"].done == ["closed"]
    assert sessions["reads"].done == sessions["idle"].done == []
    assert set(sweep.eio.sockets) == {"reads", "idle"}


def test_a_websocket_that_cannot_send_for_too_long_is_shut_then_closed() -> None:
    clock = Clock(100.0)
    sessions = {
        "stuck": Session(sending_since=100.0 - LIMITS.send_s - 0.5),
        "sending": Session(sending_since=100.0 - 1.0),
    }
    sweep = backlog(sessions, clock)
    assert sweep.sweep() == 1
    assert sessions["stuck"].done == ["cut", "closed"]  # its writer freed first
    assert sessions["sending"].done == []
    clock.now += LIMITS.send_s  # still on the same frame
    assert sweep.sweep() == 1 and sessions["sending"].done == ["cut", "closed"]
