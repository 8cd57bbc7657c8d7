"""The real-cards game: hands in a row, totals and winners, the host's corrections, and exact replay."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from partyrummy.realcards import scorebook
from partyrummy.realcards.commands import (
    Arrive,
    Call,
    CallMatch,
    Confirm,
    Correct,
    Done,
    Draft,
    Leave,
    Out,
    Ready,
    TypePoints,
    UndoCorrection,
    Withdraw,
    command_from_dict,
    command_to_dict,
)
from partyrummy.realcards.entry import most_points
from partyrummy.realcards.events import (
    Arrived,
    Corrected,
    CorrectionUndone,
    GameEnded,
    SeatLeft,
)
from partyrummy.realcards.scorebook import Cell
from partyrummy.realcards.table import Phase
from partyrummy.rules.errors import RummyError
from partyrummy.rules.variants import default_variants

from .sheet_checks import check_one_column_a_seat
from .strategies import shoe_faces

VARIANTS = default_variants()
SHORT = dataclasses.replace(VARIANTS["party"], hand_sizes=(3, 4))  # two hands: the end comes soon
SHORT_APP = dataclasses.replace(VARIANTS["app"], hand_sizes=(3, 4))  # turns, with jokers
SHORT_CLASSIC = dataclasses.replace(VARIANTS["classic"], hand_sizes=(3, 4))


def run(book, *commands, helped: frozenset[int] = frozenset()):
    events = []
    for command in commands:
        book, more = scorebook.apply(book, command, helped)
        events += more
    return book, events


def typed_hand(book, points: tuple[int, ...]):
    """One caller-paced hand: seat 0 matches in the first window, everyone types their points."""
    seats = range(book.hand.players)
    book, _ = run(book, Call(), *(Ready(s) for s in seats), Call(), CallMatch(0), Call())
    book, _ = run(book, *(Ready(s) for s in seats if s), Call())
    return run(book, *(TypePoints(s, p) for s, p in enumerate(points)))


def test_hands_add_up_and_the_lowest_total_wins() -> None:
    book, _ = scorebook.new_book(SHORT, 3, seed=1)
    book, _ = typed_hand(book, (0, 12, 5))
    book, events = run(book, Call())
    assert book.hand.hand_no == 2 and book.totals == (0, 12, 5)
    book, events = typed_hand(book, (0, 3, 9))
    assert events[-1] == GameEnded((0, 15, 14), (0,)) and book.over and book.winners == (0,)  # at once
    assert isinstance(pytest.raises(RummyError, scorebook.apply, book, Call()).value.key, str)


def test_a_tie_at_the_top_follows_the_variant() -> None:
    for variant, expected in ((SHORT, (0, 1)), (dataclasses.replace(SHORT, ties="no-winner"), ())):
        book, _ = scorebook.new_book(variant, 2, seed=1)
        book, _ = typed_hand(book, (0, 0))
        book, _ = run(book, Call())
        book, _ = typed_hand(book, (4, 4))
        assert book.winners == expected


def test_the_host_corrects_any_score_keeps_the_old_and_undoes_the_last() -> None:
    book, _ = scorebook.new_book(SHORT, 3, seed=1)
    book, _ = typed_hand(book, (0, 12, 5))
    book, _ = run(book, Call())
    book, events = run(book, Correct(1, 1, 2))
    assert events == [Corrected(1, 1, old=12, new=2)] and book.totals == (0, 2, 5)
    cell = book.cell(1, 1)
    assert (cell.points, cell.how, cell.corrected_from) == (2, "typed", 12)
    book, events = run(book, Correct(1, 1, 3))
    assert events == [Corrected(1, 1, old=2, new=3)] and book.cell(1, 1) == Cell(3, "typed", 12)
    assert book.totals == (0, 3, 5)  # the latest correction counts
    book, events = run(book, UndoCorrection())
    assert events == [CorrectionUndone(1, 1, points=2)] and book.totals == (0, 2, 5)
    book, _ = run(book, UndoCorrection())
    assert book.totals == (0, 12, 5) and book.cell(1, 1).corrected_from is None
    assert pytest.raises(RummyError, scorebook.apply, book, UndoCorrection()).value.key == "error.nothing_to_undo"


def test_corrections_are_refused_with_the_reason() -> None:
    book, _ = scorebook.new_book(SHORT, 3, seed=1)
    assert pytest.raises(RummyError, scorebook.apply, book, Correct(1, 0, 4)).value.key == "error.not_scored_yet"
    book, _ = typed_hand(book, (0, 12, 5))
    for command, key in (
        (Correct(1, 3, 4), "error.no_seat"),
        (Correct(1, 1, 12), "error.same_score"),
        (Correct(1, 1, most_points(SHORT, 1) + 1), "error.points_range"),
        (Correct(1, 1, "4"), "error.not_int"),
        (Correct(2, 1, 4), "error.not_scored_yet"),
    ):
        with pytest.raises(RummyError) as caught:
            scorebook.apply(book, command)
        assert caught.value.key == key


def test_a_correction_after_the_last_hand_can_change_the_winner() -> None:
    book, _ = scorebook.new_book(SHORT, 2, seed=1)
    book, _ = typed_hand(book, (0, 6))
    book, _ = run(book, Call())
    book, _ = typed_hand(book, (0, 3))
    book, events = run(book, Correct(2, 0, 20))
    assert events[-1] == GameEnded((20, 9), (1,)) and book.winners == (1,)
    book, events = run(book, UndoCorrection())
    assert events[-1] == GameEnded((0, 9), (0,))


def test_who_answers_for_a_seat_is_the_rooms_to_say_with_each_command() -> None:
    """The book keeps no list of phone-less seats or helpers: `helped` comes with each command, from the room."""
    book, _ = scorebook.new_book(SHORT, 3, seed=1)
    book, _ = run(book, Call())
    assert pytest.raises(RummyError, scorebook.apply, book, Ready(2, by=0)).value.key == "error.answer_for"
    book, _ = run(book, Ready(2, by=0), helped=frozenset({2}))
    assert book.hand.ready == (False, False, True)
    assert not hasattr(book.hand, "phoneless") and not hasattr(book.hand, "helpers")


def test_commands_travel_as_json_and_come_back_equal() -> None:
    commands = [Call(force=True), Ready(2, False, 0, 3), Draft(1, ("7H", "JK"), 4), Correct(3, 1, 9), UndoCorrection()]
    for command in commands:
        assert command_from_dict(json.loads(json.dumps(command_to_dict(command)))) == command
    # Journals of earlier versions: the engine's own pause and the call's time mean nothing now, and are passed over.
    assert command_from_dict({"type": "pause", "now": 5.0}) is None
    assert command_from_dict({"type": "call", "now": 5.0, "force": True}) == Call(force=True)
    assert command_from_dict({"type": "arrive", "phoneless": True}) == Arrive()
    with pytest.raises(RummyError):
        command_from_dict({"type": "shuffle"})
    with pytest.raises(RummyError):
        command_from_dict({"type": "ready", "seat": 1, "cards": []})


def test_a_newcomer_is_dealt_in_at_the_next_hand_on_the_worst_total() -> None:
    book, _ = scorebook.new_book(SHORT, 3, seed=1)
    book, events = run(book, Arrive())
    assert events == [Arrived(3)] and book.players == 4 and book.hand.players == 3
    book, _ = typed_hand(book, (0, 12, 5))
    assert book.totals == (0, 12, 5, 12) and book.scores == ((0, 12, 5, None),)  # the hand they missed is blank
    assert book.cell(1, 3) is None
    assert pytest.raises(RummyError, scorebook.apply, book, Correct(1, 3, 4)).value.key == "error.not_scored_yet"
    book, _ = run(book, Call())
    assert book.hand.players == 4
    book, _ = typed_hand(book, (0, 0, 0, 1))
    assert book.totals == (0, 12, 5, 13)
    watch = dataclasses.replace(SHORT, newcomers="watch")
    assert pytest.raises(RummyError, scorebook.apply, scorebook.new_book(watch, 3, 1)[0], Arrive()).value.key == (
        "error.started_watch"
    )


def test_a_leaver_takes_their_column_and_corrections_with_them() -> None:
    book, _ = scorebook.new_book(SHORT, 4, seed=1)
    book, _ = typed_hand(book, (0, 12, 5, 7))
    book, _ = run(book, Correct(1, 1, 2), Correct(1, 3, 1))
    book, events = run(book, Leave(1))
    assert events == [SeatLeft(1)] and book.scores == ((0, 5, 1),) and book.hand.players == 3
    assert book.corrections == (scorebook.Correction(1, 2, 7, 1),)  # old seat 3, now seat 2
    book, _ = run(book, Call(), Arrive(), Leave(3))  # a newcomer who goes before being dealt in
    assert book.players == 3


HELPED = frozenset({2, 5, 8, 11})  # the room's phone-less seats, their neighbours allowed to answer


def twelve_seat_journal() -> list:
    """Two caller-paced hands at a table of 12 where seats 2, 5, 8 and 11 have no phone (their neighbours answer)."""
    phoneless = (2, 5, 8, 11)

    def by(seat: int) -> int:
        return seat - 1 if seat in phoneless else seat

    def everyone_ready() -> list:
        return [Ready(s, by=by(s)) for s in range(12)]

    journal = [Call(), *everyone_ready(), Call(), Call(), *everyone_ready()]
    journal += [Call(), CallMatch(5, by=4), Call(), *(Ready(s, by=by(s)) for s in range(12) if s != 5)]
    journal += [Draft(5, ("4S", "5S")), Draft(5, ("4S", "5S", "6S")), Confirm(5, by=4), Call()]
    # Hand 1 deals 3 cards: half the table taps its cards, half types its points.
    journal += [Draft(s, ("AH", "9C", "KD"), by=by(s)) for s in range(0, 12, 2)]
    journal += [Confirm(s, by=by(s)) for s in range(0, 12, 2)]
    journal += [TypePoints(s, s, by=by(s)) for s in range(1, 12, 2) if s != 5]
    journal += [Call(), CallMatch(0), Call(), *(Ready(s, by=by(s)) for s in range(1, 12)), Call()]
    journal += [TypePoints(s, 0 if s == 0 else 4, by=by(s)) for s in range(12)]
    return journal + [Correct(1, 3, 0), Correct(2, 7, 9), UndoCorrection()]


def test_a_twelve_seat_game_replays_exactly_from_its_json_journal() -> None:
    book, _ = scorebook.new_book(SHORT, 12, seed=5)
    journal = twelve_seat_journal()
    book, _ = run(book, *journal, helped=HELPED)  # every command is accepted
    assert book.over and book.history[0][5].claim is True and book.cell(1, 3) == Cell(0, "typed", 3)
    assert [book.cell(1, s).how for s in range(4)] == ["cards", "typed", "cards", "typed"]
    assert book.totals[0] == 20 + 0 and book.totals[1] == 1 + 4
    stored = json.dumps([command_to_dict(c) for c in journal])
    replayed = scorebook.replay(SHORT, 12, 5, [command_from_dict(c) for c in json.loads(stored)], HELPED)
    assert replayed == book


def test_a_journal_cut_during_score_entry_brings_back_entries_and_half_entered_hands() -> None:
    journal = twelve_seat_journal()
    cut = journal.index(Confirm(4, by=4)) + 1  # seats 0, 2 and 4 confirmed; the others have drafts or nothing
    book = scorebook.replay(SHORT, 12, 5, journal[:cut], HELPED)
    assert book.hand.phase is Phase.ENTRY
    assert [s for s, e in enumerate(book.hand.entries) if e is not None] == [0, 2, 4, 5]
    assert [len(d) for d in book.hand.drafts[6::2]] == [3, 3, 3]  # tapped, not yet confirmed
    assert book.hand.waiting_for() == [1, 3, 6, 7, 8, 9, 10, 11]


def test_the_engine_of_the_mode_imports_no_web_framework() -> None:
    code = (
        "import sys, partyrummy.realcards.scorebook, partyrummy.realcards.table, partyrummy.realcards.views; "
        "bad = [m for m in ('flask', 'flask_socketio', 'socketio', 'engineio') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# -- Any play, legal or not ----------------------------------------------------------


class ScorebookMachine(RuleBasedStateMachine):
    """Random commands from every seat, the host and the caller; refused ones change nothing."""

    @initialize(data=st.data())
    def start(self, data) -> None:
        variant = data.draw(st.sampled_from([SHORT, SHORT_APP, SHORT_CLASSIC]))
        players = data.draw(st.integers(variant.min_players, min(variant.max_players, 6)))
        self.helped = frozenset(data.draw(st.sets(st.integers(0, players - 1), max_size=players - 1)))
        self.args = (variant, players, 7)
        self.book, _ = scorebook.new_book(variant, players, 7)
        self.accepted = []

    def candidates(self, data) -> list:
        book = self.book
        size = book.hand.size
        faces = data.draw(shoe_faces(book.variant.decks_for(book.players), book.variant.jokers, size))
        seat_commands = [Ready(0), Ready(0, False), CallMatch(0), Withdraw(0), Done(0), Out(0), Confirm(0)]
        seat_commands += [Draft(0, faces), Draft(0, faces[:-1]), TypePoints(0, data.draw(st.integers(-1, 40)))]
        by = data.draw(st.one_of(st.none(), st.integers(0, book.players)))
        out = [dataclasses.replace(c, seat=s, by=by) for s in range(book.players) for c in seat_commands]
        out += [Call(), Call(force=True), UndoCorrection()]
        out += [Arrive(), Leave(data.draw(st.integers(-1, book.players)))]
        cell = (data.draw(st.integers(0, 3)), data.draw(st.integers(0, book.players)), data.draw(st.integers(0, 30)))
        out.append(Correct(*cell))
        return out

    def accepts(self, command) -> bool:
        try:
            scorebook.apply(self.book, command, self.helped)
        except RummyError:
            return False
        return True

    @rule(data=st.data())
    def legal(self, data) -> None:
        """Mostly moves the game on: one of the commands it would accept now."""
        accepted = [c for c in self.candidates(data) if self.accepts(c)]
        if accepted:
            self.apply(data.draw(st.sampled_from(accepted)))

    @rule(data=st.data())
    def anything(self, data) -> None:
        self.apply(data.draw(st.sampled_from(self.candidates(data))))

    def apply(self, command) -> None:
        before = self.book
        try:
            self.book, events = scorebook.apply(self.book, command, self.helped)
        except RummyError as error:
            assert error.key and error.code
            assert self.book == before
            return
        self.accepted.append(command)
        assert events, "an accepted command says what it did"

    @invariant()
    def seats_and_phase_agree(self) -> None:
        hand = self.book.hand
        assert len(hand.ready) == len(hand.entries) == len(hand.drafts) == hand.players
        assert (hand.turn is not None) == (hand.phase in (Phase.TURN, Phase.LAST_TURN))
        assert hand.turn not in hand.matched and not set(hand.to_play) & set(hand.matched)
        assert not set(hand.waiting_for()) & set(hand.matched) or hand.phase is Phase.ENTRY
        assert all(len(d) <= hand.size for d in hand.drafts)

    @invariant()
    def entries_are_scored_as_entered(self) -> None:
        hand = self.book.hand
        for seat, e in enumerate(hand.entries):
            if e is not None:
                assert (e.claim is not None) == (seat in hand.matched)
                assert 0 <= e.points <= most_points(hand.variant, hand.hand_no) and e.how in ("cards", "typed")
        assert len(self.book.history) == hand.hand_no - 1 + (hand.phase is Phase.SCORED)

    @invariant()
    def every_seat_has_one_score_column(self) -> None:
        book = self.book
        check_one_column_a_seat(book)
        assert all(0 <= c.seat < book.players and book.cell(c.hand_no, c.seat) for c in book.corrections)

    @invariant()
    def totals_add_up_the_cells(self) -> None:
        book = self.book
        dealt = book.hand.players
        sums = tuple(book.start_scores[s] + sum(row[s] or 0 for row in book.scores) for s in range(dealt))
        assert book.totals[:dealt] == sums
        assert (book.winners is None) != book.over

    def teardown(self) -> None:
        if hasattr(self, "book"):
            journal = json.loads(json.dumps([command_to_dict(c) for c in self.accepted]))
            assert scorebook.replay(*self.args, [command_from_dict(c) for c in journal], self.helped) == self.book


ScorebookMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=80, deadline=None)
TestScorebookMachine = ScorebookMachine.TestCase


def test_the_first_dealer_is_drawn_from_the_seed_as_with_cards_on_the_phones_and_moves_left() -> None:
    from partyrummy.phones import game

    firsts = set()
    for seed in range(8):
        book, events = scorebook.new_book(SHORT_CLASSIC, 4, seed=seed)
        assert book.hand.dealer == game.new_game(SHORT_CLASSIC, 4, seed)[0].hand.dealer  # one rule, both modes
        assert events[0].dealer == book.hand.dealer and events[0].starter == (book.hand.dealer + 1) % 4
        firsts.add(book.hand.dealer)
    assert len(firsts) > 1  # drawn, not always seat 0
    book, _ = scorebook.new_book(SHORT, 3, seed=5)
    first = book.hand.dealer
    book, _ = typed_hand(book, (0, 12, 5))
    book, _ = run(book, Call())
    assert book.hand.hand_no == 2 and book.hand.dealer == (first + 1) % 3
