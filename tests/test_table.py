"""The real-cards hand machine: the caller's Ready/Discard!/Match! cycles, a forced Discard!, turns (Done, Out!)."""

from __future__ import annotations

import pytest

from partyrummy.i18n import default_catalogs
from partyrummy.realcards import commands as do
from partyrummy.realcards import events as told
from partyrummy.realcards import table
from partyrummy.realcards.table import Phase, TableHand
from partyrummy.rules.errors import AlreadyDone, BadCommand, RummyError, Stale, Waiting
from partyrummy.rules.variants import default_variants

VARIANTS = default_variants()
PARTY, CLASSIC = VARIANTS["party"], VARIANTS["classic"]


def run(hand: TableHand, *commands, helped: frozenset[int] = frozenset()) -> tuple[TableHand, list]:
    events = []
    for command in commands:
        hand, more = table.apply(hand, command, helped)
        events += more
    return hand, events


def refused(hand: TableHand, command, helped: frozenset[int] = frozenset()) -> RummyError:
    """The error a refused command raises."""
    with pytest.raises(RummyError) as caught:
        table.apply(hand, command, helped)
    return caught.value


def party(players: int = 4, hand_no: int = 1) -> TableHand:
    return table.deal(PARTY, hand_no, players)[0]


def all_ready(hand: TableHand, seats) -> tuple[TableHand, list]:
    return run(hand, *(do.Ready(s) for s in seats))


def test_each_deal_tells_the_table_what_to_deal() -> None:
    hand, events = table.deal(PARTY, 3, 12)
    assert events == [told.TableSet(3, 5, 5, piles=12, dealer=None, starter=None), told.PhaseChanged("setup")]
    assert hand.phase is Phase.SETUP  # people deal the real cards until the caller's first "Draw!"
    # Turns: one shared pile; the TV names the dealer it is given, and the player on their left starts.
    assert table.deal(CLASSIC, 1, 4)[1][0] == told.TableSet(1, 3, 3, piles=1, dealer=0, starter=1)
    assert table.deal(CLASSIC, 6, 4, dealer=3)[1][0] == told.TableSet(6, 8, 8, piles=1, dealer=3, starter=0)
    with pytest.raises(BadCommand):
        table.deal(PARTY, 1, 13)


def test_discard_comes_when_everyone_is_ready_then_the_match_window() -> None:
    hand, events = run(party(), do.Call())
    assert events == [told.Called("draw"), told.PhaseChanged("ready")] and hand.cycle == 1
    hand, _ = all_ready(hand, [0, 1, 2])
    error = refused(hand, do.Call())
    assert (type(error), error.key, error.params) == (Waiting, "error.waiting_ready", {"n": 1})
    assert hand.waiting_for() == [3]
    hand, events = run(hand, do.Ready(3), do.Call())
    assert events[-2:] == [told.Called("discard", late=()), told.PhaseChanged("reveal")]
    # No Match! while people hold their discards; the next "Draw!" clears every Ready.
    hand, events = run(hand, do.Call())
    assert hand.phase is Phase.READY and hand.ready == (False,) * 4 and hand.cycle == 2


def test_a_ready_tap_can_be_taken_back_and_is_not_counted_twice() -> None:
    hand, _ = run(party(), do.Call(), do.Ready(1))
    assert isinstance(refused(hand, do.Ready(1)), AlreadyDone)
    hand, _ = run(hand, do.Ready(1, ready=False))
    assert hand.waiting_for() == [0, 1, 2, 3]
    assert refused(hand, do.Ready(1, ready=False)).key == "error.not_ready"
    assert refused(hand, do.Ready(1, ready="yes")).key == "error.not_bool"  # a phone's payload, checked
    # A tap meant for an earlier cycle does not count in this one.
    assert isinstance(refused(hand, do.Ready(1, cycle=0)), Stale)
    assert run(hand, do.Ready(1, cycle=1))[0].ready[1]


def test_discard_before_everyone_is_ready_only_when_forced() -> None:
    """The hurry (server/room/pace.py) and the host's "call now" force it; the hand keeps no clock of its own."""
    hand, _ = run(party(), do.Call(), do.Ready(0))
    assert isinstance(refused(hand, do.Call()), Waiting)
    after, events = run(hand, do.Call(force=True))
    assert events[0] == told.Called("discard", late=(1, 2, 3)) and after.phase is Phase.REVEAL
    assert not any(hasattr(hand, name) for name in ("called_at", "paused_at", "paused_s"))


