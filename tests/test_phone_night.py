"""A night on the phones, played as people would, in Chromium and in WebKit, each state seen at 390 and 320 px.

Two browser phones (Ana at 390×844, the VIP; Bea at 320×568) and two Socket.IO players. The rules are the party's
with the pace keys of a test variants file (a long match window that the host's "Call now" ends, a flip's beat long
enough to see, a hurry far enough off that only the late draw meets it). The seed deals Ana a complete hand, so
hand 1 ends on her Match! before the first "Draw!". Then Bea's phone is locked (the page closed and opened
again) and comes back to its hand; a pick is tried while the flip counts down; Bea draws with 2 s of the hurry
left and is given her own time to choose (the server waits for her past the table's hurry, her heading counts it,
nothing is played for her); the VIP pauses and resumes from the small tools at the foot; the night
ends on the podium and the awards. Every state is screenshot at both widths (WebKit's frames, tests/webkit.py,
give exact widths) and measured with the screens test's checks (tests/screens.py); no page may log an
error. In Chromium Bea's phone asks for reduced motion: it plays no animation, and the night goes at the same
pace (the moments are the page's alone).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from . import screens
from .layout import check, playwright_js, selenium_js
from .live import Client, act
from .night import Night
from .play import penalty, seed_where, variants_of
from .webkit import screenshot_folder

pytestmark = pytest.mark.slow

RULES = """
[night]
extends = "party"
description = "Three hands at a pace a test can watch (for tests)"
hand_sizes = [3, 4, 5]
beat_s = 3
match_window_s = 40
hurry_after_s = 14
hurry_countdown_s = 4
choose_min_s = 6
"""
BIG, SMALL = (390, 844), (320, 568)
# The screen as it stays: a moment's animation played out, a press answered (a pressed button is drawn smaller).
SETTLE = """() => Promise.all(document.getAnimations().map((a) => a.finished)).then(() => new Promise((done) => {
  const look = () => (document.querySelector(".pending") ? setTimeout(look, 20) : done(true));
  look();
}))"""
MOVING = "() => document.getAnimations().length"


class Chromium:
    """A phone in Chromium (Playwright): its own context, so its own storage, language and motion setting."""

    def __init__(self, night: Night, size: tuple[int, int], motion: str = "no-preference") -> None:
        self.page = night.phone(size=size, reduced_motion=motion)
        self.context = self.page.context
        self.size = size

    def js(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)

    def tap(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).first.tap()

    def resize(self, size: tuple[int, int]) -> None:
        self.page.set_viewport_size({"width": size[0], "height": size[1]})
        self.size = size

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))

    def layout(self) -> list[str]:
        return check(playwright_js(self.page), **screens.PHONE)

    def reopen(self) -> None:
        """Locked and opened again: the page goes, a new one opens at the same address (the same storage)."""
        url = self.page.url
        self.page.close()
        self.page = self.context.new_page()
        self.page.set_viewport_size({"width": self.size[0], "height": self.size[1]})
        self.page.goto(url)

    def problems(self) -> list[str]:
        return []  # the Watch collects Chromium's


class WebKit:
    """A phone in WebKit: a frame of the phone's exact size in a WebKitGTK window (tests/webkit.py)."""

    def __init__(self, driver, origin: str, url: str, size: tuple[int, int]) -> None:
        from .webkit import Frame

        self.frame = Frame(driver, origin)
        self.frame.open(url, *size)
        self.size = size

    def js(self, script: str, arg: Any = None) -> Any:
        return self.frame.js(f"return ({script})(arguments[0])", arg)

    def tap(self, name: str) -> None:
        self.frame.tap(name)

    def resize(self, size: tuple[int, int]) -> None:
        """The frame's box is the page's viewport: resized from the holder page, the page lays out again."""
        driver = self.frame.driver
        driver.switch_to.default_content()
        driver.execute_script(
            "const f = document.getElementById('page'); f.style.width = arguments[0] + 'px';"
            "f.style.height = arguments[1] + 'px';",
            *size,
        )
        driver.switch_to.frame(driver.find_element("id", "page"))
        self.frame.size = self.size = size
        self.frame.wait(lambda: self.frame.js("return innerWidth") == size[0], "the new width")

    def screenshot(self, path: Path) -> None:
        self.frame.screenshot(path)

    def layout(self) -> list[str]:
        return check(selenium_js(self.frame.driver), **screens.PHONE)

    def reopen(self) -> None:
        self.frame.reload(*self.size)

    def problems(self) -> list[str]:
        return self.frame.problems()


