"""Melds, and the exact solver that finds a hand's least-penalty arrangement.

Glossary (RULES.md, Words):
- natural: a card that is not wild this hand.
- wild: a joker, or a card of the hand's wild rank (the round wild).
- set: 3+ cards whose naturals share one rank (identical cards may repeat).
- run: 3+ cards whose naturals share one suit, no rank twice, fitting a window
  of consecutive ranks as long as the meld; aces low (or low-or-high), no wrap.
- orphan: a card in no meld; orphans score against their holder.

How the solver works: wilds are interchangeable, so it counts them instead of
placing them. The naturals form a multiset packed into one int (4 bits per
face). The lowest natural present is either an orphan or in a meld whose other
naturals are all higher, so the search branches on it and memoises on
(multiset, wilds left, whether a meld exists yet). Spare wilds cost nothing
once any meld exists (a set takes any number of them, a run of 6+ can split).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .variants import MeldRules, default_variants

__all__ = [
    "Arrangement",
    "Solver",
    "best_arrangement",
    "best_discard",
    "is_complete",
    "is_meld",
    "is_run",
    "is_set",
    "is_wild",
    "orphan_penalty",
    "party_rules",
]

_BITS = 4  # bits per face in the packed multiset: up to 15 copies of one card in a hand
_MASK = (1 << _BITS) - 1
_LONGEST_RUN = 13


@functools.cache
def party_rules() -> MeldRules:
    """The default variant's meld rules."""
    return default_variants()["party"].meld_rules()


def is_wild(card: Card, wild_rank: int | None) -> bool:
    """Jokers are always wild; so is every card of the hand's wild rank."""
    return card.is_joker or card.rank == wild_rank


def orphan_penalty(card: Card, wild_rank: int | None, rules: MeldRules) -> int:
    """What `card` scores against its holder when it is in no meld."""
    if card.is_joker:
        return rules.joker_penalty
    if card.rank == wild_rank and rules.wild_penalty is not None:
        return rules.wild_penalty
    if card.rank == 1 and rules.aces_high:
        return rules.high_ace_penalty
    return rules.penalties[card.rank]


# -- The definition of a meld, for one concrete group of cards ---------------


def is_set(naturals: Sequence[Card]) -> bool:
    """All naturals share one rank (any suits, repeats allowed)."""
    return len({c.rank for c in naturals}) <= 1


def is_run(naturals: Sequence[Card], length: int, aces_high: bool = False) -> bool:
    """The naturals fit one suit, distinct ranks, in a window of `length` consecutive ranks."""
    if length > _LONGEST_RUN:
        return False
    if len({c.suit for c in naturals}) > 1 or len({c.rank for c in naturals}) != len(naturals):
        return False
    if not naturals:
        return True
    ranks = [c.rank for c in naturals]
    spans = [max(ranks) - min(ranks) + 1]
    if aces_high and 1 in ranks:
        high = [14 if r == 1 else r for r in ranks]
        spans.append(max(high) - min(high) + 1)
    return min(spans) <= length


def is_meld(cards: Sequence[Card], wild_rank: int | None, rules: MeldRules | None = None) -> bool:
    """Whether these cards, all together, form one set or one run."""
    rules = rules or party_rules()
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if not is_wild(c, wild_rank)]
    if not rules.all_wild_melds and all(c.is_joker for c in cards):
        return False
    return is_set(naturals) or is_run(naturals, len(cards), rules.aces_high)


# -- The solver ---------------------------------------------------------------


@dataclass(frozen=True)
class Arrangement:
    """A hand laid out: its melds, its orphans and the penalty the orphans score."""

    penalty: int
    melds: tuple[tuple[Card, ...], ...]
    orphans: tuple[Card, ...]


