"""The TV's big moments, in Chromium, with twelve seats and 20-character names, in both modes.

The flip on "Discard!" (every pile top, or with real cards every Ready tick, turns over together, with a sound);
Match! (the name and the melds big in the middle, real card faces 80 px tall at 1080p and 54 at 720p, nothing
over them, through the last cycle, with a sound and the caller's voice; a false Match! said plainly); a scored
hand's moments (a zero hand, the biggest penalty) and its rows sliding to their new places; the podium at the
end (names 48 px at 1080p, tied winners on one step and starred on the podium and in the sheet, the awards as
cards, the sheet one tap away behind "Final scores"). Each moment is measured by geometry (tests/layout.py) at
1920×1080 and 1280×720 in English and Romanian; the call is the largest text on the TV at each call. Each
animation is seen to start and to end; a second TV page asking for less motion shows each moment's last state at
once, with no animation; neither page sends the server anything while the moments play (the pace is the
server's: its deadlines are the variant's). Screenshots go to screenshots/<time>/show/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .live import phase
from .night import advance, play_out
from .screens import CALL_LARGEST, LONG_NAMES, PODIUM, SCORED, TABLE, Moments, open_tv, settle

pytestmark = pytest.mark.slow

MATCH = TABLE | {"covered": TABLE["covered"] + ", #melds .card"}


def snapshot(page, selector: str, at: int, path: Path) -> None:
    """A picture of a moment halfway: its animations held at `at` ms for the screenshot, then let go (if they are
    over before the page is asked, the picture shows the moment as it stays)."""
    held = page.evaluate(
        """([sel, at]) => [...document.querySelectorAll(sel)].flatMap((e) => e.getAnimations())
             .map((a) => { a.pause(); a.currentTime = at; return a; }).length""", [selector, at])
    page.screenshot(path=str(path))
    if held:
        page.evaluate("() => document.getAnimations().forEach((a) => a.play())")


def running(page) -> int:
    return page.evaluate("() => document.getAnimations().filter((a) => a.playState === 'running').length")


def spy(page) -> dict:
    return page.evaluate("() => window.spy")


def match_cards(page, height: int) -> list[str]:
    """Match!'s card faces: tall enough from the sofa (80 px at 1080p, 54 at 720p), inside the screen."""
    floor = 80 if height >= 1080 else 54
    boxes = page.locator("#melds .card").evaluate_all("(cards) => cards.map((c) => c.getBoundingClientRect().toJSON())")
    found = [] if boxes else ["no card faces laid down"]
    found += [f"a Match! card {b['height']:.0f} px tall (< {floor})" for b in boxes if b["height"] < floor - 0.5]
    found += [f"a Match! card outside the screen: {b}" for b in boxes if b["bottom"] > height or b["top"] < 0]
    return found


def podium_names(page, height: int) -> list[str]:
    """The podium's names big (48 px at 1080p, the same share of the screen at 720p)."""
    floor = 48 * height / 1080
    sizes = page.locator(".step .name").evaluate_all("(ns) => ns.map((n) => parseFloat(getComputedStyle(n).fontSize))")
    small = [f"a podium name at {s} px (< {floor})" for s in sizes if s < floor - 0.5]
    return ([] if sizes else ["no names on the podium"]) + small


def winners_marked(page, names: list[str]) -> None:
    """Every winner starred on the podium's first step, and (behind "Final scores") in the sheet."""
    first = page.locator(".step1 .name").all_inner_texts()
    assert sorted(first) == sorted(f"★ {n}" for n in names), first
    page.locator("#final-scores").click()
    page.locator("#chart").wait_for()
    rows = page.locator("#score-table tr.winner").evaluate_all("(rows) => rows.map((r) => r.innerText.split('\\t'))")
    assert sorted(r[1].strip() for r in rows) == sorted(names), rows
    assert all(r[0].startswith("★") for r in rows), rows


def quiet(pages, before: list[int]) -> None:
    """Neither TV page sent the server any command since `before` (how many each had sent): the moments never act.
    A page may ask for the whole state again (`sync`, when an update went missing) or say its language."""
    for page, count in zip(pages, before, strict=True):
        sent = [m for m in spy(page)["sent"][count:] if '"lang"' not in m and '"sync"' not in m]
        assert not sent, sent


