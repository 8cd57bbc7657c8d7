"""Cards as people write them, and the shoe of several decks they come from.

A `Card` is a face (rank and suit); two 7♥ from different decks are equal
cards. The shoe gives every physical card an id (its index in the shoe's
`faces`), so commands and views can name one physical card among identical
ones.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Card",
    "JOKER",
    "RANK_NAMES",
    "SUITS",
    "SUIT_SYMBOLS",
    "CardParseError",
    "parse_card",
    "parse_cards",
    "make_shoe",
    "shuffled",
    "card_view",
]

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
# Index = rank; 0 is the joker.
RANK_NAMES = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class CardParseError(ValueError):
    """A piece of text that names no card."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A face: rank 1..13 (A..K) and suit 0..3 (♣♦♥♠); rank 0 is a joker."""

    rank: int
    suit: int = 0

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def symbol(self) -> str:
        """The form shown to people: 7♥, 10♠, J♣, JK for a joker (words name it in their language)."""
        if self.is_joker:
            return "JK"
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        return RANK_NAMES[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self})"


JOKER = Card(0, 0)

_CARD_RE = re.compile(r"^(10|[2-9]|[AaTtJjQqKk])([CDHScdhs♣♦♥♠])$")
_RANK_INPUT = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13} | {str(r): r for r in range(2, 10)}


def parse_card(text: str) -> Card:
    """One card from its short form: `AS`, `10D`, `TD`, `qh`, `7♥`, `JK` (joker)."""
    token = text.strip()
    if token.upper() in ("JK", "JOKER", "🃏"):
        return JOKER
    m = _CARD_RE.match(token)
    if not m:
        raise CardParseError(f"{text!r} is not a card (write it like AS, 10D, 7H or JK)")
    rank_text, suit_text = m.groups()
    rank = _RANK_INPUT[rank_text.upper()]
    suit_index = SUITS.find(suit_text.upper())
    if suit_index < 0:
        suit_index = SUIT_SYMBOLS.index(suit_text)
    return Card(rank, suit_index)


def parse_cards(text: str) -> list[Card]:
    """Cards from a space- or comma-separated text: `parse_cards("5H 6H 7H")`."""
    return [parse_card(token) for token in re.split(r"[\s,]+", text.strip()) if token]


def make_shoe(decks: int, jokers: int = 0) -> tuple[Card, ...]:
    """The faces of a shoe of `decks` 52-card decks plus `jokers`; a card's id is its index."""
    one_deck = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
    return tuple(one_deck * decks + [JOKER] * jokers)


def shuffled(ids: range | list[int], rng: random.Random) -> list[int]:
    """A uniformly shuffled copy of `ids` (Fisher-Yates, from the given random source)."""
    out = list(ids)
    rng.shuffle(out)
    return out


def card_view(card_id: int | None, face: Card) -> dict[str, Any]:
    """One card: its id (to name it in commands; None for a real card on the table, which has none), its short
    form, its label, rank and suit. The real-cards views send their cards in this shape too.

    Rank 1..13 (0: a joker) and suit 0..3 (♣♦♥♠) let pages sort and colour cards without parsing labels.
    """
    return {"id": card_id, "card": str(face), "label": face.symbol, "rank": face.rank, "suit": face.suit}
