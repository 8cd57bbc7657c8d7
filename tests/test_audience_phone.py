"""The audience's phone in Chromium, used as a guest on the sofa uses it: each question answered by a tap, a
changed guess moving on to the question still open, twelve names and the three questions' tabs on one screen at
320×568, 390×844 and 820×1180 in every language, the header's parts apart, no stray "false" or "undefined" where
nothing was guessed, and a shut audience (off, or full at its cap) said before anyone types a name. Measured by
geometry (tests/layout.py); screenshots go to screenshots/<time>/audience-phone/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .audience_helpers import audience, member
from .layout import check, playwright_js
from .live import phase
from .screens import settle, speak

LANGS = ["en", "es", "pt-BR", "ro"]
SIZES = [(320, 568), (390, 844), (820, 1180)]
# Twelve long-ish names (a first name and a surname, cut as people write them on a party's list), one of twenty
# letters (the most a name may have): a tab holding it shows it cut, the tabs still above the fold.
NAMES = ["Maria Fernanda", "Bartholomew K.", "Þórunn Guðrún", "Ștefan Ionescu-Dobre", "José María F.", "Aleksandra W.",
         "Ingrid Halvors", "Gheorghe Popa", "Wolfgang Wilh.", "Ana Beatriz G.", "Christopher J.", "Zoë Ainsworth"]
# What a page must never show for something missing.
STRAY = re.compile(r"\b(false|true|null|undefined|NaN)\b")
ON_SCREEN = {
    "viewport": "x",
    "min_text": 14,
    "min_contrast": 4.5,
    "root": "#audience",
    "above_fold": "#aud-options button, #aud-steps button",
    "covered": "#aud-options button, #aud-steps button",
    "apart": [["#aud-hand", "#aud-me > *"], ["#aud-me > *", "#aud-me > *"]],
    "overlap": [["#aud-options li", "#aud-options li"], ["#aud-options", "#aud-steps"]],
}


def stray_words(page) -> list[str]:
    """Any word that is a value left unsaid, in the page's text as shown."""
    return STRAY.findall(page.evaluate("document.body.innerText"))


def join_audience(page, name: str) -> None:
    """A stranger at a locked room: the page is the audience's; the name typed, the first question shows."""
    page.locator("#aud-name").fill(name)
    page.locator("#aud-join-form button").tap()
    page.locator("#aud-options button").first.wait_for()


def question(page) -> str:
    return page.locator("#aud-question").inner_text()


def test_el_and_fill_show_only_nodes_and_words_whatever_they_are_given(nights, browser) -> None:
    """The cause of a stray "false": `cond && el(…)` handed to the page's builders, at any depth of arrays."""
    night = nights(browser=browser)
    page = night.phone()
    page.locator("#name").wait_for()
    shown = page.evaluate("""async () => {
      const { el, fill } = await import("/static/js/common.js");
      const odd = () => [false, null, undefined, true, NaN, [[false, [null]]], 0, "x", el("b", { text: false }, "y")];
      const built = el("p", { text: undefined }, ...odd());
      const filled = fill(document.createElement("p"), ...odd());
      return [built.textContent, filled.textContent, el("i", { text: null }).textContent];
    }""")
    assert shown == ["0xy", "0xy", ""], shown
    assert not night.watch.problems, night.watch.problems


