"""The 11-hand game: totals, winners and the tie rule, the first dealer, exact replay."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partyrummy.phones import game as engine
from partyrummy.phones.bots import Bot
from partyrummy.phones.commands import Arrive, Arrived, AutoPlay, Call, CallMatch, Draw, HandScored, Leave, Left
from partyrummy.phones.hand import Phase
from partyrummy.phones.legal import legal_commands
from partyrummy.phones.simulate import play_game
from partyrummy.rules.errors import BadCommand, GameOver, OutOfPhase
from partyrummy.rules.scoring import winners
from partyrummy.rules.seating import left_of, right_of

from .play import random_game


def test_a_whole_game_plays_eleven_hands_of_three_to_thirteen(party) -> None:
    sizes, last = [], None
    for game, _ in random_game(party, 4, seed=11):
        if game.hand.hand_no != last:
            last = game.hand.hand_no
            sizes.append(game.hand.size)
    assert sizes == list(range(3, 14))
    assert len(game.history) == 11
    assert game.totals == tuple(sum(h[s] for h in game.history) for s in range(4))
    assert game.winners == tuple(s for s in range(4) if game.totals[s] == min(game.totals))
    with pytest.raises(GameOver):
        engine.apply(game, Call())


def test_replay_is_exact_card_for_card(party) -> None:
    steps = list(random_game(party, 6, seed=5))
    commands = [c for _, c in steps if c is not None]
    assert engine.replay(party, 6, 5, commands) == steps[-1][0]
    # A different seed deals different cards.
    assert engine.new_game(party, 6, 6)[0].hand.hands != steps[0][0].hand.hands


def test_ties_share_the_win_or_give_no_winner(party) -> None:
    assert winners(party, (5, 5, 9)) == (0, 1)
    strict = replace(party, ties="no-winner")
    assert winners(strict, (5, 5, 9)) == ()
    assert winners(strict, (5, 4, 9)) == (1,)


def test_the_game_is_over_the_moment_its_last_hand_is_scored(party) -> None:
    one = replace(party, hand_sizes=(3,))
    game = to_phase(engine.new_game(one, 3, 4)[0], Phase.SCORED)
    assert game.over and game.winners is not None
    with pytest.raises(GameOver):
        engine.apply(game, Call())  # nothing to deal: no "call now" is needed to end it


def test_fewer_hands_from_the_variant(party) -> None:
    quick = replace(party, hand_sizes=(3, 4, 5))
    *_, (game, _) = random_game(quick, 2, seed=2)
    assert len(game.history) == 3 and game.over


def to_phase(game, phase: Phase):
    """Play on (Match! when someone can, else calls and the caller's play for slow seats) until `phase`."""
    while game.hand.phase is not phase:
        commands = [c for c in legal_commands(game) if isinstance(c, (CallMatch, Call, AutoPlay))]
        commands.sort(key=lambda c: not isinstance(c, CallMatch))
        game, _ = engine.apply(game, commands[0])
    return game


def all_cards(hand) -> list[int]:
    return sorted(list(hand.shoe) + [c for h in hand.hands for c in h] + [c for p in hand.piles for c in p])


def test_a_player_taken_off_mid_draw_leaves_a_closed_ring_and_every_card(party) -> None:
    game, _ = engine.new_game(party, 5, 3)
    game = to_phase(game, Phase.DRAW)
    # Seat 3 draws from seat 2's pile; seat 2 leaves with its hand and its pile.
    game, _ = engine.apply(game, Draw(3, "pile"))
    leaver_cards = game.hand.hands[2] + game.hand.piles[2]
    pile_of_1 = game.hand.piles[1]
    game, events = engine.apply(game, Leave(2))
    hand = game.hand
    assert hand.players == 4 and game.players == 4
    assert all_cards(hand) == list(range(len(hand.faces)))
    assert hand.shoe[: len(leaver_cards)] == leaver_cards  # under the shoe, not on top
    # The old seat 3 (now 2) takes from seat 1's pile now: each pile has exactly one taker.
    assert right_of(2, 4) == 1 and hand.piles[1] == pile_of_1
    assert sorted(right_of(s, 4) for s in range(4)) == [0, 1, 2, 3]
    assert hand.drawn[2] is not None  # the draw it made before stays
    assert Left(2, len(leaver_cards)) in events
    # The hand and then the game play on to the end with four.
    game = to_phase(game, Phase.SCORED)
    assert len(game.history[-1]) == 4


def test_when_the_last_slow_player_leaves_the_table_moves_on(party) -> None:
    game, _ = engine.new_game(party, 3, 4)
    game = to_phase(game, Phase.DRAW)
    game, _ = engine.apply(game, Draw(0, "shoe"))
    game, _ = engine.apply(game, Draw(1, "shoe"))
    game, _ = engine.apply(game, Leave(2))
    assert game.hand.phase is Phase.CHOOSE


def test_a_hand_never_drops_below_the_minimum(party) -> None:
    game, _ = engine.new_game(party, 2, 4)
    with pytest.raises(BadCommand):
        engine.apply(game, Leave(0))
    with pytest.raises(BadCommand):
        engine.apply(game, Leave(5))


def test_a_newcomer_is_dealt_in_at_the_next_hand_with_the_worst_total(party) -> None:
    game, _ = engine.new_game(party, 3, 8)
    game, events = engine.apply(game, Arrive())
    assert Arrived(3) in events and game.players == 4 and game.hand.players == 3
    game = to_phase(game, Phase.SCORED)
    worst = max(game.totals[:3])
    assert game.totals[3] == worst  # shown before the deal as what they would start with
    assert game.history[0][3] is None  # the score table has their column already, blank for this hand
    game, _ = engine.apply(game, Call())
    assert game.hand.players == 4 and len(game.hand.hands[3]) == 4
    assert game.start_scores[3] == worst and game.history[0][3] is None
    game = to_phase(game, Phase.SCORED)
    assert game.totals[3] == worst + game.history[1][3]
    assert all_cards(game.hand) == list(range(len(game.hand.faces)))


@pytest.mark.parametrize("rule, expected", [("zero", lambda t: 0), ("average", lambda t: round(sum(t) / len(t)))])
def test_the_newcomer_score_is_the_variants(party, rule, expected) -> None:
    game, _ = engine.new_game(replace(party, newcomer_score=rule), 3, 8)
    game = to_phase(game, Phase.SCORED)
    game, _ = engine.apply(game, Arrive())
    totals = game.totals[:3]
    game, _ = engine.apply(game, Call())
    assert game.start_scores[3] == expected(totals)


def test_newcomers_only_watch_when_the_variant_says_so(party) -> None:
    game, _ = engine.new_game(replace(party, newcomers="watch"), 3, 8)
    with pytest.raises(OutOfPhase):
        engine.apply(game, Arrive())
    full, _ = engine.new_game(replace(party, max_players=3), 3, 8)
    with pytest.raises(BadCommand):
        engine.apply(full, Arrive())


def test_a_waiting_newcomer_can_leave_before_being_dealt_in(party) -> None:
    game, _ = engine.new_game(party, 3, 8)
    game, _ = engine.apply(game, Arrive())
    game, _ = engine.apply(game, Leave(3))
    assert game.players == 3 and game.hand.players == 3


@pytest.mark.parametrize(
    ("name", "players"),
    [("party", 12), ("classic", 2), ("classic", 8), ("app", 4), ("app4", 4), ("quick", 5), ("highaces", 3)],
)
def test_every_shipped_variant_plays_to_final_standings(variants, name: str, players: int) -> None:
    variant = variants[name]
    bots = [Bot(("sharp", "easy")[s % 2]) for s in range(players)]
    game, _ = play_game(variant, bots, seed=7)  # checks every card is in one place after each command
    assert game.over and len(game.history) == variant.hands
    assert all(len(points) == players for points in game.history)
    best = min(game.totals)
    leaders = tuple(s for s in range(players) if game.totals[s] == best)
    expected = () if len(leaders) > 1 and variant.ties == "no-winner" else leaders
    assert game.winners == expected
    if variant.jokers:
        assert sum(1 for face in game.hand.faces if not face.rank) == variant.jokers


def test_with_turns_the_last_player_to_play_leaving_scores_the_hand(variants) -> None:
    classic = variants["classic"]
    game, _ = engine.new_game(classic, 3, seed=4)
    hand = replace(game.hand, phase=Phase.LAST_DRAW, matched=(1,), match_melds=((),), to_play=(0,), turn=0)
    game, events = engine.apply(replace(game, hand=hand), Leave(0))
    assert game.hand.phase is Phase.SCORED and len(game.history) == 1 and len(game.history[0]) == 2
    assert any(isinstance(e, HandScored) for e in events)


def test_the_first_dealer_is_drawn_from_the_seed_and_the_deal_then_moves_left(variants) -> None:
    classic = variants["classic"]
    firsts = [engine.new_game(classic, 4, seed)[0].hand.dealer for seed in range(12)]
    assert set(firsts) == {0, 1, 2, 3}  # not always seat 0: the table draws for it
    assert [engine.new_game(classic, 4, seed)[0].hand.dealer for seed in range(12)] == firsts  # the seed decides
    game, _ = engine.new_game(classic, 4, seed=5)
    dealers = []
    for hand_no in range(1, classic.hands + 1):
        dealers.append(game.hand.dealer)
        assert game.hand.turn == left_of(game.hand.dealer, 4)  # the player on the dealer's left starts
        if hand_no < classic.hands:  # (a scored last hand ends the game: no deal follows)
            scored = replace(game, hand=replace(game.hand, phase=Phase.SCORED))
            game, _ = engine.apply(scored, Call())
    assert dealers == [(dealers[0] + h) % 4 for h in range(classic.hands)]


def test_a_leaving_dealer_passes_the_deal_on_as_the_ring_closes(variants) -> None:
    classic = variants["classic"]
    seed = next(s for s in range(50) if engine.new_game(classic, 4, s)[0].hand.dealer == 2)
    game, _ = engine.new_game(classic, 4, seed)
    before, _ = engine.apply(game, Leave(0))  # someone before the dealer: the dealer's number moves down
    assert before.hand.dealer == 1
    gone, _ = engine.apply(game, Leave(2))  # the dealer: the right-hand neighbour holds the deal
    assert gone.hand.dealer == 1
    after, _ = engine.apply(game, Leave(3))  # someone after the dealer: nothing moves
    assert after.hand.dealer == 2


# -- Own-order: a stack per seat (stacks.py), for a night's tables of the same size ------------------------------


def every_card(hand) -> list[int]:
    """Every card of the hand, face down or not, sorted (each id once if none is lost or doubled)."""
    return sorted(list(hand.shoe_cards) + [c for h in hand.hands for c in h] + [c for p in hand.piles for c in p])


def check_own_order(game) -> None:
    hand = game.hand
    assert every_card(hand) == list(range(len(hand.faces)))
    assert hand.shoe == () and len(hand.stacks) == hand.players
    assert hand.shoe_count == sum(map(len, hand.stacks))


def test_a_seat_leaving_own_order_puts_its_stack_hand_and_pile_under_the_others_from_its_left(party) -> None:
    game, _ = engine.new_game(party, 4, 3, draws="own-order")
    game = to_phase(game, Phase.DRAW)
    game, _ = engine.apply(game, Draw(2, "pile"))
    before = game.hand
    game, events = engine.apply(game, Leave(1))
    hand = game.hand
    check_own_order(game)
    pack = tuple(reversed(before.stacks[1])) + before.hands[1] + before.piles[1]
    assert Left(1, len(before.hands[1] + before.piles[1])) in events
    # Round robin from its left-hand neighbour (the old seat 2, now 1), each card under the stacks: the stacks'
    # own cards stay on top, in their order.
    for new, old in enumerate((0, 2, 3)):
        given = pack[(new - 1) % 3 :: 3]
        assert hand.stacks[new] == tuple(reversed(given)) + before.stacks[old]
    game = to_phase(game, Phase.SCORED)
    check_own_order(game)


def test_own_order_goes_on_from_hand_to_hand_and_deals_a_newcomer_its_stack(party) -> None:
    game, _ = engine.new_game(party, 3, 8, draws="own-order")
    game, _ = engine.apply(game, Arrive())
    assert len(game.hand.stacks) == 3
    game = to_phase(game, Phase.SCORED)
    game, _ = engine.apply(game, Call())
    assert game.draws == "own-order" and game.hand.hand_no == 2 and len(game.hand.stacks) == 4
    check_own_order(game)


def test_an_own_order_game_replays_exactly(party, variants) -> None:
    for variant, players, seed in ((party, 5, 7), (variants["classic"], 3, 2)):
        steps = list(random_game(variant, players, seed, draws="own-order"))
        commands = [c for _, c in steps if c is not None]
        for game, _ in steps[:: max(1, len(steps) // 40)]:
            check_own_order(game)
        assert engine.replay(variant, players, seed, commands, draws="own-order") == steps[-1][0]
        assert engine.replay(variant, players, seed, commands) != steps[-1][0]  # one shoe plays other cards


def own_stack_draws(variant, players: int, seed, me: int, others: str, rng: random.Random) -> list[list[int]]:
    """Play hand 1 in own-order, its first 8 cycles at most: `me` always draws from the shoe, the other seats
    from the pile when they may (`others` "pile"), from the shoe ("shoe"), or as `rng` says ("any"); everyone
    discards as `rng` says. Returns, by seat, the cards it drew from its own stack (while it lasted), checking
    every card after each move."""
    game, _ = engine.new_game(variant, players, seed, draws="own-order")
    own: list[list[int]] = [[] for _ in range(players)]
    while game.hand.hand_no == 1 and not game.over and game.hand.cycle <= 8:
        commands = legal_commands(game)
        draws = [c for c in commands if isinstance(c, Draw)]
        mine = [c for c in draws if c.seat == me and c.source == "shoe"]
        theirs = [c for c in draws if c.seat != me and others in (c.source, "any")]
        if mine or theirs:
            command = rng.choice(mine + theirs)
        else:
            command = rng.choice([c for c in commands if not isinstance(c, (Draw, AutoPlay))])
        stack_before = game.hand.stacks[command.seat] if isinstance(command, Draw) else ()
        game, _ = engine.apply(game, command)
        if isinstance(command, Draw) and command.source == "shoe" and stack_before:
            own[command.seat].append(game.hand.drawn[command.seat])
        if game.hand.hand_no == 1:
            check_own_order(game)
    return own


@settings(max_examples=15, deadline=None)
@given(
    classic=st.booleans(),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    me=st.integers(0, 5),
    moves=st.integers(0, 2**32),
)
def test_own_order_gives_a_seat_the_same_draws_whatever_the_other_seats_do(
    party, variants, classic, seed, players, me, moves
) -> None:
    """The night's promise: at two tables dealt from one seed, where the other seats choose otherwise (one takes
    the pile, the other draws from the shoe), a seat draws the same cards from its stack as long as it lasts."""
    variant = variants["classic"] if classic else party
    players = min(players, variant.max_players)
    me %= players
    dealt = engine.new_game(variant, players, seed, draws="own-order")[0].hand.stacks
    rng = random.Random(moves)
    runs = [own_stack_draws(variant, players, seed, me, others, rng) for others in ("pile", "shoe", "any")]
    for own in runs:
        for seat in range(players):  # whoever borrowed from a stack, its owner draws it from the top, in order
            assert own[seat] == list(reversed(dealt[seat]))[: len(own[seat])]
    shortest = min(len(own[me]) for own in runs)
    assert len({tuple(own[me][:shortest]) for own in runs}) == 1
