"""The pages in WebKit, the engine of every iPhone browser (and of Safari on a Mac plugged into the TV).

Two WebKit windows for the module, the TV's at 1920×1080 and a phone's at 390×844 and then 320×568
(tests/webkit.py: a frame of the phone's size gives a true layout viewport of that width); each test plays a
night of its own (tests/night.py) in them, the other players as Socket.IO clients, so any one runs alone.
Hand 1: the phone joins from the QR code read off the TV, takes from its neighbour's pile, picks and changes
its pick, reloads on the small screen, calls Match! and reads the scores (seed 9 deals seat 0 a match after
one cycle, as in tests/test_browser.py). Hand 2 (the host's "Call now" plays hand 1 for a page that sits it
out): the TV calls without speech synthesis or Web Audio, and the phone, switched to Portuguese, draws from
the shoe and keeps its language through a reload. The layout checks are the
Chromium screens test's (tests/screens.py); no test may leave a page error, a console error or a
request to another host.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from partyrummy.phones import game as rules
from partyrummy.phones.commands import Draw
from partyrummy.rules.melds import best_discard

from . import screens
from .browsers import SEED, expected_game, label
from .layout import check, selenium_js
from .live import Client, act, phase, play_until
from .night import Night
from .webkit import Display, Frame, screenshot_folder, start, stays_quiet

zxingcpp = pytest.importorskip("zxingcpp")
from PIL import Image  # noqa: E402

# The report names the engine of each test; WebKit's tests are among the slow ones (README.md).
pytestmark = [pytest.mark.parametrize("engine", ["webkit"]), pytest.mark.slow]

NAME = "<b>Ana</b>"  # markup in a name must show as text
OTHERS = ["Bob", "Cy", "Dan"]
PHONE, SMALL, TV = (390, 844), (320, 568), (1920, 1080)


class Table:
    """A test's night on a framable server: the TV and a phone in WebKit frames, the other players as clients."""

    def __init__(self, night: Night, tv: Any, phone: Any) -> None:
        self.night, self.host, self.server = night, night.host, night.server
        self.tv, self.phone = Frame(tv, night.url), Frame(phone, night.url)
        self.others: list[Client] = []
        self.join_url = night.join_url

    def client(self, name: str | None = None) -> Client:
        self.others.append(self.night.client(name))
        return self.others[-1]


@pytest.fixture(scope="module")
def shots() -> Path:
    return screenshot_folder("webkit")


@pytest.fixture(scope="module")
def windows() -> Iterator[tuple[Any, Any]]:
    """The module's two WebKit windows, the TV's and the phone's (each takes a couple of seconds to start)."""
    with ExitStack() as stack:
        display = Display()
        stack.callback(display.stop)
        drivers = []
        for _ in range(2):
            drivers.append(start(display))
            stack.callback(drivers[-1].quit)
        yield drivers[0], drivers[1]


@pytest.fixture
def table(windows) -> Iterator[Table]:
    """A night of its own for each test, in the module's windows."""
    with Night(seed=SEED, framable=True) as night:
        yield Table(night, *windows)


def join(phone: Frame, name: str) -> None:
    """The phone's page joins as `name`, typed into its field."""
    phone.wait_text("Your name")  # the page drawn in its words (until then it is not shown, and not focusable)
    phone.js("document.getElementById(arguments[0]).value = arguments[1]", "name", "")
    field = phone.js(
        "return [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === 'Your name').control"
    )
    field.send_keys(name)
    phone.tap("Join")
    phone.wait_text(f"You're in, {name}!")


def to_hand(table: Table, hand_no: int, at: str) -> None:
    """The browser rules started, the host's "Call now" moves the night on (the clients play their moves, the
    caller plays for the phone's page) until hand `hand_no` is at phase `at`."""
    assert table.host.call("variant", {"name": "browser"})["ok"]
    assert table.host.call("start")["ok"]
    table.host.wait_for(lambda s: s["game"] is not None)
    table.night.advance(table.others, lambda s: phase(s) == at and s["game"]["hand_no"] == hand_no)


