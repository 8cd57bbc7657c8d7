"""A night with an audience, in real browsers: twelve bots at the table (the TV's add_bot), and twenty audience
phones: seventeen Socket.IO clients and three pages, two in Chromium (320×568 in Portuguese, 390×844 in Romanian)
and one in WebKit (390×844, then 320×568 after a reload), each joined from the join page of a full table.

Each audience page is measured by geometry (tests/layout.py) at every screen it shows (the questions, all three
in, the hand under way, what happened) in each of the four languages in Chromium, two in WebKit: every target at
least 44 px, in the viewport, not covered, not cut off. A page's picks are still there after a reload. The whole
game (three quick hands) is guessed and resolved; no audience phone ever receives a card; the TV shows the
answers beside each scored hand and the best guesser under the podium. Screenshots go to
screenshots/<time>/night/.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from .audience_helpers import audience, member, not_piles, resolved
from .layout import check, playwright_js, selenium_js
from .live import Client
from .screens import open_tv, settle, speak

pytestmark = pytest.mark.slow

LANGS = ["en", "pt-BR", "es", "ro"]
PAGES = [("Maria Fernanda Souza", 320, 568, "pt-BR"), ("Ștefănescu Mihaela B", 390, 844, "ro")]
WEBKIT = ("José María Fernández", 390, 844)
CROWD = [
    f"{first} {last}"[:20]
    for first, last in zip(
        [
            "Ana",
            "Bruno",
            "Carla",
            "Dmitri",
            "Elena",
            "Felipe",
            "Greta",
            "Hugo",
            "Ioana",
            "Jonas",
            "Kasia",
            "Luca",
            "Marta",
            "Nils",
            "Olga",
            "Pedro",
            "Quinn",
        ],
        [
            "Albuquerque-Santos",
            "Bianchi",
            "Constantinescu",
            "Dvořák",
            "Esposito",
            "Fernandes",
            "Gustavsson",
            "Hoffmann",
            "Ionescu",
            "Jankowski",
            "Kowalczyk",
            "Lombardi",
            "Martínez",
            "Nyström",
            "Orlova",
            "Pereira",
            "Quintero",
        ],
        strict=True,
    )
]
PHONE = {
    "viewport": "x",
    "min_text": 14,
    "min_contrast": 4.5,
    "overlap": [
        ["#aud-options li", "#aud-options li"],
        ["#aud-steps li", "#aud-steps li"],
        ["#aud-happened", "#aud-question, #aud-options"],
        ["#aud-offer", "#aud-question"],
    ],
    "covered": "#aud-options button, #aud-steps button, #aud-entry-join, #aud-leave, #aud-happened li",
}


class Problems(dict):
    """Every problem of every screen, reported together at the end."""

    def add(self, name: str, found: list[str]) -> None:
        if found:
            self[name] = found

    def summary(self) -> str:
        return "\n".join([f"{len(self)} screens with problems"] + [f"{n}: {f[:6]}" for n, f in self.items()])


def measure_chromium(page, name: str, folder: Path, problems: Problems) -> None:
    """A screen in each of the four languages, measured and pictured; back in the page's own language after."""
    own = page.evaluate("document.documentElement.lang")
    for lang in LANGS:
        speak(page, lang)
        settle(page)
        width = page.viewport_size["width"]
        page.screenshot(path=str(folder / f"phone-{name}-{width}-{lang}.png"), full_page=True)
        problems.add(f"{name}-{width}-{lang}", check(playwright_js(page), **PHONE))
    speak(page, own)


def guess_on_page(page, rng: random.Random) -> dict[str, str]:
    """Tap one name (or yes or no) for each question, as a thumb would; the picks as the page shows them."""
    picks = {}
    for _ in range(3):
        options = page.locator("#aud-options button")
        options.first.wait_for()
        question = page.locator("#aud-question").inner_text()
        choice = rng.randrange(options.count())
        picks[question] = options.nth(choice).inner_text()
        before = page.locator("#aud-steps button[aria-pressed=true]").inner_text()
        options.nth(choice).tap()
        page.wait_for_function(
            "(b) => { const s = document.querySelector('#aud-steps button[aria-pressed=true]');"
            " return !s || s.innerText !== b; }",
            arg=before,
        )
    page.locator("#aud-question").get_by_text("All three in", exact=False).or_(
        page.locator("#aud-question").get_by_text("Os três", exact=False)
    ).or_(page.locator("#aud-question").get_by_text("Toate trei", exact=False)).wait_for()
    return picks


def guess_by_socket(fan: Client, hand: int, rng: random.Random) -> None:
    state = fan.wait_for(lambda s: (r := audience(s)["round"]) is not None and r["hand"] == hand and r["open"])
    for question in audience(state)["round"]["questions"]:
        option = rng.choice(question["options"][:4])  # a crowd leans: most pick among the first four
        assert fan.call("predict", {"question": question["key"], "option": option})["ok"]


