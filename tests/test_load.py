"""The load generator's pure parts (bench/): when a simulated phone must think again, and the step's verdict."""

from __future__ import annotations

import copy
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from load_phone import Tally, _wants, split  # noqa: E402
from load_report import Step, blame, verdict  # noqa: E402
from load_worker import Slow  # noqa: E402


def card(i: int) -> dict:
    return {"id": i, "card": "7H", "label": "7♥", "rank": 7, "suit": 2}


def table() -> dict:
    """A state from seat 0's phone in a draw phase of a 3-player game (the fields the protocol documents)."""
    seats = [{"seat": s, "cards": 3, "pile_top": card(90 + s), "picked": False, "matched": False} for s in range(3)]
    you = {"seat": 0, "waiting": False, "take": {"top": card(92), "count": 1}, "hand": [card(1), card(2), card(3)]}
    you |= {"drawn": None, "pick": None}
    game = {"hand_no": 1, "cycle": 1, "phase": "draw", "game_over": False, "seats": seats, "waiting_for": [0, 1, 2]}
    return {"v": 7, "room": {"night": []}, "game": game | {"you": you}}


def test_a_phone_thinks_again_only_when_its_own_part_of_the_table_changes() -> None:
    before = table()
    others = copy.deepcopy(before)  # another seat drew: a new version, nothing seat 0 acts on
    others["v"] = 8
    others["game"]["waiting_for"] = [0, 2]
    others["game"]["seats"][1]["cards"] = 4
    assert _wants(others) == _wants(before)
    mine = copy.deepcopy(others)  # seat 0 drew: now it has a card to choose
    mine["game"]["waiting_for"] = [2]
    mine["game"]["you"]["drawn"] = card(50)
    mine["game"]["you"]["hand"].append(card(50))
    assert _wants(mine) != _wants(others)
    choosing = copy.deepcopy(before)
    choosing["game"]["phase"] = "choose"
    assert _wants(choosing) != _wants(before)
    later = copy.deepcopy(before)
    later["game"]["cycle"] = 2
    assert _wants(later) != _wants(before)
    lobby = {"v": 1, "room": {"night": []}, "game": None}
    assert _wants(lobby) is None


def test_a_newcomer_waiting_for_the_next_hand_has_no_hand_to_read() -> None:
    state = table()
    state["game"]["you"] = {"seat": 3, "waiting": True}
    assert _wants(state) is not None  # no KeyError on the fields a seated player has


def step(gen_cpu: list[float], gen_wait: list[float], server_cpu: float, server_wait: float) -> Step:
    return Step(
        rooms=1,
        connections=13,
        latencies=[0.01],
        tally=Tally(Counter(), Counter()),
        gen_cpu=gen_cpu,
        gen_wait=gen_wait,
        server_cpu=server_cpu,
        server_wait=server_wait,
        rss=1,
        threads=1,
        failed=0,
        cycles=1,
    )


def test_the_verdict_names_the_side_that_limited_a_step() -> None:
    assert verdict(step([0.95], [0.0], 0.3, 0.0), 1)[0] == "generator"
    assert verdict(step([0.2], [0.5], 0.3, 0.0), 1)[0] == "machine"  # it waited for a core longer than it ran
    assert verdict(step([0.2], [0.0], 0.3, 0.9), 1)[0] == "machine"  # the server's threads did (its core unknown)
    # … and with its core measured: its own threads queueing, or another process on its core.
    assert verdict(replace(step([0.2], [0.0], 0.3, 0.9), core_busy=0.35), 1)[0] == "server threads"
    assert verdict(replace(step([0.2], [0.0], 0.3, 0.9), core_busy=0.95), 1)[0] == "machine"
    assert verdict(step([0.2], [0.0], 0.95, 0.1), 1)[0] == "server"
    assert verdict(step([0.2], [0.0], 0.3, 0.01), 1)[0] is None
    # A generator whose loop runs its timers late holds each phone's message as long: the latency is partly its own.
    assert verdict(replace(step([0.6], [0.0], 0.4, 0.0), gen_late=0.08), 1)[0] == "generator"
    assert verdict(replace(step([0.6], [0.0], 0.4, 0.0), gen_late=0.002), 1)[0] is None


def test_what_a_phone_receives_is_split_by_event_and_top_level_key() -> None:
    table = '2["table",{"v":9,"base":8,"changes":{"room":{"call_in":[3.0]},"game":{"seats":{"2":{"picked":[true]}}}}}]'
    event, parts = split(table)
    assert event == "table"
    assert dict(parts) == {"room.call_in": 5, "game.seats": 23, "envelope": len(table) - 28}
    assert split('2["mine",{"v":9,"base":8,"table_v":9,"changes":{}}]')[0] == "mine"
    assert split('31[{"ok":true}]') == ("ack", [("envelope", 15)])


def test_a_slow_cycle_is_laid_against_the_generator_s_loop_and_the_server_s_wait_for_its_core() -> None:
    # The server sends the flip to every phone of a room at once: a last phone far behind the first, with the
    # generator's loop late as long, is the generator's.
    assert blame(Slow("R", last=0.20, first=0.01, loop_late=0.19), wait=0.0) == "generator"
    # The first phone late too, and the server's thread runnable but not running for most of it: the machine's.
    assert blame(Slow("R", last=0.24, first=0.239, loop_late=0.002), wait=0.23) == "machine"
    assert blame(Slow("R", last=0.24, first=0.239, loop_late=0.002), wait=0.01) == "server"
    assert blame(Slow("R", last=0.24, first=0.239, loop_late=0.002), wait=None) == "server"  # not measured
    assert blame(Slow("R", last=0.12, first=0.04, loop_late=0.03), wait=0.0) == "shared"


def test_the_server_s_wait_for_its_core_between_two_moments_comes_from_the_samples() -> None:
    s = replace(step([0.2], [0.0], 0.1, 0.0), server_waited=[(10.0, 1.0), (10.02, 1.0), (10.04, 1.3), (10.06, 1.31)])
    assert abs(s.server_wait_in(10.01, 10.05) - 0.31) < 1e-9  # from the sample before to the one after
    assert abs(s.server_wait_in(10.041, 10.06) - 0.01) < 1e-9
    assert s.server_wait_in(9.0, 10.05) is None  # before the samples began: unknown
    assert replace(s, server_waited=[]).server_wait_in(10.0, 10.01) is None