def settle(frame: Frame) -> None:
    """Let the page's animations end (a scored hand's rows slide to their places): measure where things stay."""
    frame.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))"
        ".then(() => requestAnimationFrame(() => done()));"
    )


def phone_layout(frame: Frame) -> list[str]:
    """The Chromium screens test's phone checks (tests/screens.py), in WebKit."""
    settle(frame)
    return [f"{frame.size[0]} px: {p}" for p in check(selenium_js(frame.driver), **screens.PHONE)]


def tv_layout(frame: Frame, screen: dict) -> list[str]:
    """The Chromium screens test's TV checks for this screen (lobby, table or scores), in WebKit."""
    settle(frame)
    found = screens.tv_problems(selenium_js(frame.driver), TV[0], screen)
    return [f"TV: {p}" for p in found]


# Each visible menu's box and its styled background (as rgb), to compare with what was painted.
MENUS = """
return [...document.querySelectorAll("select")].filter((s) => s.getClientRects().length).map((s) => {
  const box = s.getBoundingClientRect();
  return { id: s.id, x: box.left + 5, y: box.top + box.height / 2,
           rgb: getComputedStyle(s).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number) };
});
"""


def menus_painted_as_styled(frame: Frame, path: Path) -> list[str]:
    """Menus whose painted background is not their CSS background: WebKit draws a <select> of the default
    appearance as the platform's menu button, whatever colours the page gave it."""
    picture = Image.open(path).convert("RGB")
    found = []
    for menu in frame.js(MENUS):
        at = (round(menu["x"]), round(menu["y"]))
        if not (0 <= at[0] < picture.width and 0 <= at[1] < picture.height):
            continue  # below the fold: not in the picture
        painted = picture.getpixel(at)
        if max(abs(a - b) for a, b in zip(painted, menu["rgb"], strict=True)) > 16:
            found.append(f"{frame.size[0]} px: menu #{menu['id']} painted {painted}, styled {tuple(menu['rgb'])}")
    return found


def read_qr(frame: Frame, path: Path) -> list:
    """The codes zxing-cpp reads off a screenshot of the frame (none until the page has painted its lobby)."""
    frame.screenshot(path)
    return zxingcpp.read_barcodes(Image.open(path))


def hand(frame: Frame) -> list[str]:
    """The cards in the phone's hand, as their labels, sorted."""
    return sorted(frame.js("return [...document.querySelectorAll('#hand button')].map((b) => b.textContent.trim())"))