def test_a_night_of_twelve_bots_and_twenty_audience_phones(nights, browser, shots: Path) -> None:
    from .webkit import Display, Frame, start  # WebKit's module skips what imports it where WebKitGTK is missing

    night = nights(seed=3, variant="fast3", framable=True, browser=browser)
    host = night.host
    folder = shots / "night"
    folder.mkdir(exist_ok=True)
    problems = Problems()
    rng = random.Random(3)
    display = driver = None
    try:
        night.add_bots(12)
        tv = open_tv(night)
        join_url = tv.locator(".url").inner_text()
        fans = [member(night, name)[0] for name in CROWD]

        # Two Chromium phones join from the join page of a full table, and guess hand 1.
        pages = []
        for name, width, height, locale in PAGES:
            page = night.page(join_url, locale=locale)
            page.set_viewport_size({"width": width, "height": height})
            page.locator("#aud-entry-join").wait_for()
            measure_chromium(page, "join", folder, problems)
            page.locator("#name").fill(name)
            page.locator("#aud-entry-join").tap()
            page.locator("#aud-options button").first.wait_for()
            measure_chromium(page, "question", folder, problems)
            pages.append(page)
        page_picks = [guess_on_page(page, rng) for page in pages]
        measure_chromium(pages[0], "all-in", folder, problems)
        # A reload: the member comes back as itself, its three picks on the page.
        pages[1].reload()
        pages[1].locator("#aud-steps button").first.wait_for()
        steps = pages[1].locator("#aud-steps").inner_text()
        assert all(pick in steps for pick in page_picks[1].values() if len(pick) < 12), (steps, page_picks[1])

        # A WebKit phone, the same way in; then again after a reload on a small screen.
        display = Display()
        driver = start(display)
        phone = Frame(driver, night.url)
        name, width, height = WEBKIT
        phone.open(join_url, width, height)
        phone.wait(lambda: phone.js("return !document.getElementById('aud-entry').hidden"), "the audience's way in")
        phone.js("const n = document.getElementById('name'); n.value = arguments[0];", name)
        phone.js("document.getElementById('aud-entry-join').click()")
        phone.wait(
            lambda: phone.js("return document.querySelectorAll('#aud-options button').length") == 12, "the names to tap"
        )
        picked_js = (  # the questions whose step shows a pick under its number
            "return [...document.querySelectorAll('#aud-steps button')]"
            ".filter((b) => b.innerText.trim().includes('\\n')).length"
        )
        for k in range(3):
            # The page redraws its names at each update: found and clicked in one go, never a stale element.
            phone.js(
                "const o = document.querySelectorAll('#aud-options button'); o[arguments[0] % o.length].click()", k
            )
            phone.wait(lambda n=k + 1: phone.js(picked_js) == n, "the pick taken")
        for lang, size in (("en", (390, 844)), ("es", (320, 568))):
            if size != (width, height):
                phone.reload(*size)
                phone.wait(
                    lambda: phone.js("return document.querySelectorAll('#aud-steps button').length") == 3,
                    "the questions after a reload",
                )
            phone.select("Language", lang)
            phone.wait(lambda lang=lang: phone.js("return document.documentElement.lang") == lang, lang)
            phone.screenshot(folder / f"phone-webkit-all-in-{size[0]}-{lang}.png")
            problems.add(f"webkit-all-in-{size[0]}-{lang}", check(selenium_js(driver), **PHONE))
        picked = phone.js("return [...document.querySelectorAll('#aud-steps button')].map((b) => b.innerText)")
        assert all("\n" in text.strip() for text in picked), picked  # each question shows its pick, after a reload

        for fan in fans:
            guess_by_socket(fan, 1, rng)

        # The game: three hands of bots, every round guessed by all twenty and resolved.
        assert host.call("start")["ok"]
        for hand in (1, 2, 3):
            for fan in fans:
                fan.wait_for(resolved(hand), timeout=60)
            state = host.wait_for(lambda s, h=hand: s["game"]["hand_no"] == h and s["game"]["scored"])
            if hand < 3:  # the last hand's scores make way for the podium
                tv.locator("#aud-scores:not([hidden])").wait_for()
                settle(tv)
                tv.screenshot(path=str(folder / f"tv-hand-{hand}.png"))
            for page in pages:
                page.locator("#aud-happened:not([hidden])").wait_for()
                measure_chromium(page, f"happened-{hand}", folder, problems)
            phone.wait(lambda: phone.js("return !document.getElementById('aud-happened').hidden"), "what happened")
            phone.screenshot(folder / f"phone-webkit-happened-{hand}.png")
            problems.add(f"webkit-happened-{hand}", check(selenium_js(driver), **PHONE))
            if hand == 3:
                break
            for fan in fans:
                guess_by_socket(fan, hand + 1, rng)
            for page in pages:
                guess_on_page(page, rng)
            assert host.call("call_now")["ok"]
        assert state["game"]["game_over"]
        best = host.wait_for(lambda s: audience(s)["best"] is not None)
        tv.locator("#aud-best:not([hidden])").wait_for()
        settle(tv)
        tv.screenshot(path=str(folder / "tv-podium.png"))
        assert audience(best)["best"]["names"][0] in tv.locator("#aud-best").inner_text()
        leaders = [f["name"] for f in audience(best)["leaders"]]
        assert len(leaders) == 5 and audience(best)["members"] == 20

        # Every audience phone heard the whole night, and never a card but the piles' tops the TV showed face up.
        for fan in fans:
            assert fan.state["room"]["you"]["last"]["hand"] == 3
            assert not_piles([data for _, data in fan.messages]) == []
        assert not problems, problems.summary()
        assert not night.watch.problems, night.watch.problems
        assert not phone.problems(), phone.problems()
    finally:
        if driver is not None:
            driver.quit()
        if display is not None:
            display.stop()
