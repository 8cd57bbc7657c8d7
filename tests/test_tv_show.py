"""The TV's big moments, in Chromium, with twelve seats and 20-character names, in both modes.

A count into the flip (a digit a second, ticking); the flip on "Discard!" (every pile top, or with real cards
every Ready tick, turns over together, with its falling sting); Match! (the name and the melds big in the middle,
popping in, real card faces 80 px tall at 1080p and 54 at 720p, nothing over them, through the last cycle, with
its rising sting and the caller's voice, never cutting "Discard!" short; a false Match! said plainly, with a low
buzz); a hand's end in turn (the last discards turning over on the table, every hand laid out as cards with its
penalty, the zero hands first, then the totals big, at least 36 px at 1080p, the rows sliding to their new
places, with the hand's story); the podium at the end, built third, second, first, the winner named last
(names 48 px at 1080p, tied winners on one step and starred on the podium and in the sheet, the awards as cards,
the sheet one tap away behind "Final scores"). The seats never move through a hand (the grid's tiles measured at
each moment of one: 12 px at most). Each moment is measured by geometry (tests/layout.py) at 1920×1080 and
1280×720 in English and Romanian; the call is the largest text on the TV at each call. Each animation is seen to
start and to end; a second TV page asking for less motion shows each moment's last state, with no animation;
neither page sends the server anything while the moments play (the pace is the server's: its deadlines are the
variant's). Screenshots go to screenshots/<time>/show/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .live import phase
from .night import advance, play_out
from .screens import (
    BANNERS,
    CALL_LARGEST,
    HANDS,
    LONG_NAMES,
    PODIUM,
    SCORED,
    TABLE,
    Moments,
    open_tv,
    settle,
    totals_big,
)

pytestmark = pytest.mark.slow

MATCH = TABLE | {"covered": TABLE["covered"] + ", #melds .card"}

# The stings, as tv-voice.js plays them (Hz, in turn): each moment its own.
STINGS = {"tick": [1760], "flip": [1320, 990, 660], "match": [660, 880, 1100, 1320], "false": [330, 247],
          "over": [784, 659, 523, 392], "win": [523, 659, 784, 1047, 784, 1047],
          "last": [220, 220, 220, 440]}

# The last hand's deal with real cards: the deal says it is the last, nothing over its facts and wild rank.
LAST_HAND = TABLE | {
    "overlap": TABLE["overlap"] + [["#deal-facts", "#deal-wild, #deal-go, #call"], ["#deal", "#seats"]],
    "covered": TABLE["covered"] + ", #deal-wild, #deal-facts p",
}

# The seat tiles' boxes on the TV: [top, left, width, height] each, in order.
SEATS = """() => [...document.querySelectorAll("#seats > li")].map((e) => {
  const r = e.getBoundingClientRect();
  return [r.top, r.left, r.width, r.height];
})"""

# A log of the podium as it is built: each step as it comes into the page, the title's words as they change.
PODIUM_LOG = """() => {
  window.built = [];
  const log = (what) => window.built.push([performance.now(), what]);
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.nodeType !== 1) continue;
        for (const step of [node, ...node.querySelectorAll(".step")]) {
          const k = step.classList && [...step.classList].find((c) => /^step[123]$/.test(c));
          if (k) log(k);
        }
      }
      if (change.target.id === "scores-title" || change.target.parentNode?.id === "scores-title") {
        log(`title ${document.getElementById("scores-title").textContent}`);
      }
    }
  }).observe(document.getElementById("scores"), { childList: true, subtree: true, characterData: true });
}"""


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


def seats_now(page) -> list:
    """The seat tiles' boxes at 1920×1080, as the sofa sees them at this moment."""
    if page.viewport_size != {"width": 1920, "height": 1080}:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate(SEATS)


def still_stage(moves: list[tuple[str, list]]) -> list[str]:
    """How far each seat's tile moved between the moments of a hand (12 px at most), as [top, left, width, height]."""
    first = moves[0][1]
    found = []
    for name, boxes in moves[1:]:
        assert len(boxes) == len(first), (name, len(boxes))
        for seat, (a, b) in enumerate(zip(first, boxes, strict=True)):
            moved = max(abs(x - y) for x, y in zip(a, b, strict=True))
            if moved > 12:
                found.append(f"seat {seat} moved {moved:.0f} px by {name}: {a} -> {b}")
    return found


