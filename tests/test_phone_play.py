"""The phone in the hand, in Chromium: what it says at the moments that cost players points or confused them.

Each test plays the part of a game it needs on a live server with rules of its own (the pace keys of a variants
file, so no test waits on a person's pace), a browser phone or two and Socket.IO players:

- a pick tried while every other seat is ready: the phone counts down to the flip (room.call_in), and the card
  finally chosen is the one that goes;
- Match! is prominent exactly when the hand is complete (a seeded deal gives Ana a complete hand), quiet
  otherwise, and never under the first hand's tips;
- after a Match!, with cards on the phones and with real cards, every message is said once, and the others'
  phones lead with the caller's name;
- at 320x568 with 13 cards, every control of the moment is inside the screen, in both ways to play;
- the end of the night: the podium, the awards and the player's place, as the TV says them;
- a joker is named in words, never "JK";
- with real cards: a table that keeps waiting says so to the seat it waits for, and an entry may be changed until
  the hand is scored.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from partyrummy.i18n import default_catalogs

from .layout import check, playwright_js
from .live import Client, act, phase, play_game
from .night import Night
from .play import penalty, seed_where, variants_of
from .screens import settle, speak

CATALOGS = default_catalogs()

pytestmark = pytest.mark.slow

RULES = """
[flip]
extends = "party"
description = "A long flip's beat, so a pick can be tried while it counts down (for tests)"
beat_s = 4
match_window_s = 600
hurry_after_s = 0

[late]
extends = "party"
description = "A short hurry and a long time to choose after a late draw (for tests)"
beat_s = 0.3
match_window_s = 600
hurry_after_s = 0.5
hurry_countdown_s = 3
choose_min_s = 6

[overruled]
extends = "party"
description = "A quick hurry, then a long beat before the flip: time to change the card the TV picked (for tests)"
beat_s = 5
match_window_s = 600
hurry_after_s = 0.5
hurry_countdown_s = 1.5
choose_min_s = 0

[dealt]
extends = "party"
description = "Two short hands, the host's Call now ending each match window (for tests)"
hand_sizes = [3, 4]
beat_s = 0.3
match_window_s = 600
hurry_after_s = 0

[ending]
extends = "party"
description = "Two short hands, and a caller that plays for a slow phone at once (for tests)"
hand_sizes = [3, 4]
beat_s = 0.05
flip_min_s = 0
match_window_s = 0.2
hurry_after_s = 0.2
hurry_countdown_s = 0.2
choose_min_s = 0

[thirteen]
extends = "party"
description = "Thirteen cards first (for tests)"
hand_sizes = [13, 3]
beat_s = 0.3
match_window_s = 600
hurry_after_s = 0

[jokers]
extends = "party"
description = "Many jokers in the shoe (for tests)"
jokers = 24
beat_s = 0.3
match_window_s = 600
hurry_after_s = 0

[realwait]
extends = "party"
description = "Real cards, a short hurry after which the table keeps waiting, as by default (for tests)"
hand_sizes = [3, 4]
table_beat_s = 0.1
table_match_window_s = 600
table_hurry_after_s = 0.3
table_hurry_countdown_s = 1.5

