"""What the browser tests measure on each screen (tests/layout.py's options), and a page's language switched.

The TV's screens (lobby, table, a hand's end, scores, podium) and the phone's, as tests/test_screens.py measures them
in Chromium; the WebKit, real-cards and big-moments tests measure the same screens with the same options. Also the
TV's big moments as tests/test_tv_show.py and the audience's TV tests measure them: a TV page spied on, twelve
seats of 20-character names, each moment at both sizes in two languages.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .layout import check, count_visible, playwright_js, tv_text_floor
from .night import Night

TV_TARGETS = "button, select, a[href], .switches label"
TV_TEXT = ":not(.switches):not(.switches *)"  # the host's own switches are read from the laptop, not the sofa
LOBBY = {
    "overlap": [[".ring-seat", ".ring-seat"], [".ring-seat", ".lobby-controls"], [".ring-seat", "#lobby-count"],
                [".join-card", ".lobby-side"]],
    "ignore": "#table, #scores, #seat-panel",
}
TABLE = {
    # A tile's insides count too: a "Matched!" spilling out of its tile onto the next is an overlap.
    "overlap": [["#call", "#melds"], ["#call", "#seats"], ["#melds", "#seats"], ["#seats > li", "#seats > li"],
                ["#call-big", "#call-small"], ["#call", ".call-status"], ["#banner", "#call, #deal"],
                ["#countdown", "#seats"], ["#flip-count", "#seats"], ["#seats > li *", "#seats > li"],
                ["#melds *", "#seats > li"], ["#table-join", "#call"], ["#table-join", "#seats"]],
    "covered": "#call, #seats > li",
    "ignore": "#lobby, #scores, #seat-panel, #host-drawer",
}
HANDS = {  # a hand's end: every hand laid out, none over another nor behind the controls, at 720p too
    "root": "#scores",
    "overlap": [[".hand-shown", ".hand-shown"], ["#hands", ".scores-controls"], ["#scores-title", "#hands"]],
    "covered": ".hand-shown .card, .hand-head",
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
# A scored hand on the TV, its story and its moments beside the sheet.
SCORED = {
    "root": "#scores",
    "overlap": [["#score-table", "#chart"], [".scores-body", ".scores-controls"], ["#score-table", "#story"]],
    "covered": "#score-table tbody tr, .moment",
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


def host_tools(tv) -> None:
    """Open the TV's drawer of the host's controls (its switches, the language, the pace, pause, call now, the
    scores), as the host does from the laptop; it closes again on "Call now", "Scores", "Close" or Escape."""
    if tv.locator("#host-drawer").is_hidden():
        tv.locator("#host-open").click()
        tv.locator("#host-drawer").wait_for()


def speak(page, lang: str) -> None:
    """Switch the page's language from its menu (on the TV, in the host's drawer, closed again after), and wait
    until the page is in it."""
    if page.evaluate("document.documentElement.lang") != lang:
        drawer = page.locator("#host-drawer").count() and page.locator("#host-drawer").is_hidden()
        if drawer:
            host_tools(page)
        page.locator("#lang").select_option(lang)
        page.locator(f"html[lang='{lang}']").wait_for(state="attached")
        if drawer:
            page.locator("#host-close").click()
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


def totals_big(page) -> list[str]:
    """The totals, the night's most important numbers: at least 36 px at 1080p (the same share of the screen at
    720p), and bigger than every other number of the sheet."""
    width = page.viewport_size["width"]
    floor = 36 * width / 1920
    size = "(t) => t.map((e) => parseFloat(getComputedStyle(e).fontSize))"
    sizes = page.locator("#score-table .total").evaluate_all(size)
    cells = page.locator("#score-table tbody td:not(.total)").evaluate_all(size)
    found = [f"a total at {s} px (< {floor:.1f})" for s in sizes if s < floor - 0.5]
    return found + ([f"a cell as big as the totals ({max(cells)} px)"] if cells and max(cells) >= min(sizes) else [])


def rows_shown(page, seats: int) -> list[str]:
    """A problem unless every seat's row of the score table is wholly visible."""
    shown = count_visible(playwright_js(page), "#score-table tbody tr")
    return [] if shown == seats else [f"score rows: {shown} of {seats} wholly visible"]


