"""The card picker's shortcuts and the TV's pad as a dialog, in Chromium against a live server.

A table of three plays the first hand of a variant dealing 13 cards: Ana (a phone: a Socket.IO client, or the
page in Chromium), and Carla and Dan without a phone. Every tap a person would make is counted: a 13-card hand
goes in with its shortcuts (two suits a page on the phone, a run by its two ends, the way last used remembered on
the TV) in at most 15 taps including Confirm, and scores what the solver makes of the same cards tapped one by one.
The TV's pad takes the keyboard (digits, Enter, Escape, Tab kept inside), opens a correction at the cell's score,
and leaves who the table waits for and the matched hand in sight beside it. Geometry (tests/layout.py) at phone
320×568 and 390×844 and TV 1920×1080 and 1280×720; screenshots go to screenshots/<time>/picker/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from partyrummy.rules.cards import parse_card
from partyrummy.rules.melds import best_arrangement

from .layout import check, playwright_js
from .live import Client, LiveServer, phase
from .night import Night
from .screens import speak

RULES = """
[pick13]
extends = "party"
description = "Party rules dealing 13 cards first (for the picker tests)"
hand_sizes = [13, 3]
table_beat_s = 0.05
table_match_window_s = 600
table_hurry_after_s = 0
"""
# Kings are wild with 13 cards: runs 3♥-7♥ and 9♠-Q♠, 7♣ 7♦ K♣, and 2♦ left over (2 points).
HAND = ["7C", "KC", "7D", "2D", "3H", "4H", "5H", "6H", "7H", "9S", "10S", "JS", "QS"]
PAGE = {"C": "Clubs and Diamonds", "D": "Clubs and Diamonds", "H": "Hearts and Spades", "S": "Hearts and Spades"}
CARLA, DAN = 1, 2
TYPED = "typed by the player, not counted from cards"  # a typed score's cell says so
TV_SIZES = [(1920, 1080), (1280, 720)]
PHONE_SIZES = [(320, 568), (390, 844)]


def label(face: str) -> str:
    return parse_card(face).symbol


def laid_faces(entry: dict) -> list[str]:
    """The faces of an entry as the solver laid them out: its melds, then its orphans."""
    return [c["card"] for meld in entry["melds"] for c in meld] + [c["card"] for c in entry["orphans"]]


def penalty(variant, faces: list[str]) -> int:
    """What the solver makes of these cards, tapped one by one."""
    return best_arrangement([parse_card(f) for f in faces], variant.wild_rank(1), variant.meld_rules()).penalty


class Taps:
    """A person's taps, counted: a tap, a click (shift-click too), a hold, a key."""

    def __init__(self, page) -> None:
        self.page = page
        self.n = 0

    def tap(self, locator) -> None:
        locator.tap()
        self.n += 1

    def click(self, locator, **options) -> None:
        locator.click(**options)
        self.n += 1

    def hold(self, locator) -> None:
        """A press held past the picker's hold time, then lifted: one tap."""
        box = locator.bounding_box()
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.down()
        self.page.wait_for_timeout(700)
        self.page.mouse.up()
        self.n += 1


def to_entry(table: Night, ana: Client) -> None:
    """Ana calls Match!; after the last cycle the table waits for the hands (the seats without a phone are Ready
    by themselves); Ana's points are in."""
    host = table.host
    assert host.call("start")["ok"]
    assert host.call("call_now")["ok"]
    cycle = host.wait_for(lambda s: phase(s) == "ready")["game"]["cycle"]
    assert ana.call("ready", {"cycle": cycle})["ok"]
    host.wait_for(lambda s: phase(s) == "reveal")
    assert ana.call("match")["ok"]  # the seats without a phone play on by themselves: the window ends at once,
    host.wait_for(lambda s: phase(s) == "entry")  # and their last cycle with it
    assert ana.call("points", {"points": 0})["ok"]


@pytest.fixture(scope="module")
def served() -> Iterator[LiveServer]:
    """The module's server, offering the 13-card rules."""
    with Night(rules=RULES) as night:
        yield night.server


@pytest.fixture
def table(nights, browser, served: LiveServer) -> Night:
    """A new room of the module's server, with real cards and the 13-card rules: the host's link, and Ana, Carla
    and Dan seated by each test."""
    return nights(server=served, rules=RULES, mode="real", variant="pick13", browser=browser)


