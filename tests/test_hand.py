"""The hand in both pacings: deal, draw, choose, reveal, match, last cycle, scoring; and turns."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from partyrummy.phones.commands import AutoPlay, Call, CallMatch, Choose, Draw, Drew, Matched, Revealed, ShoeRefilled
from partyrummy.phones.hand import HandState, Phase, apply, deal, leave
from partyrummy.rules.cards import Card, make_shoe, parse_cards
from partyrummy.rules.errors import (
    AlreadyDone,
    BadCommand,
    CannotDraw,
    NotComplete,
    NotHeld,
    OutOfPhase,
    Stale,
    Waiting,
)
from partyrummy.rules.melds import best_arrangement
from partyrummy.rules.variants import Variant

from .words import refused


def ids_for(text: str, taken: set[int], faces: tuple[Card, ...] | None = None) -> tuple[int, ...]:
    """Physical card ids for the faces in `text` (of a 4-deck shoe by default), none of them already used."""
    faces = faces or make_shoe(4)
    out = []
    for card in parse_cards(text):
        card_id = next(i for i, f in enumerate(faces) if f == card and i not in taken)
        taken.add(card_id)
        out.append(card_id)
    return tuple(out)


def rigged(party: Variant, hands: list[str], piles: list[str], hand_no: int = 1) -> HandState:
    """A dealt hand with the given cards, the rest of the shoe in order."""
    state, _ = deal(party, len(hands), seed=1, hand_no=hand_no)
    taken: set[int] = set()
    hand_ids = tuple(ids_for(h, taken, state.faces) for h in hands)
    pile_ids = tuple(ids_for(p, taken, state.faces) for p in piles)
    shoe = tuple(i for i in range(len(state.faces)) if i not in taken)
    return replace(state, hands=hand_ids, piles=pile_ids, shoe=shoe)


def total_cards(state: HandState) -> int:
    return len(state.shoe) + sum(map(len, state.hands)) + sum(map(len, state.piles))


def test_deal_gives_n_cards_each_and_starts_every_pile(party: Variant) -> None:
    state, _ = deal(party, 12, seed=3, hand_no=11)
    assert [len(h) for h in state.hands] == [13] * 12
    assert [len(p) for p in state.piles] == [1] * 12
    assert len(state.shoe) == 208 - 12 * 13 - 12 == 40
    everything = [c for h in state.hands for c in h] + [c for p in state.piles for c in p] + list(state.shoe)
    assert sorted(everything) == list(range(208))
    assert state.phase is Phase.SETUP and state.wild_rank == 13


def test_the_same_seed_deals_the_same_cards(party: Variant) -> None:
    assert deal(party, 5, 9, 3)[0] == deal(party, 5, 9, 3)[0]
    assert deal(party, 5, 9, 3)[0].hands != deal(party, 5, 10, 3)[0].hands


def test_a_cycle_draw_choose_reveal(party: Variant) -> None:
    state = rigged(party, ["5H 9C KD", "2S 2D 8H", "JC QC AD"], ["4H", "7S", "10D"])
    state, _ = apply(state, Call())
    assert state.phase is Phase.DRAW and state.cycle == 1
    # Seat 0 takes from its right-hand neighbour: seat 2's pile.
    state, events = apply(state, Draw(0, "pile"))
    assert state.faces[state.hands[0][-1]].symbol == "10♦" and state.piles[2] == ()
    top = state.shoe[-1]
    state, events = apply(state, Draw(1, "shoe"))
    assert events == [Drew(1, "shoe", top)] and state.hands[1][-1] == top
    state, _ = apply(state, Draw(2, "pile"))  # seat 2 takes seat 1's 7♠
    assert state.phase is Phase.CHOOSE
    picks = {0: state.hands[0][1], 1: state.hands[1][0], 2: state.hands[2][2]}
    state, _ = apply(state, Choose(0, state.hands[0][0]))
    for seat, card in picks.items():
        state, _ = apply(state, Choose(seat, card))  # seat 0 changes its mind
    state, events = apply(state, Call())
    assert events[0] == Revealed(tuple(sorted(picks.items())))
    assert state.phase is Phase.REVEAL
    for seat, card in picks.items():
        assert state.piles[seat][-1] == card and card not in state.hands[seat]
        assert len(state.hands[seat]) == 3
    assert total_cards(state) == 208


def test_refusals_say_why_and_change_nothing(party: Variant) -> None:
    state = rigged(party, ["5H 9C KD", "2S 2D 8H"], ["4H", "7S"])
    with refused(OutOfPhase, "wait for “Draw!”"):
        apply(state, Draw(0, "shoe"))
    state, _ = apply(state, Call())
    seven_h = ids_for("7H", set(state.hands[0]) | set(state.hands[1]))[0]
    cases = [
        (Choose(0, state.hands[0][0]), OutOfPhase, "It is the draw phase: draw first"),
        (Draw(5, "shoe"), BadCommand, "no such seat"),
        (Draw(0, "table"), BadCommand, "shoe or from the pile"),
        (Call(), OutOfPhase, "Waiting for 2 to draw"),
        (CallMatch(0), OutOfPhase, "right after “Discard!”"),
        (Draw(0, "shoe", cycle=0), Stale, "earlier cycle"),
    ]
    before = copy.deepcopy(state)
    for command, error, words in cases:
        with refused(error, words):
            apply(state, command)
        assert state == before, command  # nothing changed, not even inside
    state, _ = apply(state, Draw(0, "shoe"))
    before = copy.deepcopy(state)
    with pytest.raises(AlreadyDone):
        apply(state, Draw(0, "pile"))
    with refused(NotHeld, "You do not hold 7♥"):
        apply(state, Choose(0, seven_h))
    with pytest.raises(NotHeld):
        apply(state, Choose(0, state.hands[1][0]))  # another player's card
    with pytest.raises(Waiting):
        apply(replace(state, phase=Phase.CHOOSE), Call())
    assert state == before


def test_a_false_match_is_refused_with_the_reason_and_costs_nothing(party: Variant) -> None:
    state = rigged(party, ["5H 9C KD", "2S 2D 8H"], ["4H", "7S"])
    with refused(NotComplete, "5♥ 9♣ K♦ fit no meld"):
        apply(state, CallMatch(0))


def play_cycle(state: HandState, picks: dict[int, int] | None = None) -> HandState:
    """Everyone still playing draws from the shoe and discards the card drawn (or the given pick)."""
    for seat in state.waiting_for():
        state, _ = apply(state, Draw(seat, "shoe"))
    for seat in range(state.players):
        if state.active(seat):
            state, _ = apply(state, Choose(seat, (picks or {}).get(seat, state.drawn[seat])))
    state, _ = apply(state, Call())
    return state


def test_setup_match_then_one_last_cycle_then_scoring(party: Variant) -> None:
    state = rigged(party, ["5H 6H 7H", "2S 9D KD", "AC 4C 3D"], ["4H", "7S", "10D"])
    state, _ = apply(state, CallMatch(0))
    with pytest.raises(NotComplete):
        apply(state, CallMatch(2))  # A♣ 4♣ and the wild 3♦: a window of four, not a run
    assert state.matched == (0,)
    state, _ = apply(state, Call())
    assert state.phase is Phase.LAST_DRAW
    with refused(OutOfPhase, "You have matched"):
        apply(state, Draw(0, "shoe"))
    state = play_cycle(state)
    assert state.phase is Phase.SCORED
    assert state.results[0].penalty == 0 and not state.results[0].orphans
    for seat in (1, 2):
        cards = state.cards_of(state.hands[seat])
        assert state.results[seat].penalty == best_arrangement(cards, 3).penalty > 0


def test_everyone_who_calls_in_the_same_window_is_out(party: Variant) -> None:
    state = rigged(party, ["5H 6H 8S", "2S 2D 9H", "AC 4C KD"], ["4H", "7S", "10D"])
    state, _ = apply(state, Call())
    # Seat 0 takes 10♦ and drops 8♠; seat 1 draws 2♣ from the shoe and drops 9♥.
    two_c = ids_for("2C", set(c for h in state.hands for c in h) | {p[0] for p in state.piles})[0]
    state = replace(state, shoe=tuple(c for c in state.shoe if c != two_c) + (two_c,))
    state, _ = apply(state, Draw(0, "pile"))
    state, _ = apply(state, Draw(1, "shoe"))
    state, _ = apply(state, Draw(2, "shoe"))
    state, _ = apply(state, Choose(0, state.hands[0][2]))
    state, _ = apply(state, Choose(1, state.hands[1][2]))
    state, _ = apply(state, Choose(2, state.drawn[2]))
    state, _ = apply(state, Call())
    # 5♥ 6♥ 10♦ is no meld; 2♠ 2♦ 2♣ is.
    with pytest.raises(NotComplete):
        apply(state, CallMatch(0))
    state, _ = apply(state, CallMatch(1))
    state, _ = apply(state, Call())
    assert state.phase is Phase.LAST_DRAW and state.matched == (1,)
    state = play_cycle(state)
    assert state.phase is Phase.SCORED and state.results[1].penalty == 0


def test_an_empty_shoe_is_refilled_from_the_piles_under_their_tops(party: Variant) -> None:
    state = rigged(party, ["5H 9C KD", "2S 2D 8H"], ["4H 4S 4D", "7S 7C"])
    state, _ = apply(state, Call())
    rest = state.shoe
    state = replace(state, shoe=(), piles=(state.piles[0] + rest[:10], state.piles[1]))
    state, events = apply(state, Draw(0, "shoe"))
    assert ShoeRefilled(13) in events
    assert [len(p) for p in state.piles] == [1, 1] and len(state.shoe) == 12
    lonely = replace(state, shoe=(), piles=((1,), (2,)))
    with refused(CannotDraw, "shoe is empty"):
        apply(lonely, Draw(1, "shoe"))
    piles_only = replace(state, variant=replace(party, empty_shoe="piles-only"), shoe=())
    with pytest.raises(CannotDraw):
        apply(piles_only, Draw(1, "shoe"))


def test_auto_play_draws_from_the_shoe_and_drops_the_least_useful_card(party: Variant) -> None:
    state = rigged(party, ["5H 6H KD", "2S 2D 8H"], ["4H", "7S"])
    state, _ = apply(state, Call())
    seven = ids_for("7H", set(c for h in state.hands for c in h) | {p[0] for p in state.piles})[0]
    state = replace(state, shoe=tuple(c for c in state.shoe if c != seven) + (seven,))
    state, _ = apply(state, AutoPlay(0))
    assert state.drawn[0] == seven and state.faces[state.picks[0]].symbol == "K♦"
    with pytest.raises(AlreadyDone):
        apply(state, AutoPlay(0))


def test_when_everyone_matches_at_once_the_hand_is_scored_without_a_last_cycle(party: Variant) -> None:
    state = rigged(party, ["5H 6H 7H", "9C 9D 9S"], ["4H", "7S"])
    state, _ = apply(state, CallMatch(0))
    state, _ = apply(state, CallMatch(1))
    state, _ = apply(state, Call())
    assert state.phase is Phase.SCORED and [r.penalty for r in state.results] == [0, 0]


# -- Turns (the classic game) ---------------------------------------------------


@pytest.fixture
def classic(variants: dict[str, Variant]) -> Variant:
    return variants["classic"]


def take_turn(state: HandState, seat: int, source: str, discard: str) -> tuple[HandState, list]:
    """One whole turn: draw, discard the card named, and the caller's call."""
    state, _ = apply(state, Draw(seat, source, state.cycle))
    return discard_and_call(state, seat, discard)


