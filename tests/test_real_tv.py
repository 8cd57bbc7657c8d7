"""The TV of a real-cards night, in Chromium: the TV as caller and scorekeeper of people holding real decks.

Each test runs a live server on loopback with real Socket.IO clients for the phones and the TV page in
Chromium, driven as the host would drive it. The night: twelve seats, eight phones and four players
without a phone (added on the TV), every name long; the lobby's mode, the table set while people deal and
its "Cards are dealt" button, the calls with a tick on each ready seat (the TV taps Ready and Match! for
the seats without a phone), the wait for the hands (the TV types a phone-less seat's points on its pad,
or taps its cards in on its picker), then the scores: typed cells marked, a cell corrected by tapping it
(the old value shown), a refused value told on the pad, the correction undone. Then turns (Done and Out!
for a seat without a phone), the hurry (counted down, paused), and eleven hands (two 13-card hands laid
out, the whole sheet). Each screen is measured by geometry (tests/layout.py) at 1920×1080 and 1280×720 in
the four languages; screenshots go to screenshots/<time>/real-tv/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .live import phase
from .night import Night
from .real_helpers import faces_of
from .screens import PODIUM, TABLE, Shots, host_tools, rows_shown, summary

pytestmark = pytest.mark.server("--seed", "5")  # the module's server: each test's night is a room of its own

LANGS = ["en", "ro", "pt-BR", "es"]  # every shipped language (Romanian and Portuguese run longest)
SIZES = [(1920, 1080), (1280, 720)]
PHONES = [
    "WWWWWWWWWWWWWWWWWWWW",
    "Wolfgang Wilhelmsson",
    "Ana Beatriz Gonçalve",
    "MMMMMMMMMM MMMMMMMMM",
    "Þórunn Guðmundsdótti",
    "Aleksandra Wójcicka",
    "Bartholomew Kingsly",
    "Ștefănescu Mihaela B",
]
PHONELESS = ["José María Fernández", "Maria Fernanda Souza", "Dan", "Gheorghe Ionescu-Pop"]
LOBBY = {
    "overlap": [
        [".ring-seat", ".ring-seat"],
        [".ring-seat", ".lobby-controls"],
        [".ring-seat", "#lobby-count"],
        [".join-card", ".lobby-side"],
        ["#mode", ".qr-box"],
    ],
    "ignore": "#table, #scores, #seat-panel, #pad",
}
REAL_TABLE = TABLE | {
    "overlap": TABLE["overlap"]
    + [["#deal", "#call"], ["#deal", "#seats"], ["#deal", "#melds"], [".seat-act", ".seat-tap"]],
    "covered": TABLE["covered"] + ", #deal-go, .seat-act",
    "ignore": "#lobby, #scores, #seat-panel, #pad",
}
SCORES = {
    "root": "#scores",
    "overlap": [["#score-table", "#chart"], [".scores-body", ".scores-controls"], ["#score-table", "#story"]],
    "covered": "#score-table tbody tr, .scores-controls button",
}
PAD = {"root": "#pad", "covered": "#pad button"}


class Screens(Shots):
    """Each screen measured and photographed at every size in every language; problems gathered for the end."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder / "real-tv", SIZES, LANGS)

    def measure(self, page, name: str, options: dict, extra: Callable[[Any, int], list[str]] | None = None) -> None:
        super().measure(page, name, options, extra)
        page.set_viewport_size({"width": 1920, "height": 1080})  # the night goes on at the TV's own size


def tapped(tv, locator) -> None:
    """Tap a control on the TV and let the page settle."""
    locator.click()
    tv.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.slow  # a whole hand, every screen measured at two sizes in four languages: about 30 s