def tv_at_entry(table: Night):
    tv = table.tv()
    ana = table.client("Ana")
    table.add_people("Carla", "Dan")
    to_entry(table, ana)
    tv.get_by_text("Waiting for Carla and Dan…").wait_for()
    return tv


def enter_hand(tv, seat: int):
    return tv.locator("#seats > li").nth(seat).get_by_role("button", name="Enter hand")


def focus_in_pad(tv) -> bool:
    return tv.evaluate("document.getElementById('pad').contains(document.activeElement)")


@pytest.mark.slow  # 6 s here
def test_digits_typed_on_the_keyboard_then_enter_save_the_score_from_the_tvs_pad(table) -> None:
    tv = tv_at_entry(table)
    assert table.host.call("points", {"seat": DAN, "points": 5})["ok"]  # Carla is the last hand the table waits for
    enter_hand(tv, CARLA).click()
    tv.locator("#pad").wait_for()
    for key in ("7", "Backspace", "1", "7", "Enter"):
        tv.keyboard.press(key)
    tv.locator("#pad").wait_for(state="hidden")
    state = table.host.wait_for(lambda s: phase(s) == "scored")
    assert state["game"]["sheet"][0][CARLA] == {"points": 17, "how": "typed", "corrected_from": None}
    tv.get_by_role("button", name=f"Carla, hand 1: 17. Tap to correct, {TYPED}").wait_for()
    assert not table.watch.problems, table.watch.problems


def test_the_focus_stays_in_the_pads_dialog_and_escape_cancels(table) -> None:
    tv = tv_at_entry(table)
    tv.keyboard.press("Tab")  # the keyboard's focus somewhere on the table behind
    opener = enter_hand(tv, CARLA)
    opener.click()
    tv.locator("#pad").wait_for()
    assert focus_in_pad(tv)
    for _ in range(20):  # round and round the dialog, never out of it
        tv.keyboard.press("Tab")
        assert focus_in_pad(tv), tv.evaluate("document.activeElement.outerHTML")
    for _ in range(5):
        tv.keyboard.press("Shift+Tab")
        assert focus_in_pad(tv)
    tv.get_by_text("Waiting for Carla and Dan…").click()  # a click beside the dialog: the focus comes back to it
    tv.wait_for_function("document.getElementById('pad').contains(document.activeElement)", timeout=2000)
    for _ in range(4):  # a remote: arrows down to the keys, across one, and OK presses it
        tv.keyboard.press("ArrowDown")
    assert tv.evaluate("document.activeElement.dataset.key") == "4"  # the ways, the first row of keys, down a row
    for key in ("ArrowRight", "ArrowUp", "Enter"):
        tv.keyboard.press(key)
    assert tv.locator("#pad-value").inner_text() == "2"
    tv.keyboard.press("Escape")  # cancels: nothing sent, the focus back on the seat's button
    tv.locator("#pad").wait_for(state="hidden")
    assert not table.host.sync()["state"]["game"]["seats"][CARLA]["entered"]
    assert tv.evaluate("document.activeElement.textContent") == "Enter hand"
    opener.click()
    assert tv.locator("#pad-value").inner_text() == "0"  # opened afresh
    assert not table.watch.problems, table.watch.problems


def test_a_refusal_on_the_pad_follows_the_tvs_language(table) -> None:
    tv = tv_at_entry(table)
    enter_hand(tv, CARLA).click()
    tv.locator("#pad").wait_for()
    for _ in range(3):
        tv.locator("#pad-keys [data-key='9']").click()
    tv.get_by_role("button", name="Save").click()
    tv.locator("#pad-error", has_text=re.compile("^Points for this hand go from 0 to")).wait_for()
    assert tv.locator("#pad").is_visible() and tv.locator("#pad-value").inner_text() == "999"
    speak(tv, "es")
    assert tv.locator("#pad-error").inner_text() == ""  # the server said it in English: not left on a Spanish TV
    assert tv.get_by_role("button", name="Guardar").is_enabled()
    assert not table.watch.problems, table.watch.problems


