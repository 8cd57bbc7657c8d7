"""The `partyrummy` command as the host meets it: run as a subprocess, read what it prints and its exit code.

Every mistake gets one line naming the option and what it allows, and a non-zero exit; the server prints the
address it really serves, logs nothing the host cannot act on, and says goodbye at once on Ctrl+C.
"""

from __future__ import annotations

import importlib.util
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import socketio

from partyrummy.server import serve as server_module

from .live import Client, LiveServer, free_port

PARTYRUMMY = [sys.executable, "-m", "partyrummy"]


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([*PARTYRUMMY, *args], capture_output=True, text=True, timeout=timeout)


def assert_one_line_refusal(out: subprocess.CompletedProcess, *words: str) -> None:
    """A non-zero exit, one line on stderr naming what was wrong, nothing on stdout, no traceback."""
    assert out.returncode != 0, out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("partyrummy: "), out.stderr
    for word in words:
        assert word in lines[0], out.stderr
    assert not out.stdout.strip()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--port", "99999"], ["--port", "1 to 65535"]),
        (["--port", "many"], ["--port", "1 to 65535"]),
        (["--public-url", "notaurl"], ["--public-url", "http://"]),
        (["--public-url", "http://"], ["--public-url", "http://"]),
        (["--public-url", "http://192.168.1.20:80000"], ["--public-url", "port"]),
        (["solve", "--hand-size", "14", "5H", "6H", "7H"], ["--hand-size", "3 to 13"]),
        (["solve", "--hand-size", "0", "5H", "6H", "7H"], ["--hand-size", "3 to 13"]),
        (["solve", "--wild", "11", "5H", "6H", "7H"], ["--wild", "J, Q, K"]),
        (["solve", "5H", "6H", "XX"], ["XX"]),
        (["simulate", "--games", "0"], ["--games", "1 to"]),
        (["simulate", "--players", "40"], ["--players", "2 to 12"]),
        (["bots", "--url", "127.0.0.1:3313", "--room", "ABCD"], ["--url", "http://"]),
        (["bots", "--url", "http://127.0.0.1:3313", "--room", "ABCD", "--count", "0"], ["--count", "1 to 12"]),
    ],
)
def test_a_wrong_option_gets_one_line_naming_it_and_a_non_zero_exit(args: list[str], words: list[str]) -> None:
    assert_one_line_refusal(run(*args), *words)


@pytest.mark.skipif(importlib.util.find_spec("gevent") is not None, reason="gevent is installed here")
def test_gevent_mode_without_gevent_says_how_to_get_it() -> None:
    assert_one_line_refusal(run("--async-mode", "gevent", "--host", "127.0.0.1"), "--async-mode", "pip install gevent")


def test_a_data_file_that_cannot_be_made_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    serve = ["--host", "127.0.0.1", "--port", str(free_port()), "--public-url", "http://127.0.0.1:1"]
    assert_one_line_refusal(run(*serve, "--data", str(blocker / "rooms.sqlite3")), str(blocker), "--data")
    assert_one_line_refusal(run(*serve, "--data", str(tmp_path)), "--data", "folder")


def test_solve_counts_in_english_plurals() -> None:
    one = run("solve", "--hand-size", "3", "KS")
    assert one.returncode == 0 and one.stdout.splitlines()[0] == "1 card, 3s are wild"
    assert one.stdout.splitlines()[-1] == "penalty: 10 points"
    three = run("solve", "5H", "6H", "7H")
    assert three.stdout.splitlines()[0] == "3 cards, 3s are wild" and "penalty: 0 points" in three.stdout