def test_match_then_one_last_cycle_for_everyone_else_then_entry() -> None:
    hand, _ = run(party(), do.Call())
    assert refused(hand, do.CallMatch(2)).key == "error.match_when"  # not while the discards are held
    hand, _ = all_ready(hand, range(4))
    hand, _ = run(hand, do.Call())
    assert hand.phase is Phase.REVEAL and hand.waiting_for() == [0, 1, 2, 3]  # the window waits for everyone
    hand, events = run(hand, do.CallMatch(2), do.CallMatch(0), do.Ready(3))
    # Both in the same window: both out; the window waits for the one who neither called nor went on.
    assert events[:2] == [told.Matched(2), told.Matched(0)] and hand.matched == (2, 0)
    assert hand.waiting_for() == [1] and not hand.window_done()
    hand, events = run(hand, do.Call())
    assert hand.phase is Phase.LAST_READY and hand.waiting_for() == [1, 3]
    assert refused(hand, do.Ready(2)).key == "error.matched_already"
    assert refused(hand, do.CallMatch(1)).key == "error.match_when"  # no window in the last cycle
    hand, events = run(hand, do.Ready(1), do.Ready(3), do.Call())
    assert hand.phase is Phase.ENTRY and events[-1] == told.PhaseChanged("entry")
    assert hand.waiting_for() == [0, 1, 2, 3]


def test_a_late_call_waits_for_the_next_window() -> None:
    hand, _ = run(party(3), do.Call(), do.Ready(0), do.Ready(1), do.Ready(2), do.Call())
    hand, _ = run(hand, do.Call())  # seat 1 was complete but did not call: it plays on
    assert refused(hand, do.CallMatch(1)).key == "error.match_when"
    hand, _ = run(hand, do.Ready(0), do.Ready(1), do.Ready(2), do.Call(), do.CallMatch(1))
    assert hand.matched == (1,)


def test_setup_match_before_the_first_draw_only_where_the_variant_allows_it() -> None:
    hand, _ = run(party(3), do.CallMatch(1), do.Call())
    assert hand.phase is Phase.LAST_READY and hand.waiting_for() == [0, 2]
    classic = table.deal(CLASSIC, 1, 3)[0]
    assert refused(classic, do.CallMatch(1)).key == "error.match_when"


def test_a_match_tapped_by_mistake_is_taken_back_in_its_window() -> None:
    hand, _ = run(party(3), do.CallMatch(1), do.Withdraw(1))
    assert hand.matched == ()
    assert refused(hand, do.Withdraw(1)).key == "error.no_claim"
    hand, _ = run(hand, do.CallMatch(1), do.Call())
    assert refused(hand, do.Withdraw(1)).key == "error.match_when"  # the caller moved on: the claim stands


def test_when_everyone_matches_the_hand_goes_straight_to_entry() -> None:
    hand, _ = run(party(2), do.CallMatch(0), do.CallMatch(1), do.Call())
    assert hand.phase is Phase.ENTRY


def test_phoneless_seats_are_answered_by_the_host_or_allowed_phones_only() -> None:
    """`helped`: the seats the room lets phones answer for (its seats without a phone, when it allows helpers)."""
    hand, _ = run(party(4), do.Call())
    assert refused(hand, do.Ready(3, by=0)).key == "error.answer_for"  # helpers not allowed: nobody is helped
    assert refused(hand, do.Ready(2, by=0), helped=frozenset({3})).key == "error.answer_for"  # never another phone
    assert refused(hand, do.Ready(1, by=7)).key == "error.no_seat"
    assert run(hand, do.Ready(3, by=None))[0].ready[3]  # the host (TV) answers for anyone
    assert run(hand, do.Ready(3, by=0), helped=frozenset({3}))[0].ready[3]


def test_twelve_seats_four_without_phones_play_a_cycle() -> None:
    phoneless = (2, 5, 8, 11)
    helped = frozenset(phoneless)
    hand, _ = run(party(12), do.Call())
    phones = [s for s in range(12) if s not in phoneless]
    readies = [*(do.Ready(s, by=s) for s in phones), *(do.Ready(s, by=s - 1) for s in phoneless)]
    hand, _ = run(hand, *readies, helped=helped)
    hand, _ = run(hand, do.Call(), do.CallMatch(5, by=4), do.Call(), helped=helped)
    assert hand.phase is Phase.LAST_READY and 5 not in hand.waiting_for() and len(hand.waiting_for()) == 11