def test_a_phone_joins_from_the_tv_qr_and_plays_a_hand_by_tapping(table: Table, engine: str, shots: Path) -> None:
    tv, phone = table.tv, table.phone
    layout: list[str] = []  # every screen's layout problems, reported together at the end
    tv.open(table.server.url + "/", *TV)
    tv.wait_text("Scan to join")
    codes = tv.wait(lambda: read_qr(tv, shots / f"{engine}-tv-lobby-empty.png"), "a QR code on the TV screen")
    table.join_url = codes[0].text
    assert re.fullmatch(re.escape(table.server.url) + r"/join/[A-Z]{4}", table.join_url)

    phone.open(table.join_url, *PHONE)
    phone.wait_text("Your name")
    phone.screenshot(shots / f"{engine}-phone-join.png")
    layout += phone_layout(phone)
    join(phone, NAME)
    for name in OTHERS:
        table.client(name)
    phone.wait_text("You take from Dan's pile; your discards go to Bob.")
    assert phone.js("return document.querySelectorAll('b').length") == 0

    tv.wait_text("4 players in")
    assert tv.js("return document.querySelectorAll('b').length") == 0
    tv.screenshot(shots / f"{engine}-tv-lobby.png")
    layout += tv_layout(tv, screens.LOBBY) + menus_painted_as_styled(tv, shots / f"{engine}-tv-lobby.png")
    tv.select("Rules", "browser")
    tv.tap("Start the game")
    tv.wait_heading("look at your cards")
    tv.tap("Host")  # the host's drawer
    tv.tap("Call now")
    tv.wait_heading("DRAW!")
    tv.screenshot(shots / f"{engine}-tv-calling.png")
    layout += tv_layout(tv, screens.TABLE)

    game, party = expected_game()
    dan_top = label(game, game.hand.piles[3][-1])
    phone.button("Draw from the shoe")
    phone.screenshot(shots / f"{engine}-phone-draw.png")
    layout += phone_layout(phone) + menus_painted_as_styled(phone, shots / f"{engine}-phone-draw.png")
    phone.tap(f"Take {dan_top} from Dan's pile")
    phone.wait_text("You drew")
    for client in table.others:
        client.wait_for(lambda s: phase(s) == "draw")
        assert act(client)["ok"]  # cycle 1: from the shoe
    game, _ = rules.apply(game, Draw(0, "pile"))

    # Reloaded mid-hand, now on a small phone: the same seat and hand.
    before = hand(phone)
    phone.reload(*SMALL)
    phone.wait_text("You drew")
    assert hand(phone) == before
    layout += phone_layout(phone)

    ids = game.hand.hands[0]
    pick = label(game, ids[best_discard(game.hand.cards_of(ids), game.hand.wild_rank, party.meld_rules())])
    other = next(label(game, i) for i in ids if label(game, i) != pick)
    phone.tap(other)
    phone.wait_text(f"Discarding {other}")
    phone.tap(pick)  # a pick may change until the reveal
    phone.wait_text(f"Discarding {pick}")
    phone.screenshot(shots / f"{engine}-phone-choose-320.png")
    layout += phone_layout(phone)
    for client in table.others:
        client.wait_for(lambda s: s["game"]["you"]["drawn"] is not None)
        assert act(client)["ok"]
    tv.wait_heading("DISCARD!")
    phone.wait_text("went onto your pile")

    phone.tap("Match!")
    tv.wait_heading("CALLS MATCH!")
    tv.tap("Host")  # the host's drawer
    tv.tap("Call now")
    play_until(table.host, table.others, lambda s: phase(s) == "scored", timeout=30, next_hand=False)
    tv.wait_heading("Hand 1 scored", timeout=25)  # after every hand laid out
    settle(tv)
    tv.screenshot(shots / f"{engine}-tv-scores.png")
    layout += tv_layout(tv, screens.SCORES)
    phone.wait_heading("Hand 1 scores")
    phone.wait_text(f"{NAME}: 0")
    phone.screenshot(shots / f"{engine}-phone-results-320.png")
    layout += phone_layout(phone)
    assert phone.js("return document.querySelectorAll('b').length") == 0
    assert tv.js("return document.querySelectorAll('b').length") == 0
    stays_quiet(tv)
    stays_quiet(phone)
    assert not layout, "\n".join(layout)


# Speech and Web Audio taken away, as on a browser without them (WebKitGTK has speechSynthesis, often voiceless).
NO_SPEECH = """
for (const name of ["speechSynthesis", "SpeechSynthesisUtterance", "AudioContext", "webkitAudioContext"]) {
  delete window[name];
  delete Window.prototype[name];
}
return ["speechSynthesis", "AudioContext"].filter((name) => name in window);
"""


def test_the_tv_calls_without_speech_synthesis_or_web_audio(table: Table, engine: str, shots: Path) -> None:
    tv = table.tv
    tv.open(table.server.url + "/", *TV)
    for name in [NAME, *OTHERS]:
        table.client(name)
    to_hand(table, 1, "scored")
    tv.wait_heading("Hand 1 scored")
    assert tv.js(NO_SPEECH) == []
    for switch in ("Voice", "Sound"):
        assert tv.js(
            "return [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === arguments[0])"
            ".querySelector('input').checked",
            switch,
        )
    tv.tap("Next hand")  # on the scores of hand 1
    tv.wait_heading("look at your cards")
    tv.tap("Host")  # the host's drawer
    tv.tap("Call now")  # a call with "!" takes the voice and sound paths
    tv.wait_heading("DRAW!")
    tv.screenshot(shots / f"{engine}-tv-hand-2.png")
    stays_quiet(tv)


