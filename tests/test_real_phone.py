"""Real cards on the table, on a phone in Chromium: the big buttons, and a 13-card hand entered by tapping.

A live server plays the first hand of a variant dealing 13 cards (a variants
file of this test), with Ana on a phone in the browser, Bob on a Socket.IO
client and Carla without a phone. Ana readies, answers for Carla, calls
Match! and taps her 13 cards in: after every tap the page must show the
melds and the penalty that the engine's own solver finds for the cards so
far. A mistaken tap comes off, a reload keeps the half-entered hand, a
14th card and a fifth 7♥ (four decks) are refused with their reasons, and
Carla's points are typed on the pad. Screenshots of the picker and of the
buttons go to screenshots/, and the geometry is checked at 320×568, 390×844
and 820×1180.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from partyrummy.rules.cards import parse_card
from partyrummy.rules.melds import best_arrangement

from .layout import check, playwright_js
from .live import Client
from .night import Night

RULES = """
[real13]
extends = "party"
description = "Party rules dealing 13 cards first (for the real-cards phone test)"
hand_sizes = [13, 3]
table_beat_s = 0.1
table_match_window_s = 600
table_hurry_after_s = 0.3
table_hurry_countdown_s = 300
table_hurry_end = "discard"

[realturns]
extends = "classic"
description = "Classic turns in three short hands (for the real-cards phone test)"
hand_sizes = [3, 4, 5]
table_beat_s = 0.1
table_hurry_after_s = 0
"""
# Ana's hand (Ks are wild with 13 cards): complete once all in, orphans and penalties on the way.
HAND = ["3H", "4H", "9S", "7C", "5H", "KC", "7D", "10S", "6H", "JS", "7S", "QS", "7H"]
MISTAKE_AFTER, MISTAKE = 5, "8C"
RELOAD_AFTER = 7
SHOWN_AFTER = 9
SIZES = [(320, 568), (390, 844), (820, 1180)]
PAGES = {"C": "Clubs and Diamonds", "D": "Clubs and Diamonds", "H": "Hearts and Spades", "S": "Hearts and Spades"}


def real_night(night: Night) -> Night:
    """A night of this module's rules with real cards, whose phones tap Carla's Ready (she has no phone)."""
    assert night.host.call("phoneless_ready", {"ready": False})["ok"]
    return night


def label(face: str) -> str:
    return parse_card(face).symbol


def tap_card(phone, face: str) -> None:
    """Show the card's page of two suits if it is not on screen, then tap the card, as a player does."""
    button = phone.locator("#ranks").get_by_role("button", name=label(face), exact=True)
    if not button.is_visible():
        phone.get_by_role("button", name=PAGES[face[-1]], exact=True).tap()
    button.tap()


def wait_count(phone, n: int, size: int = 13) -> None:
    phone.locator("#entry-count", has_text=re.compile(rf"^{n} of {size} cards$")).wait_for()


def shown_layout(phone) -> tuple[list[list[str]], list[str], str]:
    melds = [sorted(li.locator(".card-button").all_inner_texts()) for li in phone.locator("#tapped li.is-meld").all()]
    orphans = sorted(phone.locator("#tapped li.orphans .card-button").all_inner_texts())
    return sorted(melds), orphans, phone.locator("#entry-penalty").inner_text()


def solved(variant, faces: list[str]) -> tuple[list[list[str]], list[str], str]:
    laid = best_arrangement([parse_card(f) for f in faces], variant.wild_rank(1), variant.meld_rules())
    melds = sorted(sorted(c.symbol for c in meld) for meld in laid.melds)
    return melds, sorted(c.symbol for c in laid.orphans), f"Penalty now: {laid.penalty}"


def problems_at(run_js, picker: bool) -> list[str]:
    """The real-cards screen's layout problems: nothing clipped or past the edges, targets >= 44 px, nothing
    covered, and the picker's controls (the count and Confirm, the suits, the ranks) or the big buttons above the
    fold."""
    return check(
        run_js,
        root="#real",
        viewport="x",
        covered="#real button",
        apart=[[".entry-sum p", "#entry-confirm"]],
        above_fold="#entry-confirm, #suits, #ranks" if picker else "#r-actions",
    )


def geometry(phone, folder: Path, name: str, picker: bool) -> None:
    """At each size: nothing clipped or past the edges, targets >= 44 px, nothing covered; the picker's controls
    (the count and Confirm, the suits, the ranks) above the fold even at 320x568."""
    for width, height in SIZES:
        phone.set_viewport_size({"width": width, "height": height})
        phone.evaluate("window.scrollTo(0, 0)")
        problems = problems_at(playwright_js(phone), picker)
        assert problems == [], (name, width, problems)
        if width < 800:
            phone.screenshot(path=str(folder / f"{name}-{width}.png"))
    phone.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.slow
