"""What each viewer sees of a real-cards game: its own picker, laid out live; nobody else's cards or points early."""

from __future__ import annotations

import dataclasses
import json

from partyrummy.realcards import scorebook
from partyrummy.realcards.commands import Call, CallMatch, Confirm, Correct, Draft, Ready, TypePoints
from partyrummy.realcards.views import table_view, view_for, view_for_host
from partyrummy.variants import default_variants

SHORT = dataclasses.replace(default_variants()["party"], hand_sizes=(3, 4))


def run(book, *commands):
    for command in commands:
        book, _ = scorebook.apply(book, command)
    return book


def in_entry():
    """Three seats; seat 0 matched and entered 5-6-7♥; seat 1 tapped two cards; seat 2 typed its points."""
    book, _ = scorebook.new_book(SHORT, 3, seed=1)
    book = run(book, Call(), Ready(0), Ready(1), Ready(2), Call(), CallMatch(0), Call())
    book = run(book, Draft(0, ("5H", "6H", "7H")), Confirm(0), Ready(1), Ready(2), Call())
    return run(book, Draft(1, ("QS", "QC")), TypePoints(2, 17))


def test_a_phone_sees_its_picker_laid_out_by_the_solver() -> None:
    mine = view_for(in_entry(), 1)
    assert mine["draft"] == {
        "cards": ["QS", "QC"],
        "melds": [],
        "orphans": ["QC", "QS"],
        "penalty": 20,
        "complete": False,
    }
    assert mine["you"] == 1 and mine["entry"] is None


def test_nobody_sees_another_seats_picker_or_points_before_the_hand_is_scored() -> None:
    book = in_entry()
    for payload in (view_for_host(book), view_for(book, 2), view_for(book, 0)):
        text = json.dumps(payload)
        assert "QS" not in text and "QC" not in text  # seat 1's taps
        assert payload["seats"][2]["entered"] and payload["seats"][2]["entry"] is None  # 17 stays hidden
        assert payload["waiting_for"] == [1]
    assert "17" not in json.dumps(view_for_host(book)["seats"])
    assert view_for(book, 2)["entry"]["points"] == 17  # but the seat sees its own
    # The matched seat's melds are there for everyone to check.
    assert table_view(book)["seats"][0]["entry"] == {
        "points": 0,
        "how": "cards",
        "claim": True,
        "melds": [["5H", "6H", "7H"]],
        "orphans": [],
    }


def test_once_scored_every_entry_and_the_sheet_with_corrections_show() -> None:
    book = run(in_entry(), Draft(1, ("QS", "QC", "QD")), Confirm(1))
    seats = table_view(book)["seats"]
    assert [s["entry"]["points"] for s in seats] == [0, 0, 17]
    book = run(book, Correct(1, 2, 7))
    view = view_for_host(book)
    assert view["sheet"][0][2] == {"points": 7, "how": "typed", "corrected_from": 17}
    assert view["totals"] == [0, 0, 7] and view["can_undo"] and view["overdrawn"] == []
    json.dumps(view_for(book, 1))  # plain data all the way down


def test_the_table_says_whether_a_dealt_hand_may_call_match_before_the_first_call() -> None:
    # The pages offer Match! in setup only where the rules allow it (party yes, classic no).
    for name in ("party", "classic"):
        variant = default_variants()[name]
        book, _ = scorebook.new_book(variant, 3, seed=1)
        assert table_view(book)["setup_match"] is variant.setup_match
    assert default_variants()["party"].setup_match and not default_variants()["classic"].setup_match
