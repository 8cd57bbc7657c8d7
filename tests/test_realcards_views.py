"""What each viewer sees of a real-cards game: its own picker, laid out live; nobody else's cards or points early."""

from __future__ import annotations

import dataclasses
import json

from partyrummy.phones import game as engine
from partyrummy.phones import views as phones_views
from partyrummy.realcards import scorebook
from partyrummy.realcards.commands import Call, CallMatch, Confirm, Correct, Draft, Ready, TypePoints
from partyrummy.realcards.views import table_view, view_for, view_for_host
from partyrummy.rules.variants import default_variants

SHORT = dataclasses.replace(default_variants()["party"], hand_sizes=(3, 4))


def run(book, *commands):
    for command in commands:
        book, _ = scorebook.apply(book, command)
    return book


def in_entry(variant=SHORT):
    """Three seats; seat 0 matched and entered 5-6-7♥; seat 1 tapped two cards; seat 2 typed its points."""
    book, _ = scorebook.new_book(variant, 3, seed=1)
    book = run(book, Call(), Ready(0), Ready(1), Ready(2), Call(), CallMatch(0), Call())
    book = run(book, Draft(0, ("5H", "6H", "7H")), Confirm(0), Ready(1), Ready(2), Call())
    return run(book, Draft(1, ("QS", "QC")), TypePoints(2, 17))


def short(value):
    """A view with each card written short ("QS"), as people read them (the cards' shape is tested below)."""
    if isinstance(value, dict):
        return value["card"] if "card" in value else {k: short(v) for k, v in value.items()}
    return [short(v) for v in value] if isinstance(value, list) else value


def cards_in(value) -> list[dict]:
    """Every card of a view, wherever it lies."""
    if isinstance(value, dict):
        return [value] if "card" in value else [c for v in value.values() for c in cards_in(v)]
    return [c for v in value for c in cards_in(v)] if isinstance(value, list) else []


def test_real_cards_come_in_the_shape_of_the_phones_game_without_ids() -> None:
    # A card dealt in the phones' game, tapped in as a real card: the same card, but for the id (real cards have none).
    game, _ = engine.new_game(default_variants()["party"], 3, seed=1)
    dealt = phones_views.view_for(game, 0)["you"]["hand"]
    book = run(in_entry(), Draft(1, tuple(c["card"] for c in dealt[:3])))
    assert view_for(book, 1)["you"]["draft"]["cards"] == [{**card, "id": None} for card in dealt[:3]]
    # And every card of every real-cards view: the draft, its layout, the entries and the overdrawn faces.
    one_deck = dataclasses.replace(SHORT, decks=1)
    book = run(in_entry(one_deck), Draft(1, ("7H", "QS", "QC")), Confirm(1))  # a second 7♥ with one deck
    for view in (view_for(book, 0), view_for(book, 1), view_for_host(book)):
        found = cards_in(view)
        assert found and all(card.keys() == dealt[0].keys() and card["id"] is None for card in found)
    assert view_for_host(book)["overdrawn"] == [{"id": None, "card": "7H", "label": "7♥", "rank": 7, "suit": 2}]


def test_a_phone_sees_its_picker_laid_out_by_the_solver() -> None:
    mine = short(view_for(in_entry(), 1))
    assert mine["you"]["draft"] == {
        "cards": ["QS", "QC"],
        "melds": [],
        "orphans": ["QC", "QS"],
        "penalty": 20,
        "complete": False,
    }
    assert mine["you"]["seat"] == 1 and mine["you"]["entry"] is None


def test_nobody_sees_another_seats_picker_or_points_before_the_hand_is_scored() -> None:
    book = in_entry()
    for payload in (view_for_host(book), view_for(book, 2), view_for(book, 0)):
        text = json.dumps(payload)
        assert "QS" not in text and "QC" not in text  # seat 1's taps
        assert payload["seats"][2]["entered"] and payload["seats"][2]["entry"] is None  # 17 stays hidden
        assert payload["waiting_for"] == [1]
    assert "17" not in json.dumps(view_for_host(book)["seats"])
    assert view_for(book, 2)["you"]["entry"]["points"] == 17  # but the seat sees its own
    # The matched seat's melds are there for everyone to check.
    assert short(table_view(book)["seats"][0]["entry"]) == {
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
