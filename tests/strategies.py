"""Hypothesis strategies: hands from a shoe, adversarial hands, rule knobs."""

from __future__ import annotations

from hypothesis import strategies as st

from partyrummy.rules.cards import JOKER, Card, make_shoe
from partyrummy.rules.variants import MeldRules

PARTY_PENALTIES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


@st.composite
def meld_rules(draw: st.DrawFn) -> MeldRules:
    return MeldRules(
        aces_high=draw(st.booleans()),
        all_wild_melds=draw(st.booleans()),
        penalties=PARTY_PENALTIES,
        wild_penalty=draw(st.sampled_from([None, 15])),
        joker_penalty=20,
        high_ace_penalty=15,
    )


@st.composite
def shoe_hands(draw: st.DrawFn, min_size: int = 3, max_size: int = 14, jokers: int = 4) -> list[Card]:
    """A hand drawn without replacement from a 4-deck shoe (with some jokers)."""
    shoe = make_shoe(4, jokers)
    size = draw(st.integers(min_size, max_size))
    ids = draw(st.lists(st.integers(0, len(shoe) - 1), min_size=size, max_size=size, unique=True))
    return [shoe[i] for i in ids]


@st.composite
def adversarial_hands(draw: st.DrawFn, max_size: int = 10) -> list[Card]:
    """Long one-suit runs with duplicates, sprinkled with many wilds and jokers."""
    size = draw(st.integers(3, max_size))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    cards = []
    for _ in range(size):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            cards.append(JOKER)
        else:
            cards.append(Card(draw(st.integers(1, 13)), draw(st.sampled_from(suits))))
    return cards


wild_ranks = st.one_of(st.none(), st.integers(3, 13))


@st.composite
def shoe_faces(draw: st.DrawFn, decks: int, jokers: int, size: int) -> tuple[str, ...]:
    """A hand of `size` real cards dealt from a shoe of `decks` decks and `jokers`, as a picker sends them."""
    shoe = make_shoe(decks, jokers)
    ids = draw(st.lists(st.integers(0, len(shoe) - 1), min_size=size, max_size=size, unique=True))
    return tuple(str(shoe[i]) for i in ids)


# -- JSON views (partyrummy/wire/delta.py) ------------------------------------------------------------

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3)
)
JSON_KEYS = st.sampled_from(["id", "a", "b", "seats", "you", "hand", "len", "0", "1"]) | st.text(max_size=2)

json_values = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(JSON_KEYS, inner, max_size=5),
    max_leaves=30,
)


@st.composite
def edited(draw: st.DrawFn, value):
    """`value` with some of its parts changed: kept, replaced, keys added and removed, lists grown and shrunk."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return value
    if choice == 1:
        return draw(json_values)
    if isinstance(value, dict):
        result = {k: draw(edited(v)) for k, v in value.items() if draw(st.integers(0, 4))}  # a fifth go
        result.update(draw(st.dictionaries(JSON_KEYS, json_values, max_size=2)))
        return result
    if isinstance(value, list):
        result = [draw(edited(v)) for v in value]
        cut = draw(st.integers(0, len(result)))
        return result[:cut] + draw(st.lists(json_values, max_size=3))
    return draw(JSON_SCALARS)


@st.composite
def view_histories(draw: st.DrawFn, max_views: int = 6) -> list[dict]:
    """Views one after another, each an edit of the one before, with growing versions."""
    views = [{"v": 1, "room": draw(json_values), "game": draw(json_values)}]
    for _ in range(draw(st.integers(1, max_views - 1))):
        last = views[-1]
        step = draw(st.integers(1, 3))
        views.append({"v": last["v"] + step, "room": draw(edited(last["room"])), "game": draw(edited(last["game"]))})
    return views
