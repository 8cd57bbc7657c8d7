"""The audience's screens in real browsers, measured by geometry (tests/layout.py), with twelve seats of
20-character names.

The TV (Chromium, 1920×1080 and 1280×720, English and Romanian), in both ways to play: the lobby whose QR code is
the audience's way in once the table is full; the host's panel, used through the page (a cap, the audience off and
on, a seat offered, a member taken out); the audience's split under the call once its guesses close; the answers and
the best guessers beside a scored hand (under the sheet, or in the title's row where real cards' rows of buttons
fill the screen); the night's best guesser under the podium. Every moment: text at least 24 px at 1080p (the same
share of the screen at 720p), nothing over what was there, nothing cut off. Screenshots go to
screenshots/<time>/audience/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .audience_helpers import audience, member
from .layout import check, playwright_js
from .live import Client, guest, lan_server, phase
from .night import Night
from .screens import (
    BANNERS,
    HANDS,
    LOBBY,
    LONG_NAMES,
    PODIUM,
    SCORED,
    TABLE,
    Moments,
    host_tools,
    open_tv,
    settle,
    speak,
    tv_problems,
)

pytestmark = pytest.mark.slow

FANS = ["Zoë Ainsworth-Kapoor", "WWWWWWWWWWWWWWWWWWW1", "Ștefan Ionescu-Dobre", "MMMMMMMMMM MMMMMMMM2"]
AUD = ["#aud-split", "#aud-split *", "#aud-reveal", "#aud-reveal *", "#aud-scores", "#aud-scores *", "#aud-best",
       "#aud-lobby"]
LOBBY_AUD = LOBBY | {"overlap": LOBBY["overlap"] + [["#aud-lobby", ".mode, .url, .code"]], "covered": "#aud-lobby"}
PANEL = {"root": "#aud-panel", "covered": "#aud-panel button, #aud-panel select, #aud-on"}
TABLE_AUD = TABLE | {
    "overlap": TABLE["overlap"] + [["#aud-split", "#seats, #call, #melds, .call-status, .table-controls"]],
    "covered": TABLE["covered"] + ", #aud-split p, #aud-split strong, #aud-split span",
}
HANDS_AUD = HANDS | {
    "overlap": HANDS["overlap"] + [["#aud-reveal", "#hands, .scores-controls, .scores-head"]],
    "covered": HANDS["covered"] + ", #aud-reveal p",
}
SCORES_AUD = SCORED | {
    "overlap": SCORED["overlap"] + [["#aud-scores", "#score-table, #chart, #story, .scores-controls"]],
    "covered": SCORED["covered"] + ", #aud-scores p",
}
PODIUM_AUD = PODIUM | {
    "overlap": PODIUM["overlap"] + [["#aud-best", ".scores-controls, .scores-controls *, .podium, .podium *"]],
    "covered": PODIUM["covered"] + ", #aud-best",
}

# The compact line in the title's row must keep off the title's words (the h2 is as wide as the box).
OFF_THE_TITLE = """() => {
  const box = document.querySelector("#aud-scores.compact");
  if (!box || box.hidden) return [];
  const words = document.createRange();
  words.selectNodeContents(document.getElementById("scores-title"));
  const a = box.getBoundingClientRect(), b = words.getBoundingClientRect();
  const apart = a.right <= b.left - 8 || a.left >= b.right + 8 || a.bottom <= b.top || a.top >= b.bottom;
  const below = document.querySelector(".scores-body").getBoundingClientRect().top;
  const found = apart ? [] : ["the audience's line meets the title"];
  return a.bottom <= below + 1 ? found : [...found, "the audience's line reaches the sheet"];
}"""


def predict(fans: list[Client], hand: int, lead: int = 0) -> None:
    """Each member guesses hand `hand`: most of them the same (the split has a clear leader), the last otherwise."""
    for i, fan in enumerate(fans):
        state = fan.wait_for(lambda s: (r := audience(s)["round"]) is not None and r["hand"] == hand and r["open"])
        for question in audience(state)["round"]["questions"]:
            options = question["options"]
            option = options[lead % len(options)] if i < len(fans) - 1 else options[(lead + 1) % len(options)]
            assert fan.call("predict", {"question": question["key"], "option": option})["ok"]


def row(tv, name: str):
    """The host's panel's row of the member of this name (as the row says it: "(seat offered)" after it)."""
    return tv.locator("#aud-members li").filter(has=tv.locator(".aud-who", has_text=re.compile(f"^{re.escape(name)}$")))


def shown(page, selector: str) -> None:
    page.locator(f"{selector}:not([hidden])").wait_for(state="visible")
    settle(page)


def test_the_tv_shows_the_audience_split_answers_and_leaders_with_cards_on_the_phones(
    nights, browser, shots: Path
) -> None:
    night = nights(seed=5, browser=browser)
    host, moments = night.host, Moments(shots, "audience")
    tv = open_tv(night)
    people = night.players(LONG_NAMES)
    assert host.call("variant", {"name": "browser3"})["ok"]
    fans = [member(night, name)[0] for name in FANS]

    # The lobby of a full table: its QR code is the audience's way in.
    tv.locator("#scan").get_by_text("Table full: scan to join the audience").wait_for()
    tv.locator("#aud-lobby").get_by_text(f"In the audience: {len(FANS)}").wait_for()
    moments.measure(tv, "lobby", LOBBY_AUD)

    # The host's panel, through the page: a cap, the audience off and on, a seat offered and taken back.
    host_tools(tv)  # the audience's panel opens from the host's drawer
    tv.locator("#aud-open").click()
    shown(tv, "#aud-panel")
    moments.measure(tv, "panel", PANEL)
    tv.locator("#aud-cap").select_option("50")
    host.wait_for(lambda s: audience(s)["cap"] == 50)
    tv.locator("#aud-on").uncheck()  # off keeps the round open to its members, and the panel says so
    fans[0].wait_for(lambda s: not audience(s)["on"] and audience(s)["round"]["open"])
    tv.locator("#aud-panel-count").get_by_text("every guess made still counts", exact=False).wait_for()
    moments.measure(tv, "panel-off", PANEL)
    tv.locator("#aud-on").check()
    fans[0].wait_for(lambda s: audience(s)["on"] and audience(s)["round"] is not None)
    row(tv, FANS[1]).get_by_role("button", name="Offer a seat").click()
    fans[1].wait_for(lambda s: s["room"]["you"]["offered"])
    row(tv, f"{FANS[1]} (seat offered)").get_by_role("button", name="Take the offer back").click()
    fans[1].wait_for(lambda s: not s["room"]["you"]["offered"])
    tv.locator("#aud-close").click()

    # Under the call once the guesses close, until a Match! lays its hands down: what the audience says.
    hand = 1
    predict(fans, hand)
    assert host.call("start")["ok"]
    state = night.advance(people, lambda s: phase(s) in ("draw", "scored") or s["game"]["matched"])
    while phase(state) != "draw" or state["game"]["matched"]:  # a Match! on the deal: the next hand's turn
        state = night.advance(people, lambda s: phase(s) == "scored")
        hand += 1
        predict(fans, hand, lead=hand)
        state = night.advance(people, lambda s, h=hand: s["game"]["hand_no"] == h and phase(s) == "draw")
    # In the band, beside the seats: each question's split as a bar of the players' colours, and how many guessed.
    shown(tv, "#aud-split")
    split = tv.locator("#aud-split").inner_text()
    assert "4 guessed" in split and split.count("75%") == 3, split  # three of four said the same of each
    for key in ("first", "under", "worst"):
        parts = tv.locator(f'#aud-split [data-q="{key}"] .aud-part').count()
        assert parts == 2, (key, parts)  # the bar: one part for the three who agreed, one for the fourth
    moments.measure(tv, "split", TABLE_AUD)

    # The first Match! of the hand: the TV says how many of the audience saw it coming, at that moment.
    tv.evaluate(BANNERS)
    state = night.advance(people, lambda s: bool(s["game"]["matched"]) or phase(s) == "scored")
    if state["game"]["matched"]:
        name = state["room"]["seats"][state["game"]["matched"][0]["seat"]]["name"]
        said = audience(state)["round"]["split"]["first"].get(name, 0)
        wanted = f"{said} of 4 in the audience saw {name}'s Match! coming"
        tv.wait_for_function("(wanted) => window.banners.includes(wanted)", arg=wanted)

    # A scored hand: every hand laid out, and under them each answer with how many saw it coming, and the hand's
    # best guessers with what they just earned.
    state = night.advance(people, lambda s: phase(s) == "scored")
    shown(tv, "#aud-reveal")
    reveal = tv.locator("#aud-reveal").inner_text()
    assert re.search(r"\d of 4 saw it", reveal), reveal
    top = audience(state)["top"]
    assert all(f"{m['name']} +{m['earned']}" in reveal for m in top), (top, reveal)
    tv.locator("#scores:not(.showing-hands) #score-table").wait_for(timeout=20000)  # the totals after them
    tv.locator("#show-hands").click()  # the hands again, as the host may ask for them: measured as they stay
    shown(tv, "#aud-reveal")
    moments.measure(tv, "reveal", HANDS_AUD)
    tv.locator("#show-hands").click()

    # Beside the totals, the sheet's rows fill their column, so beside the title, in two lines, the share of the
    # audience that saw it coming and the best guesser (each answer in full is on the audience's phones).
    shown(tv, "#aud-scores.compact")
    box = tv.locator("#aud-scores").inner_text()
    leader = audience(state)["leaders"]
    assert "% right" in box and (not leader or leader[0]["name"][:9].rstrip() in box), box
    moments.measure(tv, "answers", SCORES_AUD, lambda page, height: page.evaluate(OFF_THE_TITLE))

    # The end of the night: the podium, and under it the audience's best guesser.
    while not state["game"]["game_over"]:
        hand = state["game"]["hand_no"] + 1
        predict(fans, hand, lead=1)
        state = night.advance(people, lambda s, h=hand: s["game"]["game_over"] or s["game"]["hand_no"] == h)
        state = night.advance(people, lambda s: phase(s) == "scored")
    best = host.wait_for(lambda s: audience(s)["best"] is not None)
    shown(tv, "#aud-best")
    assert all(name in tv.locator("#aud-best").inner_text() for name in audience(best)["best"]["names"])
    moments.measure(tv, "best", PODIUM_AUD)
    assert not moments.problems, moments.summary()
    assert not night.watch.problems, night.watch.problems


def test_with_real_cards_the_tv_keeps_the_audience_in_sight_beside_the_title(
    nights, browser, shots: Path
) -> None:
    """Twelve players without a phone, typed in on the TV: the sheet's rows of buttons fill its column, so the
    audience's answers come in two lines beside the title, at both sizes, clear of the title and the sheet."""
    night = nights(seed=5, browser=browser)
    moments = Moments(shots, "audience")
    links = [night.host, night.host_link(), night.host_link()]  # each link's events are limited to ten a second
    host, turn = links[0], iter(range(10**6))

    def send(event: str, data: dict | None = None) -> None:
        ack = links[next(turn) % len(links)].call(event, data or {})
        assert ack["ok"], (event, data, ack)

    tv = open_tv(night)
    send("mode", {"mode": "real"})
    for name in LONG_NAMES:
        send("add_person", {"name": name})
    send("variant", {"name": "browser3"})
    fans = [member(night, name)[0] for name in FANS]
    predict(fans, 1)
    send("phoneless_ready", {"ready": False})  # the TV waits for each Ready: who it waits for is named
    send("start")
    host.wait_for(lambda s: phase(s) == "setup")
    send("call_now")  # "Cards are dealt: Draw!": the guesses close
    host.wait_for(lambda s: phase(s) == "ready")
    shown(tv, "#aud-split")
    assert tv.locator("#aud-split").is_visible()
    moments.measure(tv, "real-split", TABLE_AUD)
    send("phoneless_ready", {"ready": True})
    send("call_now")  # "Discard!" without them
    host.wait_for(lambda s: phase(s) == "reveal")
    send("match", {"seat": 3})
    send("call_now")
    host.wait_for(lambda s: phase(s) == "entry")
    for seat in range(12):
        send("points", {"seat": seat, "points": 0 if seat == 3 else (seat * 7) % 30 + 1})
    host.wait_for(lambda s: phase(s) == "scored" and audience(s)["last"]["hand"] == 1)
    tv.locator("#scores:not(.showing-hands) #score-table").wait_for(timeout=20000)  # every hand laid out, then this
    shown(tv, "#aud-scores")
    compact = {}
    for width, height in ((1280, 720), (1920, 1080)):
        tv.set_viewport_size({"width": width, "height": height})
        settle(tv)
        compact[height] = tv.locator("#aud-scores.compact").count() == 1
    assert compact == {720: True, 1080: True}, compact
    moments.measure(tv, "real-answers", SCORES_AUD, lambda page, height: page.evaluate(OFF_THE_TITLE))
    assert not moments.problems, moments.summary()
    assert not night.watch.problems, night.watch.problems