def test_the_big_moments_with_cards_on_the_phones(nights, browser, shots: Path) -> None:
    night = nights(seed=5, browser=browser)
    host, moments = night.host, Moments(shots, "show")
    tv = open_tv(night)
    still = open_tv(night, reduced_motion="reduce", viewport={"width": 1280, "height": 720})
    people = night.players(LONG_NAMES[:10])
    night.add_bots(2, "sharp")
    assert host.call("variant", {"name": "browser"})["ok"]
    assert host.call("start")["ok"]
    advance(host, [], lambda s: phase(s) == "draw")
    sent = [len(spy(tv)["sent"]), len(spy(still)["sent"])]

    # The flip: every pile top turns over at once on "Discard!", with a falling chime. Everyone draws and
    # discards (the bots too), and the server calls it.
    for person in people:
        person.wait_for(lambda s: phase(s) == "draw")
    play_out(people)
    state = host.wait_for(lambda s: phase(s) == "reveal")
    assert state["room"]["match_ends_in"] > 590  # the variant's window, as the server keeps it
    piles = sum(1 for s in state["game"]["seats"] if s["pile_top"])
    snapshot(tv, ".flip", 250, moments.folder / "tv-flipping-1080p-en.png")
    tv.wait_for_function("(n) => window.spy.ended.filter((a) => a.startsWith('flip')).length >= n", arg=piles)
    flips = [a for a in spy(tv)["started"] if a.startswith("flip")]
    assert len(flips) == piles == 12 and all("card" in a for a in flips), flips
    assert spy(tv)["tones"][-3:] == [1320, 990, 660], spy(tv)["tones"]
    still.locator("#seats .card.flip").first.wait_for()
    assert still.locator("#seats .card.flip").count() == piles and running(still) == 0
    assert not spy(still)["started"]
    moments.measure(tv, "flip", TABLE)

    # A false Match!, said plainly, with a low buzz.
    wrong = next(p for p in people if p.state["game"]["you"]["hint"]["penalty"] > 0)
    assert not wrong.call("match")["ok"]
    refused = host.wait_for(lambda s: s["game"]["false_match"])["game"]["false_match"]
    name = state["room"]["seats"][refused["seat"]]["name"]
    said = f"Not yet, {name}: {refused['points']} points left"
    tv.locator("#call-small").get_by_text(said).wait_for()
    still.locator("#call-small").get_by_text(said).wait_for()
    tv.wait_for_function("(said) => window.spy.said.some((s) => s.endsWith(said))", arg=said)
    assert spy(tv)["tones"][-2:] == [330, 247]
    moments.measure(tv, "false-match", TABLE)

    # The hand scored: its moments big, then the rows sliding from the order before it to the new one.
    animated = spy(tv)["animate"]
    scored = advance(host, people, lambda s: phase(s) == "scored")
    recap = scored["game"]["recap"]
    tv.locator("#story .moment").first.wait_for()
    assert tv.locator("#story .moment").count() == bool(recap["zero"]) + bool(recap["worst"])
    assert spy(tv)["animate"] > animated and running(tv) > 0  # the rows are moving
    snapshot(tv, "#score-table tr", 500, moments.folder / "tv-climbing-1080p-en.png")
    settle(tv)
    assert running(tv) == 0
    still.locator("#story .moment").first.wait_for()
    assert running(still) == 0 and spy(still)["animate"] == 0
    moments.measure(tv, "scored", SCORED)

    # Every call on the way to a Match! (each "Draw!", "Discard!"… of a few hands, at 720p): the call is the
    # largest text on the TV.
    calls: dict[str, list[str]] = {}

    def matched(s: dict) -> bool:
        calls[tv.locator("#call").inner_text()] = tv.evaluate(CALL_LARGEST, "#table")
        return phase(s) == "reveal" and bool(s["game"]["matched"])

    # Match!: the name and the melds big, through the last cycle, rung up and said.
    state = advance(host, people, matched)
    assert len(calls) > 5 and not any(calls.values()), calls
    tv.locator("#melds .card").first.wait_for()
    seats = state["room"]["seats"]
    for m in state["game"]["matched"]:
        assert tv.locator("#melds .who").get_by_text(seats[m["seat"]]["name"]).count() == 1
    tv.wait_for_function("() => window.spy.said.some((s) => /MATCH/.test(s))")
    assert [1100, 880, 660] != spy(tv)["tones"][-3:] == [660, 880, 1100]
    moments.measure(tv, "match", MATCH, match_cards)
    moments.measure(still, "match-still", MATCH, match_cards)
    assert running(still) == 0
    advance(host, people, lambda s: phase(s) == "last_draw")
    tv.locator("#melds .card").first.wait_for()
    assert not match_cards(tv, tv.viewport_size["height"])

    # The podium: the top three on their steps, the awards as cards; the whole sheet one tap away.
    final = advance(host, people, lambda s: s["game"]["game_over"])
    tv.locator(".step1 .name").first.wait_for()
    assert tv.locator(".step").first.evaluate("(e) => e.getAnimations().length") > 0
    settle(tv)
    winners = [seats[s]["name"] for s in final["game"]["winners"]]
    assert tv.locator(".award").count() == len(final["game"]["awards"]["awards"])
    moments.measure(tv, "podium", PODIUM, podium_names)
    winners_marked(tv, winners)
    moments.measure(tv, "final-scores", SCORED)
    still.locator(".step1 .name").first.wait_for()
    assert running(still) == 0
    quiet([tv, still], sent)
    assert tv.locator("#show-scores").inner_text() == "Final scores"

    assert not moments.problems, moments.summary()
    assert not night.watch.problems, night.watch.problems