[real13]
extends = "party"
description = "Real cards, thirteen first (for tests)"
hand_sizes = [13, 3]
table_beat_s = 0.1
table_match_window_s = 600
table_hurry_after_s = 0
"""
SMALL = (320, 568)

# Every text a player reads on the page: what shows, and what a screen reader says (labels, the title).
READ = """() => [document.title, document.body.innerText,
  ...[...document.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label"))].join("\\n")"""

# The screen's messages, line by line (a card's face is no message: a hand may hold two 2♣).
LINES = """() => document.body.innerText.split("\\n").map((l) => l.trim())
  .filter((l) => l && !/^((10|[2-9AJQK])[♣♦♥♠]|🃏)$/u.test(l))"""


@pytest.fixture
def night_of(nights, browser):
    """Makes a night of this module's rules: the variant chosen (and the way to play), the TV's link, browser
    phones and Socket.IO players; no page of it may log an error or ask another host."""
    made = []

    def make(variant: str, seed: int | None = None, mode: str = "phones"):
        made.append(nights(rules=RULES, browser=browser, variant=variant, seed=seed, mode=mode))
        return made[-1]

    yield make
    for night in made:
        assert not night.watch.problems, night.watch.problems


def last_to_draw(night: Night):
    """Ana's phone, and Bob and Cy (Socket.IO players) who have drawn and picked at the first "Draw!"."""
    ana = night.phone("Ana")
    players = night.players(["Bob", "Cy"])
    assert night.host.call("start")["ok"] and night.host.call("call_now")["ok"]
    for client in players:
        draw_and_pick(client)
    return ana


def draw_and_pick(client: Client) -> None:
    """A Socket.IO player draws and picks its hint's discard, each seen through."""
    client.wait_for(lambda s: phase(s) in ("draw", "last_draw") and client_seat(s) in s["game"]["waiting_for"])
    assert act(client)["ok"]
    client.wait_for(lambda s: s["game"]["you"]["drawn"] is not None)
    assert act(client)["ok"]
    client.wait_for(lambda s: s["game"]["you"]["pick"] is not None)


def client_seat(state: dict) -> int:
    return state["game"]["you"]["seat"]


def draw_best(page) -> None:
    """A browser phone draws from the shoe and picks the discard its hint calls best."""
    page.get_by_role("button", name="Draw from the shoe").tap()
    hint = page.locator("#hint", has_text="Best discard: ")
    best = hint.inner_text().removeprefix("Best discard: ")
    page.get_by_role("button", name=best, exact=True).first.tap()
    page.locator("#pick-note", has_text=f"Discarding {best}").wait_for()


def real_cards_to_discard(ana, bob: Client) -> None:
    """With real cards: Ana's phone says the cards are dealt and taps Ready, Bob (a Socket.IO player) is ready
    too, and the TV calls "Discard!"."""
    ana.get_by_role("button", name="Cards are dealt: Draw!").tap()
    ana.get_by_role("button", name="Ready").tap()
    bob.wait_for(lambda s: s["game"]["phase"] == "ready")
    assert bob.call("ready", {"cycle": bob.state["game"]["cycle"]})["ok"]
    ana.get_by_role("heading", name="Discard! Turn your card over").wait_for()


def snap(page, path: Path) -> None:
    """A screenshot once the moment's animation is over (a picture of the screen as it stays)."""
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    page.screenshot(path=str(path))


def heading(page) -> str:
    return page.locator("#play h1, #real h1").filter(visible=True).first.inner_text()


def repeated(page) -> list[str]:
    lines = page.evaluate(LINES)
    return sorted({line for line in lines if lines.count(line) > 1})


def test_a_pick_tried_while_everyone_else_is_ready_shows_the_coming_flip(night_of, shots: Path) -> None:
    night = night_of("flip")
    ana = last_to_draw(night)
    night.host.wait_for(lambda s: s["game"]["waiting_for"] == [0])
    # Not drawn yet, and the last: the phone says the others are ready.
    ana.locator("#p-where", has_text="Everyone else is ready").wait_for()
    ana.get_by_role("button", name="Draw from the shoe").tap()
    ana.get_by_role("heading", name="Tap a card to discard").wait_for()
    assert "Everyone else is ready" in ana.locator("#p-where").inner_text()
    cards = ana.locator("#hand .card-button")
    first, second = cards.nth(0).get_attribute("aria-label"), cards.nth(1).get_attribute("aria-label")
    cards.nth(0).tap()  # a pick tried: the flip is coming, and the phone says when
    flip = ana.get_by_role("heading", name=re.compile(r"^The cards flip in [1-4]\ss$"))
    flip.wait_for(timeout=3000)
    snap(ana, shots / "phone-flip-coming.png")
    assert f"Discarding {first}" in ana.locator("#pick-note").inner_text()
    before = int(re.search(r"\d", flip.inner_text()).group())
    ana.get_by_role("button", name=second, exact=True).first.tap()  # changed before the flip: allowed
    ana.locator("#pick-note", has_text=f"Discarding {second}").wait_for()
    ana.wait_for_timeout(1100)
    assert int(re.search(r"\d", heading(ana)).group()) < before  # it counts down
    ana.locator("#p-where", has_text=f"Your {second} went onto your pile").wait_for(timeout=6000)
    assert night.host.state["game"]["seats"][0]["pile_top"]["label"] == second


# Every card of the hand where it lies on the screen: [label, x, y, width, height], in order.
CARDS = """() => [...document.querySelectorAll("#hand .card-button")].map((b) => {
  const r = b.getBoundingClientRect();
  return [b.getAttribute("aria-label"), r.x, r.y, r.width, r.height];
})"""
# The card under a point of the screen (its label), as a finger would find it again.
UNDER = """([x, y]) => { const b = document.elementFromPoint(x, y)?.closest(".card-button");
  return b ? b.getAttribute("aria-label") : null; }"""


def test_a_tapped_card_stays_under_the_finger_in_every_order(night_of, shots: Path) -> None:
    """The last to pick, in the "by melds" order (the solver's layout): a card tapped to try it is still under
    the finger after the server's answer, no card of the hand has moved, and a second tap where another card lies
    picks that card. By suit and by rank too. The cards flip no sooner than flip_min_s after the last change."""
    night = night_of("flip")
    ana = night.phone("Ana", SMALL)
    bob, cy = night.client("Bob"), night.client("Cy")
    assert night.host.call("start")["ok"] and night.host.call("call_now")["ok"]
    for client in (bob, cy):
        draw_and_pick(client)
    ana.get_by_role("button", name="Draw from the shoe").tap()
    ana.get_by_role("heading", name="Tap a card to discard").wait_for()
    assert ana.locator("#sort").input_value() == "melds"
    for order in ("melds", "suit", "rank"):
        ana.locator("#sort").select_option(order)
        before = ana.evaluate(CARDS)
        for k in (len(before) - 1, 0, len(before) // 2):  # a card from each end of the hand, and the middle
            label, x, y, w, h = before[k]
            point = [x + w / 2, y + h / 2]
            ana.touchscreen.tap(*point)
            ana.locator("#pick-note", has_text=f"Discarding {label}").wait_for()
            settle(ana)  # the note is the server's answer (the pick it holds): its card raised, nothing moving
            assert ana.evaluate(UNDER, point) == label, (order, label, ana.evaluate(UNDER, point))
            after = ana.evaluate(CARDS)
            moved = [(a[0], b[0]) for a, b in zip(before, after, strict=True)
                     if a[0] != b[0] or abs(a[1] - b[1]) > 1 or abs(a[2] - b[2]) > 12]  # a pick is raised 8 px
            assert not moved, (order, moved)
        snap(ana, shots / f"phone-tried-{order}.png")
    # The flip waits for the last change: the count on the heading goes on after the last tap.
    ana.get_by_role("heading", name=re.compile(r"^The cards flip in [1-4]\ss$")).wait_for()
    ana.locator("#p-where", has_text="went onto your pile").wait_for(timeout=8000)


def played_for_ana(night, hurried: bool = False):
    """Ana on a phone's page does nothing, Bob and Cy draw and pick: the TV plays for her when her hurry runs out
    (`hurried`: its countdown seen first, as her heading). Her page, its notice, and the card the notice says."""
    ana = night.phone("Ana")
    bob, cy = night.client("Bob"), night.client("Cy")
    assert night.host.call("start")["ok"] and night.host.call("call_now")["ok"]
    for client in (bob, cy):
        draw_and_pick(client)
    if hurried:
        hurry = ana.locator("h1#p-step #p-hurry", has_text=re.compile(r"^The TV plays for you in \d\ss$"))
        hurry.wait_for(timeout=8000)  # the countdown is the heading
        assert ana.locator("#p-step").inner_text() == hurry.inner_text()
    notice = ana.locator("#notice", has_text="the TV played for you")
    notice.wait_for(timeout=8000)
    card = re.search(r"discarded ((10|[2-9AJQK])[♣♦♥♠]|Joker)\.", notice.inner_text()).group(1)
    return ana, notice, card


def test_the_tv_playing_for_a_slow_phone_is_said_alike_by_its_notice_heading_and_line(night_of) -> None:
    # A deal where the card the TV plays for Ana leaves her hand incomplete: on some random deals it completes it,
    # and her heading then rightly says "call Match!" instead.
    night = night_of("late", seed=1)
    ana, notice, card = played_for_ana(night, hurried=True)
    ana.get_by_role("heading", name=f"The TV discarded {card} for you").wait_for()
    ana.locator("#p-where", has_text=f"Your {card} went onto your pile").wait_for()


def test_a_pick_changed_after_the_tv_played_for_the_phone_is_what_its_notice_and_heading_say(night_of) -> None:
    """The TV drew and picked for Ana; she changes the card before the flip: the notice says at once what she
    discards now, and after the flip nothing on her phone says the TV discarded the card it had picked."""
    night = night_of("overruled", seed=1)
    ana, notice, picked = played_for_ana(night)
    ana.locator("#pick-note", has_text=f"Discarding {picked}: tap another to change").wait_for()
    names = ana.locator("#hand .card-button").evaluate_all("(cards) => cards.map((c) => c.getAttribute('aria-label'))")
    chosen = next(name for name in names if name != picked)
    ana.get_by_role("button", name=chosen, exact=True).first.tap()
    corrected = f"Time was up, so the TV drew from the shoe for you; you're discarding {chosen}."
    ana.locator("#notice", has_text=corrected).wait_for(timeout=2000)  # at once, not at the flip
    ana.locator("#pick-note", has_text=f"Discarding {chosen}").wait_for()
    ana.locator("#p-where", has_text=f"Your {chosen} went onto your pile").wait_for(timeout=15000)  # the flip
    assert "The TV discarded" not in heading(ana)
    assert not notice.is_visible() or notice.inner_text() == corrected
    seat = next(s["seat"] for s in night.host.state["room"]["seats"] if s["name"] == "Ana")
    assert night.host.state["game"]["seats"][seat]["pile_top"]["label"] == chosen


def says_in_each_language(page, key: str, **params: object) -> None:
    """The phone's heading says catalog message `key` in each of the four languages (switched from its menu)."""
    for lang in CATALOGS.languages:
        speak(page, lang)
        page.get_by_role("heading", name=CATALOGS.text(lang, key, **params), exact=True).wait_for(timeout=5000)
    speak(page, "en")


def test_in_a_match_window_the_heading_says_what_the_window_asks_of_this_phone(night_of) -> None:
    """A Match! window asks each phone to call Match! or play on; after another's Match!, its last draw comes next.
    The heading says so, in each language, never "DISCARD!" (the call that opened the window)."""
    dealt = variants_of(RULES)["dealt"]
    seed = seed_where(dealt, 3, lambda h: penalty(dealt, h, 1) == 0 and penalty(dealt, h, 0) > 10)
    night = night_of("dealt", seed)
    ana = night.phone("Ana")
    bob, cy = night.players(["Bob", "Cy"])
    assert night.host.call("start")["ok"]
    ana.get_by_role("heading", name="Hand 1: look at your cards").wait_for()
    ana.get_by_role("button", name="Play on").tap()
    ana.get_by_role("heading", name="Waiting for Bob and Cy…").wait_for()  # the window waits for their taps
    assert night.host.call("call_now")["ok"]  # "Draw!"
    draw_best(ana)
    for client in (bob, cy):
        draw_and_pick(client)
    ana.locator("#p-where", has_text="went onto your pile").wait_for(timeout=10000)  # "Discard!": the window
    assert ana.get_by_role("button", name="Play on").is_visible()
    says_in_each_language(ana, "step.play_on")
    assert bob.wait_for(lambda s: "match" in s["game"]["seats"][1]["can"]) and bob.call("match")["ok"]
    says_in_each_language(ana, "step.they_matched_last", n=1, names="Bob")
    assert "DISCARD" not in heading(ana).upper()
    assert night.host.call("call_now")["ok"]  # the window ends: the last cycle
    ana.get_by_role("heading", name="Last draw: take a card!").wait_for()
    ana.get_by_role("button", name="Draw from the shoe").tap()
    says_in_each_language(ana, "step.last_discard")


def listed(names: list[str]) -> str:
    """Names as the pages list them in English: "Ana", "Ana and Bob", "Ana, Bob, and Cy"."""
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])}, and {names[-1]}"