def test_the_host_panel_needs_the_host(nights, browser) -> None:
    """The panel is the TV's alone: a phone's page has none, and a member cannot send its events."""
    night = nights(browser=browser)
    phone = night.phone()
    phone.locator("#name").wait_for()
    assert phone.locator("#aud-panel, #aud-open").count() == 0
    tv = night.tv()
    host_tools(tv)  # the audience's panel opens from the host's drawer
    tv.locator("#aud-open").click()
    found = tv_problems(playwright_js(tv), 1920, {"root": "#aud-panel"})
    assert found == [], found
    assert not night.watch.problems, night.watch.problems


def test_a_stranger_at_a_locked_room_joins_the_audience_then_takes_an_offered_seat(
    nights, browser, shots: Path
) -> None:
    """The join page of a locked room: the lock keeps a stranger from the table, and the page takes them to the
    audience (its name form); joined, they guess; offered a seat, one tap seats them (the lock does not stop it)."""
    night = nights(browser=browser)
    host = night.host
    folder = shots / "audience"
    folder.mkdir(exist_ok=True)
    phone_check = {"viewport": "x", "min_text": 14, "min_contrast": 4.5, "covered": "#audience button"}
    night.add_bots(3)
    assert host.call("lock", {"locked": True})["ok"]
    phone = night.phone()
    phone.locator("#aud-join-form").wait_for()
    phone.screenshot(path=str(folder / "phone-locked-join.png"))
    found = check(playwright_js(phone), **phone_check)
    phone.locator("#aud-name").fill("Zoë")
    phone.locator("#aud-join-form button").tap()
    phone.locator("#aud-options button").first.wait_for()
    host.wait_for(lambda s: audience(s)["members"] == 1)
    assert host.call("audience_offer", {"member": 0})["ok"]
    phone.locator("#aud-take:not([disabled])").wait_for()
    settle(phone)
    phone.screenshot(path=str(folder / "phone-offered.png"), full_page=True)
    found += check(playwright_js(phone), **phone_check)
    phone.locator("#aud-take").tap()
    phone.get_by_text("You're in, Zoë!").wait_for()
    assert [s["name"] for s in host.wait_for(lambda s: len(s["room"]["seats"]) == 4)["room"]["seats"]][3] == "Zoë"
    assert found == [], found
    assert not night.watch.problems, night.watch.problems