@pytest.mark.slow
def test_a_member_answers_by_taps_a_change_moves_on_and_twelve_names_fit_every_screen_in_every_language(
    nights, browser, shots: Path
) -> None:
    night = nights(seed=5, browser=browser)
    host = night.host
    folder = shots / "audience-phone"
    folder.mkdir(exist_ok=True)
    people = night.players(NAMES)
    assert host.call("variant", {"name": "browser3"})["ok"]
    assert host.call("lock", {"locked": True})["ok"]  # strangers' pages go to the audience
    guesser = night.phone(size=(320, 568))
    quiet = night.phone(size=(320, 568))
    assert guesser.locator("#aud-leave").is_hidden()  # nobody to leave before joining
    join_audience(guesser, "Carla Montenegro")
    join_audience(quiet, "Quiet Guest")
    assert guesser.locator("#aud-leave").is_visible()

    # One tap a question: each answer moves on to the next.
    first = question(guesser)
    assert first == "Who calls Match! first?"
    guesser.locator("#aud-options button").nth(2).tap()
    guesser.get_by_text("Will Maria Fernanda, in the lead, score under 10 this hand?").wait_for()
    guesser.locator("#aud-options button").first.tap()  # yes
    guesser.get_by_text("Who takes the biggest penalty?").wait_for()
    # A change of mind on the first: the page moves on to the question still open, not back to the first.
    guesser.locator("#aud-steps button").first.tap()
    guesser.get_by_text(first).wait_for()
    guesser.locator("#aud-options button").nth(5).tap()
    guesser.locator('#aud-steps button.on .aud-n:text-is("3")').wait_for()
    assert question(guesser) == "Who takes the biggest penalty?"
    steps = guesser.locator("#aud-steps").inner_text()
    assert NAMES[5] in steps and NAMES[2] not in steps, steps  # the changed guess stands
    guesser.locator("#aud-options button").nth(11).tap()
    guesser.get_by_text("All three in", exact=False).wait_for()
    made = night.client(role="audience").state  # the server holds the guesses the page shows
    assert audience(made)["round"]["open"]

    # The hand is played and scored: the next hand's questions open, what happened comes under them.
    assert host.call("start")["ok"]
    night.advance(people, lambda s: phase(s) == "scored")
    guesser.locator("#aud-happened:not([hidden])").wait_for()
    guesser.get_by_text("Hand 2").wait_for()
    quiet.get_by_text("Hand 2").wait_for()
    found = []
    for lang in LANGS:
        speak(quiet, lang)
        settle(quiet)
        found += [f"{lang}: the page shows {word!r}" for word in stray_words(quiet)]
    quiet.screenshot(path=str(folder / "no-guesses-320x568.png"), full_page=True)

    # Two of hand 2's questions answered on the page: the tabs hold the names picked, the third question shows.
    guesser.locator("#aud-options button").nth(3).tap()
    guesser.locator('#aud-steps button.on .aud-n:text-is("2")').wait_for()
    assert "Ștefan Ionesc…" in guesser.locator("#aud-steps").inner_text()  # twenty letters, cut to one tab's worth
    guesser.locator("#aud-options button").nth(1).tap()
    guesser.locator('#aud-steps button.on .aud-n:text-is("3")').wait_for()
    for width, height in SIZES:
        guesser.set_viewport_size({"width": width, "height": height})
        for lang in LANGS:
            speak(guesser, lang)
            settle(guesser)
            problems = check(playwright_js(guesser), **ON_SCREEN)
            found += [f"{width}x{height} {lang}: {p}" for p in problems]
            found += [f"{width}x{height} {lang}: the page shows {w!r}" for w in stray_words(guesser)]
            guesser.screenshot(path=str(folder / f"question-{width}x{height}-{lang}.png"))
    # The options in two columns at every size: twelve names in six rows.
    rows = {round(box["y"]) for box in (b.bounding_box() for b in guesser.locator("#aud-options button").all())}
    assert len(rows) == 6, rows
    assert found == [], "\n".join(found)
    assert not night.watch.problems, night.watch.problems


@pytest.mark.slow
def test_a_shut_audience_says_so_before_a_name_is_typed(nights, browser, shots: Path) -> None:
    """Full at its cap, or off: the stranger at a locked room, and the guest at a full table, read why with no
    name form to fill in (and nothing to leave); room again, the form comes back."""
    night = nights(browser=browser)
    host = night.host
    folder = shots / "audience-phone"
    folder.mkdir(exist_ok=True)
    night.add_bots(12)  # a full table: the join page's way in is the audience
    assert host.call("audience", {"on": True, "cap": 10})["ok"]
    for i in range(10):
        member(night, f"Fan {i}")
    guest = night.phone(size=(320, 568))
    guest.get_by_text("The audience is full (10 at most): ask the host to let more in").wait_for()
    assert guest.locator("#join-form").is_hidden() and guest.locator("#aud-entry").is_hidden()
    guest.screenshot(path=str(folder / "join-page-full.png"))
    assert host.call("lock", {"locked": True})["ok"]
    stranger = night.phone(size=(320, 568))
    stranger.get_by_text("The audience is full (10 at most): ask the host to let more in").wait_for()
    assert stranger.locator("#aud-join-form").is_hidden() and stranger.locator("#aud-leave").is_hidden()
    stranger.screenshot(path=str(folder / "locked-full.png"))
    found = check(playwright_js(stranger), viewport="x", min_text=14, min_contrast=4.5)
    assert host.call("audience", {"on": False, "cap": 10})["ok"]
    stranger.get_by_text("The host has closed the audience for now").wait_for()
    assert stranger.locator("#aud-join-form").is_hidden()
    late = night.phone(size=(320, 568))  # off and locked: a stranger is kept out, and told so
    late.get_by_text("The room is locked", exact=False).wait_for()
    assert late.locator("#aud-join-form").is_hidden() and late.locator("#aud-leave").is_hidden()
    late.screenshot(path=str(folder / "locked-off.png"))
    assert host.call("audience", {"on": True, "cap": None})["ok"]
    stranger.locator("#aud-join-form:not([hidden])").wait_for()
    stranger.get_by_text("Type your name to join the audience").wait_for()
    assert stranger.locator("#aud-leave").is_hidden()
    assert not stray_words(stranger)
    assert found == [], found
    assert not night.watch.problems, night.watch.problems