def prominent(page, button: str) -> bool | None:
    """Whether `button` is the screen's big call (tall, near the full width), quiet (small), or neither (None)."""
    box = page.locator(button).bounding_box()
    width = page.viewport_size["width"]
    if box["height"] >= 60 and box["width"] >= 0.8 * (width - 24):
        return True
    if box["height"] <= 52 and box["width"] <= 0.6 * width:
        return False
    return None


def test_match_is_prominent_exactly_when_the_hand_is_complete_and_said_once_after(
    night_of, shots: Path
) -> None:
    dealt = variants_of(RULES)["dealt"]
    seed = seed_where(dealt, 3, lambda h: penalty(dealt, h, 0) == 0 and penalty(dealt, h, 1) > 0)
    night = night_of("dealt", seed)
    ana = night.phone("Ana")
    bea = night.phone("Bea", SMALL)
    cy = night.client("Cy")
    assert night.host.call("start")["ok"]
    # Dealt a complete hand: Match! is the screen's big button, above the fold, never under the tips.
    ana.get_by_role("heading", name="Your hand is complete: call Match!").wait_for()
    bea.locator("#match").wait_for()
    assert prominent(ana, "#match") is True
    assert prominent(bea, "#match") is False  # Bea's hand is not complete: Match! is there, quietly
    assert ana.locator("#coach").is_hidden() and bea.locator("#coach").is_hidden()
    for page in (ana, bea):
        found = check(playwright_js(page), viewport="x", covered="#match", above_fold="#match")
        assert found == [], found
    ana.locator("#match-clock").wait_for(state="attached")
    snap(ana, shots / "phone-match-dealt.png")
    snap(bea, shots / "phone-match-quiet-320.png")

    ana.get_by_role("button", name="Match!").tap()
    ana.get_by_role("heading", name="You called Match!").wait_for()
    ana.get_by_text("The others play one last cycle.").wait_for()
    bea.get_by_role("heading", name="Ana called Match! Your last draw is next").wait_for()  # the caller's name leads
    for page in (ana, bea):
        assert repeated(page) == [], repeated(page)
    assert ana.get_by_text("The others play one last cycle.").count() == 1
    assert night.host.state["game"]["on_deal"] == [0]
    snap(ana, shots / "phone-matched.png")
    snap(bea, shots / "phone-they-matched-320.png")

    assert night.host.call("call_now")["ok"]  # the match window ends: the last cycle
    bea.get_by_role("heading", name="Last draw: take a card!").wait_for()
    assert "Ana called Match!" in bea.locator("#p-call").inner_text()
    assert repeated(bea) == [] and repeated(ana) == []
    draw_best(bea)
    draw_and_pick(cy)
    ana.get_by_role("heading", name=re.compile(r"^You are #1 of 3 with 0 pts$")).wait_for()
    story = ana.locator(".story").inner_text()
    assert "Ana was dealt a complete hand" in story and "A clean hand: 0 points!" in story
    for page in (ana, bea):
        assert repeated(page) == [], repeated(page)
    snap(ana, shots / "phone-scored-story.png")

    # Hand 2: at every flip, Match! is prominent if and only if the hint says the hand is complete.
    ana.get_by_role("button", name="Next hand").tap()  # Ana's phone is the VIP's
    night.host.wait_for(lambda s: s["game"]["hand_no"] == 2 and s["game"]["phase"] == "setup")
    assert night.host.call("call_now")["ok"]
    seen = set()
    for _ in range(3):
        for page in (ana, bea):
            draw_best(page)
        draw_and_pick(cy)
        for page in (ana, bea):
            page.locator("#match").wait_for()
            complete = page.locator("#hint").inner_text() == "Penalty now: 0"
            seen.add(complete)
            assert prominent(page, "#match") is complete, page.locator("#hint").inner_text()
            assert page.get_by_role("heading", name="Your hand is complete: call Match!").count() == int(complete)
            clock = page.locator("#match-clock").inner_text()
            assert re.fullmatch(r"Next “Draw!” in \d+\ss|\d+\ss left to call Match!|", clock), clock
        if night.host.state["game"]["phase"] != "reveal":
            break
        before = night.host.state["v"]
        assert night.host.call("call_now")["ok"]
        night.host.wait_for(lambda s, before=before: s["v"] > before and s["game"]["phase"] != "reveal")
    assert False in seen


