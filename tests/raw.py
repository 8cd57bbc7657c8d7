"""Raw Socket.IO over a WebSocket: packets written by hand (too big, too deep, reserved names), and floods.

`python -m tests.raw URL ROOM PEER CONNECTIONS SECONDS` floods a server from a subprocess (so the flood's
own work does not slow the test's measuring client): CONNECTIONS sockets from address PEER, each sending
events as fast as the server takes them, for SECONDS.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from typing import Any

import websocket


class RawSocket:
    """One Socket.IO connection, packet by packet (Engine.IO v4 over a WebSocket, no polling)."""

    def __init__(self, url: str, room: str, peer: str | None = None, token: str | None = None) -> None:
        headers = [f"X-Test-Peer: {peer}"] if peer else []
        self.ws = websocket.create_connection(
            url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket", header=headers, timeout=10
        )
        self.seen: list[str] = []
        assert self.ws.recv().startswith("0")  # Engine.IO open
        self.ws.send("40" + json.dumps({"room": room, "token": token}))
        while True:  # the server sends the state from its connect handler: it may come before the "connected"
            packet = self.next()
            if packet.startswith("4"):  # CONNECT_ERROR
                self.ws.close()
                raise ConnectionError(packet)
            if packet.startswith("0"):  # CONNECT
                break
        self.ids = 0

    def next(self) -> str:
        """The next Socket.IO packet (answering the server's pings on the way)."""
        while True:
            message = self.ws.recv()
            if message == "":  # the server's close frame: the connection is over
                raise websocket.WebSocketConnectionClosedException("closed by the server")
            if message == "2":
                self.ws.send("3")
                continue
            packet = message[1:] if message.startswith("4") else message
            self.seen.append(packet)
            return packet

    def ask(self, body: str) -> Any:
        """Send an event packet's body (`["draw",{...}]`, or anything) with an ack id; return the ack's data."""
        self.ids += 1
        self.ws.send(f"42{self.ids}{body}")
        while True:
            packet = self.next()
            if packet.startswith(f"3{self.ids}["):
                return json.loads(packet[len(f"3{self.ids}") :])[0]

    def close(self) -> None:
        try:
            self.ws.close()
        except (OSError, websocket.WebSocketException):
            pass
        if self.ws.sock is not None:  # closing after the server dropped it can leave the socket open
            self.ws.sock.close()


def flood(url: str, room: str, peer: str | None, connections: int, seconds: float) -> None:
    """`connections` threads from one address, each connecting and sending events as fast as it can, and
    connecting again when cut off, for `seconds`. Prints how many first connections were refused, then totals."""
    end = time.monotonic() + seconds
    first: list[bool] = []
    cut = []

    def attack() -> None:
        while time.monotonic() < end:
            try:
                sock = RawSocket(url, room, peer)
            except (ConnectionError, OSError, websocket.WebSocketException):
                first.append(False)
                time.sleep(0.2)  # refused: try again (a real attacker would)
                continue
            first.append(True)
            sock.ws.settimeout(1)
            n = 0
            try:
                while time.monotonic() < end:
                    n += 1
                    sock.ws.send(f'42{n}["match"]')
            except (OSError, websocket.WebSocketException):
                cut.append(n)  # the server closed it
            sock.close()

    threads = [threading.Thread(target=attack) for _ in range(connections)]
    for thread in threads:
        thread.start()
    while len(first) < connections and time.monotonic() < end:
        time.sleep(0.01)
    print(f"connected {sum(first[:connections])} refused {connections - sum(first[:connections])}", flush=True)
    for thread in threads:
        thread.join()
    print(f"cut off {len(cut)} times, after {statistics.median(cut) if cut else 0} events", flush=True)


if __name__ == "__main__":
    url, room, peer, count, seconds = sys.argv[1:6]
    flood(url, room, peer if peer != "-" else None, int(count), float(seconds))