def test_the_tv_calls_and_keeps_the_score_of_a_real_cards_night(server, browser, shots: Path) -> None:
    with Night(server=server, browser=browser) as night:
        host, tv, watch = night.host, night.tv(), night.watch
        screens = Screens(shots)

        # The lobby: real cards, four players without a phone added on the TV, phones may help.
        tapped(tv, tv.get_by_role("button", name="Real cards on the table"))
        host.wait_for(lambda s: s["room"]["mode"] == "real")
        assert tv.locator("#mode-real").get_attribute("aria-pressed") == "true"
        assert tv.locator("#add-bot").is_hidden()  # bots cannot hold real cards
        for name in PHONES:
            night.client(name)
        for name in PHONELESS:
            tv.get_by_label("Name of a player without a phone").fill(name)
            tapped(tv, tv.get_by_role("button", name="Add a player without a phone"))
            tv.locator("#ring .seat-name", has_text=name).wait_for()
        tv.wait_for_function("document.querySelector('#person-name').value === ''")  # the field is ready for the next
        tapped(tv, tv.get_by_label("Phones may answer for players without one"))
        switch = tv.get_by_label("Players without a phone are ready at once")
        assert switch.is_checked()  # on by default; off here: the TV taps their Ready itself
        tapped(tv, switch)
        state = host.wait_for(lambda s: s["room"]["allow_helpers"] and not s["room"]["phoneless_ready"]
                              and len(s["room"]["seats"]) == 12)
        assert not switch.is_checked()
        phoneless = [i for i, s in enumerate(state["room"]["seats"]) if s["phoneless"]]
        assert phoneless == [8, 9, 10, 11]
        assert tv.locator("#ring .badge.nophone").count() == 4
        screens.measure(tv, "lobby", LOBBY)

        # The table set: the hand, the deal, the wild rank big; the host's button calls the first "Draw!".
        assert host.call("variant", {"name": "browser"})["ok"]
        tapped(tv, tv.get_by_role("button", name="Start the game"))
        tv.get_by_role("heading", name="DEAL 3 CARDS EACH!").wait_for()
        assert tv.locator("#deal-wild .wild-rank").inner_text() == "3"
        assert "Then one card face up to start each player's pile" in tv.locator("#deal-facts").inner_text()
        screens.measure(tv, "table-set", REAL_TABLE)
        # Tapping a seat without a phone: it says so, and its rejoin code lets a phone take it; it is no open seat.
        tapped(tv, tv.locator("#seats > li").nth(phoneless[2]).locator(".seat-tap"))
        tv.locator("#panel-health").get_by_text("No phone: the TV answers for them").wait_for()
        assert tv.locator("#panel-release").is_hidden() and tv.locator("#panel-bot").is_hidden()
        tapped(tv, tv.get_by_role("button", name="Close"))
        tapped(tv, tv.get_by_role("button", name="Cards are dealt: Draw!"))
        state = host.wait_for(lambda s: phase(s) == "ready")
        tv.get_by_role("heading", name="DRAW!").wait_for()
        assert tv.locator("#deal").is_hidden()

        # The calls: a tick on each ready seat; the TV answers for the seats without a phone.
        cycle = state["game"]["cycle"]
        for phone in night.joined[:5]:
            assert phone.call("ready", {"cycle": cycle})["ok"]
        for seat in phoneless[:2]:
            tapped(tv, tv.locator("#seats > li").nth(seat).get_by_role("button", name="Ready"))
        host.wait_for(lambda s: sum(seat["ready"] for seat in s["game"]["seats"]) == 7)
        tv.get_by_text("Ready: 7 of 12").wait_for()
        assert tv.locator("#seats > li.is-ready").count() == 7
        assert (
            tv.locator("#seats > li")
            .nth(phoneless[0])
            .get_by_role("button", name="Ready")
            .get_attribute("aria-pressed")
            == "true"
        )
        screens.measure(tv, "calls-ready", REAL_TABLE)
        for phone in night.joined[5:]:
            assert phone.call("ready", {"cycle": cycle})["ok"]
        for seat in phoneless[2:]:
            tapped(tv, tv.locator("#seats > li").nth(seat).get_by_role("button", name="Ready"))
        host.wait_for(lambda s: phase(s) == "reveal")  # everyone ready: the caller calls "Discard!"
        tv.get_by_role("heading", name="DISCARD!").wait_for()

        # The match window: a phone and a seat without a phone call Match!; the TV names them.
        assert night.joined[0].call("match")["ok"]
        tapped(tv, tv.locator("#seats > li").nth(phoneless[3]).get_by_role("button", name="Match!"))
        host.wait_for(lambda s: [m["seat"] for m in s["game"]["matched"]] == [0, phoneless[3]])
        tv.get_by_role("heading", name=f"{PHONES[0]} AND {PHONELESS[3].upper()} CALL MATCH!").wait_for()
        screens.measure(tv, "calls-match", REAL_TABLE)

        # The last cycle; the matched phone enters its cards, the matched seat's points are typed on the TV.
        host_tools(tv)
        tapped(tv, tv.get_by_role("button", name="Call now"))
        state = host.wait_for(lambda s: phase(s) == "last_ready")
        for faces in (["3H"], ["3H", "3S"], ["3H", "3S", "3D"]):
            assert night.joined[0].call("draft", {"cards": faces})["ok"]
        assert night.joined[0].call("confirm")["ok"]
        tv.locator("#melds .matched", has_text=PHONES[0]).get_by_text("✓ complete").wait_for()
        for phone in night.joined[1:]:
            assert phone.call("ready", {"cycle": state["game"]["cycle"]})["ok"]
        for seat in phoneless[:3]:
            tapped(tv, tv.locator("#seats > li").nth(seat).get_by_role("button", name="Ready"))
        host.wait_for(lambda s: phase(s) == "entry")

        # Waiting for the hands: some typed on phones, one seat without a phone typed on the TV's pad.
        for phone in night.joined[1:5]:  # four K♥ on phones (and a fifth on the TV's picker below: one too many)
            assert phone.call("draft", {"cards": ["KH", "2C", "4D"]})["ok"]
            assert phone.call("confirm")["ok"]
        for k, phone in enumerate(night.joined[5:7]):
            assert phone.call("points", {"points": 5 + k})["ok"]
        enter_points(tv, phoneless[0], "17")
        state = host.wait_for(lambda s: phoneless[0] not in s["game"]["waiting_for"])
        waiting = state["game"]["waiting_for"]
        assert waiting == [7, *phoneless[1:]]
        names = ", ".join([PHONES[7], *PHONELESS[1:3]]) + f", and {PHONELESS[3]}"  # four or fewer: by name
        tv.get_by_text(f"Waiting for {names}…").wait_for()
        assert tv.locator("#seats > li .seat-act", has_text="Enter hand").count() == 3
        screens.measure(tv, "entry", REAL_TABLE)

        # A refused number is told on the pad, and nothing changes.
        tapped(tv, tv.locator("#seats > li").nth(phoneless[1]).get_by_role("button", name="Enter hand"))
        for key in "999":
            tapped(tv, tv.locator(f"#pad-keys [data-key='{key}']"))
        tapped(tv, tv.get_by_role("button", name="Save"))
        tv.locator("#pad-error").wait_for()
        assert tv.locator("#pad").is_visible() and tv.locator("#pad-value").inner_text() == "999"
        assert host.sync()["state"]["game"]["waiting_for"] == waiting
        screens.measure(tv, "pad", PAD)
        tapped(tv, tv.get_by_role("button", name="Cancel"))

        assert night.joined[7].call("points", {"points": 20})["ok"]
        # The other way: the host taps a phone-less player's cards in; the solver lays them out as they come.
        tapped(tv, tv.locator("#seats > li").nth(phoneless[1]).get_by_role("button", name="Enter hand"))
        tapped(tv, tv.get_by_role("button", name="Cards", exact=True))
        pick(tv, "7♣")
        tv.get_by_text("Penalty now: 7").wait_for()
        tapped(tv, tv.get_by_role("button", name="Take 7♣ off"))  # a card tapped by mistake comes off
        tv.get_by_text("0 of 3 cards").wait_for()
        for card in ("5♠", "5♦", "K♥"):
            pick(tv, card)
        tv.get_by_text("3 of 3 cards").wait_for()
        assert tv.locator("#pick-laid .card.orphan").all_inner_texts() == ["5♦", "5♠", "K♥"]  # no meld: 20 points
        tv.get_by_text("Penalty now: 20").wait_for()
        pick(tv, "2♣")  # a fourth card in a hand of three: refused, with the reason
        tv.get_by_text("This hand has 3 cards: you entered 4").wait_for()
        assert faces_of(host.sync()["state"]["game"]["drafts"][str(phoneless[1])]["cards"]) == ["5S", "5D", "KH"]
        screens.measure(tv, "picker", PAD)
        tapped(tv, tv.get_by_role("button", name="Confirm the hand"))
        tv.locator("#pad").wait_for(state="hidden")
        for seat, points in zip(phoneless[2:], ("0", "9"), strict=True):
            enter_points(tv, seat, points)
        state = host.wait_for(lambda s: phase(s) == "scored")
        sheet = state["game"]["sheet"][0]
        assert [sheet[s]["points"] for s in phoneless] == [17, 20, 0, 9]
        assert [sheet[s]["how"] for s in (0, 1, 5, phoneless[0], phoneless[1])] == [
            "cards",
            "cards",
            "typed",
            "typed",
            "cards",
        ]

        # The scores: typed cells marked; a cell corrected by tapping it, its old value shown; then undone.
        tv.get_by_role("heading", name="Hand 1 scored").wait_for()
        assert tv.locator("#score-table td.cell.typed").count() == 6  # all but the six hands entered as cards
        # Five K♥ in one hand with four decks: each hand alone was possible, so the TV asks the host to check.
        assert [card["label"] for card in state["game"]["overdrawn"]] == ["K♥"]
        tv.locator("#story").get_by_text("K♥").wait_for()
        solved = tv.locator("#score-table td.cell:not(.typed) button").evaluate_all("(b) => b.map((x) => x.ariaLabel)")
        assert len(solved) == 6 and f"{PHONES[1]}, hand 1: 16. Tap to correct" in solved
        assert f"{PHONELESS[1]}, hand 1: 20. Tap to correct" in solved
        cell = tv.get_by_role("button", name=f"{PHONELESS[0]}, hand 1: 17. Tap to correct")
        tapped(tv, cell)
        tv.get_by_role("heading", name=f"Correct the score of {PHONELESS[0]} in hand 1").wait_for()
        for key in "12":
            tapped(tv, tv.locator(f"#pad-keys [data-key='{key}']"))
        tapped(tv, tv.get_by_role("button", name="Save"))
        state = host.wait_for(lambda s: s["game"]["sheet"][0][phoneless[0]]["points"] == 12)
        assert state["game"]["sheet"][0][phoneless[0]]["corrected_from"] == 17 and state["game"]["can_undo"]
        tv.locator("#pad").wait_for(state="hidden")
        corrected = tv.locator("#score-table td.cell.corrected")
        corrected.wait_for()
        assert corrected.locator("del.old").inner_text() == "17" and "12" in corrected.inner_text()
        screens.measure(tv, "scores", SCORES, lambda page, height: rows_shown(page, 12))
        tapped(tv, tv.get_by_role("button", name="Undo last correction"))
        host.wait_for(lambda s: s["game"]["sheet"][0][phoneless[0]]["points"] == 17 and not s["game"]["can_undo"])
        tv.locator("#score-table td.cell.corrected").wait_for(state="detached")
        assert tv.locator("#undo-correction").is_hidden()

        (screens.folder / "problems.json").write_text(json.dumps(screens.problems, indent=1, ensure_ascii=False))
        assert not screens.problems, summary(screens.problems)
        assert not watch.problems, watch.problems


