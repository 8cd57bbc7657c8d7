"""A guest with a laptop on the Wi-Fi, attacking with Socket.IO itself: WebSockets from several addresses of its own
(127.0.0.x), each speaking Engine.IO and Socket.IO by hand, sending events and never reading what comes back.

`python -m tests.flood ATTACK URL SECONDS --room CODE [--token T] [--per-address N] [--rate R] [--rcvbuf B] ADDRESS...`
runs one attack for SECONDS, prints "on" once its connections are open, then one line of JSON of what it saw:

- `busy`: N connections an address, each a guest of the room asking `sync` R times a second (under a connection's
  own limit), never reading the answers (Engine.IO's pings answered blind, so the server keeps them).
- `crowd`: from each address a guest connection (role "player", no token) joining the audience under a new name
  as fast as the server answers it, then another connection, and another.
- `seat`: N connections an address, each with the token of a seat the attacker took (`--token`), asking `sync`
  R times a second and never reading.
- `picks`: N connections an address with an audience member's token (`--token`), each sending `predict` R times
  a second (the answer flipping between the first question's options), never reading.

Run as a process of its own, so its work does not slow the phones the test measures.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import resource
import socket
import struct
import sys
import time
from urllib.parse import urlsplit

PONG_EVERY_S = 10.0  # Engine.IO's pings answered blind: the server pings every 25 s and waits 20 s for a pong


def _frame(text: str) -> bytes:
    """One masked WebSocket text frame, as a client must send it."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    n = len(data)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


