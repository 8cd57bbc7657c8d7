"""A whole night at a real table, through the pages alone, and nothing stalls it.

The TV and four phones in Chromium (Ana and Bob 390 px wide, Cleo and Dev 320), and Gran without a phone. Cleo's
phone dies in the Ready phase: her tile on the TV answers for her, then the TV counts her Ready by itself once
her phone has been gone a while (the rules' `table_gone`); she is still gone at score entry, where her tile
enters her hand. The host changes the pace on the TV; every Match! window ends as soon as everyone has said
(Match!, or Ready for the next "Draw!"), though its clock would give a minute. Ana plays on a second tab too, each
showing the other's taps. Dev's hand is entered on the TV from the seat panel, his phone told. A correction on
the TV; Cleo's phone comes back to her seat. Then back to the lobby and a second game of another rule set, the
first kept in the night's results and CSV. A phone in WebKit plays a window of its own.
"""

from __future__ import annotations

import time

import pytest

from .live import phase
from .night import Night
from .screens import host_tools

RULES = """
[stall]
extends = "party"
description = "Real cards, two hands, a Match! window of a minute (for tests)"
hand_sizes = [3, 4]
table_beat_s = 0.3
table_match_window_s = 60
table_hurry_after_s = 0
table_gone_after_s = 8

[stall_turns]
extends = "classic"
description = "Turns, one hand (for tests)"
hand_sizes = [3]
table_beat_s = 0.3
"""
WINDOW_S = 60  # the window's clock: a window that ends within a few seconds was ended by the taps


def settle(page) -> None:
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def ready(phone) -> None:
    """A phone taps Ready (in the Ready phase; in the window, ready for the next "Draw!")."""
    button = phone.get_by_role("button", name="Ready", exact=True)
    button.wait_for()
    button.tap()
    phone.locator("#r-ready[aria-pressed=true]").wait_for()


def tile(tv, seat: int):
    return tv.locator("#seats > li").nth(seat)


def pad_points(tv, digits: str) -> None:
    """The TV's pad, open: type the points and save."""
    tv.locator("#pad").wait_for()
    if tv.locator("#pad-keys").is_hidden():
        tv.get_by_role("button", name="Points", exact=True).click()
    for key in digits:
        tv.locator(f"#pad-keys [data-key='{key}']").click()
    tv.get_by_role("button", name="Save").click()
    tv.locator("#pad").wait_for(state="hidden")


def phone_points(phone, digits: str) -> None:
    """A phone types its points."""
    phone.get_by_role("button", name="Type the points").tap()
    for key in digits:
        phone.locator("#pad").get_by_role("button", name=key, exact=True).tap()
    phone.get_by_role("button", name=f"Enter {digits} pts").tap()