def enter_points(tv, seat: int, digits: str) -> None:
    """The host types a phone-less seat's points on the TV's pad."""
    tapped(tv, tv.locator("#seats > li").nth(seat).get_by_role("button", name="Enter hand"))
    tv.locator("#pad").wait_for()
    if tv.locator("#pad-keys").is_hidden():  # this TV last entered a hand by its cards: it opens on them
        tapped(tv, tv.get_by_role("button", name="Points", exact=True))
    for key in digits:
        tapped(tv, tv.locator(f"#pad-keys [data-key='{key}']"))
    tapped(tv, tv.get_by_role("button", name="Save"))
    tv.locator("#pad").wait_for(state="hidden")


def pick(tv, card: str) -> None:
    """Tap one card on the TV's picker and wait for the server's answer to show."""
    before = tv.locator("#pick-count").inner_text()
    tapped(tv, tv.locator("#pick-grid").get_by_role("button", name=card, exact=True))
    tv.wait_for_function(
        "([before]) => document.querySelector('#pick-count').textContent !== before"
        " || document.querySelector('#pad-error').textContent !== ''",
        arg=[before],
    )


def test_with_turns_the_tv_names_whose_turn_it_is_and_answers_done_and_out_for_a_seat_without_a_phone(
    server, browser, shots: Path
) -> None:
    with Night(server=server, browser=browser) as night:
        host, tv, watch, code = night.host, night.tv(), night.watch, night.code
        screens = Screens(shots)
        assert host.call("mode", {"mode": "real"})["ok"]
        assert host.call("phoneless_ready", {"ready": False})["ok"]  # the test taps their Ready itself
        for name in ("Ana", "Bob"):
            night.client(name)
        for name in ("Carla", "Dan"):
            assert host.call("add_person", {"name": name})["ok"]
        names = ["Ana", "Bob", "Carla", "Dan"]
        assert host.call("variant", {"name": "fastclassic"})["ok"]
        assert host.call("start")["ok"]
        state = host.wait_for(lambda s: phase(s) == "setup")
        dealer = state["game"]["dealer"]
        facts = tv.locator("#deal-facts")
        facts.get_by_text(f"{names[dealer]} deals, {names[(dealer + 1) % 4]} starts").wait_for()
        assert "Then one card face up to start the pile" in facts.inner_text()
        assert tv.locator("#table-code").inner_text() == code  # seats are free: the join code beside its QR
        tapped(tv, tv.get_by_role("button", name="Cards are dealt: play!"))

        # Each turn: the TV names the player; only the seat whose turn it is has buttons, and only without a phone.
        def play_turn(out: bool) -> dict:
            state = host.wait_for(lambda s: phase(s) in ("turn", "last_turn", "entry"))
            game = state["game"]
            if game["phase"] == "entry":
                return state
            seat, cycle = game["turn"], game["cycle"]
            last = "LAST " if game["phase"] == "last_turn" else ""
            tv.get_by_role("heading", name=f"{names[seat].upper()}'S {last}TURN!").wait_for()
            turn_acts = tv.locator("#seats .seat-act").filter(has_text=re.compile("^(Done|Out!)$"))
            if seat < 2:  # a phone plays its own turn
                assert turn_acts.count() == 0
                assert night.joined[seat].call("out" if out else "done", {"cycle": cycle})["ok"]
            else:
                tile = tv.locator("#seats > li").nth(seat)
                expected = ["Done", "Out!"] if game["phase"] == "turn" else ["Done"]
                assert turn_acts.all_inner_texts() == expected  # on this seat's tile alone
                assert tile.locator(".seat-act").all_inner_texts() == expected
                if out:
                    screens.measure(tv, "turn", REAL_TABLE)
                tapped(tv, tile.get_by_role("button", name="Out!" if out else "Done"))
            return host.wait_for(lambda s: s["game"]["cycle"] != cycle or phase(s) != game["phase"])

        state = host.state
        while state["game"]["turn"] not in (2, 3):  # play on to a turn of a seat without a phone
            state = play_turn(out=False)
        goes_out = state["game"]["turn"]
        state = play_turn(out=True)
        assert [m["seat"] for m in state["game"]["matched"]] == [goes_out] and phase(state) == "last_turn"
        nxt = state["game"]["turn"]
        tv.get_by_role(
            "heading", name=f"{names[goes_out].upper()} WENT OUT! {names[nxt].upper()}'S LAST TURN!"
        ).wait_for()
        while phase(state) != "entry":
            state = play_turn(out=False)
        assert sorted(state["game"]["waiting_for"]) == [0, 1, 2, 3]
        assert not screens.problems, summary(screens.problems)
        assert not watch.problems, watch.problems