def stings_in(tones: list[float], kind: str) -> bool:
    """Whether `kind`'s sting was played, its notes in turn."""
    notes = STINGS[kind]
    return any(tones[i : i + len(notes)] == notes for i in range(len(tones) - len(notes) + 1))


def hands_shown(page, state: dict) -> list[str]:
    """Every hand of a scored hand laid out as cards (every card of its melds and its orphans) with its penalty,
    the zero hands first: (name, cards shown, penalty shown) in order, against the views' results."""
    shown = page.locator("#hands .hand-shown").evaluate_all("""(hands) => hands.map((h) => [
        h.querySelector(".who").textContent, h.querySelectorAll(".card").length,
        parseInt(h.querySelector(".penalty").textContent.match(/\\d+/)[0], 10)])""")
    names = [seat["name"] for seat in state["room"]["seats"]]
    results = sorted(state["game"]["results"], key=lambda r: (r["penalty"], r["seat"]))
    wanted = [[names[r["seat"]], sum(map(len, r["melds"])) + len(r["orphans"]), r["penalty"]] for r in results]
    return [] if shown == wanted else [f"hands shown {shown}, not {wanted}"]


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
    tv.locator("#seats .dealt .back").first.wait_for()  # the deal shown: each seat's cards come to it
    # The 36 cards come to their seats one by one, over 2 s; a card already in place when the TV draws the deal
    # does not play (a busy machine may draw it late), so at least half of them are seen coming.
    tv.wait_for_function("() => window.spy.started.filter((a) => a.startsWith('dealt back')).length >= 18")
    advance(host, [], lambda s: phase(s) == "draw")
    sent = [len(spy(tv)["sent"]), len(spy(still)["sent"])]
    tv.locator("#call-big", has_text="DRAW!").wait_for()
    stage = [("draw", seats_now(tv))]

    # The count into the flip, then the flip: every pile top turns over at once on "Discard!", with its
    # falling sting. Everyone draws and discards (the bots too), and the server calls it after the beat (and
    # never sooner than flip_min_s after the last pick).
    for person in people:
        person.wait_for(lambda s: phase(s) == "draw")
    play_out(people)
    tv.locator("#flip-count:not([hidden])").wait_for()
    assert tv.locator("#flip-count").inner_text() in ("1", "2", "3")
    stage.append(("the count", seats_now(tv)))
    tv.screenshot(path=str(moments.folder / "tv-count-1080p-en.png"))
    state = host.wait_for(lambda s: phase(s) == "reveal")
    assert state["room"]["match_ends_in"] > 590  # the variant's window, as the server keeps it
    piles = sum(1 for s in state["game"]["seats"] if s["pile_top"])
    snapshot(tv, ".flip", 250, moments.folder / "tv-flipping-1080p-en.png")
    tv.wait_for_function("(n) => window.spy.ended.filter((a) => a.startsWith('flip ')).length >= n", arg=piles)
    flips = [a for a in spy(tv)["started"] if a.startswith("flip ")]
    # Every pile turned over (a redraw in mid-flip carries a card's flip on where it was: it starts again).
    assert piles == 12 and len(flips) >= piles and all("card" in a for a in flips), flips
    tones = spy(tv)["tones"]
    assert stings_in(tones, "tick") and tones[-3:] == STINGS["flip"], tones
    stage.append(("the flip", seats_now(tv)))
    still.locator("#seats .card.flip").first.wait_for()
    assert still.locator("#seats .card.flip").count() == piles and running(still) == 0
    assert not [a for a in spy(still)["started"] if a.startswith("flip")]
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
    assert spy(tv)["tones"][-2:] == STINGS["false"]
    stage.append(("a false Match!", seats_now(tv)))
    moments.measure(tv, "false-match", TABLE)

    # The hand's end: the last discards turn over, then every hand laid out as cards (the zero hands first,
    # each penalty counted up), then the totals big, the rows sliding from the order before to the new one,
    # and the hand's story.
    animated = spy(tv)["animate"]
    scored = advance(host, people, lambda s: phase(s) == "scored")
    tv.locator("#call-big", has_text="HAND OVER!").wait_for()
    stage.append(("the hand's end", seats_now(tv)))
    tv.locator("#hands .hand-shown").first.wait_for()
    tv.screenshot(path=str(moments.folder / "tv-hands-coming-1080p-en.png"))
    assert stings_in(spy(tv)["tones"], "over")
    recap = scored["game"]["recap"]
    told = [recap[k] for k in ("zero", "worst", "lead", "record", "close", "next_last")]
    tv.locator("#story .moment").first.wait_for(timeout=15000)
    assert tv.locator("#story .moment").count() == min(3, sum(1 for fact in told if fact))  # the most telling
    assert spy(tv)["animate"] > animated and running(tv) > 0  # the rows are moving
    snapshot(tv, "#score-table tr", 500, moments.folder / "tv-climbing-1080p-en.png")
    settle(tv)
    assert running(tv) == 0
    still.locator("#story .moment").first.wait_for(timeout=15000)
    assert not hands_shown(still, scored) or still.locator("#hands").is_hidden()
    assert running(still) == 0 and spy(still)["animate"] == 0
    moments.measure(tv, "scored", SCORED, lambda page, height: totals_big(page))
    tv.locator("#show-hands").click()  # the hands again, as the host may ask for them: every one as cards
    tv.locator("#hands .hand-shown").first.wait_for()
    assert not hands_shown(tv, scored), hands_shown(tv, scored)
    moments.measure(tv, "hands", HANDS)
    tv.locator("#show-hands").click()
    tv.locator("#hands").wait_for(state="hidden")

    # Every call on the way to a Match! (each "Draw!", "Discard!"… of a few hands, at 720p): the call is the
    # largest text on the TV.
    calls: dict[str, list[str]] = {}

    def matched(s: dict) -> bool:
        calls[tv.locator("#call").inner_text()] = tv.evaluate(CALL_LARGEST, "#table")
        return phase(s) == "reveal" and bool(s["game"]["matched"])

    # Match!: the name and the melds big, popping in, through the last cycle, rung up and said; never before
    # "Discard!" has had its time on screen.
    state = advance(host, people, matched)
    hand = state["game"]["hand_no"]
    tv.locator("#call-big", has_text="CALL").wait_for()
    tv.locator("#melds .card").first.wait_for()
    calls[tv.locator("#call").inner_text()] = tv.evaluate(CALL_LARGEST, "#table")
    assert len(calls) >= 5 and not any(calls.values()), calls
    seats = state["room"]["seats"]
    for m in state["game"]["matched"]:
        assert tv.locator("#melds .who").get_by_text(seats[m["seat"]]["name"]).count() == 1
    tv.wait_for_function("() => window.spy.said.some((s) => /MATCH/.test(s))")
    assert spy(tv)["tones"][-4:] == STINGS["match"]
    assert any(a.startswith("pop matched new") for a in spy(tv)["started"])  # the Match! has its motion
    moments.measure(tv, "match", MATCH, match_cards)
    moments.measure(still, "match-still", MATCH, match_cards)
    assert running(still) == 0
    advance(host, people, lambda s: phase(s) == "last_draw")
    tv.locator("#call-big", has_text="LAST DRAW!").wait_for()
    tv.locator("#melds .card").first.wait_for()
    assert not match_cards(tv, tv.viewport_size["height"])
    stage.append(("the last draw", seats_now(tv)))
    assert not still_stage(stage), still_stage(stage)  # through a hand, the seats never move
    advance(host, people, lambda s: phase(s) == "scored" and s["game"]["hand_no"] == hand)

    # The podium: built third, second, first, each step with its total; the winner named last, with their own
    # sting; then the awards as cards; the whole sheet one tap away.
    tv.evaluate(PODIUM_LOG)
    tv.evaluate(BANNERS)
    final = advance(host, people, lambda s: s["game"]["game_over"])
    assert "THE LAST HAND!" in tv.evaluate("window.banners") and stings_in(spy(tv)["tones"], "last")
    tv.locator(".awards .award").first.wait_for(timeout=30000)
    built = [what for _, what in tv.evaluate("window.built")]
    winners = [seats[s]["name"] for s in final["game"]["winners"]]
    named = next(k for k, what in enumerate(built) if what.startswith("title ") and winners[0].upper() in what)
    steps = [built.index(f"step{k}") for k in (3, 2, 1) if f"step{k}" in built]
    assert len(steps) == 3 and steps == sorted(steps) and steps[-1] < named, built
    assert not any(winners[0].upper() in what for what in built[:named]), built  # named once, last
    assert stings_in(spy(tv)["tones"], "win")
    totals = tv.locator(".step .step-total").all_inner_texts()
    assert len(totals) == 3 and all(re.fullmatch(r"\d+ pts?", t) for t in totals), totals
    assert "null" not in tv.locator("#scores").inner_text()  # no missing part shows as a word
    assert len([a for a in spy(tv)["started"] if a.startswith("rise step")]) >= 3  # each step rose
    settle(tv)
    assert tv.locator(".award").count() == len(final["game"]["awards"]["awards"])
    moments.measure(tv, "podium", PODIUM, podium_names)
    winners_marked(tv, winners)
    moments.measure(tv, "final-scores", SCORED)
    still.locator(".step1 .name").first.wait_for(timeout=30000)
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
    # The host taps each player's Ready on the TV's link (the switch off): nobody goes on in a Match! window by
    # themselves, so the window stays open for the Match! each hand calls.
    send("phoneless_ready", {"ready": False})
    send("start")
    sent = [len(spy(tv)["sent"]), len(spy(still)["sent"])]

    def ready(seats) -> None:
        cycle = host.state["game"]["cycle"]
        for seat in seats:
            send("ready", {"seat": seat, "cycle": cycle})

    for hand in range(1, 12):
        host.wait_for(lambda s, hand=hand: phase(s) == "setup" and s["game"]["hand_no"] == hand)
        if hand == 11:  # the last hand's deal: its drum, and the deal says so, clear of its wild rank at 720p too
            tv.locator("#deal-facts .deal-last").get_by_text("THE LAST HAND!").wait_for()
            assert stings_in(spy(tv)["tones"], "last") and tv.locator("#banner").is_hidden()
            moments.measure(tv, "real-last-hand", LAST_HAND)
        send("call_now")  # the cards are dealt: "Draw!"
        host.wait_for(lambda s: phase(s) == "ready")
        ready(range(12))
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
        if hand == 1:  # all but one go on: the window names whom it waits for, and marks its tile
            for seat in range(2, 11):
                send("ready", {"seat": seat, "cycle": host.state["game"]["cycle"]})
            tv.locator("#waiting-names").get_by_text(f"The window waits for {LONG_NAMES[11]}").wait_for()
            assert tv.locator("#seats > li.waiting").count() == 1
        send("call_now")  # the match window ends: the last cycle
        host.wait_for(lambda s: phase(s) == "last_ready")
        ready(seat for seat in range(12) if seat not in matched)
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
            tv.locator("#story .moment").first.wait_for()
            assert running(tv) > 0
            tv.screenshot(path=str(moments.folder / "tv-real-climbing-1080p-en.png"))
            moments.measure(tv, "real-scored", SCORED)
            assert running(still) == 0 and spy(still)["animate"] == 0
        if hand < 11:
            send("call_now")

    final = host.wait_for(lambda s: s["game"]["game_over"])["game"]
    assert final["winners"] == [2, 3] and final["awards"]["podium"][0] == [2, 3]
    tv.locator(".step1 .name").nth(1).wait_for()
    tv.locator(".awards .award").first.wait_for(timeout=30000)  # the podium built to its end, as it stays
    settle(tv)
    moments.measure(tv, "real-podium", PODIUM, podium_names)
    winners_marked(tv, LONG_NAMES[2:4])
    moments.measure(tv, "real-final-scores", SCORED)
    still.locator(".step1 .name").first.wait_for()
    assert running(still) == 0
    quiet([tv, still], sent)
    assert not moments.problems, moments.summary()
    assert not night.watch.problems, night.watch.problems
