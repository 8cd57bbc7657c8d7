"""The recap and the awards say only what the score sheet proves."""

from __future__ import annotations

from pathlib import Path

import partyrummy.rules.awards as awards_module
from partyrummy.rules.awards import awards, podium, ranks, recap
from partyrummy.rules.scoring import totals_by_hand

# Three players over four hands: A leads, then falls; C climbs from last to first.
NIGHT = [
    [0, 10, 30],
    [5, 0, 20],
    [40, 0, 0],
    [30, 25, 0],
]


def test_ranks_share_places_on_equal_totals() -> None:
    assert ranks([10, 5, 10, 20]) == [2, 1, 2, 4]


ZERO = [0, 0, 0]


def test_running_totals_count_a_hand_a_late_seat_was_not_dealt_as_zero_from_its_starting_score() -> None:
    assert totals_by_hand([0, 0, 0], [[3, 4], [1, 2, 9]]) == [[3, 4, 0], [4, 6, 9]]
    assert totals_by_hand([0, 0, 4], [[3, 4], [1, 2, 9]]) == [[3, 4, 4], [4, 6, 13]]


def test_a_late_joiners_starting_score_counts_in_the_story_as_in_the_places() -> None:
    """Carla joins after hand 1 on the worst total (20). Counted from 0, the last hand's story said Ana climbed
    from 3rd to 2nd and Bob fell to 3rd, while the table's places put them 1st and 2nd."""
    history = [[10, 0], [0, 5, 0], [0, 10, 0]]
    start = [0, 0, 20]
    after = totals_by_hand(start, history)
    assert after[-1] == [10, 15, 20] and ranks(after[-1]) == [1, 2, 3]  # the places the table shows
    told = recap(history, start)
    assert told["climbed"] == [{"seat": 0, "from": 2, "to": 1}] and told["fell"] == [{"seat": 1, "from": 1, "to": 2}]


def test_the_recap_names_the_zeros_the_biggest_penalty_and_who_moved() -> None:
    short = recap(NIGHT[:3], ZERO)  # totals 45, 10, 50: A fell from 1st to 2nd, B climbed to 1st
    assert short["zero"] == [1, 2]
    assert short["worst"] == {"seats": [0], "points": 40}
    assert short["climbed"] == [{"seat": 1, "from": 2, "to": 1}]
    assert short["fell"] == [{"seat": 0, "from": 1, "to": 2}]
    assert recap([], ZERO) is None


def test_a_lead_lost_in_the_last_hand_is_told_with_the_close_finish() -> None:
    """After hand 10 Ana leads 46 against Bob's 99; hand 11 costs her 64: Bob wins by 1, and it is told."""
    history = [[4, 9, 9]] * 9 + [[10, 18, 30], [64, 10, 0]]
    told = recap(history, ZERO, hands=11, margin=10)  # totals 110, 109, 111
    assert told["lead"] == {"seats": [1], "from": [0]}
    assert told["close"] == {"seats": [1, 0, 2], "gap": 1}
    assert told["next_last"] is False and told["record"] == {"seats": [0], "points": 64, "was": 30}


def test_the_race_before_the_last_hand_is_told_and_the_last_hand_announced() -> None:
    history = [[10, 15, 40]] * 10  # 100, 150, 400 after hand 10 of 11: nobody within 10 of Ana
    told = recap(history, ZERO, hands=11, margin=10)
    assert told["next_last"] is True and told["close"] is None and told["lead"] is None
    close = recap([[100, 109, 110]] * 10, ZERO, hands=11, margin=100)
    assert close["close"] == {"seats": [0, 1, 2], "gap": 90}
    early = recap([[0, 1, 2]] * 5, ZERO, hands=11, margin=10)  # far from the end: no race told yet
    assert early["close"] is None and early["next_last"] is False


def test_a_shared_lead_and_a_tie_are_stories_too() -> None:
    told = recap([[5, 0, 9], [0, 5, 9]], ZERO, hands=2, margin=10)  # 5, 5, 18: Bob joined by Ana
    assert told["lead"] == {"seats": [0, 1], "from": [1]}
    assert told["close"] == {"seats": [0, 1], "gap": 0}


def test_a_record_hand_beats_every_earlier_hand_of_the_game() -> None:
    assert recap([[10, 20], [20, 5]], [0, 0])["record"] is None  # as big as before is no record
    assert recap([[10, 20], [21, 21]], [0, 0])["record"] == {"seats": [0, 1], "points": 21, "was": 20}
    assert recap([[10, 20]], [0, 0])["record"] is None  # the first hand sets nothing to beat


def test_the_nights_best_is_a_hand_at_zero_on_the_most_cards() -> None:
    found = {a["key"]: a for a in awards(NIGHT, ZERO, sizes=[3, 4, 5, 6])}
    assert found["best"] == {"key": "best", "seats": [2], "n": 6}
    assert "best" not in {a["key"] for a in awards([[5, 6], [7, 8]], [0, 0], sizes=[3, 4])}
    assert "best" not in {a["key"] for a in awards(NIGHT, ZERO)}  # no sizes given: none claimed


def test_the_awards_at_the_end_of_the_night() -> None:
    found = {a["key"]: a for a in awards(NIGHT, ZERO)}  # totals 75, 35, 50
    assert found["clean"] == {"key": "clean", "seats": [1, 2], "n": 2}
    assert "comeback" not in found  # C went from 3rd to 2nd: one place is not a comeback
    assert found["steady"] == {"key": "steady", "seats": [1], "n": 25}
    assert podium([75, 35, 50]) == [[1], [2], [0]]
    assert podium([10, 10, 30]) == [[0, 1], [], [2]]


def test_a_comeback_is_a_climb_of_two_places_or_more() -> None:
    found = {a["key"]: a for a in awards([[0, 5, 10, 30], [20, 20, 20, 0], [30, 30, 30, 0]], [0] * 4)}
    assert found["comeback"] == {"key": "comeback", "seats": [3], "from": 4, "to": 1}


def test_no_award_that_nobody_earned() -> None:
    assert [a["key"] for a in awards([[5, 6], [7, 8]], [0, 0])] == ["steady"]


def test_the_awards_module_is_pure() -> None:
    source = Path(awards_module.__file__).read_text()
    imports = {line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imports == {"__future__", "typing", "collections.abc", ".scoring", ".sheet"}

