"""What each viewer may see of a game, as plain JSON-able dicts. Views are whitelists.

A player sees their own hand, the card they drew, their pick; and of the
table only what lies face up: each pile's top card, counts, who has acted,
the melds of matched players. The host screen sees the table and no hand
until the hand is scored and every hand is laid face up.
"""

from __future__ import annotations

from typing import Any

from ..rules.awards import ranks, story
from ..rules.cards import RANK_NAMES, card_view
from ..rules.hands import window_open
from ..rules.melds import best_discard
from ..rules.seating import left_of, right_of
from .game import GameState
from .hand import MATCH_WINDOWS, HandState, Phase, lay_out, moves

__all__ = ["view_for", "view_for_host", "seat_view", "table_view"]


def _cards(hand: HandState, ids: tuple[int, ...] | list[int]) -> list[dict[str, Any]]:
    return [card_view(i, hand.faces[i]) for i in ids]


def table_view(game: GameState) -> dict[str, Any]:
    """Everything face up, the same for every viewer: work it out once, pass it to each view. Each seat's `can`
    is what the rules let it send now (the room's pause stops them all for a while)."""
    hand = game.hand
    turns = game.variant.turns
    history = [list(points) for points in game.history]
    seats = []
    for seat in range(hand.players):
        pile = () if turns else hand.piles[seat]  # with turns, the one shared pile is "pile" below
        seats.append(
            {
                "seat": seat,
                "cards": len(hand.hands[seat]),
                "pile_top": card_view(pile[-1], hand.faces[pile[-1]]) if pile else None,
                "pile_count": len(pile),
                "drawn": hand.drawn[seat] is not None,
                "took_pile": hand.took_pile[seat],
                "picked": hand.picks[seat] is not None,
                "matched": seat in hand.matched,
                "ready": seat in hand.going_on,  # in a Match! window: it goes on, ready for the next "Draw!"
                "can": [] if game.over else moves(hand, seat),
            }
        )
    wild = hand.wild_rank
    view: dict[str, Any] = {
        "mode": "phones",
        "call": _call(game),
        "hand_no": hand.hand_no,
        "hands_total": game.variant.hands,
        "size": hand.size,
        "wild_rank": RANK_NAMES[wild] if wild else None,
        "phase": hand.phase.value,
        "cycle": hand.cycle,
        "last_cycle": hand.last_cycle or (hand.phase is Phase.REVEAL and bool(hand.matched)),
        # What the phase means, as the rules say it, so that no page works it out: the Match! window is open (setup
        # only where the variant lets a dealt complete hand call it); the hand is scored.
        "window": window_open(game.variant, hand.phase in MATCH_WINDOWS, hand.phase is Phase.SETUP),
        "revealed": hand.phase is Phase.REVEAL,  # this cycle's discards are face up: the window after "Discard!"
        "scored": hand.phase is Phase.SCORED,
        "on_deal": list(hand.on_deal),  # seats dealt a complete hand: why a hand can end before anyone acts
        "shoe_count": hand.shoe_count,  # a count only: no view shows what the shoe (or a seat's stack) holds
        "seats": seats,
        "pacing": game.variant.pacing,
        "pile": _pile(hand, 0) if turns else None,
        "turn": hand.turn,
        "dealer": hand.dealer if turns else None,
        "waiting_for": hand.waiting_for(),
        "matched": [
            {"seat": seat, "melds": [_cards(hand, m) for m in melds]}
            for seat, melds in zip(hand.matched, hand.match_melds, strict=True)
        ],
        "totals": list(game.totals),
        "places": ranks(list(game.totals)),  # each seat's place on the totals, ties sharing the better one
        "history": history,
        "game_over": game.over,
        "winners": list(game.winners) if game.winners is not None else None,
        "results": None,
        # After a hand: the story of it; at the end of the night: the podium and the awards the sheet proves.
        **story(game, history, scored=hand.phase is Phase.SCORED, over=game.over),
    }
    if hand.phase is Phase.SCORED:
        view["results"] = [
            {
                "seat": seat,
                "penalty": result.penalty,
                "melds": [_cards(hand, m) for m in result.melds],
                "orphans": _cards(hand, result.orphans),
            }
            for seat, result in enumerate(hand.results)
        ]
    return view


def _call(game: GameState) -> str | None:
    """What the host's call does now: "next" deals the next hand, "call" plays for the slow and calls at once."""
    if game.over:
        return None
    return "next" if game.hand.phase is Phase.SCORED else "call"


def _pile(hand: HandState, index: int) -> dict[str, Any]:
    pile = hand.piles[index]
    return {"top": card_view(pile[-1], hand.faces[pile[-1]]) if pile else None, "count": len(pile)}


def view_for_host(game: GameState, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The host screen's view: the table, and no hand."""
    return (table or table_view(game)) | {"you": None}


def view_for(
    game: GameState, seat: int, hints: dict | None = None, table: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Seat `seat`'s view: the table and their own hand.

    `hints`, when given, is a dict the caller keeps between views: the hint of
    a hand that has not changed is not worked out again. `table`, when given,
    is this game's `table_view`, shared by every viewer of one update.
    """
    return dict(table or table_view(game)) | {"you": seat_view(game, seat, hints)}


def seat_view(game: GameState, seat: int, hints: dict | None = None) -> dict[str, Any]:
    """What seat `seat` alone sees (a view's `you`): its own hand, draw, pick and hint."""
    hand = game.hand
    if seat >= hand.players:  # a newcomer waiting for the next deal: no hand yet
        return {"seat": seat, "waiting": True}
    ids = hand.hands[seat]
    drawn = hand.drawn[seat]
    pick = hand.picks[seat]
    you: dict[str, Any] = {
        "seat": seat,
        "waiting": False,
        "right": right_of(seat, hand.players),
        "left": left_of(seat, hand.players),
        # The pile this seat may draw from: its right-hand neighbour's, or the shared one (turns).
        "take": _pile(hand, hand.pile_from(seat)),
        "hand": _cards(hand, ids),
        "drawn": card_view(drawn, hand.faces[drawn]) if drawn is not None else None,
        "pick": pick,
        "hint": _cached_hint(hand, ids, pick, hints) if game.variant.hints else None,
    }
    return you


def _cached_hint(hand: HandState, ids: tuple[int, ...], pick: int | None, cache: dict | None) -> dict[str, Any]:
    if cache is None:
        return _hint(hand, ids, pick)
    key = (hand.hand_no, ids, pick)
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = _hint(hand, ids, pick)
    return cache[key]


def _hint(hand: HandState, ids: tuple[int, ...], pick: int | None) -> dict[str, Any]:
    """The hand grouped into its best melds (without the picked card), and the best discard."""
    rules = hand.variant.meld_rules()
    laid = lay_out(hand, [i for i in ids if i != pick])
    suggestion = None
    if len(ids) > hand.size:
        suggestion = ids[best_discard(hand.cards_of(ids), hand.wild_rank, rules)]
    return {
        "penalty": laid.penalty,
        "melds": [list(m) for m in laid.melds],
        "orphans": list(laid.orphans),
        "discard": suggestion,
    }
