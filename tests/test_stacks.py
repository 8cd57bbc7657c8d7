"""The shoe as a stack per seat (own-order): the deal goes on round robin, a seat draws its own top, an empty
stack borrows from the fullest one's bottom, and a leaver's cards go under the others'."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from partyrummy.phones import stacks
from partyrummy.phones.hand import deal


def test_the_cards_are_dealt_round_robin_from_seat_0_each_on_top_of_its_stack() -> None:
    assert stacks.split([10, 11, 12, 13, 14], 2) == ((10, 12, 14), (11, 13))
    assert stacks.split([10, 11, 12], 2, first=1) == ((11,), (10, 12))
    assert stacks.count(((1, 2), (), (3,))) == 3


def test_a_seat_draws_the_top_of_its_own_stack() -> None:
    assert stacks.take(((1, 2), (3, 4)), 0) == (2, ((1,), (3, 4)))


def test_an_empty_stack_borrows_the_bottom_of_the_fullest_ties_to_the_nearest_on_the_left() -> None:
    # Seat 1 is empty: seats 0 and 3 hold two each, seat 2 one; seat 1's left is seat 2, then 3, then 0.
    held = ((1, 2), (), (5,), (6, 7))
    assert stacks.lender(held, 1) == 3
    assert stacks.take(held, 1) == (6, ((1, 2), (), (5,), (7,)))  # the bottom: seat 3 still draws 7 next
    assert stacks.lender(((1,), (), (5,)), 1) == 2  # a tie: seat 2 is on seat 1's left, seat 0 two away
    assert stacks.take(((), ()), 0) is None


def test_cards_put_under_go_round_from_the_first_seat_and_are_drawn_after_the_stacks_own() -> None:
    under = stacks.put_under(((1,), (2,), (3,)), [7, 8, 9, 10], first=1)
    assert under == ((9, 1), (10, 7, 2), (8, 3))
    card, rest = stacks.take(under, 1)
    assert card == 2 and stacks.take(rest, 1)[0] == 7  # its own card first, then what it was given, in order


@given(
    cards=st.lists(st.integers(0, 500), unique=True, max_size=60),
    players=st.integers(2, 12),
    draws=st.lists(st.integers(0, 11), max_size=80),
)
def test_taking_loses_no_card_and_an_owner_draws_its_own_stack_in_order(cards, players, draws) -> None:
    held = dealt = stacks.split(cards, players)
    own: list[list[int]] = [[] for _ in range(players)]
    drawn = []
    for seat in (d % players for d in draws):
        mine = bool(held[seat])
        taken = stacks.take(held, seat)
        if taken is None:
            assert stacks.count(held) == 0
            continue
        card, held = taken
        drawn.append(card)
        if mine:
            own[seat].append(card)
    assert sorted(drawn + [c for stack in held for c in stack]) == sorted(cards)
    for seat in range(players):  # whoever borrowed from it, a seat's own draws come off its stack from the top
        assert own[seat] == list(reversed(dealt[seat]))[: len(own[seat])]


def test_tables_of_the_same_size_and_seed_get_the_same_stacks(party) -> None:
    one, _ = deal(party, 5, "night-7", 3, draws="own-order")
    other, _ = deal(party, 5, "night-7", 3, dealer=2, draws="own-order")
    assert one.stacks == other.stacks and one.hands == other.hands and one.shoe == ()
    assert [len(s) for s in one.stacks] == [36, 36, 36, 35, 35]  # 208 - 5 × 5 - 5 = 178, round robin from seat 0
    # The same cards as the one shoe holds, dealt on from its top.
    shoe, _ = deal(party, 5, "night-7", 3)
    assert stacks.split(reversed(shoe.shoe), 5) == one.stacks
    assert deal(party, 6, "night-7", 3, draws="own-order")[0].stacks != one.stacks
