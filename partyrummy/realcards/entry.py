"""Score entry: a hand the player taps in (or the points they typed), checked against the shoe and solved.

With real cards the engine never saw the hand, so the player tells it. The
cards must be the hand's count and could all have come out of this shoe:
no more copies of a face than there are decks, no more jokers than the
variant adds. The solver of `melds.py` lays them out for the least penalty,
as with cards on the phones. Typed points are taken as given (within what
the hand could cost at most) and marked typed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.cards import JOKER, Card, CardParseError, parse_card
from ..rules.errors import BadCommand
from ..rules.melds import Arrangement, best_arrangement, is_complete, orphan_penalty
from ..rules.variants import Variant

__all__ = [
    "Entry",
    "parse_faces",
    "check_cards",
    "most_points",
    "preview",
    "from_cards",
    "from_points",
    "overdrawn",
]

CARDS, TYPED = "cards", "typed"


@dataclass(frozen=True)
class Entry:
    """One seat's score for one hand and how it came: solved from `cards`, or typed."""

    points: int
    how: str  # CARDS or TYPED
    cards: tuple[Card, ...] = ()
    melds: tuple[tuple[Card, ...], ...] = ()
    orphans: tuple[Card, ...] = ()
    claim: bool | None = None  # the seat called Match!: whether its entry bears it out


def parse_faces(texts: Sequence[str]) -> tuple[Card, ...]:
    """Cards from their short forms ("7H", "10S", "JK"); anything else is refused, naming it."""
    if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
        raise BadCommand("error.not_cards")
    try:
        return tuple(parse_card(t) for t in texts)
    except CardParseError:
        bad = next(t for t in texts if not _parses(t))
        raise BadCommand("error.bad_card", card=bad[:8]) from None


def _parses(text: str) -> bool:
    try:
        parse_card(text)
    except CardParseError:
        return False
    return True


def check_cards(variant: Variant, players: int, size: int, cards: Sequence[Card], whole: bool) -> None:
    """Refuse cards that are not this hand: too many (or, when `whole`, not exactly `size`), or not in the shoe."""
    if len(cards) > size or (whole and len(cards) != size):
        raise BadCommand("error.hand_count", n=size, count=len(cards))
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    if jokers > variant.jokers:
        if not variant.jokers:
            raise BadCommand("error.no_jokers")
        raise BadCommand("error.too_many_jokers", n=variant.jokers)
    decks = variant.decks_for(players)
    for card, count in sorted(counts.items()):
        if count > decks:
            raise BadCommand("error.too_many_copies", card=card, count=count, n=decks)


def most_points(variant: Variant, hand_no: int) -> int:
    """The most a hand can score: every card an orphan of the dearest kind the shoe holds."""
    rules, wild = variant.meld_rules(), variant.wild_rank(hand_no)
    faces = [Card(rank, 0) for rank in range(1, 14)] + ([JOKER] if variant.jokers else [])
    return variant.hand_sizes[hand_no - 1] * max(orphan_penalty(c, wild, rules) for c in faces)


def preview(variant: Variant, players: int, hand_no: int, texts: Sequence[str]) -> Arrangement:
    """The picker's live answer: the cards tapped so far, checked, laid out with their penalty."""
    cards = parse_faces(texts)
    check_cards(variant, players, variant.hand_sizes[hand_no - 1], cards, whole=False)
    return best_arrangement(cards, variant.wild_rank(hand_no), variant.meld_rules())


def from_cards(variant: Variant, players: int, hand_no: int, cards: Sequence[Card], claimed: bool) -> Entry:
    """A confirmed hand of cards, solved; a Match! claim holds only if nothing is left over."""
    check_cards(variant, players, variant.hand_sizes[hand_no - 1], cards, whole=True)
    wild, rules = variant.wild_rank(hand_no), variant.meld_rules()
    laid = best_arrangement(cards, wild, rules)
    claim = is_complete(cards, wild, rules) if claimed else None
    return Entry(laid.penalty, CARDS, tuple(cards), laid.melds, laid.orphans, claim)


def from_points(variant: Variant, hand_no: int, points: int, claimed: bool) -> Entry:
    """Points the player counted; a Match! claim holds only with 0."""
    if not isinstance(points, int) or isinstance(points, bool):
        raise BadCommand("error.not_int", field="points")
    top = most_points(variant, hand_no)
    if not 0 <= points <= top:
        raise BadCommand("error.points_range", n=top)
    return Entry(points, TYPED, claim=(points == 0) if claimed else None)


def overdrawn(variant: Variant, players: int, entries: Sequence[Entry | None]) -> list[Card]:
    """Faces the table's entered hands hold more often, all together, than the shoe does: someone mistyped.

    Each hand alone may be possible while the table's are not (five players each entering 7♥ with
    four decks); nobody's entry is refused for another's mistake, the TV points it out for the host.
    """
    counts = Counter(card for entry in entries if entry is not None for card in entry.cards)
    decks = variant.decks_for(players)
    return sorted(card for card, n in counts.items() if n > (variant.jokers if card == JOKER else decks))
