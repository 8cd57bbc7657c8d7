"""Views are whitelists: over whole random games, no view holds a card its viewer may not see."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from partyrummy.phones.game import GameState
from partyrummy.phones.hand import Phase
from partyrummy.phones.views import view_for, view_for_host

from .play import card_ids, random_game


def public_ids(game: GameState) -> set[int]:
    hand = game.hand
    seen = {pile[-1] for pile in hand.piles if pile}
    seen |= {c for melds in hand.match_melds for m in melds for c in m}
    if hand.phase is Phase.SCORED:
        seen |= {c for h in hand.hands for c in h}
    return seen


def check_views(game: GameState) -> None:
    host = view_for_host(game)
    json.dumps(host)
    assert host["you"] is None
    assert card_ids(host) <= public_ids(game)
    for seat in range(game.players):
        view = view_for(game, seat)
        json.dumps(view)
        own = set(game.hand.hands[seat])
        assert card_ids(view) <= public_ids(game) | own
        # Hints and picks name cards by bare id: all of them must be the viewer's own.
        hint = view["you"]["hint"]
        named = (
            {c for meld in hint["melds"] for c in meld} | set(hint["orphans"]) | {hint["discard"], view["you"]["pick"]}
        )
        assert named - {None} <= own


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 12), seed=st.integers(0, 10_000))
def test_no_view_ever_holds_a_card_its_viewer_may_not_see(party, players: int, seed: int) -> None:
    for game, _ in random_game(party, players, seed):
        check_views(game)


def test_a_player_sees_their_own_draw_and_the_others_only_that_they_drew(party) -> None:
    from partyrummy.phones import game as engine
    from partyrummy.phones.commands import Call, Draw

    game, _ = engine.new_game(party, 3, 1)
    game, _ = engine.apply(game, Call())
    game, _ = engine.apply(game, Draw(0, "shoe"))
    drawn = game.hand.drawn[0]
    assert view_for(game, 0)["you"]["drawn"]["id"] == drawn
    assert drawn not in card_ids(view_for(game, 1)) | card_ids(view_for_host(game))
    assert view_for(game, 1)["seats"][0]["drawn"] is True
    assert view_for(game, 1)["you"]["right"] == 0 and view_for(game, 1)["you"]["left"] == 2


def test_the_views_number_places_with_ties_sharing_the_better_one_and_name_a_match_on_the_deal(party) -> None:
    from dataclasses import replace

    from partyrummy.phones import game as engine
    from partyrummy.phones.commands import CallMatch

    game, _ = engine.new_game(party, 4, 1)
    assert view_for_host(replace(game, history=((5, 0, 5, 9),)))["places"] == [2, 1, 2, 4]
    assert view_for_host(game)["on_deal"] == []
    # A deal in which a 3-card hand is complete (the seeds are searched, in order, for the first).
    game, seat = next((g, s) for g in (engine.new_game(party, 4, seed)[0] for seed in range(500))
                      for s in range(4) if _complete(g, s))
    after, _ = engine.apply(game, CallMatch(seat))
    assert view_for_host(after)["on_deal"] == [seat]


def _complete(game: GameState, seat: int) -> bool:
    from partyrummy.rules.melds import is_complete

    hand = game.hand
    return is_complete(hand.cards_of(hand.hands[seat]), hand.wild_rank, game.variant.meld_rules())