def test_after_a_match_with_real_cards_each_message_is_said_once(night_of, shots: Path) -> None:
    night = night_of("real13", mode="real")
    ana = night.phone("Ana", SMALL)
    bob = night.client("Bob")
    assert night.host.call("start")["ok"]
    real_cards_to_discard(ana, bob)
    assert bob.call("match")["ok"]
    ana.get_by_role("heading", name="Bob called Match!").wait_for()
    ana.get_by_text("One last draw and discard for you, then the hand is scored.").wait_for()
    text = ana.evaluate(READ)
    assert "wait for the next" not in text and "Last draw…" not in text, text
    assert repeated(ana) == [], repeated(ana)
    snap(ana, shots / "real-they-matched-320.png")
    assert night.host.call("call_now")["ok"]  # the window ends: the last "Draw!"
    ana.get_by_role("heading", name="Last draw!").wait_for()
    assert ana.locator("#r-call").inner_text() == "Bob called Match!"
    assert repeated(ana) == [], repeated(ana)
    snap(ana, shots / "real-last-draw-320.png")


# The controls of the moment: everything to tap in the play area (not the language menu, the sound switch, the
# first hand's folded tips or the host's small tools at the foot, which are scrolled to).
CONTROLS = "#play button, #play select, #real button, #real select"
FOOT = ".host-tools, .host-tools *, #coach, #coach *, .lang-bar, .lang-bar *, #entry, #entry *"


