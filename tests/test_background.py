"""A phone put away mid-hand comes back by itself, in Chromium and in WebKit.

The phone's page is hidden (a `visibilitychange` with `document.hidden` and `visibilityState` overridden:
what a locked phone or a switch to another app fires), its connection dies while hidden, the game moves on
without it (the host's "Call now" plays for it), and when the page is shown again it must hold its seat and
the current hand, ready to play, within a second, with no tap. The connection dies one of two ways, through
a relay standing for the phone's network: closed from the server's side with the network down (the page
hears of it and retries in vain), or the radio off (the page hears nothing and finds out when it next
speaks). The page times its own return, from the `visibilitychange` to the hand on screen, so the driver's
polling adds nothing to the figure.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from .browsers import ARGS, CHROMIUM, Watch, join, need_chromium
from .live import act, free_port, phase
from .night import Night

pytestmark = pytest.mark.slow  # README.md: the background tests are among the slow ones

NAME = "Ana"
# How soon a shown page must be back, by cut: each bound well under what a page that does not come back on being
# shown would take. After a loud cut its client's next try is at least a second away (put_away); after a silent
# one it would sit on a dead socket until the pings gave up (25 s and more), so a busy machine's WebKit, which
# took 1038 and 1063 ms on two full runs, is given three seconds there.
BACK_WITHIN_MS = {"closed": 1000, "radio-off": 3000}
HAND = "#hand button"  # the phone's cards

HIDE = """
for (const [key, value] of [["hidden", true], ["visibilityState", "hidden"]])
  Object.defineProperty(document, key, { configurable: true, get: () => value });
document.dispatchEvent(new Event("visibilitychange"));
"""

# Show the page again; resolves with how long (ms, timed in the page) until it shows what its seat holds now
# and can be played: `want` is the hand (card labels, sorted) and the card on the neighbour's pile, which the
# page must show on an enabled, tappable "Take" button beside a tappable "Draw from the shoe" (a page still
# offline shows its old hand greyed out, which may by chance be the same cards). Resolves with null after 10 s.
# A function body of `want`, for both drivers.
SHOW = """
const t0 = performance.now();
delete document.hidden;  // back to the browser's own (visible) answers
delete document.visibilityState;
document.dispatchEvent(new Event("visibilitychange"));
const tappable = (b) => b && !b.disabled && getComputedStyle(b).pointerEvents !== "none" && b.getClientRects().length;
const named = (start) => [...document.querySelectorAll("button")].find((b) =>
  (b.getAttribute("aria-label") || b.textContent).trim().startsWith(start));