def test_the_hurry_counts_down_on_the_tv_while_a_seat_without_a_phone_is_not_ready(server, browser) -> None:
    with Night(server=server, browser=browser) as night:
        host, tv, watch = night.host, night.tv(), night.watch
        assert host.call("mode", {"mode": "real"})["ok"]
        assert host.call("phoneless_ready", {"ready": False})["ok"]  # the test taps their Ready itself
        for name in ("Ana", "Bob"):
            night.client(name)
        assert host.call("add_person", {"name": "Carla"})["ok"]
        # The hurry after 0.5 s, then 8 s to count down; "Discard!" stays on the TV until the host calls.
        assert host.call("variant", {"name": "countdownheld"})["ok"]
        assert host.call("start")["ok"]
        tapped(tv, tv.get_by_role("button", name="Cards are dealt: Draw!"))
        cycle = host.wait_for(lambda s: phase(s) == "ready")["game"]["cycle"]
        for phone in night.joined:
            assert phone.call("ready", {"cycle": cycle})["ok"]
        tv.get_by_text("Waiting for Carla…").wait_for()
        carla = tv.locator("#seats > li").nth(2).get_by_role("button", name="Ready")
        assert host.call("pause", {"paused": True})["ok"]  # paused, the pace's taps wait: Carla's Ready too
        tv.get_by_role("heading", name="PAUSED").wait_for()
        assert carla.is_disabled()
        assert host.call("pause", {"paused": False})["ok"]
        tv.get_by_role("heading", name="DRAW!").wait_for()
        assert carla.is_enabled()
        tv.locator("#countdown").get_by_text("Hurry!").wait_for()  # Carla is slow: the TV counts her down
        tapped(tv, carla)
        host.wait_for(lambda s: phase(s) == "reveal")  # all ready: "Discard!" before the hurry runs out
        tv.get_by_role("heading", name="DISCARD!").wait_for()
        tv.locator("#countdown").wait_for(state="hidden")
        assert not watch.problems, watch.problems


