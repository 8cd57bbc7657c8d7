"""Score entry with real cards: the hand's count, hands the shoe cannot hold, the solver's score, typed points."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from partyrummy.i18n import default_catalogs
from partyrummy.realcards import entry
from partyrummy.rules.cards import Card, parse_cards
from partyrummy.rules.errors import BadCommand
from partyrummy.rules.melds import best_arrangement, is_complete
from partyrummy.rules.variants import Variant, default_variants

from .strategies import shoe_faces

VARIANTS = default_variants()
PARTY, APP = VARIANTS["party"], VARIANTS["app"]


def refusal(call, *args) -> BadCommand:
    with pytest.raises(BadCommand) as caught:
        call(*args)
    return caught.value


def test_a_hand_needs_exactly_its_count_of_cards() -> None:
    # Hand 1 deals 3 cards: two or four are refused, naming both numbers.
    short = refusal(entry.from_cards, PARTY, 4, 1, parse_cards("AH 5C"), False)
    assert (short.key, short.params) == ("error.hand_count", {"n": 3, "count": 2})
    long = refusal(entry.from_cards, PARTY, 4, 1, parse_cards("AH 5C 9D KS"), False)
    assert long.params == {"n": 3, "count": 4}
    # The picker may hold fewer while the player taps, never more.
    assert entry.preview(PARTY, 4, 1, ["AH"]).penalty == 1
    assert refusal(entry.preview, PARTY, 4, 1, ["AH", "2H", "9D", "KS"]).key == "error.hand_count"


def test_five_of_one_card_with_four_decks_is_refused_with_the_reason() -> None:
    five = ["7H"] * 5 + ["2C"] * 4  # hand 5 deals 7 cards; the 2C line is fine, the 7H line is not
    error = refusal(entry.preview, PARTY, 4, 7, five)
    assert (error.key, error.params) == ("error.too_many_copies", {"card": Card(7, 2), "count": 5, "n": 4})
    assert "7♥" in default_catalogs().text("en", error.key, **error.params)  # what the player reads
    four = ["7H"] * 4 + ["2C"] * 4  # hand 6 deals 8 cards (eights wild): two sets of four
    assert entry.from_cards(PARTY, 4, 6, parse_cards(" ".join(four)), False).points == 0


def test_the_copies_follow_the_decks_for_the_table() -> None:
    classic = VARIANTS["classic"]  # one deck for 2 players, two for 3 to 6
    assert refusal(entry.preview, classic, 2, 1, ["7H", "7H"]).params["n"] == 1
    assert entry.preview(classic, 3, 1, ["7H", "7H"]).orphans  # fine with two decks


def test_jokers_only_where_the_variant_has_them_and_no_more_than_it_adds() -> None:
    assert refusal(entry.preview, PARTY, 4, 1, ["JK"]).key == "error.no_jokers"
    assert entry.from_cards(APP, 2, 1, parse_cards("JK JK 9D"), False).points == 0  # two jokers meld a 9
    error = refusal(entry.preview, VARIANTS["app"], 2, 1, ["JK", "JK", "JK"])
    assert (error.key, error.params) == ("error.too_many_jokers", {"n": 2})


def test_text_that_is_no_card_is_refused_naming_it() -> None:
    error = refusal(entry.preview, PARTY, 4, 1, ["AH", "1Z"])
    assert (error.key, error.params) == ("error.bad_card", {"card": "1Z"})
    assert refusal(entry.preview, PARTY, 4, 1, "AH 2H").key == "error.not_cards"
    assert refusal(entry.preview, PARTY, 4, 1, ["AH", 7]).key == "error.not_cards"


def test_the_score_is_the_solvers_least_penalty_with_melds_shown() -> None:
    # Hand 1: threes are wild. 5-6-7 of hearts would meld; A, 9, K do not.
    done = entry.from_cards(PARTY, 4, 1, parse_cards("5H 3S 7H"), claimed=False)
    assert (done.points, done.how, len(done.melds), done.orphans) == (0, "cards", 1, ())
    loose = entry.from_cards(PARTY, 4, 1, parse_cards("AH 9C KD"), claimed=False)
    assert (loose.points, loose.melds) == (1 + 9 + 10, ())


def test_a_match_claim_holds_only_on_complete_cards_or_a_typed_zero() -> None:
    assert entry.from_cards(PARTY, 4, 1, parse_cards("5H 6H 7H"), claimed=True).claim is True
    false_claim = entry.from_cards(PARTY, 4, 1, parse_cards("5H 6H 9C"), claimed=True)
    assert (false_claim.claim, false_claim.points) == (False, 5 + 6 + 9)
    assert entry.from_points(PARTY, 1, 0, claimed=True).claim is True
    assert entry.from_points(PARTY, 1, 4, claimed=True).claim is False
    assert entry.from_points(PARTY, 1, 4, claimed=False).claim is None


def test_typed_points_are_marked_typed_and_must_be_possible() -> None:
    typed = entry.from_points(PARTY, 1, 12, claimed=False)
    assert (typed.points, typed.how, typed.cards) == (12, "typed", ())
    top = entry.most_points(PARTY, 1)
    assert entry.from_points(PARTY, 1, top, False).points == top == 3 * 10
    assert refusal(entry.from_points, PARTY, 1, top + 1, False).params == {"n": top}
    assert refusal(entry.from_points, PARTY, 1, -1, False).key == "error.points_range"
    assert refusal(entry.from_points, PARTY, 1, "7", False).key == "error.not_int"
    assert refusal(entry.from_points, PARTY, 1, True, False).key == "error.not_int"
    # Orphaned jokers cost 20 in the app's rules: the most a hand can cost follows.
    assert entry.most_points(APP, 11) == 13 * 20


def variant_tables() -> st.SearchStrategy[tuple[Variant, int, int]]:
    """A variant, a player count it allows and a hand number."""
    return st.sampled_from([PARTY, APP, VARIANTS["classic"], VARIANTS["highaces"]]).flatmap(
        lambda v: st.tuples(st.just(v), st.integers(v.min_players, v.max_players), st.integers(1, v.hands))
    )


@settings(max_examples=60, deadline=None)
@given(data=st.data(), table=variant_tables())
def test_any_hand_dealt_from_the_shoe_is_accepted_and_scored_as_the_solver_scores_it(data, table) -> None:
    variant, players, hand_no = table
    size = variant.hand_sizes[hand_no - 1]
    faces = data.draw(shoe_faces(variant.decks_for(players), variant.jokers, size))
    cards = parse_cards(" ".join(faces))
    wild, rules = variant.wild_rank(hand_no), variant.meld_rules()
    scored = entry.from_cards(variant, players, hand_no, cards, claimed=True)
    assert scored.points == best_arrangement(cards, wild, rules).penalty <= entry.most_points(variant, hand_no)
    assert scored.claim == is_complete(cards, wild, rules)
    assert sorted(scored.cards) == sorted(cards)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), table=variant_tables())
def test_one_copy_more_than_the_shoe_holds_is_always_refused(data, table) -> None:
    variant, players, hand_no = table
    decks = variant.decks_for(players)
    face = data.draw(st.sampled_from(["AS", "7H", "10D", "KC"]))
    size = variant.hand_sizes[hand_no - 1]
    assume(decks + 1 <= size)  # a hand too small to hold one copy too many has nothing to refuse
    error = refusal(entry.preview, variant, players, hand_no, [face] * (decks + 1))
    assert error.key == "error.too_many_copies" and error.params["n"] == decks


def test_the_table_is_told_when_its_hands_together_hold_more_of_a_card_than_the_shoe() -> None:
    hands = [entry.from_cards(PARTY, 5, 1, parse_cards("7H 7H 9C"), False) for _ in range(2)]
    assert entry.overdrawn(PARTY, 5, [*hands, None]) == []  # four 7♥ in four decks: possible
    hands.append(entry.from_cards(PARTY, 5, 1, parse_cards("7H AS 2D"), False))
    hands.append(entry.from_points(PARTY, 1, 3, False))  # typed: no cards to count
    assert entry.overdrawn(PARTY, 5, hands) == parse_cards("7H")