class Solver:
    """Least-penalty arrangements for one wild rank and rule set.

    One solver's memo serves many hands: the candidates for a discard are all
    sub-multisets of the same hand, so asking for each of them reuses work.
    """

    def __init__(self, wild_rank: int | None, rules: MeldRules | None = None) -> None:
        self.wild_rank = wild_rank
        self.rules = rules or party_rules()
        # state key -> (least penalty, the option that gives it)
        self._memo: dict[int, tuple[int, tuple[int, int, int, bool]]] = {}
        self._memo_no_meld: dict[int, tuple[int, tuple[int, int, int, bool]]] = {}
        self._pen = _penalty_table(self.rules)

    # Public API ---------------------------------------------------------

    def penalty(self, cards: Sequence[Card]) -> int:
        """The least penalty of `cards`."""
        packed, wilds = self._start(cards)
        return self._best(packed, len(wilds), False)

    def penalties_without_each(self, cards: Sequence[Card]) -> list[int]:
        """For each card, the least penalty of the hand without it (the discard candidates).

        Every candidate is a sub-multiset of the same hand, so they share one memo;
        dropping a natural keeps the hand's wilds, and so its no-meld memo too.
        """
        packed, wilds = self._start(cards)
        out: list[int] = []
        done: dict[Card, int] = {}
        for i, card in enumerate(cards):
            if card in done:
                out.append(done[card])
                continue
            if not is_wild(card, self.wild_rank):
                value = self._best(packed - (1 << (_face(card) * _BITS)), len(wilds), False)
            else:
                value = self.penalty([*cards[:i], *cards[i + 1 :]])
                self._start(cards)
            done[card] = value
            out.append(value)
        return out

    def arrange(self, cards: Sequence[Card]) -> Arrangement:
        """The least-penalty arrangement of `cards`, melds and orphans made of the given cards."""
        packed, wilds = self._start(cards)
        total = self._best(packed, len(wilds), False)
        groups, orphan_faces = self._trace(packed, len(wilds))
        pools: dict[int, list[Card]] = {}
        for card in cards:
            if not is_wild(card, self.wild_rank):
                pools.setdefault(_face(card), []).append(card)
        melds = [[pools[f].pop() for f in faces] for faces, _ in groups]
        orphans = [pools[f].pop() for f in orphan_faces]
        spare = list(wilds)
        for meld, (_, need) in zip(melds, groups, strict=True):
            meld.extend(spare.pop() for _ in range(need))
        if melds:
            _place_spare_wilds(melds, spare, self.wild_rank)
        elif self._all_wild_meld_ok(wilds):
            melds.append(spare)
        else:
            orphans.extend(spare)
        laid = tuple(_in_order(m, self.wild_rank, self.rules.aces_high) for m in melds)
        return Arrangement(total, laid, tuple(orphans))

    # The search ---------------------------------------------------------

    def _start(self, cards: Sequence[Card]) -> tuple[int, list[Card]]:
        """Pack a hand's naturals and price its wilds for when nothing melds."""
        packed, wilds = self._pack(cards)
        # States without a meld end by pricing this hand's own wilds: their memo is per hand.
        self._memo_no_meld = {}
        if self._all_wild_meld_ok(wilds):
            self._no_meld = 0
        else:
            self._no_meld = sum(orphan_penalty(c, self.wild_rank, self.rules) for c in wilds)
        return packed, wilds

    def _pack(self, cards: Sequence[Card]) -> tuple[int, list[Card]]:
        packed = 0
        wilds: list[Card] = []
        wild_rank = self.wild_rank
        for card in cards:
            rank = card.rank
            if not rank or rank == wild_rank:
                wilds.append(card)
                continue
            shift = ((rank - 1) * 4 + card.suit) * _BITS  # _face(card), inlined: the solver's hottest loop
            if (packed >> shift) & _MASK == _MASK:
                raise ValueError(f"too many copies of {card} in one hand")
            packed += 1 << shift
        return packed, wilds

    def _all_wild_meld_ok(self, wilds: Sequence[Card]) -> bool:
        # Without all-wild melds a round wild still plays as itself, so it anchors a set.
        return len(wilds) >= 3 and (self.rules.all_wild_melds or any(not c.is_joker for c in wilds))

    def _best(self, packed: int, wilds: int, has_meld: bool) -> int:
        if not packed:
            return 0 if has_meld else self._no_meld
        key = _key(packed, wilds, has_meld)
        memo = self._memo if has_meld else self._memo_no_meld
        found = memo.get(key)
        if found is not None:
            return found[0]
        best = None
        for option in self._options(packed, wilds):
            cost, rest, left, is_group = option
            value = cost + self._best(rest, left, has_meld or is_group)
            if best is None or value < best[0]:
                best = (value, option)
                if not value:
                    break  # nothing beats no penalty
        memo[key] = best
        return best[0]

    def _options(self, packed: int, wilds: int) -> list[tuple[int, int, int, bool]]:
        """Each place for the lowest natural: (cost, naturals left, wilds left, is a meld).

        Melds come first so a complete hand is found before any orphan is tried.
        """
        face = ((packed & -packed).bit_length() - 1) >> 2
        if wilds < 2 and self._alone(packed, wilds, face):
            # No meld can hold it: an orphan, and so are the next lowest cards while alone too.
            cost, rest = 0, packed
            while True:  # the lowest card of `rest` is alone here
                cost += self._pen[face]
                rest -= 1 << (face << 2)
                if not rest:
                    break
                face = ((rest & -rest).bit_length() - 1) >> 2
                if not self._alone(rest, wilds, face):
                    break
            return [(cost, rest, wilds, False)]
        rank0, suit = face >> 2, face & 3  # rank0: 0 for an ace … 12 for a King
        options: list[tuple[int, int, int, bool]] = []
        # Sets: any sub-multiset of this rank's cards that holds the lowest one.
        takes = [(0, 0)]  # (cards removed, how many)
        for f in range(face, (rank0 + 1) << 2):
            count = (packed >> (f << 2)) & _MASK
            if count:
                unit = 1 << (f << 2)
                first = 1 if f == face else 0
                takes = [(rem + k * unit, n + k) for rem, n in takes for k in range(first, count + 1)]
        for removed, size in takes:
            need = 3 - size if size < 3 else 0
            if need <= wilds:
                options.append((0, packed - removed, wilds - need, True))
        # Runs: the lowest card and higher cards of its suit, gaps filled by wilds.
        self._add_runs(options, packed, wilds, rank0 + 1, suit, 1)
        if rank0 == 0 and self.rules.aces_high:
            self._add_runs(options, packed, wilds, 14, suit, -1)  # the ace above the King
        options.append((self._pen[face], packed - (1 << (face << 2)), wilds, False))
        return options

    def _alone(self, packed: int, wilds: int, face: int) -> bool:
        """With fewer than two wilds, whether the lowest card can be in no meld at all."""
        rank0, suit = face >> 2, face & 3
        if (packed >> (rank0 << 4)) & 0xFFFF != 1 << (suit << 2):
            return False  # another card of its rank: maybe a set

        def has(r0: int) -> int:
            return r0 < 13 and (packed >> (((r0 << 2) + suit) << 2)) & _MASK

        high_ace = rank0 == 0 and self.rules.aces_high
        if wilds:  # one wild: a run needs a suit-mate one or two ranks away
            return not (has(rank0 + 1) or has(rank0 + 2) or (high_ace and (has(12) or has(11))))
        return not ((has(rank0 + 1) and has(rank0 + 2)) or (high_ace and has(12) and has(11)))

    @staticmethod
    def _add_runs(options: list, packed: int, wilds: int, pos0: int, suit: int, step: int) -> None:
        """Runs from the lowest card at rank position `pos0` (14: a high ace), growing by `step`."""
        rank = 1 if pos0 == 14 else pos0
        start_bit = 1 << ((((rank - 1) << 2) + suit) << 2)
        stop = min(13, pos0 + _LONGEST_RUN - 1) + 1 if step == 1 else max(2, pos0 - _LONGEST_RUN + 1) - 1
        stack = [(pos0, 1, start_bit)]
        while stack:
            last, n, removed = stack.pop()
            if n >= 2:  # a lone natural with two wilds is already a set
                span = last - pos0 + 1 if step == 1 else pos0 - last + 1
                need = (span if span > 3 else 3) - n
                if need <= wilds:
                    options.append((0, packed - removed, wilds - need, True))
            for nxt in range(last + step, stop, step):
                if (nxt - pos0 if step == 1 else pos0 - nxt) - n > wilds:
                    break  # the gaps only grow from here
                bit = 1 << ((((nxt - 1) << 2) + suit) << 2)
                if packed & (bit * _MASK):
                    stack.append((nxt, n + 1, removed + bit))

    def _trace(self, packed: int, wilds: int) -> tuple[list[tuple[list[int], int]], list[int]]:
        """Follow the memo's best choices down from a solved hand: (melds as faces with wilds used, orphan faces).

        Working out a state's best option evaluated that option's child, so every step is in the memo.
        """
        groups: list[tuple[list[int], int]] = []
        orphans: list[int] = []
        has_meld = False
        while packed:
            memo = self._memo if has_meld else self._memo_no_meld
            _, (_, rest, left, is_group) = memo[_key(packed, wilds, has_meld)]
            faces = _unpack(packed - rest)
            (groups.append((faces, wilds - left)) if is_group else orphans.extend(faces))
            packed, wilds, has_meld = rest, left, has_meld or is_group
        return groups, orphans