def test_turns_done_passes_left_and_out_gives_everyone_else_one_more_turn() -> None:
    hand = table.deal(CLASSIC, 1, 4)[0]  # dealer 0: seat 1 starts
    hand, events = run(hand, do.Call())
    assert hand.phase is Phase.TURN and events[-1] == told.TurnBegan(1, last=False)
    assert refused(hand, do.Done(2)).key == "error.not_your_turn"
    assert refused(hand, do.Ready(1)).key == "table.phase.turn"
    hand, events = run(hand, do.Done(1), do.Done(2), do.Done(3), do.Done(0))
    assert [e.seat for e in events] == [2, 3, 0, 1] and hand.turn == 1
    assert isinstance(refused(hand, do.Done(1, cycle=hand.cycle - 1)), Stale)
    hand, events = run(hand, do.Done(1), do.Out(2))
    assert events[-3:] == [told.WentOut(2), told.PhaseChanged("last_turn"), told.TurnBegan(3, last=True)]
    assert hand.to_play == (3, 0, 1)
    assert refused(hand, do.Out(3)).key == "table.phase.last_turn"  # the last turns have no Out!
    hand, events = run(hand, do.Done(3), do.Done(0))
    assert hand.turn == 1 and hand.phase is Phase.LAST_TURN
    hand, events = run(hand, do.Done(1))
    assert hand.phase is Phase.ENTRY and hand.turn is None


def test_the_host_ends_a_forgotten_turn_with_call_now() -> None:
    hand, _ = run(table.deal(CLASSIC, 2, 3, dealer=1)[0], do.Call())  # dealer 1: seat 2 starts
    assert hand.turn == 2
    assert refused(hand, do.Call()).key == "error.waiting_turn"
    hand, events = run(hand, do.Call(force=True))
    assert hand.turn == 0 and events == [told.TurnBegan(0, last=False)]


def to_entry(players: int = 3) -> TableHand:
    """A party hand in which seat 0 matched and the last cycle is under way."""
    hand, _ = run(party(players), do.Call(), *(do.Ready(s) for s in range(players)), do.Call())
    return run(hand, do.CallMatch(0), do.Call())[0]


def test_the_matched_player_enters_during_the_last_cycle_the_others_after() -> None:
    hand = to_entry()
    assert refused(hand, do.TypePoints(1, 5)).key == "error.enter_after"
    hand, events = run(hand, do.Draft(0, ("5H", "6H")), do.Draft(0, ("5H", "6H", "7H")), do.Confirm(0))
    assert events[-1] == told.Entered(0, 0, "cards", claim=True)
    assert hand.entries[0].melds and hand.phase is Phase.LAST_READY
    hand, _ = run(hand, do.Ready(1), do.Ready(2), do.Call())
    assert hand.waiting_for() == [1, 2]
    bad = refused(hand, do.Draft(1, ("7H",) * 5))
    assert bad.key == "error.hand_count"  # hand 1 holds 3 cards
    hand, _ = run(hand, do.Draft(1, ("AH", "9C")))
    assert refused(hand, do.Confirm(1)).params == {"n": 3, "count": 2}
    hand, events = run(hand, do.Draft(1, ("AH", "9C", "KD")), do.Confirm(1), do.TypePoints(2, 7))
    assert hand.phase is Phase.SCORED
    scored = [told.Entered(2, 7, "typed", None), told.PhaseChanged("scored"), told.HandScored(1, (0, 20, 7))]
    assert events[-3:] == scored


def test_a_seat_may_change_its_entry_until_the_hand_is_scored() -> None:
    hand = to_entry()
    hand, _ = run(hand, do.Ready(1), do.Ready(2), do.Call(), do.TypePoints(1, 9))
    assert hand.waiting_for() == [0, 2]
    hand, events = run(hand, do.Draft(1, ("AH",)))  # taken back to change it: waited for again
    assert events == [told.Drafted(1, 1, reopened=True)] and hand.waiting_for() == [0, 1, 2]
    hand, _ = run(hand, do.TypePoints(1, 4), do.TypePoints(1, 5))  # a typed score changes as often as it likes
    assert hand.entries[1].points == 5
    hand, _ = run(hand, do.TypePoints(0, 0), do.TypePoints(2, 7))
    assert hand.phase is Phase.SCORED
    assert refused(hand, do.TypePoints(1, 3)).key == "table.phase.scored"  # scored: now the host corrects


def test_a_false_match_scores_its_cards_and_the_table_sees_it() -> None:
    hand, events = run(to_entry(), do.Draft(0, ("5H", "6H", "9C")), do.Confirm(0))
    assert events[-1] == told.Entered(0, 5 + 6 + 9, "cards", claim=False)


