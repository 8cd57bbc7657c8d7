"""Views are whitelists: over whole random games, nothing the server sends holds a card its viewer may not see.

The views are checked as a room serves them (in-process, its sends caught): each seat's, the TV's and a guest's
whole view (the published table with its own part in it), and every update sent to each connection on the way.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partyrummy.phones.game import GameState
from partyrummy.phones.hand import Phase
from partyrummy.phones.views import view_for, view_for_host
from partyrummy.server.room.room import Room, Viewer
from partyrummy.wire.delta import merge

from .play import card_ids, random_command


def public_ids(game: GameState) -> set[int]:
    hand = game.hand
    seen = {pile[-1] for pile in hand.piles if pile}
    seen |= {c for melds in hand.match_melds for m in melds for c in m}
    if hand.phase is Phase.SCORED:
        seen |= {c for h in hand.hands for c in h}
    return seen


def served_room(party, players: int, seed: int, draws: str | None = None) -> tuple[Room, dict[str, list]]:
    """A room of `players` seats (connections seat-0, seat-1, …), the TV and a guest, dealt from `seed`: every
    message sent to each connection is kept, by connection (the table's, published to the room, to each)."""
    sent: dict[str, list] = defaultdict(list)
    room = Room("LEAK", {"party": party}, "party", lambda sid, event, data: sent[sid].append(data))
    room.attach("tv", Viewer("host", room.host_token))
    room.attach("guest", Viewer("guest"))
    for seat in range(players):
        room.join(f"seat-{seat}", f"P{seat}")
    room.start(seed=seed, draws=draws)
    return room, sent


def check_served(room: Room, sent: dict[str, list]) -> None:
    """Every connection's whole view, and every message sent to it since the last look, hold no card but those
    face up and its own hand's."""
    game = room.state.game
    public = public_ids(game)
    for sid, viewer in list(room.viewers.items()):
        seat = room.seat_for(viewer)
        own = set(game.hand.hands[seat]) if seat is not None and seat < game.hand.players else set()
        state = room.state_for(viewer)
        view = merge(state["table"], state["mine"])
        json.dumps(view)
        assert card_ids(view) <= public | own, (sid, sorted(card_ids(view) - public - own))
        assert card_ids(sent.pop(sid, [])) <= public | own, sid
        if seat is None:
            assert view["game"]["you"] is None
            continue
        # Hints and picks name cards by bare id: all of them must be the viewer's own.
        you = view["game"]["you"]
        if not you["waiting"]:
            hint = you["hint"]
            named = {c for meld in hint["melds"] for c in meld} | set(hint["orphans"]) | {hint["discard"], you["pick"]}
            assert named - {None} <= own


@pytest.mark.slow  # 20 s here: whole games, every view served after every command
@settings(max_examples=4, deadline=None)
@given(players=st.integers(2, 12), seed=st.integers(0, 10_000))
def test_nothing_served_ever_holds_a_card_its_viewer_may_not_see(party, players: int, seed: int) -> None:
    room, sent = served_room(party, players, seed)
    rng = random.Random(seed)
    check_served(room, sent)
    while not room.state.game.over:
        room.play(random_command(room.state.game, rng))
        room.settle()
        check_served(room, sent)


def test_own_order_serves_the_shoes_count_alone_and_no_card_of_any_stack(party) -> None:
    """Drawn a stack per seat, the views still say only how many cards the shoe holds, every stack's together."""
    room, sent = served_room(party, 5, 31, draws="own-order")
    rng = random.Random(31)
    check_served(room, sent)
    for _ in range(60):
        room.play(random_command(room.state.game, rng))
        room.settle()
        check_served(room, sent)
        hand = room.state.game.hand
        for viewer in list(room.viewers.values()):
            state = room.state_for(viewer)
            view = merge(state["table"], state["mine"])
            assert view["game"]["shoe_count"] == sum(map(len, hand.stacks)) and "stacks" not in json.dumps(view)


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