class Shots:
    """A TV's screens, each measured (tv_problems, with the screen's options) and photographed at every size in
    every language; the problems gathered by shot, to report together at the end."""

    def __init__(self, folder: Path, sizes: list[tuple[int, int]], langs: list[str], prefix: str = "") -> None:
        self.folder, self.sizes, self.langs, self.prefix = folder, sizes, langs, prefix
        self.folder.mkdir(parents=True, exist_ok=True)
        self.problems: dict[str, list[str]] = {}

    def measure(self, page, name: str, options: dict, extra: Callable[[Any, int], list[str]] | None = None) -> None:
        """The screen `name` as it is now; `extra`: more checks of it, from (page, height)."""
        for width, height, lang in each_size_and_language(page, self.sizes, self.langs):
            found = self.seen(page, width, options) + (extra(page, height) if extra else [])
            shot = f"{name}-{height}p-{lang}"
            page.screenshot(path=str(self.folder / f"{self.prefix}{shot}.png"))
            if found:
                self.problems[shot] = found

    def seen(self, page, width: int, options: dict) -> list[str]:
        """The screen's problems at this width."""
        return tv_problems(playwright_js(page), width, options)


def summary(problems: dict[str, list[str]], each: int = 6) -> str:
    """Every screen's problems, a few of each, to read at once."""
    lines = [f"{len(problems)} screens with problems"]
    for name, found in problems.items():
        lines += [f"{name}: {len(found)}", *[f"    {p}" for p in found[:each]]]
    return "\n".join(lines)


# Twelve seats of 20-character names (the widest a name may be), for the TV's fullest screens.
LONG_NAMES = ["Maria Fernanda Souza", "WWWWWWWWWWWWWWWWWWWW", "Wolfgang Wilhelmsson", "Ana Beatriz Gonçalve",
              "MMMMMMMMMM MMMMMMMMM", "Þórunn Guðmundsdótti", "Ștefănescu Mihaela B", "José María Fernández",
              "Aleksandra Wójcicka", "Bartholomew Kingsly", "Gheorghe Ionescu-Pop", "Ingrid Halvorsen-Bak"]

# Recorded in each TV page: what it sends the server, the animations it starts and ends, its tones and its voice.
SPY = """
window.spy = { sent: [], started: [], ended: [], animate: 0, tones: [], said: [] };
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (typeof data === "string" && data.startsWith("42")) window.spy.sent.push(data.slice(0, 80));
  return send.call(this, data);
};
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.spy.animate += 1; return animate.apply(this, args); };
document.addEventListener("animationstart", (e) => window.spy.started.push(`${e.animationName} ${e.target.className}`));
document.addEventListener("animationend", (e) => window.spy.ended.push(`${e.animationName} ${e.target.className}`));
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const o = { frequency: { value: 0 }, connect: (g) => g, stop() {} };
    o.start = () => window.spy.tones.push(o.frequency.value);
    return o;
  }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
};
if (window.speechSynthesis) window.speechSynthesis.speak = (u) => window.spy.said.push(u.text);
"""

# Every text the TV's banner says, as it says it (a moment's words over the band, for 3.5 s: window.banners).
BANNERS = """() => {
  window.banners = [];
  new MutationObserver(() => window.banners.push(document.getElementById("banner").textContent))
    .observe(document.getElementById("banner"), { childList: true, characterData: true, subtree: true });
}"""

# Every visible text bigger than the call's big line (the call is the largest text on the TV); on the scores,
# their title is the call.
CALL_LARGEST = """(root) => {
  const call = document.querySelector(root === "#scores" ? "#scores-title" : "#call-big");
  const big = parseFloat(getComputedStyle(call).fontSize);
  const found = [];
  for (const el of document.querySelectorAll(`${root} *`)) {
    if (call.contains(el) || el.closest(".switches") || !el.checkVisibility({ opacityProperty: true })) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const scale = el instanceof SVGElement ? el.getScreenCTM().a : 1; // an SVG text's size on screen
    const size = parseFloat(getComputedStyle(el).fontSize) * scale;
    const text = el.textContent.trim().slice(0, 30);
    if (size > big) found.push(`larger than the call (${big}px): ${el.tagName}.${el.className} '${text}' ${size}px`);
  }
  return found;
}"""


class Moments(Shots):
    """Measures and screenshots of each moment at both TV sizes in English and Romanian, played out, with nothing
    larger than the call; every problem gathered and reported together at the end."""

    def __init__(self, shots: Path, folder: str) -> None:
        super().__init__(shots / folder, [(1920, 1080), (1280, 720)], ["en", "ro"], prefix="tv-")

    def seen(self, page, width: int, options: dict) -> list[str]:
        settle(page)
        return super().seen(page, width, options) + page.evaluate(CALL_LARGEST, options.get("root", "#table"))

    def summary(self) -> str:
        return summary(self.problems, each=8)


def open_tv(night: Night, **context):
    """A TV page (spied on, see SPY), 1920×1080 unless told; a click lets it make sounds, as a host's first tap."""
    page = night.tv(script=SPY, **context)
    page.locator(".brand").click()
    return page


def settle(page) -> None:
    """Every animation played out: the moment as it stays."""
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