def test_every_phase_has_words_in_every_language() -> None:
    catalogs = default_catalogs()
    for tag in ("en", "pt-BR", "es", "ro"):
        for phase in Phase:
            assert catalogs.text(tag, f"table.phase.{phase.value}") != f"table.phase.{phase.value}"


def test_a_seat_leaving_mid_cycle_is_waited_for_no_more() -> None:
    hand, _ = run(party(4), do.Call(), do.Ready(0), do.Ready(2))
    hand, events = table.leave(hand, 1)
    assert events == [told.SeatLeft(1)] and hand.players == 3
    assert hand.waiting_for() == [2] and hand.ready == (True, True, False)  # old seat 3 is seat 2 now
    with pytest.raises(BadCommand) as caught:
        table.leave(table.leave(hand, 0)[0], 0)
    assert caught.value.key == "error.min_stay"


def test_turns_a_leaver_passes_the_turn_and_the_last_to_play_ends_the_hand() -> None:
    hand, _ = run(table.deal(CLASSIC, 1, 4)[0], do.Call())  # seat 1's turn
    hand, events = table.leave(hand, 1)
    assert hand.turn == 1 and events[-1] == told.TurnBegan(1, last=False)  # old seat 2, now at the leaver's place
    hand, _ = run(hand, do.Out(1))  # seats 2 and 0 still have their one more turn
    hand, _ = run(hand, do.Done(2))
    hand, events = table.leave(hand, 0)
    assert hand.phase is Phase.ENTRY and hand.players == 2


def test_in_entry_the_hand_is_scored_once_everyone_left_has_entered() -> None:
    hand = to_entry()
    hand, _ = run(hand, do.TypePoints(0, 0), do.Ready(1), do.Ready(2), do.Call(), do.TypePoints(1, 4))
    hand, events = table.leave(hand, 2)
    assert hand.phase is Phase.SCORED and events[-1] == told.HandScored(1, (0, 4))


def test_a_match_on_the_deal_is_told_apart_from_one_after_a_discard() -> None:
    """The screens say why a hand ended before anyone acted: a complete hand was dealt."""
    hand, _ = run(party(3), do.CallMatch(1))
    assert hand.on_deal == (1,)
    hand, _ = run(hand, do.Withdraw(1))
    assert hand.on_deal == ()
    hand, _ = run(hand, do.CallMatch(2), do.Call(), do.Ready(0), do.Ready(1), do.Call())
    assert hand.on_deal == (2,) and hand.phase is Phase.ENTRY


def offered_as_taken(hand: TableHand) -> None:
    """Every seat's `can` (table.moves) is what the engine takes from it now: each move tried on the engine."""
    tries = {
        "ready": lambda s: do.Ready(s, not hand.ready[s]),
        "match": do.CallMatch,
        "withdraw": do.Withdraw,
        "done": do.Done,
        "out": do.Out,
        "draft": lambda s: do.Draft(s, ()),
        "points": lambda s: do.TypePoints(s, 0),
    }
    for seat in range(hand.players):
        offered = set(table.moves(hand, seat))
        for name, make in tries.items():
            try:
                table.apply(hand, make(seat))
                taken = True
            except RummyError as error:
                taken = error.key in ("error.not_a_match", "error.points_claim")  # offered; the claim is checked
            assert (name in offered) == taken, (hand.phase, seat, name, offered)


def test_each_seat_is_offered_exactly_the_moves_the_engine_takes_through_a_hand_of_each_pacing() -> None:
    hand = party(3)
    offered_as_taken(hand)  # setup: Match! where the rules allow it
    hand, _ = run(hand, do.CallMatch(2))
    offered_as_taken(hand)  # its take-back
    hand, _ = run(hand, do.Withdraw(2), do.Call())
    offered_as_taken(hand)  # Ready for all
    hand, _ = run(hand, do.Ready(0))
    offered_as_taken(hand)  # taken back by one, given by the others
    hand, _ = run(hand, do.Ready(1), do.Ready(2), do.Call(), do.CallMatch(1))
    assert hand.phase is Phase.REVEAL
    offered_as_taken(hand)  # the window: Match!, and its take-back for the one who called
    hand, _ = run(hand, do.Call())
    assert hand.phase is Phase.LAST_READY
    offered_as_taken(hand)  # the last cycle: Ready for the others, entry for the matched
    hand, _ = run(hand, do.Ready(0), do.Ready(2), do.Call())
    assert hand.phase is Phase.ENTRY
    offered_as_taken(hand)  # entry for all
    turns = table.deal(CLASSIC, 1, 3)[0]
    turns, _ = run(turns, do.Call())
    offered_as_taken(turns)  # Done and Out! for the seat whose turn it is, nobody else
