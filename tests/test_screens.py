"""Every screen measured by geometry (tests/layout.py), the way the party sees it.

One live server, twelve seats: three browser phones (320×568, 390×844, 820×1180), seven Socket.IO
phones and two bots, every person with a 20-character name (the longest a name may be). The TV is
measured at 1920×1080 and 1280×720 in each of the four languages: the lobby at 2, 6 and 12 seats, the
call, and the scores after hand 10 and at the end of the night. Each phone is measured in each language
with 3, 13 and 14 cards. The host's "Call now" moves the night along (it plays for whoever is slow), so
the test never waits on the pace, and it plays the same night on every run (`advance`: no move races
another), so what it measures is never a matter of timing. Screenshots of each screen go to
screenshots/<time>/screens/, with the night played (night.json).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .layout import check, playwright_js
from .live import Client
from .night import Night, advance
from .screens import (
    HANDS,
    LOBBY,
    PHONE,
    PODIUM,
    SCORES,
    TABLE,
    each_size_and_language,
    rows_shown,
    speak,
    totals_big,
    tv_problems,
)

pytestmark = pytest.mark.slow

SEED = 5
LANGS = ["en", "pt-BR", "es", "ro"]
TV_SIZES = [(1920, 1080), (1280, 720)]
PHONES = [("Maria Fernanda Souza", 320, 568, "pt-BR"), ("Ștefănescu Mihaela B", 390, 844, "ro"),
          ("José María Fernández", 820, 1180, "es")]
OTHERS = ["WWWWWWWWWWWWWWWWWWWW", "Wolfgang Wilhelmsson", "Ana Beatriz Gonçalve", "MMMMMMMMMM MMMMMMMMM",
          "Þórunn Guðmundsdótti", "Aleksandra Wójcicka", "Bartholomew Kingsly"]


class Screens:
    """Measures and screenshots, gathered: every problem of every screen, reported together at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "screens"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.problems: dict[str, list[str]] = {}

    def record(self, name: str, page, problems: list[str]) -> None:
        page.screenshot(path=str(self.folder / f"{name}.png"))
        if problems:
            self.problems[name] = problems

    def tv(self, page, screen: str, options: dict, extra: Callable[[], list[str]] | None = None) -> None:
        for width, height, lang in each_size_and_language(page, TV_SIZES, LANGS):  # then back in English
            found = tv_problems(playwright_js(page), width, options)
            self.record(f"tv-{screen}-{height}p-{lang}", page, found + (extra() if extra else []))

    def phone(self, page, screen: str, **options) -> None:
        size = page.viewport_size
        if page.locator("#notice").is_visible():
            try:
                page.locator("#notice").tap(timeout=3000)  # read and tapped away, as a player would
            except PlaywrightTimeout:
                pass  # it went away by itself meanwhile
            page.locator("#notice").wait_for(state="hidden")
        for lang in LANGS:
            speak(page, lang)
            # A moment's animation (the heading turning over on the flip) plays out first: the screen as it stays.
            page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
            found = check(playwright_js(page), **(PHONE | options))
            self.record(f"phone-{screen}-{size['width']}x{size['height']}-{lang}", page, found)

    def summary(self) -> str:
        lines = [f"{len(self.problems)} screens with problems"]
        for name, found in self.problems.items():
            lines.append(f"{name}: {len(found)}")
            lines += [f"    {p}" for p in found[:6]]
        return "\n".join(lines)


