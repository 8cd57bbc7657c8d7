"""An exhaustive, obviously-correct meld solver to check the fast one against.

It tries every way to split the hand into melds (each checked with
`is_meld`, the rule's own definition) and orphans. The only shortcuts are
ones a reader can check at a glance: the first card is either an orphan or in
a meld with some of the others; a meld holding a natural card holds only
cards of its rank or its suit, or wilds; identical cards are tried once.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence

from partyrummy.rules.cards import Card
from partyrummy.rules.melds import is_meld, is_wild, orphan_penalty
from partyrummy.rules.variants import MeldRules


def reference_penalty(cards: Sequence[Card], wild_rank: int | None, rules: MeldRules) -> int:
    def score(card: Card) -> int:
        return orphan_penalty(card, wild_rank, rules)

    @functools.cache
    def best(rest: tuple[Card, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        result = score(first) + best(others)
        mates = [
            c
            for c in others
            if is_wild(first, wild_rank) or is_wild(c, wild_rank) or c.rank == first.rank or c.suit == first.suit
        ]
        tried: set[tuple[Card, ...]] = set()
        for size in range(2, len(mates) + 1):
            for combo in itertools.combinations(mates, size):
                if combo in tried:
                    continue
                tried.add(combo)
                if is_meld((first, *combo), wild_rank, rules):
                    left = Counter(others)
                    left.subtract(combo)
                    result = min(result, best(tuple(sorted(left.elements(), key=order))))
        return result

    def order(card: Card) -> tuple[bool, Card]:
        return (is_wild(card, wild_rank), card)

    return best(tuple(sorted(cards, key=order)))