@pytest.mark.slow  # 8 s here
def test_a_correction_opens_at_the_score_of_the_cell_tapped(table, shots: Path) -> None:
    tv = tv_at_entry(table)
    assert table.host.call("points", {"seat": CARLA, "points": 17})["ok"]
    assert table.host.call("points", {"seat": DAN, "points": 4})["ok"]
    cell = tv.get_by_role("button", name=f"Carla, hand 1: 17. Tap to correct, {TYPED}")
    cell.click()
    tv.get_by_role("heading", name="Correct the score of Carla in hand 1").wait_for()
    assert tv.locator("#pad-value").inner_text() == "17"
    assert tv.get_by_role("button", name="Save").is_enabled()  # the same score again is one tap
    for width, height in TV_SIZES:  # the sheet stays in sight beside the pad
        tv.set_viewport_size({"width": width, "height": height})
        tv.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")  # rows
        found = check(
            playwright_js(tv),
            root="body",
            clip="#pad *",
            targets="#pad button",
            covered="#pad button, #score-table button",
        )
        assert found == [], (width, found)
        tv.screenshot(path=str(shots / f"tv-correction-{height}p.png"))
    tv.keyboard.press("1")  # a digit replaces the score it opened at
    tv.keyboard.press("2")
    assert tv.locator("#pad-value").inner_text() == "12"
    tv.keyboard.press("Enter")
    state = table.host.wait_for(lambda s: s["game"]["sheet"][0][CARLA]["points"] == 12)
    assert state["game"]["sheet"][0][CARLA]["corrected_from"] == 17
    tv.locator("#pad").wait_for(state="hidden")
    assert not table.watch.problems, table.watch.problems


def tv_geometry(tv, folder: Path, name: str) -> list[str]:
    """The pad at the TV's sizes: its targets, inside the screen, nothing over it, and beside it (never under it)
    the line of who the table waits for and the matched hand."""
    problems = []
    for width, height in TV_SIZES:
        tv.set_viewport_size({"width": width, "height": height})
        tv.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        found = check(playwright_js(tv), root="#pad", covered="#pad button")
        found += check(
            playwright_js(tv),
            root="body",
            clip="#pad, #pad *, #waiting-names, #melds, #melds *",
            targets="#pad button",
            covered="#waiting-names, #melds .matched .card",
            overlap=[["#pad", "#waiting-names"], ["#pad", "#melds"]],
            above_fold="#waiting-names, #melds",
        )
        if tv.locator("#waiting-names").is_hidden() or tv.locator("#melds .matched").is_hidden():
            found.append("the waiting line or the matched hand is not shown beside the pad")
        problems += [f"{name} {width}x{height}: {p}" for p in found]
        tv.screenshot(path=str(folder / f"{name}-{height}p.png"))
    tv.set_viewport_size({"width": 1920, "height": 1080})
    return problems


def test_the_tvs_pad_and_picker_fit_beside_the_waiting_line_at_1080p_and_720p(
    table,
    shots: Path,
) -> None:
    folder = shots / "picker"
    folder.mkdir()
    tv = tv_at_entry(table)
    enter_hand(tv, DAN).click()
    problems = tv_geometry(tv, folder, "tv-pad")
    tv.get_by_role("button", name="Cards", exact=True).click()
    for face in ("7C", "KC", "7D", "2D", "3H", "4H", "5H", "6H", "7H", "9S"):
        tv.locator("#pick-grid").get_by_role("button", name=label(face), exact=True).click()
    tv.locator("#pick-count", has_text="10 of 13 cards").wait_for()
    problems += tv_geometry(tv, folder, "tv-picker")
    assert not problems, "\n".join(problems)
    assert not table.watch.problems, table.watch.problems


