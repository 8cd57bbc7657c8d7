"""What the browser tests measure on each screen (tests/layout.py's options), and a page's language switched.

The TV's screens (lobby, table, scores, podium) and the phone's, as tests/test_screens.py measures them in
Chromium; the WebKit, real-cards and big-moments tests measure the same screens with the same options.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .layout import check, count_visible, playwright_js, tv_text_floor

TV_TARGETS = "button, select, a[href], .switches label"
TV_TEXT = ":not(.switches):not(.switches *)"  # the host's own switches are read from the laptop, not the sofa
LOBBY = {
    "overlap": [[".ring-seat", ".ring-seat"], [".ring-seat", ".lobby-controls"], [".ring-seat", "#lobby-count"],
                [".join-card", ".lobby-side"]],
    "ignore": "#table, #scores, #seat-panel",
}
TABLE = {
    # A tile's insides count too: a "Matched!" spilling out of its tile onto the controls is an overlap.
    "overlap": [["#call", "#melds"], ["#call", "#seats"], ["#melds", "#seats"], ["#seats > li", "#seats > li"],
                ["#countdown", "#seats"], ["#seats", ".table-controls"], ["#call", ".table-controls"],
                ["#seats > li, #seats > li *", ".table-controls, .table-controls *"],
                ["#melds, #melds *", ".table-controls, .table-controls *"], ["#melds *", "#seats > li"]],
    "covered": "#call, #seats > li, .table-controls button",
    "ignore": "#lobby, #scores, #seat-panel",
}
SCORES = {
    "root": "#scores",
    "overlap": [["#score-table", "#chart"], [".scores-body", ".scores-controls"],
                ["#chart .series-label", "#chart .series-label"]],
    "covered": "#score-table tbody tr",
}
PODIUM = {  # the end of a game: nothing of the podium behind the controls, at 720p too
    "root": "#scores",
    "overlap": [[".podium, .podium *", ".scores-controls, .scores-controls *"], [".step", ".step"],
                [".award", ".award"], [".steps", ".awards"], ["#scores-title", ".podium"]],
    "covered": ".step .name, .block, .award, .scores-controls button",
}
PHONE = {
    "viewport": "x",
    "min_text": 14,
    "min_contrast": 4.5,
    "overlap": [["#hand .card-button", "#hand .card-button"], ["#draw-choices", "#hand"], ["#match", "#hand"]],
    "apart": [["#hint", ".hand-tools label"]],
}


def tv_problems(run_js: Any, width: int, options: dict) -> list[str]:
    """A TV screen's problems at this width, read from the sofa: targets, text size and contrast, and `options`."""
    return check(run_js, targets=TV_TARGETS, min_text=tv_text_floor(width), text_scope=TV_TEXT, min_contrast=4.5,
                 **options)


def speak(page, lang: str) -> None:
    """Switch the page's language from its menu, and wait until the page is in it."""
    if page.evaluate("document.documentElement.lang") != lang:
        page.locator("#lang").select_option(lang)
        page.locator(f"html[lang='{lang}']").wait_for(state="attached")
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    # A moment's animation (a podium's steps rising again in the new words) plays out: the screen as it stays.
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")


def each_size_and_language(page, sizes: list[tuple[int, int]], langs: list[str]) -> Iterator[tuple[int, int, str]]:
    """The page at each size in each language in turn (width, height, language), then back in English (the tests
    read its words in English)."""
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        for lang in langs:
            speak(page, lang)
            yield width, height, lang
    speak(page, "en")


def rows_shown(page, seats: int) -> list[str]:
    """A problem unless every seat's row of the score table is wholly visible."""
    shown = count_visible(playwright_js(page), "#score-table tbody tr")
    return [] if shown == seats else [f"score rows: {shown} of {seats} wholly visible"]


def summary(problems: dict[str, list[str]], each: int = 6) -> str:
    """Every screen's problems, a few of each, to read at once."""
    lines = [f"{len(problems)} screens with problems"]
    for name, found in problems.items():
        lines += [f"{name}: {len(found)}", *[f"    {p}" for p in found[:each]]]
    return "\n".join(lines)