def fonts_used(page, selector: str) -> set[str]:
    """The font families Chromium drew an element's text with (its DevTools protocol knows; the page does not)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    return {font["familyName"] for font in fonts}


def test_every_screen_holds_together_at_every_size_in_every_language(nights, browser, shots: Path) -> None:
    night = nights(seed=SEED, browser=browser)
    host, screens = night.host, Screens(shots)
    people: list[Client] = []
    tv = night.tv()
    # What is measured depends on the font: the one .ci/run installs, or the figures are another machine's.
    tv.locator(".code").wait_for()  # drawn: a node not yet laid out names no font
    tv.evaluate("document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(r)))")
    assert fonts_used(tv, ".code") == {"DejaVu Sans"}, "install Debian's fonts-dejavu-core (.ci/run does)"
    join_url = tv.locator(".url").inner_text()

    phones = []
    for name, width, height, locale in PHONES[:1]:  # the first to join holds the VIP's Start
        phones.append(open_phone(night, join_url, name, width, height, locale))
    people.append(night.client(OTHERS[0]))
    tv.get_by_text("2 players in").wait_for()
    screens.tv(tv, "lobby-2", LOBBY)
    screens.phone(phones[0], "vip-waiting", covered="#vip-start, #not-you")

    for name in OTHERS[1:5]:
        people.append(night.client(name))
    tv.locator("#ring > li:nth-child(6)").wait_for()
    screens.tv(tv, "lobby-6", LOBBY)

    for name, width, height, locale in PHONES[1:]:
        phones.append(open_phone(night, join_url, name, width, height, locale, screens, OTHERS[0]))
    for name in OTHERS[5:]:
        people.append(night.client(name))
    night.add_bots(2, "sharp")
    tv.locator("#ring > li:nth-child(12)").wait_for()
    screens.tv(tv, "lobby-12", LOBBY)

    assert host.call("variant", {"name": "browser"})["ok"]
    assert host.call("start")["ok"]
    for phone in phones:
        phone.locator("#hand .card-button").first.wait_for()
        screens.phone(phone, "setup-3")
    late = night.page(join_url)  # a 13th guest: the table is full, the audience their way in; no bot's seat
    late.locator("#aud-entry-join").wait_for()
    assert late.locator("#open-seats").is_hidden() and late.locator("#full-note").is_hidden()
    screens.phone(late, "late-guest")
    assert host.call("audience", {"on": False})["ok"]  # no audience: told the table is full, and no form
    late.locator("#full-note").wait_for()
    assert late.locator("#join-form").is_hidden() and late.locator("#aud-entry").is_hidden()
    screens.phone(late, "late-guest-no-audience")
    assert host.call("audience", {"on": True})["ok"]
    late.context.close()
    advance(host, [], lambda s: s["game"]["phase"] == "draw")
    for phone in phones:
        phone.locator("#draw-shoe").wait_for()
        assert phone.locator("#coach").is_visible()  # the first hand's tips are there, and hide no action
        screens.phone(phone, "draw-3", above_fold="#hand, #draw-choices, #vip-play")
        if phone.viewport_size["width"] < 360:  # too narrow for two: stacked, each the width of the row
            row = phone.locator("#draw-choices").bounding_box()["width"]
            for button in ("#draw-shoe", "#draw-pile"):
                assert phone.locator(button).bounding_box()["width"] > 0.95 * row, button
    tv.locator("#seats > li:nth-child(12)").wait_for()
    screens.tv(tv, "call-draw", TABLE)
    for phone in phones:
        phone.locator("#draw-shoe").tap()
        phone.locator("#hand .card-button:nth-child(4), #hand li:nth-child(2)").first.wait_for()
        assert phone.locator("#coach").is_visible()
        screens.phone(phone, "choose-4", above_fold="#hand, #vip-play")

    matched = advance(host, people, lambda s: s["game"]["phase"] == "reveal" and s["game"]["matched"])
    tv.locator("#melds .matched").first.wait_for()
    screens.tv(tv, "call-match", TABLE)
    del matched

    advance(host, people, lambda s: s["game"]["phase"] == "scored" and s["game"]["hand_no"] == 10)
    tv.locator("#hands .hand-shown:nth-child(12) .card").first.wait_for()  # every hand laid out, then the totals
    tv.locator("#scores:not(.showing-hands) #scores-title", has_text="Hand 10 scored").wait_for(timeout=20000)
    tv.locator("#score-table tbody tr:nth-child(12)").wait_for(state="attached")
    screens.tv(tv, "scores-10", SCORES, lambda: rows_shown(tv, 12) + totals_big(tv))
    tv.locator("#show-hands").click()  # the hands again, as the host may ask for them
    tv.locator("#hands .hand-shown:nth-child(12)").wait_for()
    screens.tv(tv, "hands-10", HANDS)
    tv.locator("#show-hands").click()
    for phone in phones:
        screens.phone(phone, "results-10")
    tv.locator("#hide-scores").click()  # back to the table between hands: the host's seats, measured
    tv.locator("#scores").wait_for(state="hidden")
    screens.tv(tv, "table-scored", TABLE)

    advance(host, people, lambda s: s["game"]["hand_no"] == 11 and s["game"]["phase"] == "draw")
    for phone in phones:
        phone.locator("#draw-shoe").wait_for()
        screens.phone(phone, "draw-13", above_fold="#draw-choices")
        phone.locator("#draw-shoe").tap()
        phone.locator("#hand .card-button.new").wait_for()
        screens.phone(phone, "choose-14", above_fold="#hand")  # 14 cards, every one in reach, even at 320x568

    final = advance(host, people, lambda s: s["game"]["game_over"])
    # The night played, to compare runs: the same on every run (see advance).
    (screens.folder / "night.json").write_text(json.dumps({"history": final["game"]["history"]}))
    tv.locator("#play-again").wait_for()
    tv.locator(".awards .award").first.wait_for(timeout=30000)  # the podium built, the winner named
    screens.tv(tv, "podium", PODIUM)
    tv.locator("#final-scores").click()  # the whole sheet, one tap away
    screens.tv(tv, "scores-final", SCORES, lambda: rows_shown(tv, 12))
    for phone in phones:
        screens.phone(phone, "results-final")

    (screens.folder / "problems.json").write_text(json.dumps(screens.problems, indent=1, ensure_ascii=False))
    assert not screens.problems, screens.summary()
    assert not night.watch.problems, night.watch.problems


def open_phone(
    night: Night,
    url: str,
    name: str,
    width: int,
    height: int,
    locale: str,
    screens: Screens | None = None,
    taken: str = "",
):
    """A browser phone joined as `name`; first refused `taken` (a name in use), if given, and the notice measured."""
    page = night.page(url, locale=locale, viewport={"width": width, "height": height})
    if screens and taken:  # the notice saying why covers neither the heading nor the form
        page.locator("#name").fill(taken)
        page.locator("#join-form button[type=submit]").tap()
        page.locator("#notice").wait_for()
        found = check(playwright_js(page), **(PHONE | {"covered": "#join h1, #join .big, #name, #join-form button"}))
        screens.record(f"phone-notice-{width}x{height}-{locale}", page, found)
    page.locator("#name").fill(name)
    page.locator("#join-form button[type=submit]").tap()
    page.locator("#welcome").get_by_text(name).wait_for()
    return page