def in_view(page, what: str) -> list[str]:
    page.evaluate("window.scrollTo(0, 0)")
    return [
        f"{what}: {p}"
        for p in check(
            playwright_js(page), viewport="x", above_fold=CONTROLS, ignore=FOOT, covered=CONTROLS, min_target=44
        )
    ]


def test_at_320_by_568_with_13_cards_every_control_is_inside_the_screen(night_of, shots: Path) -> None:
    found: list[str] = []
    night = night_of("thirteen")
    ana = night.phone("Ana", SMALL)  # the VIP: the host's tools are on her screen too
    bob = night.client("Bob")
    assert night.host.call("start")["ok"]
    ana.locator("#hand .card-button").nth(12).wait_for()
    found += in_view(ana, "dealt")
    assert night.host.call("call_now")["ok"]
    ana.get_by_role("button", name="Draw from the shoe").wait_for()
    found += in_view(ana, "draw")
    snap(ana, shots / "phone-13-draw-320.png")
    ana.get_by_role("button", name="Draw from the shoe").tap()
    ana.locator("#hand .card-button").nth(13).wait_for()
    found += in_view(ana, "choose")
    ana.locator("#hand .card-button.new").tap()
    draw_and_pick(bob)
    ana.locator("#match").wait_for()
    found += in_view(ana, "reveal")
    snap(ana, shots / "phone-13-reveal-320.png")
    night = night_of("real13", mode="real")
    ana = night.phone("Ana", SMALL)
    bob = night.client("Bob")
    assert night.host.call("start")["ok"]
    ana.get_by_role("button", name="Cards are dealt: Draw!").wait_for()
    found += in_view(ana, "real dealt")
    ana.get_by_role("button", name="Cards are dealt: Draw!").tap()
    ana.get_by_role("button", name="Ready").wait_for()
    found += in_view(ana, "real ready")
    snap(ana, shots / "real-13-ready-320.png")
    ana.get_by_role("button", name="Ready").tap()
    bob.wait_for(lambda s: s["game"]["phase"] == "ready")
    assert bob.call("ready", {"cycle": bob.state["game"]["cycle"]})["ok"]
    ana.get_by_role("button", name="Match!").wait_for()
    found += in_view(ana, "real reveal")
    assert bob.call("match")["ok"]
    assert night.host.call("call_now")["ok"]
    ana.get_by_role("heading", name="Last draw!").wait_for()
    found += in_view(ana, "real last draw")
    snap(ana, shots / "real-13-last-draw-320.png")
    assert found == [], "\n".join(found)