def test_a_phone_plays_real_cards_and_taps_in_a_13_card_hand_seeing_the_solver_after_each_tap(
    nights, browser, shots: Path
) -> None:
    night = real_night(nights(rules=RULES, mode="real", variant="real13", browser=browser))
    host, bob, variant = night.host, night.client(), night.variant("real13")
    ana = night.phone("Ana")  # the first phone in: the VIP's
    assert bob.join("Bob")["ok"]
    assert host.call("add_person", {"name": "Carla"})["ok"]
    assert host.call("allow_helpers", {"allow": True})["ok"]
    assert host.call("start")["ok"]

    # People deal; the VIP's phone tells the caller the cards are dealt.
    ana.get_by_role("heading", name="Deal: 13 cards each…").wait_for()
    assert ana.locator("#r-wild").inner_text() == "★Ks are wild"
    guest = night.phone()  # someone watching sees the table's step
    guest.locator("#watch-call", has_text="Deal: 13 cards each…").wait_for()
    guest.context.close()
    geometry(ana, shots, "real-phone-deal", picker=False)
    ana.get_by_role("button", name="Cards are dealt: Draw!").tap()

    # Ready, taken back, Ready again; then Ready for Carla, who has no phone.
    ana.get_by_role("heading", name="Draw!").wait_for()
    hurry = ana.locator("#r-hurry", has_text=re.compile(r"^The TV calls “Discard!” in \d+ s$"))
    hurry.wait_for()  # the slow ones are told when the caller stops waiting for them
    ana.get_by_role("button", name="Ready", exact=True).tap()
    ana.get_by_role("heading", name="Ready: your card is face down").wait_for()
    hurry.wait_for(state="hidden")
    geometry(ana, shots, "real-phone-ready", picker=False)
    ana.get_by_role("button", name="Ready ✓").tap()
    ana.get_by_role("heading", name="Draw!").wait_for()
    assert host.wait_for(lambda s: not s["game"]["seats"][0]["ready"])
    ana.get_by_role("button", name="Ready", exact=True).tap()
    ana.get_by_role("button", name="Carla", exact=True).tap()
    ana.get_by_role("button", name="Ready", exact=True).tap()
    ana.get_by_role("button", name="Ready ✓").wait_for()
    host.wait_for(lambda s: [seat["ready"] for seat in s["game"]["seats"]] == [True, False, True])
    ana.get_by_role("button", name="Ana", exact=True).tap()
    assert bob.call("ready", {"cycle": bob.state["game"]["cycle"]})["ok"]

    # "Discard!": the match window; Ana calls Match!, and may take it back.
    ana.get_by_role("heading", name="Discard! Turn your card over").wait_for()
    geometry(ana, shots, "real-phone-match", picker=False)
    ana.get_by_role("button", name="Match!").tap()
    ana.get_by_role("heading", name="You called Match!").wait_for()
    assert ana.get_by_role("button", name="Take back my Match!").is_visible()
    assert host.call("call_now")["ok"]  # the last cycle for the others; Ana enters her cards already

    ana.get_by_role("heading", name="Enter your hand").wait_for()
    assert host.call("pause", {"paused": True})["ok"]  # a pause stops the pace, not the score entry
    ana.get_by_role("button", name="Resume").wait_for()
    assert ana.get_by_role("heading", name="Enter your hand").is_visible()
    wait_count(ana, 0)
    tapped: list[str] = []
    for face in HAND:
        tap_card(ana, face)
        tapped.append(face)
        wait_count(ana, len(tapped))
        assert shown_layout(ana) == solved(variant, tapped), tapped
        if len(tapped) == 1:  # the first card went in while paused
            assert host.call("pause", {"paused": False})["ok"]
            ana.get_by_role("button", name="Pause").wait_for()
        if len(tapped) == MISTAKE_AFTER:  # a card tapped by mistake comes off with one tap
            tap_card(ana, MISTAKE)
            wait_count(ana, len(tapped) + 1)
            assert shown_layout(ana) == solved(variant, [*tapped, MISTAKE])
            ana.get_by_role("button", name=f"Take {label(MISTAKE)} off").tap()
            wait_count(ana, len(tapped))
            assert shown_layout(ana) == solved(variant, tapped)
        if len(tapped) == SHOWN_AFTER:  # melds and orphans side by side: the README's picture
            ana.screenshot(path=str(shots / "real-phone-picker-mid-390.png"))
        if len(tapped) == RELOAD_AFTER:  # the draft is the server's: a reload shows it again
            ana.reload()
            wait_count(ana, len(tapped))
            assert shown_layout(ana) == solved(variant, tapped)
    assert ana.locator("#ranks").get_by_role("button", name="7♥", exact=True).inner_text().split() == ["7♥", "×1"]

    # A 14th card is refused with the reason; the hand stays as it was.
    assert ana.get_by_role("button", name="Confirm").is_enabled()
    tap_card(ana, "2D")
    ana.get_by_role("alert").filter(has_text="This hand has 13 cards: you entered 14").wait_for()
    assert ana.locator("#entry-count").text_content() == "13 of 13 cards"  # the refusal stands in for it
    geometry(ana, shots, "real-phone-picker", picker=True)
    ana.get_by_role("button", name="Confirm").tap()
    ana.get_by_text("Your hand: 0 pts").wait_for()
    ana.get_by_text("The Match! holds: every card is in a meld").wait_for()
    ana.get_by_text("Waiting for Bob and Carla…").wait_for()  # whom the table waits for
    assert host.state["game"]["seats"][0]["entry"]["claim"] is True

    # The last cycle: Bob and Carla ready, the caller ends the hand; Bob types his points.
    assert bob.call("ready", {"cycle": bob.state["game"]["cycle"]})["ok"]
    assert host.call("ready", {"seat": 2, "cycle": host.state["game"]["cycle"]})["ok"]
    bob.wait_for(lambda s: s["game"]["phase"] == "entry")
    assert bob.call("points", {"points": 25})["ok"]

    # Ana answers for Carla: five 7♥ cannot come out of four decks; Carla's points are typed instead.
    ana.get_by_role("button", name="Carla", exact=True).tap()
    ana.get_by_role("heading", name="Enter Carla's hand").wait_for()
    for n in range(1, 5):
        tap_card(ana, "7H")
        wait_count(ana, n)
    tap_card(ana, "7H")
    ana.get_by_role("alert").filter(has_text="7♥ 5 times cannot be: the shoe holds 4 of each card").wait_for()
    assert ana.locator("#entry-count").text_content() == "4 of 13 cards"
    ana.screenshot(path=str(shots / "real-phone-refused-390.png"))
    ana.get_by_role("button", name="Type the points").tap()
    for key in "17":
        ana.locator("#pad").get_by_role("button", name=key, exact=True).tap()
    geometry(ana, shots, "real-phone-pad", picker=False)
    ana.get_by_role("button", name="Enter 17 pts").tap()

    ana.get_by_role("heading", name="Hand 1 scores").wait_for()
    ana.get_by_text("This hand: 0 pts").wait_for()
    sheet = host.wait_for(lambda s: s["game"]["phase"] == "scored")["game"]["sheet"][0]
    assert [(c["points"], c["how"]) for c in sheet] == [(0, "cards"), (25, "typed"), (17, "typed")]
    assert ana.locator("#r-results .standings li").all_inner_texts() == ["Ana: 0", "Carla: 17", "Bob: 25"]
    ana.screenshot(path=str(shots / "real-phone-scored-390.png"))
    assert not night.watch.problems, night.watch.problems