# Whether two elements show the same words (the styles may set one in capitals; one may hold words not shown).
SAME_WORDS = """([a, b]) => { const words = (id) => document.getElementById(id).innerText.replace(/\\s+/g, " ").trim();
  return words(a).toLowerCase() === words(b).toLowerCase(); }"""
# Whether the phone shows the notice that the TV played for this seat.
PLAYED_FOR = """() => { const box = document.getElementById("notice");
  return !box.hidden && /played for you/.test(box.innerText); }"""


def until(phone, script: str, what: str, timeout: float = 15, arg: Any = None) -> Any:
    """Poll the page (`script`, a function expression) until it answers truthy; the answer."""
    deadline = time.monotonic() + timeout
    while True:
        answer = phone.js(script, arg)
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}; the page says: {phone.js(TEXT)[:500]!r}")
        time.sleep(0.05)


TEXT = "() => document.body.innerText"
HEADING = """(want) => [...document.querySelectorAll("h1, h2")].some((h) => h.getClientRects().length
  && (want.startsWith("/") ? new RegExp(want.slice(1)).test(h.innerText.trim()) : h.innerText.trim() === want))"""
HAS = "(want) => document.body.innerText.includes(want)"
# The screen's messages, line by line (a card's face is no message: a hand may hold two 2♣).
LINES = """() => document.body.innerText.split("\\n").map((l) => l.trim())
  .filter((l) => l && !/^((10|[2-9AJQK])[♣♦♥♠]|🃏)$/u.test(l))"""


def heading(phone, want: str, timeout: float = 15) -> None:
    until(phone, HEADING, f"the heading {want!r}", timeout, want)


def says(phone, want: str, timeout: float = 15) -> None:
    until(phone, HAS, repr(want), timeout, want)


def once(phone) -> None:
    """Every line of the screen said once."""
    lines = phone.js(LINES)
    twice = sorted({line for line in lines if lines.count(line) > 1})
    assert twice == [], twice


def pick_best(phone, draw: bool = True) -> str:
    """Draw from the shoe (unless drawn), then pick the discard the hint calls best (as a player trusting it would)."""
    if draw:
        phone.tap("Draw from the shoe")
    hint = until(
        phone,
        "() => { const h = document.getElementById('hint').innerText;"
        " return h.startsWith('Best discard: ') && h.slice(14); }",
        "the best discard",
    )
    phone.tap(hint)
    says(phone, f"Discarding {hint}")
    return hint


class Shots:
    """Each state, at both widths: a screenshot (once its moment's animation is over) and the screens checks."""

    def __init__(self, folder: Path, engine: str) -> None:
        self.folder, self.engine = folder, engine
        self.problems: list[str] = []
        self.taken: list[str] = []

    def __call__(self, phone, state: str, both: bool = True) -> None:
        own = phone.size
        for size in [BIG, SMALL] if both else [own]:
            if size != phone.size:
                phone.resize(size)
            phone.js(SETTLE)
            name = f"{self.engine}-{state}-{size[0]}.png"
            phone.screenshot(self.folder / name)
            self.taken.append(name)
            self.problems += [f"{name}: {p}" for p in phone.layout()]
        if phone.size != own:
            phone.resize(own)


def clients_play(clients: list[Client]) -> None:
    """The Socket.IO players make every move they have now, each seen through before the next (a refusal is a
    view not yet caught up, or a race with the caller: look again at the next state)."""
    for client in clients:
        for _ in range(6):
            before = client.state["v"]
            ack = act(client)
            if ack is None:
                break
            try:
                client.wait_for(lambda s, before=before: s["v"] > before, timeout=2)
            except TimeoutError:
                break