def discard_and_call(state: HandState, seat: int, discard: str) -> tuple[HandState, list]:
    card = next(c for c in state.hands[seat] if str(state.faces[c]) == discard)
    state, _ = apply(state, Choose(seat, card, state.cycle))
    return apply(state, Call())


def symbols(state: HandState, ids: tuple[int, ...]) -> list[str]:
    return [str(state.faces[c]) for c in ids]


def test_turns_deal_decks_by_player_count_and_one_shared_pile(classic: Variant) -> None:
    for players, decks in ((2, 1), (3, 2), (4, 2), (6, 2), (7, 3), (8, 3)):
        state, _ = deal(classic, players, seed=2, hand_no=11)
        assert len(state.faces) == 52 * decks
        assert [len(h) for h in state.hands] == [13] * players
        assert [len(p) for p in state.piles] == [1]
        assert len(state.shoe) == 52 * decks - 13 * players - 1
        assert total_cards(state) == len(state.faces)


def test_the_player_on_the_dealers_left_starts(classic: Variant) -> None:
    for dealer in range(3):
        state, _ = deal(classic, 3, seed=1, hand_no=4, dealer=dealer)
        assert state.dealer == dealer and state.turn == (dealer + 1) % 3
        assert state.phase is Phase.DRAW and state.cycle == 1  # classic deals straight into the first turn


