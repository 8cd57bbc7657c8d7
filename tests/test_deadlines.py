"""One deadline for a whole thing awaited on a socket (server/defences/deadlines.py): however slowly it trickles,
it ends."""

from __future__ import annotations

import socket
import threading

from partyrummy.server.defences.deadlines import Watchdog

from .clock import Clock


def test_a_trickle_that_keeps_every_read_alive_still_meets_its_deadline() -> None:
    clock = Clock()
    watchdog = Watchdog(tick=None, clock=clock)
    ours, theirs = socket.socketpair()
    watch = watchdog.watch(ours, 10)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.extend(iter(lambda: ours.recv(1), b"")))
    reader.start()
    for second in range(1, 10):  # a byte a second: no single read ever waits long
        theirs.sendall(b"x")
        clock.now = second
        assert watchdog.fire_due() == 0
    clock.now = 10
    assert watchdog.fire_due() == 1 and watch.fired
    reader.join(5)
    assert not reader.is_alive() and len(read) >= 1  # woken at once by the shut socket
    ours.close()
    theirs.close()


def test_a_cancelled_deadline_never_fires_and_is_dropped() -> None:
    clock = Clock()
    watchdog = Watchdog(tick=None, clock=clock)
    ours, theirs = socket.socketpair()
    with watchdog.watch(ours, 1) as watch:
        pass  # what was awaited came in time
    clock.now = 5
    assert watchdog.fire_due() == 0 and not watch.fired and not watchdog.due
    theirs.sendall(b"still open")
    assert ours.recv(10) == b"still open"
    ours.close()
    theirs.close()