@pytest.mark.slow  # a whole night of two games in Chromium: about a minute
def test_a_real_cards_night_is_never_stalled_by_a_dead_phone_a_window_a_second_screen_or_the_rules(browser) -> None:
    with Night(seed=3, rules=RULES, browser=browser) as night:
        host, tv, watch = night.host, night.tv(), night.watch
        tv.get_by_role("button", name="Real cards on the table").click()
        host.wait_for(lambda s: s["room"]["mode"] == "real")
        assert host.call("variant", {"name": "stall"})["ok"]
        ana, bob = night.phone("Ana"), night.phone("Bob")
        cleo, dev = night.phone("Cleo", size=(320, 568)), night.phone("Dev", size=(320, 568))
        tv.get_by_label("Name of a player without a phone").fill("Gran")
        tv.get_by_role("button", name="Add a player without a phone").click()
        host.wait_for(lambda s: len(s["room"]["seats"]) == 5)  # Ana 0, Bob 1, Cleo 2, Dev 3, Gran 4
        tv.get_by_role("button", name="Start the game").click()
        tv.get_by_role("button", name="Cards are dealt: Draw!").click()
        host.wait_for(lambda s: phase(s) == "ready")

        # The pace, one tap on the TV: shown on the phones.
        host_tools(tv)
        tv.locator("#pace").click()
        assert host.wait_for(lambda s: s["room"]["pace"] == "quick")["room"]["pace"] == "quick"
        tv.locator("#pace", has_text="Quick pace").wait_for()
        ana.locator("#r-info", has_text="Quick pace").wait_for()

        # Cleo's phone dies in the Ready phase. Her tile answers for her at once: Ready, as Gran's would.
        cleo.close()
        host.wait_for(lambda s: not s["room"]["seats"][2]["connected"])
        tile(tv, 2).get_by_role("button", name="Ready").wait_for()
        for phone in (ana, bob, dev):
            ready(phone)
        tile(tv, 2).get_by_role("button", name="Ready").click()
        window = host.wait_for(lambda s: phase(s) == "reveal", 10)

        # The window: everyone says (Ready again: ready for the next "Draw!"); Cleo's tile for her, Gran by the
        # switch. It ends at once, not a minute later.
        opened = time.monotonic()
        for phone in (ana, bob, dev):
            ready(phone)
        tile(tv, 2).get_by_role("button", name="Ready").click()
        host.wait_for(lambda s: phase(s) == "ready" and s["game"]["cycle"] == window["game"]["cycle"] + 1, 10)
        assert time.monotonic() - opened < WINDOW_S / 4

        # Ana on a second tab: the same seat, live on both; a tap on one shows on the other.
        ana2 = ana.context.new_page()
        ana2.goto(night.join_url)
        ana2.get_by_role("button", name="Ready", exact=True).wait_for()
        ready(ana2)
        ana.locator("#r-ready[aria-pressed=true]").wait_for()
        assert host.state["room"]["seats"][0]["connected"]
        assert not ana.get_by_text("open on another device").count() and not ana2.locator("#r-ready").is_disabled()

        # Cleo's phone has now been gone past the rules' grace: the TV counts her Ready by itself.
        for phone in (bob, dev):
            ready(phone)
        host.wait_for(lambda s: phase(s) == "reveal", 15)
        # Bob calls Match!; everyone else plays on (Cleo counted by the TV, as gone): the last cycle at once.
        bob.get_by_role("button", name="Match!").tap()
        for phone in (ana, dev):
            ready(phone)
        host.wait_for(lambda s: phase(s) in ("last_ready", "entry"), 10)
        for phone in (ana, dev):
            ready(phone)
        host.wait_for(lambda s: phase(s) == "entry", 15)

        # Entry: Cleo's dead phone never blocks it (her tile enters her hand); Dev's hand from the seat panel.
        tile(tv, 2).get_by_role("button", name="Enter hand").click()
        pad_points(tv, "12")
        tile(tv, 3).locator(".seat-tap").click()
        tv.get_by_role("button", name="Enter it on the TV").click()
        pad_points(tv, "7")
        dev.get_by_text("The TV entered your hand").wait_for()  # its phone told
        phone_points(ana, "9")
        phone_points(bob, "0")
        tile(tv, 4).get_by_role("button", name="Enter hand").click()
        pad_points(tv, "5")
        scored = host.wait_for(lambda s: phase(s) == "scored", 15)
        assert [cell["points"] for cell in scored["game"]["sheet"][0]] == [9, 0, 12, 7, 5]

        # A correction on the TV; then Cleo's phone comes back: to her seat, never the join page.
        tv.get_by_role("button", name="Cleo, hand 1: 12. Tap to correct").click()
        pad_points(tv, "11")
        host.wait_for(lambda s: s["game"]["sheet"][0][2]["points"] == 11)
        back = cleo.context.new_page()
        back.goto(night.join_url)
        back.locator("#real").wait_for()
        assert back.locator("#join-form").is_hidden() and host.wait_for(lambda s: s["room"]["seats"][2]["connected"])

        # Hand 2 played out by the host's calls, then back to the lobby, another rule set, a second game.
        tv.locator("#next-hand").click()
        host.wait_for(lambda s: s["game"]["hand_no"] == 2)
        for _ in range(40):  # the host moves the night on (Gran calls Match!); the hands are entered on the TV
            state = host.sync()["state"]
            if state["game"]["game_over"]:
                break
            if phase(state) == "entry":
                for seat in state["game"]["waiting_for"]:
                    assert host.call("points", {"points": 1, "seat": seat, "override": True})["ok"]
            elif phase(state) == "reveal" and "match" in state["game"]["seats"][4]["can"]:
                assert host.call("match", {"seat": 4})["ok"]
            elif state["game"]["call"]:
                host.call("call_now")
            host.wait_for(lambda s, v=state["v"]: s["v"] > v, 5)
        assert host.wait_for(lambda s: s["game"]["game_over"], 20)
        tv.get_by_role("button", name="Change the rules").click()
        host.wait_for(lambda s: s["game"] is None)
        tv.locator("#lobby").wait_for()
        tv.locator("#variant").select_option("stall_turns")
        host.wait_for(lambda s: s["room"]["variant"] == "stall_turns")
        tv.get_by_role("button", name="Start the game").click()
        second = host.wait_for(lambda s: s["game"] is not None and not s["game"]["game_over"])
        assert second["game"]["pacing"] == "turns" and len(second["room"]["night"]) == 1
        csv = night.server.get(f"/room/{night.code}/scores.csv").splitlines()
        assert csv[0] == "Game 1" and "Game 2" in csv
        assert not watch.problems, watch.problems