def test_with_turns_only_the_player_whose_turn_it_is_acts_and_the_next_takes_the_discard(classic: Variant) -> None:
    state = rigged(classic, ["5H 9C KD", "2S 2D 8H", "JC QC AD"], ["4H"])
    assert state.turn == 1 and state.waiting_for() == [1]
    for command in (Draw(0, "shoe"), Draw(2, "pile"), AutoPlay(2), CallMatch(2)):
        with refused(OutOfPhase, "not your turn|only right after"):
            apply(state, command)
    state, _ = apply(state, Draw(1, "pile"))
    assert state.piles == ((),) and symbols(state, state.hands[1])[-1] == "4H" and state.phase is Phase.CHOOSE
    state, _ = discard_and_call(state, 1, "8H")
    assert symbols(state, state.piles[0]) == ["8H"]
    assert (state.turn, state.phase, state.cycle) == (2, Phase.DRAW, 2)
    state, _ = take_turn(state, 2, "pile", "AD")
    assert "8H" in symbols(state, state.hands[2]) and symbols(state, state.piles[0]) == ["AD"]
    assert state.turn == 0  # clockwise, round to the start
    assert total_cards(state) == len(state.faces)


def test_a_discard_that_leaves_a_complete_hand_goes_out_and_everyone_else_has_one_more_turn(classic: Variant) -> None:
    state = rigged(classic, ["9C 9D AS", "5H 6H KD", "JC QC 2D"], ["7H"])
    state, events = take_turn(state, 1, "pile", "KD")  # 5♥ 6♥ 7♥: out, without a word
    assert Matched(1) in events
    assert state.matched == (1,) and state.to_play == (2, 0)
    assert (state.turn, state.phase) == (2, Phase.LAST_DRAW)
    with refused(OutOfPhase, "matched"):
        apply(state, Draw(1, "shoe"))
    state, _ = take_turn(state, 2, "pile", "2D")  # takes the K♦: J♣ Q♣ K♦ is no run
    assert (state.turn, state.phase, state.to_play) == (0, Phase.LAST_DRAW, (0,))
    state, _ = take_turn(state, 0, "pile", "AS")  # takes the 2♦
    assert state.phase is Phase.SCORED
    assert [r.penalty for r in state.results] == [9 + 9 + 2, 0, 10 + 10 + 10]


