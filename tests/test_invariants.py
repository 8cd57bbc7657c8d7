"""Engine invariants under random legal and illegal commands, for 2 to 12 players."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from partyrummy.phones import game as engine
from partyrummy.phones.commands import Arrive, AutoPlay, Call, CallMatch, Choose, Draw, Leave
from partyrummy.phones.hand import MOVES, moves
from partyrummy.phones.legal import legal_commands
from partyrummy.rules.errors import RummyError
from partyrummy.rules.variants import DRAWS, default_variants

from .sheet_checks import check_one_column_a_seat

VARIANTS = default_variants()
# Each pacing, and the app's jokers.
TABLES = [VARIANTS["party"], VARIANTS["classic"], VARIANTS["app4"]]
# One deck for three players of 12 and 13 cards: the shoe runs out within a few cycles, and is refilled.
TIGHT = replace(VARIANTS["party"], name="tight", decks=1, max_players=3, hand_sizes=(12, 13))

garbage = st.one_of(
    st.builds(
        Draw,
        st.integers(-2, 14),
        st.sampled_from(["shoe", "pile", "deck", ""]),
        st.one_of(st.none(), st.integers(-1, 50)),
    ),
    st.builds(Choose, st.integers(-2, 14), st.integers(-5, 215), st.one_of(st.none(), st.integers(-1, 50))),
    st.builds(CallMatch, st.integers(-2, 14)),
    st.builds(AutoPlay, st.integers(-2, 14)),
    st.just(Call()),
    # Seats coming and going: the host's removals (any seat, mid-hand) and newcomers.
    st.builds(Leave, st.integers(-1, 13)),
    st.just(Arrive()),
)


class GameMachine(RuleBasedStateMachine):
    @initialize(data=st.data(), seed=st.integers(0, 1000))
    def start(self, data, seed: int) -> None:
        draws = data.draw(st.sampled_from(DRAWS))
        variant = data.draw(st.sampled_from(TABLES + [TIGHT]))
        players = data.draw(st.integers(variant.min_players, variant.max_players))
        self.game, _ = engine.new_game(variant, players, seed, draws)

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal(self, data) -> None:
        command = data.draw(st.sampled_from(legal_commands(self.game)))
        self.game, _ = engine.apply(self.game, command)

    @rule(command=garbage)
    def anything(self, command) -> None:
        before = self.game
        try:
            self.game, _ = engine.apply(self.game, command)
        except RummyError as error:
            assert error.key and error.code
            assert self.game == before  # a refused command changes nothing

    @invariant()
    def every_card_is_in_exactly_one_place(self) -> None:
        hand = self.game.hand
        places = list(hand.shoe_cards) + [c for h in hand.hands for c in h] + [c for p in hand.piles for c in p]
        assert sorted(places) == list(range(len(hand.faces)))

    @invariant()
    def the_shoe_is_one_or_a_stack_per_seat_and_counts_its_cards(self) -> None:
        hand = self.game.hand
        assert hand.draws == self.game.draws
        if hand.draws == "own-order":
            assert hand.shoe == () and len(hand.stacks) == hand.players
        else:
            assert hand.stacks == ()
        assert hand.shoe_count == len(hand.shoe) + sum(map(len, hand.stacks))

    @invariant()
    def every_seat_has_one_score_column(self) -> None:
        check_one_column_a_seat(self.game)

    @invariant()
    def with_turns_one_player_acts_on_one_pile(self) -> None:
        hand = self.game.hand
        if hand.variant.turns:
            assert len(hand.piles) == 1 and 0 <= hand.turn < hand.players
            assert all(s == hand.turn for s, card in enumerate(hand.drawn) if card is not None)
            assert set(hand.waiting_for()) <= {hand.turn}

    @invariant()
    def each_seat_is_offered_exactly_the_moves_the_engine_takes(self) -> None:
        """`can` (hand.moves) is what a page shows: every move offered is taken, every move taken is offered.
        Match! is offered whenever the window is open: the engine then checks the hand (a false claim costs
        nothing)."""
        if self.game.over:
            return
        hand = self.game.hand
        taken = {(c.seat, MOVES[type(c)]) for c in legal_commands(self.game) if type(c) in MOVES}
        for seat in range(hand.players):
            offered = set(moves(hand, seat))
            assert {m for s, m in taken if s == seat} <= offered, seat
            assert offered - {"match"} == {m for s, m in taken if s == seat} - {"match"}, seat

    @invariant()
    def hands_hold_n_or_n_plus_one(self) -> None:
        hand = self.game.hand
        for seat, cards in enumerate(hand.hands):
            assert len(cards) == hand.size + (hand.drawn[seat] is not None)


GameMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=60, deadline=None)
TestGameMachine = GameMachine.TestCase


def test_the_engine_imports_no_web_framework() -> None:
    """The rules, the engine and the audience's predictions are plain Python: importing them loads no web module."""
    code = (
        "import sys, partyrummy.rules.cards, partyrummy.rules.melds, partyrummy.rules.variants, "
        "partyrummy.phones.hand, partyrummy.phones.game, partyrummy.phones.views, partyrummy.phones.legal, "
        "partyrummy.audience.predictions, partyrummy.audience.views, partyrummy.cli; "
        "bad = [m for m in ('flask', 'flask_socketio', 'socketio', 'engineio', 'gevent') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