def call_until(host: Client, clients: list[Client], done: Callable[[dict], bool], limit: int = 300) -> dict:
    """The host's "Call now" moves the night on (the caller plays for the browser phones); the players play."""
    for _ in range(limit):
        if done(host.state):
            return host.state
        clients_play(clients)
        before = host.state["v"]
        if host.call("call_now")["ok"]:
            host.wait_for(lambda s, before=before: s["v"] > before)
    raise TimeoutError(host.state["game"])


def play_the_night(engine: str, night: Night, open_phone, shots: Shots) -> None:
    """The night, the same in both engines: `open_phone(size)` opens a phone at the join address."""
    host = night.host
    ana = open_phone(BIG)
    says(ana, "Your name")
    join(ana, "Ana")
    shots(ana, "lobby-alone")  # the VIP alone: Start is greyed, and says why
    says(ana, "1 more player is needed to start")
    bea = open_phone(SMALL, reduced=True)
    join(bea, "Bea")
    shots(bea, "lobby-waiting")
    clients = night.players(["Cy", "Dan"])
    assert host.call("variant", {"name": "night"})["ok"]
    until(ana, "() => !document.getElementById('vip-start').disabled", "Start enabled")
    ana.tap("Start the game")

    # Hand 1: Ana was dealt a complete hand.
    heading(ana, "Your hand is complete: call Match!")
    shots(ana, "dealt-complete")
    heading(bea, "Hand 1: look at your cards")
    shots(bea, "dealt", both=False)
    ana.tap("Match!")
    heading(ana, "You called Match!")
    heading(bea, "Ana called Match! Your last draw is next")
    once(ana)
    once(bea)
    shots(ana, "matched")
    shots(bea, "they-matched")
    assert host.state["game"]["on_deal"] == [0]
    assert host.call("call_now")["ok"]  # the window ends: the last cycle
    heading(bea, "Last draw: take a card!")
    shots(bea, "last-draw")
    pick_best(bea)
    clients_play(clients)
    heading(ana, "You are #1 of 4 with 0 pts")
    says(ana, "Ana was dealt a complete hand")
    once(ana)
    shots(ana, "scored")
    shots(bea, "scored", both=False)

    # Hand 2: Bea's phone is locked mid-hand and opened again; a pick tried under the flip; a late draw.
    ana.tap("Next hand")
    heading(ana, "Hand 2: look at your cards")
    assert host.call("call_now")["ok"]
    heading(ana, "Draw a card!")
    shots(ana, "draw")
    heading(bea, "Draw a card!")
    bea.js("() => document.getElementById('sound').click()")  # her sound on: remembered on the phone
    bea.reopen()
    heading(bea, "Draw a card!")
    assert bea.js("() => document.getElementById('sound').checked")
    shots(bea, "reopened")
    clients_play(clients)
    pick_best(bea)
    says(ana, "Everyone else is ready")
    shots(ana, "last-to-draw", both=False)
    ana.tap("Draw from the shoe")
    card = until(
        ana,
        "() => document.querySelector('#hand .card-button') && "
        "document.querySelector('#hand .card-button').getAttribute('aria-label')",
        "a card",
    )
    ana.tap(card)  # tried: the flip is coming, and the phone counts it down
    heading(ana, r"/^The cards flip in \d\ss$")
    shots(ana, "flip-coming", both=False)
    heading(ana, "Tap Play on for the next “Draw!”")
    says(ana, f"Your {card} went onto your pile")
    shots(ana, "reveal")
    shots(bea, "reveal", both=False)
    if engine == "chromium":  # Bea asked for less motion: her phone plays no moment; Ana's did
        assert bea.js(MOVING) == 0
    assert host.call("call_now")["ok"]  # the match window ends: "Draw!"
    heading(ana, "Draw a card!")
    clients_play(clients)
    pick_best(ana)
    heading(bea, "Draw a card!")
    until(bea, "() => /in 2 s$/.test(document.getElementById('p-hurry').innerText)", "2 s of the hurry", 25)
    bea.tap("Draw from the shoe")
    until(
        bea,
        r"() => /^You still have [56]\ss to choose/.test(document.getElementById('p-hurry').innerText)",
        "Bea's own time to choose",
        3,
    )
    shots(bea, "late-draw", both=False)
    # Past the table's hurry (it ended 2 s after her draw) the server still waits for Bea, and her phone counts
    # her own time on: its heading.
    until(
        bea,
        r"() => /^You still have [12]\ss to choose/.test(document.getElementById('p-hurry').innerText)",
        "Bea's own time to choose, past the table's hurry",
        6,
    )
    assert host.state["game"]["phase"] == "choose" and host.state["game"]["waiting_for"] == [1], host.state["game"]
    assert bea.js(SAME_WORDS, ["p-step", "p-hurry"]), "her own countdown is the heading"
    pick_best(bea, draw=False)
    heading(bea, r"/^The cards flip in \d\ss$")
    shots(bea, "flip-coming", both=False)
    heading(bea, "Tap Play on for the next “Draw!”", timeout=6)
    assert bea.js(PLAYED_FOR) is False  # she chose in time: nothing was played for her
    ana.js("() => document.querySelector('#vip-play summary').click()")  # the VIP's tools, folded at the foot
    ana.tap("Pause")
    heading(ana, "PAUSED")
    heading(bea, "PAUSED")
    shots(ana, "paused")
    ana.tap("Resume")
    call_until(host, clients, lambda s: s["game"]["phase"] == "scored")
    heading(bea, r"/^You are #\d of 4 with \d+ pts?$")
    shots(bea, "scored-2")
    shots(ana, "scored-2", both=False)

    # Hand 3, the last: the night ends on the podium and the awards.
    ana.tap("Next hand")
    call_until(host, clients, lambda s: s["game"]["game_over"])
    for phone in (ana, bea):
        until(phone, "() => document.querySelectorAll('.podium li').length", "the podium")
        once(phone)
    shots(ana, "night-end")
    shots(bea, "night-end", both=False)