def take_turn(ana, host: Client, bob: Client, button: str = "Done") -> int:
    """Whoever's turn it is taps Done: Ana on her phone, Bob on his client, Carla through Ana's phone."""
    game = host.state["game"]
    seat, cycle = game["turn"], game["cycle"]
    if seat == 0:
        ana.get_by_role("heading", name="Your last turn" if game["phase"] == "last_turn" else "Your turn").wait_for()
        ana.get_by_role("button", name=button, exact=True).tap()
    elif seat == 1:
        assert bob.call("done", {"cycle": cycle})["ok"]
    else:
        ana.get_by_role("button", name="Carla", exact=True).tap()
        ana.get_by_role("heading", name=re.compile("^Carla's (last )?turn$")).wait_for()
        ana.get_by_role("button", name="Done", exact=True).tap()
        ana.get_by_role("button", name="Ana", exact=True).tap()
    host.wait_for(lambda s: s["game"]["cycle"] > cycle or s["game"]["phase"] != game["phase"])
    return seat


@pytest.mark.slow
def test_in_turns_a_phone_taps_done_for_itself_and_for_carla_then_goes_out(nights, browser, shots: Path) -> None:
    night = real_night(nights(rules=RULES, seed=1, mode="real", variant="realturns", browser=browser))
    host, bob = night.host, night.client()
    ana = night.phone("Ana")
    assert bob.join("Bob")["ok"]
    assert host.call("add_person", {"name": "Carla"})["ok"]
    assert host.call("allow_helpers", {"allow": True})["ok"]
    assert host.call("start")["ok"]
    dealer = host.wait_for(lambda s: s["game"] is not None)["game"]["dealer"]
    deals = "You deal" if dealer == 0 else f"{['Ana', 'Bob', 'Carla'][dealer]} deals"
    ana.get_by_role("heading", name=f"{deals}: 3 cards each…").wait_for()
    assert host.call("call_now")["ok"]
    host.wait_for(lambda s: s["game"]["phase"] == "turn")

    seen = set()
    while len(seen) < 3 or host.state["game"]["turn"] != 0:  # a round: each seat's Done, up to Ana's turn
        seen.add(take_turn(ana, host, bob))
    ana.get_by_role("heading", name="Your turn").wait_for()
    assert ana.get_by_role("button", name="Done", exact=True).is_visible()
    geometry(ana, shots, "real-phone-turn", picker=False)
    take_turn(ana, host, bob, button="Out!")
    ana.get_by_role("heading", name="Enter your hand").wait_for()  # went out: she enters while the others play
    ana.get_by_role("button", name="Type the points").tap()
    ana.locator("#pad").get_by_role("button", name="0", exact=True).tap()
    ana.get_by_role("button", name="Enter 0 pts").tap()
    ana.get_by_text("The Match! holds: every card is in a meld").wait_for()
    while host.state["game"]["phase"] == "last_turn":
        take_turn(ana, host, bob)
    assert bob.call("points", {"points": 9})["ok"]
    assert host.call("points", {"seat": 2, "points": 4})["ok"]
    ana.get_by_role("heading", name="Hand 1 scores").wait_for()
    assert ana.locator("#r-results .standings li").all_inner_texts() == ["Ana: 0", "Carla: 4", "Bob: 9"]
    assert not night.watch.problems, night.watch.problems