def test_the_end_of_the_night_shows_the_podium_the_awards_and_the_players_place(
    night_of, shots: Path
) -> None:
    night = night_of("ending", 1)
    ana = night.phone("Ana")
    bob, cy = night.client("Bob"), night.client("Cy")
    assert night.host.call("start")["ok"]
    # Bob and Cy play; the TV plays for Ana, who is slow; the host deals each next hand.
    play_game(night.host, [bob, cy], timeout=60)
    game = night.host.state["game"]
    names = ["Ana", "Bob", "Cy"]
    ana.locator(".podium li").first.wait_for()
    snap(ana, shots / "phone-night-end.png")
    steps = enumerate(game["awards"]["podium"])
    podium = [f"#{k + 1}: {' and '.join(names[s] for s in step)}" for k, step in steps if step]
    assert ana.locator(".podium li").all_inner_texts() == podium
    words = {
        "clean": "Cleanest: {names} (hands at 0: {n})",
        "comeback": "Comeback: {names}, from #{from} to #{to}",
        "steady": "Steadiest: {names}, never more than {n} in a hand",
        "best": "Night's best: {names}, 0 points with {n} cards",
    }
    assert game["awards"]["awards"], game["awards"]
    story = ana.locator(".story").inner_text()
    for award in game["awards"]["awards"]:
        said = words[award["key"]].format(
            names=listed([names[s] for s in award["seats"]]),
            n=award.get("n"),
            **{"from": award.get("from"), "to": award.get("to")},
        )
        assert said in story, (said, story)
    place = game["places"][0]
    won = 0 in game["winners"]
    expect = "You win!" if won else f"You finish #{place} of 3, with {game['totals'][0]} pts"
    assert heading(ana) == expect
    rows = ana.locator(".standings li")
    assert [int(v) for v in rows.evaluate_all("(lis) => lis.map((li) => li.value)")] == sorted(game["places"])