def test_with_turns_a_player_who_leaves_on_their_turn_passes_it_on(classic: Variant) -> None:
    state = rigged(classic, ["9C 9D AS", "5H 6H KD", "JC QC 2D", "4S 5S 6S"], ["7H"])
    state, _ = apply(state, Draw(1, "shoe"))
    cycle = state.cycle
    state, _ = leave(state, 1)
    assert (state.turn, state.phase, state.cycle) == (1, Phase.DRAW, cycle + 1)  # the J♣ Q♣ 2♦ seat, now seat 1
    assert state.drawn == (None,) * 3 and symbols(state, state.piles[0]) == ["7H"]
    assert total_cards(state) == len(state.faces)
    with pytest.raises(OutOfPhase):
        apply(state, Draw(0, "shoe"))
    state, _ = apply(state, Draw(1, "pile"))
    assert "7H" in symbols(state, state.hands[1])


def test_with_turns_a_complete_deal_may_call_match_and_everyone_else_has_one_turn(classic: Variant) -> None:
    dealt = replace(classic, setup_match=True)  # a house rule: Match! before the first turn
    state = rigged(dealt, ["9C 9D AS", "5H 6H KD", "JC QC 2D", "7S 7D 7H"], ["4H"])
    assert state.phase is Phase.SETUP and state.turn == 1
    state, _ = apply(state, CallMatch(3))  # not Dee's turn, but Match! is open to all
    state, _ = apply(state, Call())
    assert (state.phase, state.turn, state.to_play) == (Phase.LAST_DRAW, 1, (1, 2, 0))
    for seat in (1, 2, 0):
        state, _ = take_turn(state, seat, "shoe", str(state.faces[state.shoe[-1]]))
    assert state.phase is Phase.SCORED and state.results[3].penalty == 0