def test_the_host_takes_a_member_out_on_the_tv_and_everyone_one_device_brought(browser, shots: Path) -> None:
    """On the TV's panel: one member out (her phone's page says so and offers the name form again), then everyone
    one device brought, at one tap. The server counts only the laptop as the laptop (tests/lan_server.py), so the
    three members a guest's device brought are one device's."""
    server = lan_server({})
    folder = shots / "audience"
    folder.mkdir(exist_ok=True)
    try:
        with Night(server=server, browser=browser) as night:
            host = night.host
            night.add_bots(3)
            assert host.call("lock", {"locked": True})["ok"]  # a stranger's page goes to the audience
            phone = night.phone()
            phone.locator("#aud-name").fill("Zoë")
            phone.locator("#aud-join-form button").tap()
            phone.locator("#aud-options button").first.wait_for()
            for n in range(3):  # one guest's device, three names
                link = night.client(role="audience", source=guest(1))
                assert link.call("audience_join", {"name": f"Fake {n + 1}"})["ok"]
            host.wait_for(lambda s: audience(s)["members"] == 4)
            tv = night.tv()
            host_tools(tv)
            tv.locator("#aud-open").click()
            shown(tv, "#aud-panel")

            assert row(tv, "Zoë").locator("[data-do=remove-all]").count() == 0  # her device brought nobody else
            row(tv, "Zoë").get_by_role("button", name="Take out", exact=True).click()
            phone.get_by_text("The host took you out of the audience").wait_for()
            phone.locator("#aud-join-form:not([hidden])").wait_for()
            assert host.wait_for(lambda s: audience(s)["members"] == 3)

            everyone = row(tv, "Fake 2").locator("[data-do=remove-all]")
            everyone.get_by_text("Take out all 3 from their device").wait_for()
            settle(tv)
            tv.screenshot(path=str(folder / "tv-panel-remove.png"))
            found = []
            for width, height in ((1920, 1080), (1280, 720)):
                tv.set_viewport_size({"width": width, "height": height})
                settle(tv)
                found += tv_problems(playwright_js(tv), width, PANEL)
            everyone.click()
            left = host.wait_for(lambda s: audience(s)["members"] == 0)
            assert left["room"]["audience_roster"] == []
            tv.locator("#aud-panel-note").get_by_text("Nobody in the audience yet").wait_for()
            assert found == [], found
            assert not night.watch.problems, night.watch.problems
    finally:
        server.stop()