def test_the_phone_in_portuguese_draws_from_the_shoe_and_keeps_its_language_after_a_reload(
    table: Table, engine: str, shots: Path
) -> None:
    phone = table.phone
    phone.open(table.join_url, *PHONE)
    join(phone, NAME)
    for name in OTHERS:
        table.client(name)
    to_hand(table, 2, "draw")  # hand 2 is calling "Draw!"
    phone.select("Language", "pt-BR")
    phone.wait_text("Rodada 2 de 11")
    assert phone.js("return document.documentElement.lang") == "pt-BR"
    phone.tap("Comprar do monte")  # from the shoe
    phone.wait_text("Você comprou")
    phone.reload(*PHONE)
    phone.wait_text("Você comprou")
    assert phone.js("return document.documentElement.lang") == "pt-BR"
    phone.screenshot(shots / f"{engine}-phone-drew-pt-BR.png")
    layout = phone_layout(phone)
    assert not layout, "\n".join(layout)
    stays_quiet(phone)


def test_the_watch_sees_a_page_error_a_console_error_and_requests_to_another_host(table: Table, engine: str) -> None:
    """The harness itself: each kind of problem is reported (a watch that saw nothing would prove nothing)."""
    frame = table.tv
    frame.open(table.server.url + "/", *TV)
    frame.wait_text("Scan to join")
    frame.js("""
        setTimeout(() => { throw new Error("thrown on purpose"); });
        console.error("logged on purpose");
        const img = document.createElement("img");
        // another origin (another port), still loopback
        const elsewhere = `127.0.0.1:${location.port === "9" ? 10 : 9}`;
        img.src = `http://${elsewhere}/on-purpose.png`;
        document.body.append(img);
        try { new WebSocket(`ws://${elsewhere}/on-purpose`); } catch (e) { /* the CSP may refuse it at once */ }
    """)
    frame.wait(lambda: len(frame.problems()) >= 4, "four problems")
    found = "\n".join(frame.problems())
    assert "page error: Error: thrown on purpose" in found or "page error: thrown on purpose" in found
    assert "console: logged on purpose" in found
    assert "blocked by the CSP: http://127.0.0.1:" in found
    assert "request to another host: ws://127.0.0.1:" in found


def test_a_phone_at_a_real_table_taps_ready_then_plays_on_in_the_window_which_ends_at_once(
    table: Table, engine: str, shots: Path
) -> None:
    phone, host = table.phone, table.host
    assert host.call("mode", {"mode": "real"})["ok"]
    phone.open(table.join_url, *PHONE)
    join(phone, "Ana")
    bob = table.client("Bob")
    assert host.call("variant", {"name": "browser"})["ok"]  # its window would stay open ten minutes
    assert host.call("start")["ok"] and host.call("call_now")["ok"]  # cards are dealt: Draw!
    host.wait_for(lambda s: phase(s) == "ready")
    phone.tap("Ready")
    assert bob.call("ready")["ok"]
    window = host.wait_for(lambda s: phase(s) == "reveal")
    phone.screenshot(shots / f"{engine}-real-window.png")
    phone.tap("Ready")  # ready for the next "Draw!": the window ends once everyone has said
    assert bob.call("ready", {"cycle": window["game"]["cycle"]})["ok"]
    host.wait_for(lambda s: phase(s) == "ready" and s["game"]["cycle"] == window["game"]["cycle"] + 1)
    layout = phone_layout(phone)
    assert not layout, "\n".join(layout)
    stays_quiet(phone)
