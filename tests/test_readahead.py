"""The WebSocket driver's socket on gevent: a frame larger than the kernel's buffer still goes out whole.

Run in a process of its own: gevent must patch the standard library before anything else imports it, and the
test process must stay unpatched.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import socket

    import gevent

    from partyrummy.server.transport.readahead import _WholeSends

    SIZE = 5_000_000  # a slow phone's backlog: far more than a socket's buffer holds


    def sent_by(send) -> tuple[int, int]:
        ours, theirs = socket.socketpair()
        got = []

        def read() -> None:
            gevent.sleep(0.2)  # the phone reads late: the first send finds the buffer full
            while sum(got) < SIZE:
                chunk = theirs.recv(65536)
                if not chunk:
                    break
                got.append(len(chunk))

        reader = gevent.spawn(read)
        told = send(ours, b"x" * SIZE)
        ours.close()
        reader.join(10)
        return told, sum(got)


    print(*sent_by(lambda sock, data: sock.send(data)))
    print(*sent_by(lambda sock, data: _WholeSends(sock).send(data)))
    """
)


def test_a_frame_larger_than_the_socket_buffer_arrives_whole_on_gevent() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=True)
    (plain_told, plain_got), (whole_told, whole_got) = (map(int, line.split()) for line in run.stdout.splitlines())
    assert plain_got < 5_000_000  # what simple-websocket met: gevent's send() sends part and says so
    assert (whole_told, whole_got) == (5_000_000, 5_000_000)