return new Promise((resolve) => {
  const look = () => {
    const cards = [...document.querySelectorAll(want.selector)].map((b) => b.textContent.trim()).sort();
    const take = named(`Take ${want.top} from `);
    const took = performance.now() - t0;
    if (JSON.stringify(cards) === JSON.stringify(want.hand) && tappable(take) && tappable(named("Draw from the shoe")))
      resolve(took);
    else if (took > 10000) resolve(null);
    else setTimeout(look, 10);
  };
  look();
});
"""


class Cable:
    """A TCP relay on loopback standing for the phone's network, which `cut` takes away until `mend`.

    A loud cut closes both ends of every connection (the page hears of it at once) and refuses new ones,
    noting when. A silent cut is a locked phone's radio going off: the server's ends close, the phone's
    stay open and hear nothing, so the page still believes it is connected, until its first word, which is
    answered with a reset (what a server that gave up the connection answers)."""

    def __init__(self, port: int, target: int) -> None:
        self.target = target
        self.down = False
        self.tries: list[float] = []  # when the page tried to connect while the network was down
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        self.phones: set[socket.socket] = set()  # the phone's ends of open connections
        self.zombies: set[socket.socket] = set()  # phone's ends silently cut: reset when the phone speaks
        self.listener = socket.create_server(("127.0.0.1", port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                if self.down:
                    self.tries.append(time.monotonic())
                    phone.close()
                    continue
                server = socket.create_connection(("127.0.0.1", self.target))
                for end in (phone, server):
                    end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.open |= {phone, server}
                self.phones.add(phone)
            threading.Thread(target=self._pump, args=(phone, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, phone), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if source in self.zombies:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source)
            if sink not in self.zombies:  # a silently cut phone hears nothing until it speaks
                self._close(sink)

    def _close(self, end: socket.socket) -> None:
        with self.lock:
            self.open.discard(end)
            self.phones.discard(end)
            reset = end in self.zombies
            self.zombies.discard(end)
        try:
            if reset:  # close with RST, not FIN
                end.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            else:
                end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()

    def cut(self, silent: bool = False) -> None:
        with self.lock:
            self.down = True
            self.tries = []
            if silent:
                self.zombies |= self.phones
            ends = [end for end in self.open if end not in self.zombies]
        for end in ends:
            self._close(end)

    def wait_backed_off(self, gap: float, pump: Callable[[float], None], timeout: float = 30) -> None:
        """Until the page's tries to come back are at least `gap` seconds apart, just after one of them.
        `pump(seconds)` waits while letting the browser's driver work (Playwright routes the page's requests
        only while its API is called)."""
        deadline = time.monotonic() + timeout
        while len(self.tries) < 2 or self.tries[-1] - self.tries[-2] < gap:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the page's tries to reconnect while hidden: {self.tries}")
            pump(0.05)

    def mend(self) -> None:
        with self.lock:
            self.down = False

    def close(self) -> None:
        self.listener.close()
        with self.lock:
            self.zombies.clear()
        self.cut()


class Party:
    """A night (tests/night.py), the phone's network in front of its server, the host and two more players."""

    def __init__(self, stack: ExitStack, night: Night, port: int) -> None:
        self.night, self.server = night, night.server
        self.cable = Cable(port, night.server.port)
        stack.callback(self.cable.close)
        self.url = f"http://127.0.0.1:{port}"  # the phone's way in
        self.silent = False
        self.code, self.host = night.code, night.host
        self.others = [night.client() for _ in range(2)]
        self.join_url = f"{self.url}/join/{self.code}"

    def seat_others_and_start(self) -> None:
        for client, name in zip(self.others, ("Bob", "Cy"), strict=True):
            assert client.join(name)["ok"]
        assert self.host.call("variant", {"name": "browser"})["ok"]
        assert self.host.call("start")["ok"]
        self.host.wait_for(lambda s: phase(s) == "setup")
        assert self.host.call("call_now")["ok"]
        self.host.wait_for(lambda s: phase(s) == "draw")

    def move_on_without(self, seat: int) -> None:
        """The others draw and discard, the host calls (playing for the absent seat) until the next draw."""
        self.host.wait_for(lambda s: not s["room"]["seats"][seat]["connected"])
        for client in self.others:
            client.wait_for(lambda s: phase(s) == "draw")
            assert act(client)["ok"]
            client.wait_for(lambda s: s["game"]["you"]["drawn"] is not None)
            assert act(client)["ok"]
        cycle = self.host.state["game"]["cycle"]
        assert self.host.call("call_now")["ok"]  # plays the absent seat's draw and discard, then reveals
        self.host.wait_for(lambda s: phase(s) == "reveal")
        assert self.host.call("call_now")["ok"]
        self.host.wait_for(lambda s: phase(s) == "draw" and s["game"]["cycle"] > cycle)

    def seat_now(self, token: str) -> dict:
        """What the seat's own device should now show (asked on a second connection with its token): its hand,
        sorted, and the top of the pile it takes from."""
        you = self.night.client(token=token).state["game"]["you"]
        return {"hand": sorted(card["label"] for card in you["hand"]), "top": you["take"]["top"]["label"]}


@pytest.fixture(scope="module")
def shots() -> Path:
    """One folder for both engines' pictures of the phone back in its seat."""
    from .webkit import screenshot_folder

    return screenshot_folder("background")