def _key(packed: int, wilds: int, has_meld: bool) -> int:
    """One int for a search state: the naturals left, the wilds left, whether a meld exists yet."""
    return ((packed << 5 | wilds) << 1) | has_meld


def _face(card: Card) -> int:
    """A natural's index in the packed multiset (4 bits each)."""
    return (card.rank - 1) * 4 + card.suit


def _unpack(packed: int) -> list[int]:
    """The faces in a packed multiset, one entry per card."""
    faces = []
    while packed:
        face = ((packed & -packed).bit_length() - 1) >> 2
        count = (packed >> (face << 2)) & _MASK
        faces.extend([face] * count)
        packed -= count << (face << 2)
    return faces


@functools.cache
def _penalty_table(rules: MeldRules) -> tuple[int, ...]:
    """Orphan penalty by face index, for naturals."""
    return tuple(orphan_penalty(Card(face // 4 + 1, face % 4), None, rules) for face in range(52))


def _place_spare_wilds(melds: list[list[Card]], spare: list[Card], wild_rank: int | None) -> None:
    """Put wilds no meld needed into melds that can take them (they then cost nothing)."""
    while spare:
        for meld in melds:
            naturals = [c for c in meld if not is_wild(c, wild_rank)]
            if is_set(naturals) or len(meld) < _LONGEST_RUN:
                meld.append(spare.pop())
                break
        else:
            melds.extend(_split_full_run(melds.pop(), wild_rank))


def _split_full_run(run: list[Card], wild_rank: int | None) -> list[list[Card]]:
    """A 13-card run as A-6 and 7-K: two runs that can each take another wild."""
    wilds = [c for c in run if is_wild(c, wild_rank)]
    low = [c for c in run if not is_wild(c, wild_rank) and c.rank <= 6]
    high = [c for c in run if not is_wild(c, wild_rank) and c.rank > 6]
    while len(low) < 6:
        low.append(wilds.pop())
    return [low, high + wilds]


def _in_order(meld: list[Card], wild_rank: int | None, aces_high: bool) -> tuple[Card, ...]:
    """A meld as people lay it: a run in rank order with each wild in the gap it fills."""
    naturals = [c for c in meld if not is_wild(c, wild_rank)]
    wilds = [c for c in meld if is_wild(c, wild_rank)]
    if is_set(naturals):
        return (*naturals, *wilds)
    high = aces_high and not is_run(naturals, len(meld))  # only fits with the ace above the King

    def position(card: Card) -> int:
        return 14 if high and card.rank == 1 else card.rank

    naturals.sort(key=position)
    laid: list[Card] = []
    for card in naturals:
        while laid and wilds and len(laid) < position(card) - position(naturals[0]):
            laid.append(wilds.pop())
        laid.append(card)
    return (*laid, *wilds)


def best_arrangement(cards: Sequence[Card], wild_rank: int | None, rules: MeldRules | None = None) -> Arrangement:
    """The least-penalty arrangement of a hand (`.penalty`, `.melds`, `.orphans`)."""
    return Solver(wild_rank, rules).arrange(cards)


def _unit_rules(rules: MeldRules) -> MeldRules:
    # Every card scores 1, so the least penalty is the fewest orphans.
    return dataclasses.replace(rules, penalties=(0,) + (1,) * 13, wild_penalty=1, joker_penalty=1, high_ace_penalty=1)


def is_complete(cards: Sequence[Card], wild_rank: int | None, rules: MeldRules | None = None) -> bool:
    """Whether every card of the hand can be in a meld."""
    return len(cards) > 0 and Solver(wild_rank, _unit_rules(rules or party_rules())).penalty(cards) == 0


def best_discard(cards: Sequence[Card], wild_rank: int | None, rules: MeldRules | None = None) -> int:
    """Index of the card whose discard leaves the least penalty.

    Ties go to the card that would score most if it stayed an orphan.
    """
    solver = Solver(wild_rank, rules)
    left = solver.penalties_without_each(cards)
    return min(range(len(cards)), key=lambda i: (left[i], -orphan_penalty(cards[i], wild_rank, solver.rules), i))