RUN_A = ["AH", "2H", "3H", "4H", "5H", "6S", "7S", "8S", "9S", "10C", "10D", "10H", "10S"]  # complete, K wild or not
RUN_B = ["AC", "2C", "3C", "4C", "5C", "6D", "7D", "8D", "9D", "JC", "JD", "JH", "JS"]


@pytest.mark.slow  # eleven hands over real sockets, the last two screens measured: about 30 s
def test_eleven_hands_fit_the_tv_two_laid_out_13_card_hands_and_the_whole_sheet(server, browser, shots: Path) -> None:
    with Night(server=server, browser=browser) as night:
        host, tv, watch = night.host, night.tv(), night.watch
        screens = Screens(shots)
        assert host.call("mode", {"mode": "real"})["ok"]
        assert host.call("phoneless_ready", {"ready": False})["ok"]  # the test taps their Ready itself
        for name in PHONES:
            night.client(name)
        for name in PHONELESS:
            assert host.call("add_person", {"name": name})["ok"]
        # Phones answer for the players without one (the host's link alone would be over the event rate).
        assert host.call("allow_helpers", {"allow": True})["ok"]
        assert host.call("variant", {"name": "browser"})["ok"]
        assert host.call("start")["ok"]
        seats = range(12)

        def ready(skip: tuple[int, ...] = ()) -> None:
            cycle = host.wait_for(lambda s: phase(s) in ("ready", "last_ready"))["game"]["cycle"]
            for seat in seats:
                if seat in skip:
                    continue
                sender, data = (night.joined[seat], {}) if seat < 8 else (night.joined[seat - 8], {"seat": seat})
                ack = sender.call("ready", {"cycle": cycle, **data})
                assert ack["ok"], (seat, ack)

        for hand in range(1, 12):
            host.wait_for(lambda s, hand=hand: phase(s) == "setup" and s["game"]["hand_no"] == hand)
            assert host.call("call_now")["ok"]
            ready()
            host.wait_for(lambda s: phase(s) == "reveal")
            matched = (0, 1) if hand == 11 else (hand % 8,)
            for seat in matched:
                assert night.joined[seat].call("match")["ok"]
            assert host.call("call_now")["ok"]
            ready(skip=matched)
            host.wait_for(lambda s: phase(s) == "entry")
            if hand < 11:
                assert night.joined[matched[0]].call("points", {"points": 0})["ok"]
            else:  # two matched 13-card hands, laid out for the table to check while the others enter
                for seat, cards in zip(matched, (RUN_A, RUN_B), strict=True):
                    assert night.joined[seat].call("draft", {"cards": cards})["ok"]
                    assert night.joined[seat].call("confirm")["ok"]
            for seat in seats:
                if seat in matched:
                    continue
                if hand == 11 and seat == 8:  # the phones are in; the four without one are waited for, by name
                    tv.get_by_text(f"Waiting for {', '.join(PHONELESS[:3])}, and {PHONELESS[3]}…").wait_for()
                    tv.locator("#melds .matched").nth(1).wait_for()
                    tv.screenshot(path=str(screens.folder / "tv-real-entry.png"))
                    screens.measure(tv, "entry-13", REAL_TABLE)
                sender, data = (night.joined[seat], {}) if seat < 8 else (night.joined[seat - 8], {"seat": seat})
                assert sender.call("points", {"points": (seat * 7 + hand * 3) % 30, **data})["ok"]
            host.wait_for(lambda s: phase(s) == "scored")
            if hand in (3, 7):
                assert host.call("correct", {"hand": hand, "seat": 9, "points": 29})["ok"]
            if hand < 11:  # the next hand; the eleventh scored ends the game by itself
                assert host.call("call_now")["ok"]
        host.wait_for(lambda s: s["game"]["game_over"])
        tv.locator("#play-again").wait_for()
        assert tv.locator("#score-table td.cell.corrected").count() == 2
        assert "null" not in tv.locator("#scores").inner_text()  # no missing part shows as a word
        tv.locator(".awards .award").first.wait_for(timeout=30000)  # the podium built, the winner named
        screens.measure(tv, "podium", PODIUM)
        tv.locator("#final-scores").click()  # the whole sheet, one tap away
        screens.measure(tv, "scores-final", SCORES, lambda page, height: rows_shown(page, 12))
        assert not screens.problems, summary(screens.problems)
        assert not watch.problems, watch.problems
