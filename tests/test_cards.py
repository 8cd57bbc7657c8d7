"""Card text forms, the shoe, and the shuffle."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from partyrummy.rules.cards import JOKER, Card, CardParseError, make_shoe, parse_card, parse_cards, shuffled


def test_the_forms_people_write() -> None:
    assert parse_cards("AS 2H 10D JC QD KS JK") == [
        Card(1, 3),
        Card(2, 2),
        Card(10, 1),
        Card(11, 0),
        Card(12, 1),
        Card(13, 3),
        JOKER,
    ]
    assert parse_card("TD") == parse_card("10d") == parse_card("10♦") == Card(10, 1)
    assert parse_card("qh") == parse_card("Q♥")
    assert parse_cards("5H, 6H 7H") == [Card(5, 2), Card(6, 2), Card(7, 2)]


@pytest.mark.parametrize("bad", ["1H", "11S", "ZZ", "H7", "", "10X"])
def test_nonsense_is_refused_with_a_readable_message(bad: str) -> None:
    with pytest.raises(CardParseError, match="not a card"):
        parse_card(bad)


def test_str_is_one_consistent_form_that_parses_back() -> None:
    for card in make_shoe(1, 1):
        assert parse_card(str(card)) == card
        assert parse_card(card.symbol) == card
    assert str(Card(10, 2)) == "10H" and Card(10, 2).symbol == "10♥"


def test_a_shoe_of_four_decks_counts_each_physical_card_once() -> None:
    shoe = make_shoe(4, 2)
    assert len(shoe) == 210
    counts = Counter(shoe)
    assert counts[Card(7, 2)] == 4 and counts[JOKER] == 2
    assert len(counts) == 53


def test_shuffle_is_seeded_and_uniform() -> None:
    assert shuffled(range(52), random.Random(7)) == shuffled(range(52), random.Random(7))
    assert shuffled(range(52), random.Random(7)) != shuffled(range(52), random.Random(8))
    rng = random.Random(1)
    counts = Counter(tuple(shuffled(range(3), rng)) for _ in range(12000))
    assert len(counts) == 6
    # Each of the 6 orders should come up about 2000 times (sd ~ 41).
    assert all(1800 < n < 2200 for n in counts.values()), counts