def test_a_taken_port_is_named_and_the_next_free_one_offered(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run("--host", "127.0.0.1", "--port", str(port), "--data", str(tmp_path / "rooms.sqlite3"))
        assert_one_line_refusal(out, f"port {port} is in use", "--port")
        offered = int(re.search(r"--port (\d+)", out.stderr).group(1))
        assert offered != port
        # With no --port, the server takes the next free port by itself and says so.
        server_module.DEFAULT_PORT, default = port, server_module.DEFAULT_PORT
        try:
            listener = server_module._listen("127.0.0.1", None)
        finally:
            server_module.DEFAULT_PORT = default
        with listener:
            assert listener.getsockname()[1] not in (port, None)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[subprocess.Popen, int, list[str], Path]]:
    """One server as a host starts it (no --public-url), on loopback only; its output read line by line."""
    port = free_port()
    data = tmp_path_factory.mktemp("data") / "rooms.sqlite3"
    proc = subprocess.Popen(
        [*PARTYRUMMY, "--host", "127.0.0.1", "--port", str(port), "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # A Ctrl+C must reach it even when these tests run in a background job (which ignores SIGINT).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines = []
    for line in proc.stdout:  # the banner ends with where rooms are kept
        lines.append(line)
        if "Rooms are kept in" in line:
            break
    yield proc, port, lines, data
    if proc.poll() is None:
        proc.kill()
        proc.wait(10)


def test_the_server_prints_the_address_it_serves_and_the_real_room_code(served) -> None:
    _, port, lines, _ = served
    text = "".join(lines)
    url = f"http://127.0.0.1:{port}"
    assert f"TV (open this on the big screen; keep the key to yourself): {url}/?key=" in text
    with urllib.request.urlopen(url + "/", timeout=10) as response:
        page = response.read().decode()
        assert "Server" not in response.headers  # no Werkzeug/Python versions for the LAN
    code = re.search(r'data-room="([A-Z]{4})"', page).group(1)
    assert f"Phones join room {code} at {url}/join/{code}" in text
    assert f'data-join-url="{url}/join/{code}"' in page  # the QR code's address is the one served
    assert "…" not in text and f"Listening on 127.0.0.1:{port}" in text


def test_websocket_goodbyes_leave_no_noise_and_ctrl_c_says_bye(served) -> None:
    proc, port, _, _ = served
    url = f"http://127.0.0.1:{port}"
    code = re.search(r"join room ([A-Z]{4})", "".join(served[2])).group(1)
    for transports in (["websocket"], None, None):  # straight to WebSocket, and polling then upgrade (as phones)
        phone = socketio.SimpleClient()
        phone.connect(url, auth={"role": "player", "room": code}, transports=transports)
        phone.disconnect()
    staying = Client(url, code)  # a phone still connected when the host stops the server
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=10)  # it stops at once; 10 s is only the bound of a hung server
    staying.sio.disconnect()
    assert proc.returncode == 0
    assert rest.strip() == "Bye!", rest  # nothing logged by the goodbyes: no 400, no traceback


def tv_key(*args: str) -> str:
    """Start a server, read the TV key it prints, stop it."""
    proc = subprocess.Popen(
        [*PARTYRUMMY, "--host", "127.0.0.1", "--port", str(free_port()), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for line in proc.stdout:
            if "?key=" in line:
                return line.rsplit("?key=", 1)[1].strip()
        raise AssertionError("no TV address printed")
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_the_tv_key_outlives_a_restart_until_the_host_asks_for_a_new_one(served) -> None:
    _, _, lines, data = served  # the server above has stopped; its data file stays
    first = re.search(r"\?key=(\S+)", "".join(lines)).group(1)
    assert tv_key("--data", str(data)) == first
    renewed = tv_key("--data", str(data), "--new-tv-key")
    assert renewed != first and tv_key("--data", str(data)) == renewed


def test_bots_say_clearly_why_they_cannot_play(tmp_path: Path) -> None:
    server, bots = LiveServer(), None
    try:
        code, _ = server.tv_page()
        base = ["bots", "--url", server.url, "--count", "2"]
        wrong = run(*base, "--room", "ZZZZ")
        assert_one_line_refusal(wrong, "--room", "ZZZZ")
        taken = Client(server.url, code)
        assert taken.join("Bot 1")["ok"]
        clash = run(*base, "--room", code)
        assert_one_line_refusal(clash, "Bot 1", code)
        nobody = run("bots", "--url", f"http://127.0.0.1:{free_port()}", "--room", code)
        assert_one_line_refusal(nobody, "--url", "running")
        # Seated and waiting for the host: Ctrl+C leaves quietly, at once.
        bots = subprocess.Popen(
            [*PARTYRUMMY, *base, "--room", code, "--name", "Robo"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        assert bots.stdout.readline().startswith(f"2 bots seated in room {code} (Robo 1 …)")
        assert [x["name"] for x in taken.sync()["state"]["room"]["seats"]] == ["Bot 1", "Robo 1", "Robo 2"]
        bots.send_signal(signal.SIGINT)
        out, err = bots.communicate(timeout=10)
        assert bots.returncode == 130 and "Traceback" not in err and not err.strip(), err
        assert out.strip() == "Stopped: the bots leave the room."
        taken.close()
        assert "Traceback" not in "".join(server.output) and "Bad request" not in "".join(server.output)
    finally:
        if bots is not None and bots.poll() is None:
            bots.kill()  # a failed check leaves no process (nor its pipes) to a later test
            bots.communicate()
        server.stop()


def test_the_host_is_told_when_phones_cannot_reach_the_printed_address() -> None:
    from partyrummy.server.serve import _reach_note

    assert "--host 0.0.0.0" in _reach_note("127.0.0.1", "http://127.0.0.1:3313", given=False)
    # Listening everywhere, but no LAN address was found (a laptop not on the Wi-Fi yet): say so.
    assert "No network found" in _reach_note("0.0.0.0", "http://127.0.0.1:3313", given=False)
    assert _reach_note("0.0.0.0", "http://192.168.1.20:3313", given=False) is None
    assert _reach_note("127.0.0.1", "http://127.0.0.1:3313", given=True) is None  # the host chose the address
