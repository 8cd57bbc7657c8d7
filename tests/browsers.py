"""Chromium for the browser tests: Debian's headless Chromium through Playwright, a watch on every page, a join.

The `browser` and `shots` fixtures (tests/conftest.py) are made from this. Also the deal every browser test of a
hand plays with seed 9 (tests/test_browser.py, tests/test_webkit.py): Ana, taking from Dan's pile, matches after
one cycle.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from partyrummy.phones import game as engine
from partyrummy.phones.commands import Call
from partyrummy.rules.variants import default_variants

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("PARTYRUMMY_SCREENSHOTS", Path(__file__).resolve().parent.parent / "screenshots"))
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
TV = {"viewport": {"width": 1920, "height": 1080}}

SEED = 9  # Ana (seat 0 of four), taking from Dan's pile, matches after one cycle


def need_chromium() -> None:
    """Skip the test when Debian's Chromium or Playwright is missing (CI must have both)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium (.ci/run does)")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")


def shots_folder() -> Path:
    """A new folder for a test's screenshots: screenshots/<time>/ (or under $PARTYRUMMY_SCREENSHOTS)."""
    folder = SCREENSHOTS / time.strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Watch:
    """Fails the test on any request to another host and on any console error."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.problems: list[str] = []

    def attach(self, context) -> None:
        def route(r) -> None:
            url = urlparse(r.request.url)
            if f"{url.scheme}://{url.netloc}" != self.origin and url.scheme in ("http", "https", "ws", "wss"):
                self.problems.append(f"request to another host: {r.request.url}")
                r.abort()
            else:
                r.continue_()

        context.route("**/*", route)
        context.on("page", self.page)

    def page(self, page) -> None:
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("response", self.response)

    def response(self, answer) -> None:
        """The console names no address for a failed request: this does."""
        if answer.status >= 400:
            self.problems.append(f"HTTP {answer.status}: {answer.request.method} {answer.url}")

    def open(self, browser, url: str, phone: bool = True, locale: str = "en-US", script: str = "", **context):
        """A page in its own browser context (its own storage and language), a phone's or the TV's, watched;
        `script` runs in each of its documents before the page's own; `context`: more of Playwright's options."""
        made = browser.new_context(**({"locale": locale} | (PHONE if phone else TV) | context))
        self.attach(made)
        if script:
            made.add_init_script(script)
        page = made.new_page()
        page.goto(url)
        return page


def join(phone, name: str) -> None:
    """Join from a phone's page as `name`, as a person does (the join form's field: the audience's, hidden, has the
    same label)."""
    phone.locator("#join-form").get_by_label("Your name").fill(name)
    phone.get_by_role("button", name="Join", exact=True).tap()  # not "Join the audience"
    phone.get_by_text(f"You're in, {name}!").wait_for()


def expected_game():
    """Seed 9's deal for four in the engine, after the first "Draw!", to know which card each phone should tap."""
    party = default_variants()["party"]
    game, _ = engine.new_game(party, 4, SEED)
    game, _ = engine.apply(game, Call())
    return game, party


def label(game, card_id: int) -> str:
    return game.hand.faces[card_id].symbol
