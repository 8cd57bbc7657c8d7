"""A guest with a laptop on the Wi-Fi, attacking below Socket.IO from several addresses of its own (127.0.0.x).

`python -m tests.siege ATTACK URL SECONDS ADDRESS...` runs one attack for SECONDS, then prints what it saw as one
line of JSON. It prints "on" once the attack holds what it came for. Run as a process of its own, so its work
does not slow the test's phones. Each attack holds far more than the server allows, as long as it is let:

- `bodies`: 75 long-polling POSTs an address, each announcing a 128 KB body and sending a byte of it every
  5 s, half to sessions it opened (a new one as each is closed), half to made-up ones; each re-sent as soon
  as it is answered. Reports each answer's status and how long it took.
- `sessions`: Engine.IO sessions opened as fast as the server allows and kept alive with PONG POSTs alone,
  never a GET (never a Socket.IO CONNECT). Reports the most held at once and how old each was when closed.
- `heads`: 400 TCP connections an address, each sending a request line in part, then a byte every 5 s,
  reconnecting a second after it is closed. Reports how many were closed at once and the longest any stayed open.
"""

from __future__ import annotations

import http.client
import json
import resource
import selectors
import socket
import sys
import time
from urllib.parse import urlsplit

TRICKLE_S = 5.0  # a byte this often: more than enough to keep a per-read timeout from ever firing


def _raise_own_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def handshake(host: str, port: int, source: str) -> str | None:
    """A new Engine.IO session over long-polling: its sid, or None if refused."""
    conn = http.client.HTTPConnection(host, port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", "/socket.io/?EIO=4&transport=polling")
        response = conn.getresponse()
        body = response.read().decode()
        return json.loads(body[1:])["sid"] if response.status == 200 else None
    except (OSError, ValueError, http.client.HTTPException):
        return None
    finally:
        conn.close()


def pong(host: str, port: int, source: str, sid: str) -> bool:
    """A PONG posted to a session: whether the server still holds it."""
    conn = http.client.HTTPConnection(host, port, timeout=10, source_address=(source, 0))
    try:
        conn.request("POST", f"/socket.io/?EIO=4&transport=polling&sid={sid}", body=b"3")
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


class Slow:
    """One connection sending something slowly (a request line, or a body after its head)."""

    def __init__(self, host: str, port: int, source: str, opening: bytes) -> None:
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.settimeout(5)
        self.sock.connect((host, port))
        self.sock.setblocking(False)
        self.sock.send(opening)
        self.opened = self.trickled = time.monotonic()
        self.got = b""


def _run(attack: str, url: str, seconds: float, sources: list[str]) -> dict:
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port
    end = time.monotonic() + seconds
    if attack == "sessions":
        return _sessions(host, port, sources, end)
    per_address = 75 if attack == "bodies" else 400
    selector = selectors.DefaultSelector()
    sids: dict[str, list[str]] = {source: [] for source in sources}
    answers: list[tuple[int, float]] = []  # (status, seconds to the answer); 0: closed without one
    refused_at_once = 0
    told = False
    later: list[tuple[float, str, int]] = []

    def opening(source: str, n: int) -> bytes:
        if attack == "heads":
            return b"GET / HTTP/1.1\r\nHo"
        if n % 2 and not sids[source]:
            sid = handshake(host, port, source)
            if sid:
                sids[source].append(sid)
        sid = sids[source][n % len(sids[source])] if n % 2 and sids[source] else f"made-up-{n}"
        return (
            f"POST /socket.io/?EIO=4&transport=polling&sid={sid} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: text/plain\r\nContent-Length: 131072\r\n\r\n"
        ).encode()

    def open_one(source: str, n: int) -> None:
        try:
            slow = Slow(host, port, source, opening(source, n))
        except OSError:
            return
        selector.register(slow.sock, selectors.EVENT_READ, (slow, source, n))

    for n in range(per_address):
        for source in sources:
            open_one(source, n)
    while time.monotonic() < end:
        if not told:
            print("on", flush=True)
            told = True
        for key, _ in selector.select(timeout=0.5):
            slow, source, n = key.data
            try:
                chunk = slow.sock.recv(4096)
            except OSError:
                chunk = b""
            slow.got += chunk
            if chunk and b"\r\n" not in slow.got:
                continue
            selector.unregister(slow.sock)
            slow.sock.close()
            lasted = time.monotonic() - slow.opened
            status = int(slow.got.split()[1]) if slow.got.startswith(b"HTTP/") else 0
            answers.append((status, lasted))
            if lasted < 0.5 and status == 0:
                refused_at_once += 1
            if status == 400 and sids[source]:
                sids[source].clear()  # its sessions were closed: open another next time
            # Again at once if it was answered; a connection closed unanswered is tried again a second later.
            later.append((time.monotonic() + (0 if status else 1.0), source, n))
        for again in [item for item in later if item[0] <= time.monotonic()]:
            later.remove(again)
            open_one(*again[1:])
        now = time.monotonic()
        for key in list(selector.get_map().values()):
            slow = key.data[0]
            if now - slow.trickled >= TRICKLE_S:
                slow.trickled = now
                try:
                    slow.sock.send(b"s")
                except OSError:
                    pass
    held = len(selector.get_map())
    longest_open = max((time.monotonic() - key.data[0].opened for key in selector.get_map().values()), default=0)
    for key in list(selector.get_map().values()):
        key.data[0].sock.close()
    statuses: dict[str, int] = {}
    for status, _ in answers:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {
        "answers": len(answers),
        "statuses": statuses,
        "slowest_answer": max((lasted for status, lasted in answers if status), default=0),
        "longest_closed": max((lasted for status, lasted in answers if not status), default=0),
        "longest_open": longest_open,
        "refused_at_once": refused_at_once,
        "held_at_end": held,
    }


def _sessions(host: str, port: int, sources: list[str], end: float) -> dict:
    held: dict[str, tuple[str, float]] = {}  # sid -> (source, when opened)
    most, opened, ages = 0, 0, []
    told = False
    while time.monotonic() < end:
        for source in sources:
            sid = handshake(host, port, source)
            if sid:
                opened += 1
                held[sid] = (source, time.monotonic())
        for sid, (source, since) in list(held.items()):
            if not pong(host, port, source, sid):
                ages.append(time.monotonic() - since)
                del held[sid]
        most = max(most, len(held))
        if not told and opened:
            print("on", flush=True)
            told = True
    oldest = max((time.monotonic() - since for _, since in held.values()), default=0)
    return {"opened": opened, "most_held": most, "closed": len(ages), "oldest_closed": max(ages, default=0),
            "oldest_open": oldest}


if __name__ == "__main__":
    _raise_own_limit()
    attack, url, seconds, *sources = sys.argv[1:]
    print(json.dumps(_run(attack, url, float(seconds), sources)), flush=True)