def test_the_big_moments_with_real_cards_and_a_shared_win(nights, browser, shots: Path) -> None:
    """Twelve players without a phone, each hand typed in on the TV's link: two of them score nothing all night and
    share the win."""
    night = nights(seed=5, browser=browser)
    moments = Moments(shots, "show")
    # The host's events spread over three links (each link's events are limited to ten a second).
    links = [night.host, night.host_link(), night.host_link()]
    host = links[0]
    turn = iter(range(10**6))

    def send(event: str, data: dict | None = None) -> None:
        ack = links[next(turn) % len(links)].call(event, data or {})
        assert ack["ok"], (event, data, ack)

    tv = open_tv(night)
    still = open_tv(night, reduced_motion="reduce", viewport={"width": 1280, "height": 720})
    send("mode", {"mode": "real"})
    for name in LONG_NAMES:
        send("add_person", {"name": name})
    send("variant", {"name": "browser"})
    send("start")
    sent = [len(spy(tv)["sent"]), len(spy(still)["sent"])]

    for hand in range(1, 12):
        host.wait_for(lambda s, hand=hand: phase(s) == "setup" and s["game"]["hand_no"] == hand)
        send("call_now")  # the cards are dealt: "Draw!"; the players without a phone are Ready at once
        state = host.wait_for(lambda s: phase(s) == "reveal")
        if hand == 1:  # the Ready ticks turn over into "Discard!", together
            assert state["room"]["match_ends_in"] > 590  # the variant's window, as the server keeps it
            tv.wait_for_function("() => window.spy.ended.filter((a) => a.startsWith('flip')).length >= 12")
            flips = [a for a in spy(tv)["started"] if a.startswith("flip")]
            assert len(flips) == 12 and all("seat-status" in a for a in flips), flips
            assert tv.locator("#seats .seat-status.flip").all_inner_texts() == ["DISCARD!"] * 12
            assert spy(tv)["tones"][-3:] == [1320, 990, 660]
            still.locator("#seats .seat-status.flip").first.wait_for()
            assert running(still) == 0 and not spy(still)["started"]
            moments.measure(tv, "real-flip", TABLE)
        matched = (0, 1) if hand == 1 else (4 + hand % 8,)
        for seat in matched:
            send("match", {"seat": seat})
        send("call_now")  # the match window ends; the last cycle's Ready is at once too
        host.wait_for(lambda s: phase(s) == "entry")
        if hand == 1:  # a Match! that holds, and one that does not: both laid down big, the false one said
            for seat, cards in ((1, ["7H", "8H", "9H"]), (0, ["2C", "7D", "KS"])):
                send("draft", {"seat": seat, "cards": cards})
                send("confirm", {"seat": seat})
            host.wait_for(lambda s: s["game"]["false_match"])
            tv.locator("#call-small").get_by_text(f"Not yet, {LONG_NAMES[0]}: 19 points left").wait_for()
            tv.locator("#melds .matched").nth(1).wait_for()
            tv.wait_for_function("(said) => window.spy.said.some((s) => s.endsWith(said))",
                                 arg=f"Not yet, {LONG_NAMES[0]}: 19 points left")
            moments.measure(tv, "real-match", MATCH, match_cards)
        for seat in range(12):
            if seat not in matched:
                send("points", {"seat": seat, "points": 0 if seat in (2, 3) else (seat * 7 + hand * 3) % 30 + 1})
            elif hand > 1:
                send("points", {"seat": seat, "points": 0})
        state = host.wait_for(lambda s: phase(s) == "scored" or s["game"]["game_over"])
        if hand == 2:  # the hand's moments, and the rows sliding to their new places
            tv.locator("#story .moment.worst").wait_for()
            assert running(tv) > 0
            tv.screenshot(path=str(moments.folder / "tv-real-climbing-1080p-en.png"))
            moments.measure(tv, "real-scored", SCORED)
            assert running(still) == 0 and spy(still)["animate"] == 0
        if hand < 11:
            send("call_now")

    final = host.wait_for(lambda s: s["game"]["game_over"])["game"]
    assert final["winners"] == [2, 3] and final["awards"]["podium"][0] == [2, 3]
    tv.locator(".step1 .name").nth(1).wait_for()
    moments.measure(tv, "real-podium", PODIUM, podium_names)
    winners_marked(tv, LONG_NAMES[2:4])
    moments.measure(tv, "real-final-scores", SCORED)
    still.locator(".step1 .name").first.wait_for()
    assert running(still) == 0
    quiet([tv, still], sent)
    assert not moments.problems, moments.summary()
    assert not night.watch.problems, night.watch.problems