def test_the_tv_enters_a_13_card_hand_in_15_taps_at_most_scored_as_tapped_card_by_card(table) -> None:
    tv = tv_at_entry(table)
    taps = Taps(tv)
    taps.click(enter_hand(tv, DAN))
    taps.click(tv.get_by_role("button", name="Cards", exact=True))  # the first time on this TV; remembered after
    grid = tv.locator("#pick-grid")

    def card(face: str):
        return grid.get_by_role("button", name=label(face), exact=True)

    for face in ("7C", "KC", "7D", "2D", "3H"):
        taps.click(card(face))
    taps.click(card("7H"), modifiers=["Shift"])  # the run's other end: 4♥ 5♥ 6♥ come in too
    taps.click(card("9S"))
    taps.hold(card("QS"))  # held: 10♠ J♠ too
    tv.locator("#pick-count", has_text="13 of 13 cards").wait_for()
    assert tv.get_by_role("button", name="Undo 3 cards").is_enabled()
    taps.click(tv.get_by_role("button", name="Confirm the hand"))
    tv.locator("#pad").wait_for(state="hidden")
    assert taps.n <= 15, taps.n

    # The way is remembered: Carla's pad opens on the cards.
    enter_hand(tv, CARLA).click()
    tv.locator("#pick-grid").wait_for()
    tv.keyboard.press("Escape")
    assert table.host.call("points", {"seat": CARLA, "points": 9})["ok"]
    state = table.host.wait_for(lambda s: phase(s) == "scored")
    entry = state["game"]["seats"][DAN]["entry"]
    assert state["game"]["sheet"][0][DAN]["points"] == penalty(table.variant("pick13"), HAND) == 2
    assert sorted(laid_faces(entry)) == sorted(HAND)
    assert not table.watch.problems, table.watch.problems


def phone_geometry(phone, folder: Path, name: str, langs: tuple[str, ...] = ("en",)) -> list[str]:
    """The picker at the phone's sizes: targets >= 44 px, nothing past the sides or covered, the count and Confirm,
    the pages and the cards above the fold."""
    problems = []
    for width, height in PHONE_SIZES:
        phone.set_viewport_size({"width": width, "height": height})
        for lang in langs:
            speak(phone, lang)
            phone.evaluate("window.scrollTo(0, 0)")
            found = check(
                playwright_js(phone),
                root="#entry",
                viewport="x",
                covered="#entry button",
                apart=[[".entry-sum p", "#entry-confirm"]],
                above_fold="#entry-confirm, #suits, #pick-undo, #ranks, #ranks button",
            )
            problems += [f"{name} {width}x{height} {lang}: {p}" for p in found]
            phone.screenshot(path=str(folder / f"{name}-{width}-{lang}.png"))
    speak(phone, "en")
    phone.set_viewport_size({"width": 390, "height": 844})
    return problems


def phone_at_entry(table: Night):
    """Ana's phone in Chromium; Carla calls Match! (the TV taps it); the last cycle over, Ana enters her hand."""
    page = table.phone("Ana")
    table.add_people("Carla", "Dan")
    host = table.host
    assert host.call("start")["ok"]
    assert host.call("call_now")["ok"]
    page.get_by_role("button", name="Ready", exact=True).tap()
    host.wait_for(lambda s: phase(s) == "reveal")
    assert host.call("match", {"seat": CARLA})["ok"]
    assert host.call("call_now")["ok"]
    page.get_by_role("button", name="Ready", exact=True).tap()
    page.get_by_role("heading", name="Enter your hand").wait_for()
    return page


def phone_card(page, face: str):
    return page.locator("#ranks").get_by_role("button", name=label(face), exact=True)


def tap_in(page, faces: list[str]) -> None:
    """Each card by itself, its page shown first when it is not."""
    for face in faces:
        if phone_card(page, face).is_hidden():
            page.get_by_role("button", name=PAGE[face[-1]]).tap()
        phone_card(page, face).tap()
    page.locator("#entry-count", has_text=f"{len(faces)} of 13 cards").wait_for()


def test_a_phone_enters_a_13_card_hand_in_15_taps_at_most_scored_as_tapped_card_by_card(table) -> None:
    page = phone_at_entry(table)
    taps = Taps(page)

    def card(face: str):
        return phone_card(page, face)

    assert page.get_by_role("button", name="Clubs and Diamonds").get_attribute("aria-pressed") == "true"
    for face in ("7C", "KC", "7D", "2D"):  # a fresh hand opens on clubs and diamonds
        taps.tap(card(face))
    taps.tap(page.get_by_role("button", name="Hearts and Spades"))
    taps.tap(card("3H"))
    taps.hold(card("7H"))  # held: the run 3♥ to 7♥
    taps.tap(card("9S"))
    page.locator("#entry-count", has_text="9 of 13 cards").wait_for()
    taps.tap(page.get_by_role("button", name="Run from 9♠"))
    taps.tap(card("QS"))  # the run's other end: 10♠ J♠ too
    page.locator("#entry-count", has_text="13 of 13 cards").wait_for()
    assert page.get_by_text("Penalty now: 2").is_visible()
    taps.tap(page.get_by_role("button", name="Confirm"))
    page.get_by_text("Your hand: 2 pts").wait_for()
    assert taps.n <= 15, taps.n
    assert table.host.call("points", {"seat": CARLA, "points": 0})["ok"]
    assert table.host.call("points", {"seat": DAN, "points": 8})["ok"]
    state = table.host.wait_for(lambda s: phase(s) == "scored")
    assert state["game"]["sheet"][0][0]["points"] == penalty(table.variant("pick13"), HAND) == 2
    entry = state["game"]["seats"][0]["entry"]
    assert sorted(laid_faces(entry)) == sorted(HAND)
    assert not table.watch.problems, table.watch.problems