class RawSocketIO:
    """One Socket.IO connection over a WebSocket from `source`, by hand: it reads only while it connects (and, for
    `call`, until its answer), so everything else the server sends it is left unread."""

    def __init__(self, host: str, port: int, source: str, auth: dict, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket()
        if rcvbuf:  # a small window: what it leaves unread backs up into the server sooner
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.bind((source, 0))
        self.sock.connect((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}:{port}\r\n"
                f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
        if not self._until(lambda p: p.startswith("0")):  # Engine.IO's open packet
            raise ConnectionError("no open packet")
        self.sock.sendall(_frame("40" + json.dumps(auth)))
        answer = self._until(lambda p: p.startswith(("40", "44")))
        if not answer or answer.startswith("44"):
            raise ConnectionError(f"refused: {answer}")
        self.ids = 0
        self.sent = 0

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        self.buffer += chunk

    def _packet(self) -> str:
        """The next text frame's payload (the server's frames are never masked, never fragmented here)."""
        while True:
            while len(self.buffer) < 2:
                self._more()
            n, at = self.buffer[1] & 0x7F, 2
            if n == 126:
                while len(self.buffer) < 4:
                    self._more()
                n, at = struct.unpack("!H", self.buffer[2:4])[0], 4
            elif n == 127:
                while len(self.buffer) < 10:
                    self._more()
                n, at = struct.unpack("!Q", self.buffer[2:10])[0], 10
            while len(self.buffer) < at + n:
                self._more()
            opcode, data = self.buffer[0] & 0x0F, self.buffer[at : at + n]
            self.buffer = self.buffer[at + n :]
            if opcode == 1:
                return data.decode()

    def _until(self, wanted) -> str | None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            packet = self._packet()
            if packet == "2":
                self.sock.sendall(_frame("3"))
            elif wanted(packet):
                return packet
        return None

    def call(self, event: str, data: dict) -> dict | None:
        """An event with its answer read (everything before it skipped): the answer, or None."""
        self.ids += 1
        self.sock.sendall(_frame(f"42{self.ids}" + json.dumps([event, data])))
        answer = self._until(lambda p: p.startswith(f"43{self.ids}["))
        return json.loads(answer[len(f"43{self.ids}") :])[0] if answer else None

    def emit(self, event: str, data: dict) -> bool:
        """An event sent without reading anything; False if the connection is gone (or will take nothing more)."""
        self.ids += 1
        return self._send(_frame(f"42{self.ids}" + json.dumps([event, data])))

    def pong(self) -> bool:
        return self._send(_frame("3"))

    def _send(self, frame: bytes) -> bool:
        try:
            self.sock.settimeout(0)
            sent = self.sock.send(frame)
            self.sent += 1
            return sent == len(frame) or sent > 0
        except BlockingIOError:
            return True  # the server reads no more for now: the flood waits in its own buffers
        except OSError:
            return False

    def close(self) -> None:
        self.sock.close()


def _open(host: str, port: int, source: str, auth: dict, rcvbuf: int | None = None) -> RawSocketIO | None:
    try:
        return RawSocketIO(host, port, source, auth, rcvbuf)
    except (OSError, ConnectionError):
        return None


def _flood(args: argparse.Namespace, host: str, port: int, end: float) -> dict:
    """`busy`, `seat` and `picks`: connections sending one event at a steady rate, never reading."""
    auth = {"room": args.room, "role": "audience" if args.attack == "picks" else "player", "token": args.token}
    conns: list[RawSocketIO] = []
    refused = 0
    for _ in range(args.per_address):
        for source in args.addresses:
            conn = _open(host, port, source, auth, args.rcvbuf)
            if conn is None:
                refused += 1
            else:
                conns.append(conn)
    print("on", flush=True)
    opened_at = time.monotonic()
    question = None
    if args.attack == "picks" and conns:
        state = conns[0].call("sync", {})
        rounds = ((state or {}).get("state") or {}).get("table", {}).get("room", {}).get("audience", {}).get("round")
        question = rounds["questions"][0] if rounds else None
    gap = 1.0 / args.rate
    next_at = [opened_at + gap * i / max(len(conns), 1) for i in range(len(conns))]
    pong_at = opened_at + PONG_EVERY_S
    alive = [True] * len(conns)
    dropped_after: list[float] = []
    sent = 0
    while time.monotonic() < end and any(alive):
        now = time.monotonic()
        if now >= pong_at:
            pong_at = now + PONG_EVERY_S
            for i, conn in enumerate(conns):
                if alive[i] and not conn.pong():
                    alive[i] = False
                    dropped_after.append(now - opened_at)
        for i, conn in enumerate(conns):
            if not alive[i] or now < next_at[i]:
                continue
            next_at[i] = max(next_at[i] + gap, now)
            if args.attack == "picks" and question:
                option = question["options"][sent % len(question["options"])]
                ok = conn.emit("predict", {"question": question["key"], "option": option})
            else:
                ok = conn.emit("sync", {})
            sent += ok
            if not ok:
                alive[i] = False
                dropped_after.append(now - opened_at)
        time.sleep(max(0.0, min(next_at, default=now + 0.1) - time.monotonic()) if any(alive) else 0)
    for conn in conns:
        conn.close()
    return {
        "opened": len(conns),
        "refused": refused,
        "sent": sent,
        "dropped": len(dropped_after),
        "first_dropped_after": min(dropped_after, default=None),
        "last_dropped_after": max(dropped_after, default=None),
        "alive_at_end": sum(alive),
    }


def _crowd(args: argparse.Namespace, host: str, port: int, end: float) -> dict:
    """`crowd`: from each address, a guest connection joining the audience under a new name, again and again: on
    the same connection until it is refused as a member already, then on a new one, as fast as it is let."""
    print("on", flush=True)
    joined, answers, n = 0, {}, 0
    conns: dict[str, RawSocketIO | None] = {source: None for source in args.addresses}
    while time.monotonic() < end:
        for source, conn in conns.items():
            conn = conns[source] = conn or _open(host, port, source, {"room": args.room, "role": "player"})
            if conn is None:
                answers["no_connection"] = answers.get("no_connection", 0) + 1
                continue
            n += 1
            try:
                ack = conn.call("audience_join", {"name": f"Fake {n}"})
            except (OSError, ConnectionError):
                ack = None
            if ack is None:
                conns[source] = None
                continue
            joined += bool(ack.get("ok"))
            code = "ok" if ack.get("ok") else ack["error"]["code"]
            answers[code] = answers.get(code, 0) + 1
            if not ack.get("ok") and code != "slow_down":
                conn.close()
                conns[source] = None  # refused (a member already, say): a new connection tries again
        time.sleep(0.05)
    for conn in conns.values():
        if conn is not None:
            conn.close()
    return {"joined": joined, "answers": answers}


def main(argv: list[str]) -> dict:
    parser = argparse.ArgumentParser()
    parser.add_argument("attack", choices=("busy", "crowd", "seat", "picks"))
    parser.add_argument("url")
    parser.add_argument("seconds", type=float)
    parser.add_argument("addresses", nargs="+")
    parser.add_argument("--room", required=True)
    parser.add_argument("--token")
    parser.add_argument("--per-address", type=int, default=12)
    parser.add_argument("--rate", type=float, default=9.0)
    parser.add_argument("--rcvbuf", type=int, help="each connection's receive buffer, in bytes (the kernel's own)")
    args = parser.parse_args(argv)
    parts = urlsplit(args.url)
    end = time.monotonic() + args.seconds
    attack = _crowd if args.attack == "crowd" else _flood
    return attack(args, parts.hostname, parts.port, end)


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(json.dumps(main(sys.argv[1:])), flush=True)