def join(phone, name: str) -> None:
    phone.js("(name) => { document.getElementById('name').value = name; }", name)
    phone.tap("Join")
    says(phone, f"You're in, {name}!")


def seed() -> int:
    """A deal of the night's rules in which Ana (seat 0) holds a complete hand and Bea does not."""
    night = variants_of(RULES)["night"]
    return seed_where(night, 4, lambda h: penalty(night, h, 0) == 0 and penalty(night, h, 1) > 0)


def test_a_night_on_two_phones_in_chromium(nights, browser) -> None:
    night = nights(rules=RULES, seed=seed(), browser=browser)
    shots = Shots(screenshot_folder("phone-night-chromium"), "chromium")

    def open_phone(size, reduced=False):
        return Chromium(night, size, "reduce" if reduced else "no-preference")

    play_the_night("chromium", night, open_phone, shots)
    assert not shots.problems, "\n".join(shots.problems)
    assert not night.watch.problems, night.watch.problems


def test_a_night_on_two_phones_in_webkit() -> None:
    from .webkit import Display, start

    with ExitStack() as stack:
        night = stack.enter_context(Night(rules=RULES, seed=seed(), framable=True))
        display = Display()
        stack.callback(display.stop)
        shots = Shots(screenshot_folder("phone-night-webkit"), "webkit")
        phones: list[WebKit] = []

        def open_phone(size, reduced=False):
            driver = start(display)
            stack.callback(driver.quit)
            phones.append(WebKit(driver, night.url, night.join_url, size))
            return phones[-1]

        play_the_night("webkit", night, open_phone, shots)
        assert not shots.problems, "\n".join(shots.problems)
        problems = [p for phone in phones for p in phone.problems()]
        assert not problems, problems
