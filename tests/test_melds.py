"""The meld rules and the solver, checked by hand and against the exhaustive reference."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyrummy.rules.cards import Card, parse_cards
from partyrummy.rules.melds import Solver, best_arrangement, is_complete, is_meld, orphan_penalty, party_rules

from .reference import reference_penalty
from .strategies import adversarial_hands, meld_rules, shoe_hands, wild_ranks

PARTY = party_rules()
HIGH = dataclasses.replace(PARTY, aces_high=True)
NO_ALL_WILD = dataclasses.replace(PARTY, all_wild_melds=False)


def penalty(text: str, wild: int | None, rules=PARTY) -> int:
    return best_arrangement(parse_cards(text), wild, rules).penalty


@pytest.mark.parametrize(
    ("hand", "wild", "expected"),
    [
        ("5H 6H 7H KS KD KC", 6, 0),  # the README example: a run and a set
        ("7H 7H 7S", None, 0),  # identical cards from two decks make a set
        ("AH 2H 3H", None, 0),  # aces are low
        ("QH KH AH", None, 21),  # ... and only low: Q-K-A is no run
        ("KH AH 2H", None, 13),  # runs never wrap
        ("5H 7H 3S", 3, 0),  # two of a run with a one-rank gap, and a wild
        ("9C 9D 4S", 4, 0),  # a pair and a wild
        ("4S 4H 9C", 4, 0),  # two wilds and any card
        ("3C 3H 3S", 3, 0),  # round wilds meld as themselves too
        ("2C 9D KS", 3, 21),  # nothing melds: every card scores
        ("2C 9D 3S", 3, 14),  # an orphaned round wild scores its face value
        ("5H 5H 6H 7H", None, 5),  # a card is in one meld only
        ("5H 6H 7H 8H 8C 8D", None, 0),  # ... so 8H goes where it helps most: 5-6-7 and 8-8-8
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", None, 0),  # a 13-card run
        ("2D 2D 2D 2D 2D 9D", None, 9),
    ],
)
def test_known_hands(hand: str, wild: int | None, expected: int) -> None:
    assert penalty(hand, wild) == expected


def test_aces_low_or_high_makes_q_k_a_a_run_and_a_high_ace_score_15() -> None:
    assert penalty("QH KH AH", None, HIGH) == 0
    assert penalty("AH 2H 3H", None, HIGH) == 0
    assert penalty("KH AH 2H", None, HIGH) == 10 + 15 + 2  # still no wrapping
    assert penalty("AS 9D", None, HIGH) == 15 + 9
    assert penalty("AS 9D", None, PARTY) == 1 + 9


def test_wild_penalty_knob_prices_an_orphaned_wild() -> None:
    assert penalty("2C 9D 3S", 3, dataclasses.replace(PARTY, wild_penalty=15)) == 2 + 9 + 15
    assert penalty("2C JK", None) == 2 + 20


def test_all_wild_melds_knob() -> None:
    assert penalty("JK JK JK", None, PARTY) == 0
    assert penalty("JK JK JK", None, NO_ALL_WILD) == 60
    assert penalty("JK JK JK 9C", None, NO_ALL_WILD) == 0  # the jokers join the 9 instead
    assert penalty("JK JK 5S", 5, NO_ALL_WILD) == 0  # a round wild plays as itself


def test_spare_wilds_are_free_once_a_meld_exists() -> None:
    assert penalty("5H 6H 7H 9S 9C 9D 9H", 9) == 0
    # A full 13-card run and one more wild: the run splits so the wild fits.
    hand = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH KS")
    result = best_arrangement(hand, 13)
    assert result.penalty == 0 and all(is_meld(m, 13) for m in result.melds)


def test_arrangement_uses_exactly_the_given_cards() -> None:
    hand = parse_cards("5H 6H 7H KS KD KC 2D JK")
    result = best_arrangement(hand, 6)
    laid = [c for m in result.melds for c in m] + list(result.orphans)
    assert Counter(laid) == Counter(hand)
    assert result.penalty == sum(orphan_penalty(c, 6, PARTY) for c in result.orphans)


def test_is_complete() -> None:
    assert is_complete(parse_cards("5H 6H 7H KS KD KC"), 6)
    assert is_complete(parse_cards("5H 6H 7H 8H"), 4)
    assert not is_complete(parse_cards("5H 6H 7H 9S"), 4)
    assert is_complete(parse_cards("5H 6H 7H 9S"), 9)  # the 9 stands for 8H
    assert not is_complete(parse_cards("5H 6H 8S 9S"), 4)


def check_against_reference(hand: list[Card], wild: int | None, rules) -> None:
    result = best_arrangement(hand, wild, rules)
    assert result.penalty == reference_penalty(hand, wild, rules), [str(c) for c in hand]
    laid = [c for m in result.melds for c in m] + list(result.orphans)
    assert Counter(laid) == Counter(hand)
    assert all(is_meld(m, wild, rules) for m in result.melds)
    assert result.penalty == sum(orphan_penalty(c, wild, rules) for c in result.orphans)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=shoe_hands(), wild=wild_ranks, rules=meld_rules())
def test_solver_matches_reference_on_shoe_hands(hand, wild, rules) -> None:
    check_against_reference(hand, wild, rules)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=adversarial_hands(), wild=wild_ranks, rules=meld_rules())
def test_solver_matches_reference_on_adversarial_hands(hand, wild, rules) -> None:
    check_against_reference(hand, wild, rules)


@settings(max_examples=300, deadline=None)
@given(hand=shoe_hands(max_size=10), wild=wild_ranks, rules=meld_rules())
def test_is_complete_matches_reference(hand, wild, rules) -> None:
    unit = dataclasses.replace(rules, penalties=(0,) + (1,) * 13, wild_penalty=1, joker_penalty=1, high_ace_penalty=1)
    assert is_complete(hand, wild, rules) == (reference_penalty(hand, wild, unit) == 0)


@settings(max_examples=200, deadline=None)
@given(hand=shoe_hands(min_size=4), wild=wild_ranks, data=st.data())
def test_one_solver_serves_many_hands(hand, wild, data) -> None:
    # A shared memo must give each sub-hand the answer a fresh solver gives.
    solver = Solver(wild)
    for i in range(len(hand)):
        rest = hand[:i] + hand[i + 1 :]
        assert solver.penalty(rest) == best_arrangement(rest, wild).penalty


@settings(max_examples=300, deadline=None)
@given(hand=shoe_hands(min_size=4), wild=wild_ranks, rules=meld_rules())
def test_best_discard_leaves_the_least_penalty(hand, wild, rules) -> None:
    from partyrummy.rules.melds import best_discard

    left = [best_arrangement(hand[:i] + hand[i + 1 :], wild, rules).penalty for i in range(len(hand))]
    assert Solver(wild, rules).penalties_without_each(hand) == left
    assert left[best_discard(hand, wild, rules)] == min(left)