def test_a_joker_is_named_in_words_never_jk(night_of, shots: Path) -> None:
    jokers = variants_of(RULES)["jokers"]
    seed = seed_where(
        jokers,
        3,
        lambda h: any(h.faces[i].is_joker for i in h.hands[0]) and h.piles[2] and h.faces[h.piles[2][-1]].is_joker,
    )
    night = night_of("jokers", seed)
    ana = night.phone("Ana")
    bob, cy = night.client("Bob"), night.client("Cy")
    assert night.host.call("start")["ok"] and night.host.call("call_now")["ok"]
    take = ana.get_by_role("button", name="Take Joker from Cy's pile")
    take.wait_for()
    said = [ana.evaluate(READ)]
    take.tap()
    ana.get_by_text("You drew Joker.").wait_for()
    ana.get_by_role("button", name="Joker", exact=True).first.tap()
    ana.get_by_text("Discarding Joker").wait_for()
    ana.get_by_text("Joker is wild!").wait_for()
    said.append(ana.evaluate(READ))
    snap(ana, shots / "phone-joker.png")
    for client in (bob, cy):
        draw_and_pick(client)
    ana.get_by_text("Your Joker went onto your pile").wait_for()
    said.append(ana.evaluate(READ))
    for text in said:
        assert not re.search(r"\bJK\b", text), text


def test_with_real_cards_a_table_that_keeps_waiting_says_so_to_the_seat_it_waits_for(night_of) -> None:
    night = night_of("realwait", mode="real")
    ana = night.phone("Ana")
    bob = night.client("Bob")
    assert night.host.call("start")["ok"]
    ana.get_by_role("button", name="Cards are dealt: Draw!").tap()
    bob.wait_for(lambda s: s["game"]["phase"] == "ready")
    assert bob.call("ready", {"cycle": bob.state["game"]["cycle"]})["ok"]
    hurry = ana.locator("#r-hurry")
    hurry.get_by_text(re.compile(r"^The TV calls “Discard!” in [12] s$")).wait_for()
    hurry.get_by_text("The table is waiting for you").wait_for(timeout=4000)  # the countdown over: it waits on
    assert night.host.state["game"]["phase"] == "ready"
    ana.get_by_role("button", name="Ready").tap()
    ana.get_by_role("heading", name="Discard! Turn your card over").wait_for()
    assert hurry.is_hidden()


def test_with_real_cards_an_entry_may_be_changed_until_the_hand_is_scored(night_of, shots: Path) -> None:
    night = night_of("realwait", mode="real")
    ana = night.phone("Ana")
    bob = night.client("Bob")
    assert night.host.call("start")["ok"]
    real_cards_to_discard(ana, bob)
    assert bob.call("match")["ok"]
    assert night.host.call("call_now")["ok"]  # the last "Draw!": Bob, matched, has nothing to ready
    ana.get_by_role("button", name="Ready").tap()
    ana.get_by_role("heading", name="Enter your hand").wait_for()
    ana.get_by_role("button", name="Type the points").tap()
    ana.locator("#pad").get_by_role("button", name="7", exact=True).tap()
    ana.get_by_role("button", name="Enter 7 pts").tap()
    ana.get_by_text("Your hand: 7 pts (typed)").wait_for()
    snap(ana, shots / "real-entered.png")
    ana.get_by_role("button", name="Change my hand").tap()  # Bob has not entered: the hand is not scored
    ana.get_by_role("heading", name="Enter your hand").wait_for()
    night.host.wait_for(lambda s: 0 in s["game"]["waiting_for"])