# A phone's buzzes, as the page asks for them (navigator.vibrate), kept for the test to read.
BUZZES = "window.buzzes = []; navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; };"
# The seats as the audience's phone lists them: each name, and its pile's top card where it has one.
SEATS_SHOWN = """(seats) => [...document.querySelectorAll('#aud-seats li')]
  .map((li) => li.innerText.replace(/\\s+/g, ' ').trim()).join('|') === seats.join('|')"""
STAGE_CHECK = {"viewport": "x", "min_text": 14, "min_contrast": 4.5, "covered": "#audience button, #aud-seats li"}


def test_an_audience_phone_follows_the_hand_once_its_guesses_are_in(nights, browser, shots: Path) -> None:
    """At 320 × 568: a member's guesses in, the phone shows the hand as the TV does (the call, each seat's pile
    face up, who called Match!) under its picks, and buzzes when a guess comes true; a guest who joins mid-hand sees
    the hand on and when the next guesses open."""
    night = nights(seed=5, browser=browser)
    host = night.host
    folder = shots / "audience"
    folder.mkdir(exist_ok=True)
    people = night.players(3)
    assert host.call("variant", {"name": "browser3"})["ok"]
    assert host.call("lock", {"locked": True})["ok"]  # a stranger's page goes to the audience
    phone = night.phone(size=(320, 568), script=BUZZES)
    phone.locator("#aud-name").fill("Zoë")
    phone.locator("#aud-join-form button").tap()
    phone.locator("#aud-options button").first.wait_for()
    zoe = night.client(role="audience", token=phone.evaluate(f"localStorage.getItem('pr.aud.{night.code}')"))
    for n in range(3):  # each question in turn: the first name (or yes)
        phone.locator("#aud-options button").first.tap()
        zoe.wait_for(lambda s, n=n: len(s["room"]["you"]["picks"]) == n + 1)
    picks = zoe.state["room"]["you"]["picks"]
    assert host.call("start")["ok"]
    state = night.advance(people, lambda s: phase(s) != "setup" or bool(s["game"]["matched"]))
    found = []
    while not state["game"]["scored"]:
        stage = phone.locator("#aud-stage:not([hidden])")
        stage.wait_for()
        names = [s["name"] for s in state["room"]["seats"]]
        # Each seat as the TV shows it: its name, its Match! if it called one, its pile's top card.
        seats = [" ".join(filter(None, [names[s["seat"]], "Match!" if s["matched"] else None,
                                        (s["pile_top"] or {}).get("label")])) for s in state["game"]["seats"]]
        phone.wait_for_function(SEATS_SHOWN, arg=seats)
        settle(phone)
        found += check(playwright_js(phone), **STAGE_CHECK)
        phone.screenshot(path=str(folder / f"phone-stage-{state['game']['cycle']}.png"), full_page=True)
        if len(night.contexts) == 1:  # a guest who comes in mid-hand: the hand on, and when the next guesses open
            late = night.phone()
            late.locator("#aud-name").fill("Max")
            late.locator("#aud-join-form button").tap()
            late.locator("#aud-stage:not([hidden])").wait_for()
            late.get_by_text("Guesses for the next hand open when this one is scored").wait_for()
            assert late.locator("#aud-call").inner_text() == phone.locator("#aud-call").inner_text()
        state = night.advance(people, lambda s, v=state["v"]: s["v"] > v and (s["game"]["scored"] or s["game"]["revealed"]))  # noqa: E501
    # A guess come true buzzes: the first Match! of the one picked first, and the hand's answers once they earn.
    resolved_ = zoe.wait_for(lambda s: (last := s["room"]["you"]["last"]) is not None and last["hand"] == 1)
    called = state["game"]["matched"]
    first_right = bool(called) and names[called[0]["seat"]] == picks["first"]
    earned = any(p > 0 for p in resolved_["room"]["you"]["last"]["earned"].values())
    wanted = int(first_right) + int(earned)
    phone.wait_for_function("(n) => window.buzzes.length >= n", arg=wanted)
    assert phone.evaluate("window.buzzes.length") == wanted, (picks, called, resolved_["room"]["you"]["last"])
    assert found == [], found