@pytest.fixture(scope="module")
def webkit() -> Iterator[Any]:
    """One WebKit session for the module's WebKit tests (it takes a couple of seconds to start)."""
    from .webkit import Display, start

    with ExitStack() as stack:
        display = Display()
        stack.callback(display.stop)
        driver = start(display)
        stack.callback(driver.quit)
        yield driver


@pytest.fixture(params=["chromium", "webkit"])
def engine(request) -> str:
    return request.param


@pytest.fixture(params=["closed", "radio-off"])
def cut(request) -> str:
    """How the connection dies while the page is hidden: closed by the server's side, or the radio off."""
    return request.param


@pytest.fixture
def party(engine: str, cut: str) -> Iterator[Party]:
    port = free_port()
    with ExitStack() as stack:
        night = stack.enter_context(Night("--public-url", f"http://127.0.0.1:{port}", framable=engine == "webkit"))
        party = Party(stack, night, port)
        party.silent = cut == "radio-off"
        yield party


def put_away(party: Party, hide: Callable[[], None], pump: Callable[[float], None], token: str) -> dict:
    """Hide the page and cut it off, move the game on, mend the network: what the page should now show.

    After a loud cut the network comes back just after a failed try that came at least 1.5 s after the one
    before: the client's next try is then at least a second away (its delays double, each give or take half),
    so only a page that reconnects on being shown is back within the second."""
    hide()
    party.cable.cut(silent=party.silent)
    party.move_on_without(0)
    want = party.seat_now(token) | {"selector": HAND}
    if not party.silent:  # a page told of the cut has been retrying
        party.cable.wait_backed_off(1.5, pump)
    party.cable.mend()
    return want


def test_a_phone_put_away_comes_back_to_its_seat_and_hand_by_itself(
    party: Party, engine: str, cut: str, shots: Path, request: pytest.FixtureRequest
) -> None:
    picture = shots / f"{engine}-{cut}-phone-back.png"
    if engine == "chromium":
        took, problems = in_chromium(party, picture)
    else:
        took, problems = in_webkit(party, picture, request.getfixturevalue("webkit"))
    assert took is not None, "the page never showed its current hand"
    print(f"\n{engine}, {cut}: back in its seat with the current hand {took:.0f} ms after being shown")
    assert took < BACK_WITHIN_MS[cut], f"back after {took:.0f} ms"
    assert not problems, problems


def in_chromium(party: Party, picture: Path) -> tuple[float | None, list[str]]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    watch = Watch(party.url)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            phone = watch.open(browser, party.join_url)
            join(phone, NAME)
            party.seat_others_and_start()
            phone.get_by_role("button", name="Draw from the shoe").wait_for()
            token = phone.evaluate(f"localStorage.getItem('pr.token.{party.code}')")
            hide = lambda: phone.evaluate(f"() => {{ {HIDE} }}")  # noqa: E731
            want = put_away(party, hide, lambda seconds: phone.wait_for_timeout(seconds * 1000), token)
            took = phone.evaluate(f"async (want) => {{ {SHOW} }}", want)
            phone.screenshot(path=str(picture))
        finally:
            browser.close()
    # A resource that failed while the network was cut is Chromium's log line, not the page's error.
    return took, [p for p in watch.problems if "Failed to load resource: net::ERR_" not in p]


def in_webkit(party: Party, picture: Path, driver: Any) -> tuple[float | None, list[str]]:
    from .webkit import Frame

    phone = Frame(driver, party.url)
    phone.open(party.join_url, 390, 844)
    phone.js("document.getElementById('name').value = arguments[0]", NAME)
    phone.tap("Join")
    phone.wait_text(f"You're in, {NAME}!")
    party.seat_others_and_start()
    phone.button("Draw from the shoe")
    token = phone.js(f"return localStorage.getItem('pr.token.{party.code}')")
    want = put_away(party, lambda: phone.js(HIDE), time.sleep, token)
    took = driver.execute_async_script(
        f"const [want, done] = arguments; (async () => {{ {SHOW} }})().then(done);", want
    )
    phone.screenshot(picture)
    return took, phone.problems()
