"""A live server on a free loopback port, and real Socket.IO clients that record every message."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
import socketio

from partyrummy.wire.delta import Replica, merge

HERE = Path(__file__).resolve().parent
RETRY_S = 0.25  # how soon play_until tries a refused move again
RESYNC_AFTER_S = 0.2  # how long a client behind waits for the update it missed before it asks for the whole view


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """`partyrummy` started as a person would, bound to loopback, QR pointing at loopback."""

    def __init__(
        self,
        *extra: str,
        command: list[str] | None = None,
        cwd: Path | None = None,
        data: Path | None = None,
        port: int | None = None,
    ) -> None:
        self.port = port or free_port()
        self.tmp = tempfile.TemporaryDirectory()
        self.data = data or Path(self.tmp.name) / "rooms.sqlite3"
        self.url = f"http://127.0.0.1:{self.port}"
        base = command or [sys.executable, "-m", "partyrummy"]
        self.args = [
            *base,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--public-url",
            self.url,
            "--variants",
            str(HERE / "fast.toml"),
            "--data",
            str(self.data),
            *extra,
        ]
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
        self.output: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.get("/static/css/common.css")
                return
            except OSError:
                if self.proc.poll() is not None:
                    self._finish()
                    raise RuntimeError("server exited: " + self.log) from None
                time.sleep(0.05)  # waiting for a process to bind its port: nothing to wait on instead
        self.proc.kill()
        self.proc.wait(10)
        self._finish()
        raise RuntimeError("server did not start: " + self.log)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)

    @property
    def log(self) -> str:
        """Everything the server printed so far (stdout and stderr)."""
        return "".join(self.output)

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return response.read().decode()

    def tv_page(self) -> tuple[str, str]:
        """The room code and host token the TV page carries."""
        page = self.get("/")
        code = re.search(r'data-room="([A-Z]{4})"', page).group(1)
        token = re.search(r'data-host-token="([^"]+)"', page).group(1)
        return code, token

    def new_room(self) -> tuple[str, str]:
        """A new room, made as the TV's button makes it (a POST from this laptop): its code and host token."""
        made = urllib.request.Request(self.url + "/new", method="POST", headers={"Origin": self.url})
        with urllib.request.urlopen(made, timeout=10) as response:  # and back to the TV page, which shows it
            response.read()
        return self.tv_page()

    def ends_of(self, ports: set[int]) -> set[str]:
        """The server's ends of the open loopback connections from these client ports, as socket inodes (Linux)."""
        ends = set()
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            local, remote, inode = (field := line.split())[1], field[2], field[9]
            if int(local.split(":")[1], 16) == self.port and int(remote.split(":")[1], 16) in ports:
                ends.add(inode)
        return ends

    def let_go(self, ends: set[str], timeout: float = 10) -> None:
        """Wait until the server's process holds none of these sockets: it is done with those connections."""
        deadline = time.monotonic() + timeout
        while ends & self._sockets():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server still holds {ends & self._sockets()}")
            time.sleep(0.02)  # the kernel tells no one when a process closes a socket: looked at again

    def _sockets(self) -> set[str]:
        held = set()
        for fd in Path(f"/proc/{self.proc.pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue  # closed meanwhile
            if target.startswith("socket:["):
                held.add(target[len("socket:[") : -1])
        return held

    def stop(self) -> None:
        """SIGTERM (SIGKILL if it has not ended in 10 s); fails if the server printed a traceback."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self._finish()
        self.check()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write; fails if it printed a traceback before."""
        self.proc.kill()
        self.proc.wait(10)
        self._finish()
        self.check()

    def _finish(self) -> None:
        """Once the process is gone: its output read to the end, then the pipe and the data folder let go."""
        self.reader.join(10)  # the pipe's end of file: nothing more to come
        if not self.reader.is_alive():  # else something the server started still holds the pipe: leave it be
            self.proc.stdout.close()
        self.tmp.cleanup()

    def check(self) -> None:
        """Fails the test, showing the log, if the server printed a traceback: no server error goes unseen."""
        log = self.log
        if "Traceback" in log:
            start = max(0, log.index("Traceback") - 2000)  # from a little before the first one, at most 20,000
            shown = ("…" if start else "") + log[start : start + 20_000] + ("…" if len(log) > start + 20_000 else "")
            raise AssertionError(f"the server at {self.url} printed a traceback ({log.count('Traceback')}):\n{shown}")


LAN = [sys.executable, "-m", "tests.lan_server"]  # the server that tells the laptop from guests on loopback


def lan_server(config: dict, *extra: str, data: Path | None = None) -> LiveServer:
    """tests/lan_server.py with these app config keys (small limits, short clocks)."""
    os.environ["PARTYRUMMY_TEST_CONFIG"] = json.dumps(config)
    try:
        return LiveServer(*extra, command=LAN, data=data)
    finally:
        del os.environ["PARTYRUMMY_TEST_CONFIG"]


def guest(n: int) -> str:
    """The address of the nth guest device on the (loopback) Wi-Fi, to a `lan_server`."""
    return f"127.0.0.{n + 1}"


class Refused(ConnectionError):
    """The server refused a connection: its `message` (in the client's language) and `code`."""

    def __init__(self, refusal: Any) -> None:
        said = refusal if isinstance(refusal, dict) else {"message": str(refusal)}
        self.message = str(said.get("message", ""))
        self.code = (said.get("data") or {}).get("code") if isinstance(said.get("data"), dict) else None
        super().__init__(f"refused ({self.code}): {self.message}")


def from_address(source: str) -> requests.Session:
    """An HTTP session whose connections leave from `source` (a loopback address other than 127.0.0.1)."""

    class Bound(requests.adapters.HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **{**kwargs, "source_address": (source, 0)})

    session = requests.Session()
    session.mount("http://", Bound())
    return session


class Client:
    """A phone or a TV: a python-socketio client keeping every message it received."""

    def __init__(
        self,
        url: str,
        room: str,
        role: str = "player",
        token: str | None = None,
        reconnect: bool = False,
        lang: str | None = None,
        headers: dict[str, str] | None = None,
        source: str | None = None,
        ticket: str | None = None,
    ) -> None:
        """`source`: a loopback address to send from (127.0.0.2…), a guest device of its own to a server that counts
        only 127.0.0.1 as the laptop (tests/lan_server.py); it speaks long-polling only (WebSocket clients cannot
        choose their source address). `ticket`: a rejoin ticket sent with the connection (a locked room's way in)."""
        self.room, self.role, self.token, self.lang = room, role, token, lang
        self.messages: list[tuple[str, Any]] = []  # every payload received, as it came: states, updates, notices
        self.views: list[dict] = []  # every whole view this client held, in order (sent whole or made by updates)
        self.state: dict | None = None
        self.replica = Replica()
        self.drop_updates = 0  # a test's: lose this many of the next updates, as a bad link would
        self.resyncs = 0  # how many times it asked for a full state because it had missed an update
        self.resync_due = False  # it will look again in a moment whether it is still behind
        self.changed = threading.Condition()
        bound = {"http_session": from_address(source)} if source else {}
        self.sio = socketio.Client(reconnection=reconnect, reconnection_delay=0.2, reconnection_delay_max=1, **bound)
        self.sio.on("state", lambda data: self._receive("state", data))
        self.sio.on("table", lambda data: self._receive("table", data))
        self.sio.on("mine", lambda data: self._receive("mine", data))
        self.sio.on("notice", lambda data: self._record("notice", data))
        # The server sends the state from its connect handler, so after a reconnection a state can
        # arrive before the client counts itself connected; calls wait for the connection itself.
        self.online = threading.Event()
        self.sio.on("connect", self.online.set)
        self.sio.on("disconnect", lambda *reason: self.online.clear())
        auth = lambda: {"role": self.role, "room": self.room, "token": self.token, "lang": self.lang, "ticket": ticket}  # noqa: E731
        transports = ["polling"] if source else None
        refusals: list[Any] = []
        self.sio.on("connect_error", refusals.append)
        try:
            self.sio.connect(url, auth=auth, headers=headers or {}, wait_timeout=10, transports=transports)
        except socketio.exceptions.ConnectionError as error:
            self.sio.shutdown()
            raise Refused(refusals[-1] if refusals else {"message": str(error)}) from error
        self.sync()

    def _record(self, event: str, data: Any) -> None:
        with self.changed:
            self.messages.append((event, data))
            self.changed.notify_all()

    def _receive(self, event: str, data: dict) -> None:
        """A whole state or an update (the table's, or its own part's `mine`): recorded as it came, then applied
        to the copy this client holds.

        python-socketio handles each message on a thread of its own, so two updates may be applied out of
        order: the replica keeps one that is ahead until the one before it turns up; if the copy is still
        behind a moment later, the client asks for a full state, as the pages do.
        """
        with self.changed:
            self.messages.append((event, data))
            if event != "state" and self.drop_updates:
                self.drop_updates -= 1
                return
            moved = self.replica.full(data) if event == "state" else self.replica.receive(event, data)
            if moved:
                self._on_state(self.replica.state)
            behind = self.replica.behind and not self.resync_due
            self.resync_due |= behind
        if behind:
            # The missing update is most often a moment behind, on a thread of its own: the whole view is asked
            # for only if it has not come in a while, and once at a time (else a phone busy with updates spends
            # its events on syncs and is told to slow down).
            later = threading.Timer(RESYNC_AFTER_S, self._resync)
            later.daemon = True
            later.start()

    def _resync(self) -> None:
        with self.changed:
            self.resync_due = False
            behind = self.replica.behind
        if behind and self.online.is_set():
            self.resyncs += 1
            try:
                self.sync()
            except (TimeoutError, socketio.exceptions.SocketIOError):
                pass  # gone meanwhile: a reconnection brings a whole state

    def _on_state(self, data: dict) -> None:
        """A newer whole view to hold (subclasses watch it here): the table's update and its own part's may carry
        the same version, so an equal one is newer too when the copy moved on."""
        with self.changed:
            if self.state is None or data["v"] >= self.state["v"]:
                self.state = data
                self.views.append(data)
            self.changed.notify_all()

    def call(self, event: str, data: Any = None) -> dict:
        if not self.online.wait(10):
            raise TimeoutError("not connected")
        ack = self.sio.call(event, data if data is not None else {}, timeout=10)
        if event == "sync" and ack.get("ok"):
            state = ack["state"]
            self._receive("state", state)
            # The answer's state, as the tests read it: the whole view (the table with this client's part in it).
            ack = {**ack, "state": {"v": state["v"], **merge(state["table"], state["mine"])}}
        return ack

    def sync(self) -> dict:
        return self.call("sync")

    def join(self, name: str) -> dict:
        ack = self.call("join", {"name": name})
        if ack["ok"]:
            self.token = ack["token"]
            self.role = "player"
        return ack

    def wait_for(self, predicate: Callable[[dict], bool], timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.state is None or not predicate(self.state):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no such state; last: {self.state and self.state.get('game', {})}")
                self.changed.wait(left)
            return self.state

    def close(self) -> None:
        # shutdown, not disconnect: a client still trying to reconnect must stop too, or its retries
        # (which draw from the global random module) run on into later tests.
        self.sio.shutdown()


def close_together(clients: list[Client]) -> None:
    """Close clients at once: each close waits about 3 s for its WebSocket to finish closing."""
    threads = [threading.Thread(target=client.close) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def seated(server: LiveServer, variant: str, players: int, reconnect: bool = False) -> tuple[Client, list[Client]]:
    """The room on the TV's page with `variant` chosen by its host, and `players` phones seated as P0, P1, …"""
    code, token = server.tv_page()
    host = Client(server.url, code, role="host", token=token, reconnect=reconnect)
    assert host.call("variant", {"name": variant})["ok"]
    phones = [Client(server.url, code, reconnect=reconnect) for _ in range(players)]
    join_all(phones)
    return host, phones


def join_all(phones: list[Client]) -> None:
    """Seat each phone, named P0, P1, … in turn."""
    for i, phone in enumerate(phones):
        assert phone.join(f"P{i}")["ok"]


def phase(state: dict) -> str | None:
    return state["game"]["phase"] if state.get("game") else None


def next_move(state: dict | None) -> tuple[str, dict] | None:
    """The one sensible move (an event and its payload) a phone would make in this state, if it has one."""
    game = state.get("game") if state else None
    if not game or game["game_over"] or game["you"] is None or game["you"]["waiting"]:
        return None
    you, mine = game["you"], game["seats"][game["you"]["seat"]]
    if mine["matched"]:
        return None
    if game["phase"] in ("draw", "last_draw") and you["seat"] in game["waiting_for"]:
        source = "pile" if game["cycle"] % 2 and you["take"]["top"] else "shoe"
        return "draw", {"source": source, "cycle": game["cycle"]}
    if you["drawn"] and you["pick"] is None:
        return "choose", {"card_id": you["hint"]["discard"], "cycle": game["cycle"]}
    if game["phase"] in ("reveal", "setup") and you["hint"]["penalty"] == 0 and len(you["hand"]) == game["size"]:
        return "match", {}
    return None


def act(client: Client) -> dict | None:
    """One sensible move for this phone in its latest state, if it has one to make: the server's answer."""
    move = next_move(client.state)
    return client.call(*move) if move else None


def play_game(host: Client, phones: list[Client], timeout: float = 240.0) -> dict:
    """Drive every phone through a whole game; the host moves on after each scored hand."""
    return play_until(host, phones, lambda s: s["game"]["game_over"], timeout)


def play_until(
    host: Client, phones: list[Client], done: Callable[[dict], bool], timeout: float = 240.0, next_hand: bool = True
) -> dict:
    """Drive every phone until the host's state satisfies `done`; the host moves on after each scored hand."""
    deadline = time.monotonic() + timeout
    acted: dict[int, int] = {}
    again: dict[int, float] = {}  # a refused phone tries the same state again at this time, not at once
    refusals: list[dict] = []
    called = 0.0
    while time.monotonic() < deadline:
        now = time.monotonic()
        for i, phone in enumerate(phones):
            if phone.state and (phone.state["v"] != acted.get(i) or now >= again.get(i, float("inf"))):
                acted[i], again[i] = phone.state["v"], float("inf")
                ack = act(phone)
                if ack is not None and not ack["ok"]:
                    # A race with the caller. Tried again at the next state or in a moment, well under the
                    # event rate: a phone retrying at once would spend its events and be told to slow down.
                    refusals.append(ack["error"])
                    again[i] = now + RETRY_S
        state = host.state
        if done(state):
            return state
        if next_hand and state["game"]["phase"] == "scored" and now >= called + RETRY_S:
            called = now
            if host.call("call_now")["ok"]:
                host.wait_for(lambda s, before=state["v"]: s["v"] > before)
        with host.changed:
            host.changed.wait(0.05)
    raise TimeoutError(f"not there in time; refusals: {refusals[-5:]}; table: {host.state['game']}")