FIRST = ["Zoë", "Ștefan", "Maria Luís", "Bartholomé", "Þórunn", "José María", "Aleksandra", "Ingrid", "Wolfgang"]
LAST = ["Ainsworth", "Ionescu", "Souza", "Kingsly", "Guðrún", "Fernández"]
CROWD = [f"{first} {last}" for last in LAST for first in FIRST]  # 54 names, up to 20 letters (the most a name has)

# The rows the list shows whole (it scrolls inside the panel): those below its edge are left out of a check.
BELOW = """() => {
  const list = document.getElementById("aud-members").getBoundingClientRect();
  let whole = 0;
  for (const li of document.querySelectorAll("#aud-members li")) {
    const r = li.getBoundingClientRect();
    const inside = r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
    li.toggleAttribute("data-below", !inside);
    whole += inside;
  }
  return whole;
}"""


def test_the_host_panel_lists_the_audience_by_points_finds_a_name_and_offers_or_takes_out_from_its_row(
    nights, browser, shots: Path
) -> None:
    """Fifty-four members, some of them right about hand 1: the host's panel lists them best first with their
    points and whole names, at both sizes in English and Romanian; the search box finds a name without its
    accents; a row's buttons offer a seat, take the offer back, and take its member out."""
    night = nights(seed=5, browser=browser)
    host, moments = night.host, Moments(shots, "audience")
    people = night.players(LONG_NAMES[1:4])
    assert host.call("variant", {"name": "browser3"})["ok"]
    fans = []
    for name in CROWD:  # each its own connection, which is the member once joined
        fan = night.client(role="audience")
        joined = fan.call("audience_join", {"name": name})
        assert joined["ok"], (name, joined)
        fans.append(fan)
    for i, fan in enumerate(fans):  # the guesses spread: the points differ once the hand is scored
        state = fan.wait_for(lambda s: s["room"]["you"]["member"] is not None and audience(s)["round"] is not None)
        for question in audience(state)["round"]["questions"]:
            options = question["options"]
            assert fan.call("predict", {"question": question["key"], "option": options[i % len(options)]})["ok"]
    assert host.call("start")["ok"]
    night.advance(people, lambda s: phase(s) == "scored")
    roster = host.wait_for(lambda s: audience(s)["last"] is not None and audience(s)["last"]["status"] == "resolved")[
        "room"]["audience_roster"]
    best = sorted(roster, key=lambda m: (-m["points"], m["member"]))
    assert best[0]["points"] > best[-1]["points"]  # some were right, some not

    tv = open_tv(night)
    host_tools(tv)
    tv.locator("#aud-open").click()
    shown(tv, "#aud-panel")
    tv.locator("#aud-members li").nth(len(CROWD) - 1).wait_for(state="attached")
    # Best first, each with its points and its whole name.
    names = tv.locator("#aud-members .aud-who").all_inner_texts()
    points = [int(re.sub(r"\D", "", text)) for text in tv.locator("#aud-members .aud-points").all_inner_texts()]
    assert names == [m["name"] for m in best] and points == [m["points"] for m in best]

    panel = PANEL | {"ignore": "[data-below], [data-below] *", "clip": ":not(#aud-members)"}  # the list scrolls
    found = []
    for lang in ("en", "ro"):
        speak(tv, lang)
        for width, height in ((1920, 1080), (1280, 720)):
            tv.set_viewport_size({"width": width, "height": height})
            settle(tv)
            whole = tv.evaluate(BELOW)
            found += [] if whole >= 6 else [f"{height}p {lang}: only {whole} rows in sight"]
            found += [f"{height}p {lang}: {p}" for p in tv_problems(playwright_js(tv), width, panel)]
            tv.screenshot(path=str(moments.folder / f"tv-panel-{len(CROWD)}-{height}p-{lang}.png"))
    assert found == [], "\n".join(found)
    speak(tv, "en")
    tv.set_viewport_size({"width": 1920, "height": 1080})

    # A cap under the count, from the panel: nobody is taken out, and the panel says so.
    tv.locator("#aud-cap").select_option("50")
    tv.locator("#aud-panel-count").get_by_text("nobody is taken out", exact=False).wait_for()
    assert tv.locator("#aud-members li").count() == len(CROWD)
    assert audience(host.wait_for(lambda s: audience(s)["cap"] == 50))["members"] == len(CROWD)
    assert fans[-1].wait_for(lambda s: audience(s)["cap"] == 50)["room"]["you"]["member"] is not None  # still in
    settle(tv)
    tv.screenshot(path=str(moments.folder / "tv-panel-over-cap.png"))

    # The search box: without case or accents, and back to everyone when emptied.
    tv.locator("#aud-search").fill("stefan")
    tv.locator("#aud-members li").first.get_by_text("Ștefan", exact=False).wait_for()
    found = tv.locator("#aud-members .aud-who").all_inner_texts()
    assert found and all(name.startswith("Ștefan ") for name in found), found
    assert len(found) == sum(name.startswith("Ștefan ") for name in CROWD)
    tv.locator("#aud-search").fill("nobody like this")
    tv.get_by_text("Nobody in the audience by that name").wait_for()
    tv.locator("#aud-search").fill("zoe ains")
    target = CROWD[0]  # Zoë Ainsworth
    row(tv, target).wait_for()
    settle(tv)
    moments.measure(tv, "panel-search", PANEL)

    # Offered from the row, taken back, then out of the audience: the member's phone hears each.
    fan = fans[0]
    row(tv, target).get_by_role("button", name="Offer a seat").click()
    fan.wait_for(lambda s: s["room"]["you"]["offered"])
    row(tv, f"{target} (seat offered)").get_by_role("button", name="Take the offer back").click()
    fan.wait_for(lambda s: not s["room"]["you"]["offered"])
    row(tv, target).get_by_role("button", name="Take out", exact=True).click()
    fan.wait_for(lambda s: s["room"]["you"].get("removed"))
    tv.get_by_text("Nobody in the audience by that name").wait_for()
    tv.locator("#aud-search").fill("")
    assert tv.locator("#aud-members li").count() == len(CROWD) - 1
    assert not moments.problems, moments.summary()
    assert not night.watch.problems, night.watch.problems