@pytest.mark.slow
def test_in_webkit_the_picker_takes_a_13_card_hand_and_fits_320_and_390() -> None:
    """WebKit, the engine of every iPhone browser (tests/webkit.py's harness): the same picker, laid out."""
    from contextlib import ExitStack

    from .layout import selenium_js
    from .webkit import Display, Frame, screenshot_folder, start

    folder = screenshot_folder("real-webkit")
    with ExitStack() as stack:
        night = real_night(stack.enter_context(Night(rules=RULES, mode="real", variant="real13", framable=True)))
        host, bob, variant = night.host, night.client(), night.variant("real13")
        display = Display()
        stack.callback(display.stop)
        driver = start(display)
        stack.callback(driver.quit)
        phone = Frame(driver, night.url)
        phone.open(night.join_url, 390, 844)
        phone.wait_text("Your name")
        phone.js("return document.getElementById('name')").send_keys("Ana")
        phone.tap("Join")
        phone.wait_text("You're in, Ana!")
        assert bob.join("Bob")["ok"]
        assert host.call("start")["ok"]
        phone.tap("Cards are dealt: Draw!")
        phone.tap("Ready")
        assert bob.call("ready", {"cycle": 1})["ok"]
        phone.tap("Match!")
        phone.wait_heading("You called Match!")
        assert host.call("call_now")["ok"]
        phone.wait_heading("Enter your hand")
        page = "Clubs and Diamonds"  # a fresh hand opens on the first page
        for n, face in enumerate(HAND, start=1):
            if PAGES[face[-1]] != page:
                page = PAGES[face[-1]]
                phone.tap(page)
            phone.tap(label(face))
            phone.wait_text(f"{n} of 13 cards")
        melds = phone.js(
            "return [...document.querySelectorAll('#tapped li.is-meld')].map((li) =>"
            " [...li.querySelectorAll('.card')].map((c) => c.textContent).sort())"
        )
        assert sorted(melds) == solved(variant, HAND)[0]
        for width, height in SIZES[:2]:
            phone.reload(width, height)
            phone.wait_text("13 of 13 cards")
            problems = problems_at(selenium_js(driver), picker=True)
            assert problems == [], (width, problems)
            phone.screenshot(folder / f"webkit-real-phone-picker-{width}.png")
        phone.tap("Confirm")
        phone.wait_text("The Match! holds: every card is in a meld")
        assert phone.problems() == []