# -- Own-order: the shoe as a stack per seat (stacks.py) --------------------------------------------------------


def test_own_order_deals_the_rest_into_a_stack_per_seat_and_the_shoe_counts_them(party: Variant) -> None:
    state, _ = deal(party, 12, seed=3, hand_no=11, draws="own-order")
    assert state.shoe == () and state.draws == "own-order"
    assert [len(s) for s in state.stacks] == [4] * 4 + [3] * 8 and state.shoe_count == 40
    everything = [c for h in state.hands for c in h] + [c for p in state.piles for c in p] + list(state.shoe_cards)
    assert sorted(everything) == list(range(208))
    with refused(BadCommand, "way of drawing"):
        deal(party, 3, seed=3, hand_no=1, draws="two-shoes")


def test_own_order_a_seat_draws_the_same_card_whatever_its_neighbour_did_first(party: Variant) -> None:
    """One shoe: seat 1's card depends on whether seat 0 drew before it; own-order: it does not."""

    def seat_1_draws(draws: str, seat_0: str | None) -> int:
        state, _ = deal(party, 3, seed=9, hand_no=2, draws=draws)
        state, _ = apply(state, Call())
        if seat_0:
            state, _ = apply(state, Draw(0, seat_0))
        state, _ = apply(state, Draw(1, "shoe"))
        return state.drawn[1]

    assert seat_1_draws("one-shoe", "shoe") != seat_1_draws("one-shoe", "pile")
    own = {seat_1_draws("own-order", first) for first in ("shoe", "pile", None)}
    assert own == {deal(party, 3, seed=9, hand_no=2, draws="own-order")[0].stacks[1][-1]}


def test_own_order_an_empty_stack_borrows_and_an_empty_shoe_is_dealt_into_new_stacks(party: Variant) -> None:
    state, _ = deal(party, 3, seed=4, hand_no=1, draws="own-order")
    state, _ = apply(state, Call())
    a, b, c = state.stacks
    state = replace(state, stacks=((), b, c[:2]), piles=(state.piles[0] + a + c[2:], *state.piles[1:]))
    state, _ = apply(state, Draw(0, "shoe"))  # seat 0's own is empty: seat 1's is the fullest, its bottom
    assert state.drawn[0] == b[0] and state.stacks[1] == b[1:]
    # Every stack empty: the piles under their tops are gathered, shuffled and dealt round robin from seat 0.
    gathered = len(state.piles[0]) - 1
    state = replace(state, stacks=((), (), ()), piles=(state.piles[0], state.piles[1], state.piles[2] + b[1:] + c[:2]))
    gathered += len(b) - 1 + 2
    state, events = apply(state, Draw(1, "shoe"))
    assert ShoeRefilled(gathered) in events and state.refills == 1 and state.shoe == ()
    dealt = [len(range(seat, gathered, 3)) for seat in range(3)]  # round robin from seat 0
    assert [len(s) for s in state.stacks] == [dealt[0], dealt[1] - 1, dealt[2]]  # seat 1 drew its own top
    assert state.shoe_count == gathered - 1 and all(len(p) == 1 for p in state.piles)
    lonely = replace(state, stacks=((), (), ()), piles=((1,), (2,), (3,)))
    with refused(CannotDraw, "shoe is empty"):
        apply(lonely, Draw(2, "shoe"))