@pytest.mark.slow  # 5 s here
def test_the_phones_picker_fits_320x568_and_390x844(table, shots: Path) -> None:
    folder = shots / "picker"
    folder.mkdir()
    page = phone_at_entry(table)
    problems = phone_geometry(page, folder, "phone-picker-empty")
    tap_in(page, HAND[:10])
    Taps(page).hold(phone_card(page, "QS"))  # the run's end: Run and Undo say the most they say
    page.get_by_role("button", name="Undo 3 cards").wait_for()
    problems += phone_geometry(page, folder, "phone-picker", ("en", "ro", "pt-BR", "es"))
    assert not problems, "\n".join(problems)
    assert not table.watch.problems, table.watch.problems


def test_a_phone_changes_its_confirmed_hand_until_the_hand_is_scored(table, shots: Path) -> None:
    page = phone_at_entry(table)
    host = table.host
    tap_in(page, HAND)
    page.get_by_role("button", name="Confirm").tap()
    page.get_by_text("Your hand: 2 pts").wait_for()
    host.wait_for(lambda s: s["game"]["seats"][0]["entered"])
    page.screenshot(path=str(shots / "phone-entered-390.png"))

    # Until the hand is scored, the phone may change it: the picker comes back with the hand in it.
    page.get_by_role("button", name="Change my hand").tap()
    page.locator("#entry-count", has_text="13 of 13 cards").wait_for()
    host.wait_for(lambda s: not s["game"]["seats"][0]["entered"])  # the table waits for Ana again
    page.get_by_role("button", name="Take 2♦ off").tap()
    page.locator("#entry-count", has_text="12 of 13 cards").wait_for()
    if phone_card(page, "AD").is_hidden():
        page.get_by_role("button", name="Clubs and Diamonds").tap()
    phone_card(page, "AD").tap()
    page.get_by_text("Penalty now: 1").wait_for()
    page.get_by_role("button", name="Confirm").tap()
    page.get_by_text("Your hand: 1 pt").wait_for()
    assert page.get_by_role("button", name="Change my hand").is_visible()

    assert host.call("points", {"seat": CARLA, "points": 0})["ok"]
    assert host.call("points", {"seat": DAN, "points": 8})["ok"]
    state = host.wait_for(lambda s: phase(s) == "scored")
    assert state["game"]["sheet"][0][0] == {"points": 1, "how": "cards", "corrected_from": None}
    page.get_by_role("heading", name="Hand 1 scores").wait_for()
    assert page.get_by_role("button", name="Change my hand").is_hidden()  # scored: the host corrects now
    assert not table.watch.problems, table.watch.problems


def test_a_released_seat_with_real_cards_says_the_tv_enters_its_hand(table) -> None:
    tv = tv_at_entry(table)
    table.client("Bea")  # a newcomer, seated for the next deal
    assert table.host.call("points", {"seat": CARLA, "points": 3})["ok"]
    assert table.host.call("points", {"seat": DAN, "points": 5})["ok"]
    table.host.wait_for(lambda s: phase(s) == "scored")
    assert table.host.call("call_now")["ok"]  # hand 2: Bea plays, then leaves her seat open
    table.host.wait_for(lambda s: phase(s) == "setup" and s["game"]["hand_no"] == 2)
    bea_seat = next(i for i, s in enumerate(table.host.state["room"]["seats"]) if s["name"] == "Bea")
    assert table.host.call("release", {"seat": bea_seat})["ok"]
    tile = tv.locator("#seats > li").nth(bea_seat)
    tile.get_by_text("Open seat: the TV enters its hand until someone takes it").wait_for()
    assert "the caller plays it" not in tv.locator("#seats").inner_text()
