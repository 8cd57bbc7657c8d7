"""Computer players in the engine's terms: what to draw, what to discard, when to call Match!.

A bot sees what a phone sees: its own hand, the top of the pile it may take
from (its right-hand neighbour's, or the shared one in turn-based play), and
the cards that have lain face up. The same `Bot` plays in `partyrummy
simulate` (on the engine), in a room (the caller plays a bot's seat) and over
Socket.IO (`partyrummy bots`).

- `sharp` takes the pile's top card when keeping it, after the best discard,
  leaves less penalty than the hand has now; it discards the card whose loss
  leaves the least penalty, and among equal choices keeps the cards that can
  still grow melds, counting copies already seen face up as gone.
- `easy` takes the pile only for a wild, and throws its highest orphan that is
  not a wild, as the arrangement lies, without looking ahead.

A wild on the pile is judged like any card by sharp; easy keeps the wilds it
takes. So a wild that costs more than it saves (15 points in `app`) is not
passed round the table for ever.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.cards import Card
from ..rules.melds import Solver, is_complete, is_wild, orphan_penalty
from ..rules.variants import MeldRules
from .commands import CallMatch, Choose, Command, Draw, Ready
from .hand import ACTING, MATCH_WINDOWS, HandState

__all__ = ["Bot", "STRENGTHS", "bot_move", "seen_face_up"]

STRENGTHS = ("easy", "sharp")


@dataclass
class Bot:
    strength: str
    _solver: Solver | None = None

    def __post_init__(self) -> None:
        if self.strength not in STRENGTHS:
            raise ValueError(f"a bot is {' or '.join(STRENGTHS)}, not {self.strength!r}")

    def solver(self, wild_rank: int | None, rules: MeldRules) -> Solver:
        """One solver per hand (wild rank and rules): its memo serves every cycle of the hand."""
        if self._solver is None or self._solver.wild_rank != wild_rank or self._solver.rules != rules:
            self._solver = Solver(wild_rank, rules)
        return self._solver

    def draw(self, hand: Sequence[Card], pile_top: Card | None, wild_rank: int | None, rules: MeldRules) -> str:
        """ "shoe" or "pile" (the one this seat may take from)."""
        if pile_top is None:
            return "shoe"
        if self.strength == "easy":
            return "pile" if is_wild(pile_top, wild_rank) else "shoe"
        solver = self.solver(wild_rank, rules)
        with_top = min(solver.penalties_without_each([*hand, pile_top]))
        return "pile" if with_top < solver.penalty(hand) else "shoe"

    def discard(
        self,
        hand: Sequence[Card],
        wild_rank: int | None,
        rules: MeldRules,
        decks: int,
        seen: Counter[Card] | None = None,
    ) -> int:
        """The index in `hand` of the card to discard; `decks` (copies of each card) counts what is still live."""
        solver = self.solver(wild_rank, rules)
        if self.strength == "easy":
            orphans = [c for c in solver.arrange(hand).orphans if not is_wild(c, wild_rank)]
            if orphans:
                worst = max(orphans, key=lambda c: orphan_penalty(c, wild_rank, rules))
                return hand.index(worst)
        left = solver.penalties_without_each(hand)
        if self.strength == "easy":  # everything melds (or only wilds are loose): the least costly card
            return left.index(min(left))
        best = min(left)
        seen = seen or Counter()
        return min(
            (i for i in range(len(hand)) if left[i] == best),
            key=lambda i: (
                self._promise(hand, i, wild_rank, decks, seen),
                -orphan_penalty(hand[i], wild_rank, rules),
                i,
            ),
        )

    @staticmethod
    def _promise(hand: Sequence[Card], i: int, wild_rank: int | None, decks: int, seen: Counter[Card]) -> float:
        """How much a card could still grow melds: mates in hand, and live cards that would join it."""
        card = hand[i]
        if is_wild(card, wild_rank):
            return float("inf")  # a wild fits anything: never the one to give away
        mates = 0.0
        for j, other in enumerate(hand):
            if j == i or is_wild(other, wild_rank):
                continue
            if other.rank == card.rank:
                mates += 2
            elif other.suit == card.suit and abs(other.rank - card.rank) <= 2:
                mates += 1
        # Cards that would make a pair into a set or a neighbour into a run: each copy seen face up is gone.
        wanted = [Card(card.rank, s) for s in range(4)] + [
            Card(r, card.suit) for r in (card.rank - 1, card.rank + 1) if 1 <= r <= 13
        ]
        live = sum(max(0, decks - seen[w] - hand.count(w)) for w in wanted)
        return mates + live / (decks * 6)

    def match(self, hand: Sequence[Card], wild_rank: int | None, rules: MeldRules) -> bool:
        """Call Match! when every card melds."""
        return is_complete(hand, wild_rank, rules)


def seen_face_up(hand: HandState) -> Counter[Card]:
    """What an attentive player has seen: every card on the piles (each lay face up on top once)."""
    return Counter(hand.faces[c] for pile in hand.piles for c in pile)


def bot_move(hand: HandState, seat: int, bot: Bot, seen: Counter[Card] | None = None) -> Command | None:
    """The bot's next command at this seat, or None if it has nothing to do now."""
    if not 0 <= seat < hand.players or seat in hand.matched:
        return None
    rules = hand.variant.meld_rules()
    wild = hand.wild_rank
    cards = hand.cards_of(hand.hands[seat])
    if hand.phase in MATCH_WINDOWS:  # Match! if it can, else it goes on at once: no window waits for a bot
        if len(cards) == hand.size and bot.match(cards, wild, rules):
            return CallMatch(seat)
        return None if seat in hand.going_on else Ready(seat, True, hand.cycle)
    if not hand.active(seat):
        return None
    if hand.phase not in ACTING:
        return None
    if hand.drawn[seat] is None:
        pile = hand.piles[hand.pile_from(seat)]
        top = hand.faces[pile[-1]] if pile else None
        return Draw(seat, bot.draw(cards, top, wild, rules), hand.cycle)
    if hand.picks[seat] is None:
        index = bot.discard(cards, wild, rules, hand.decks, seen if seen is not None else seen_face_up(hand))
        return Choose(seat, hand.hands[seat][index], hand.cycle)
    return None
