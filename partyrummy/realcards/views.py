"""What each viewer may see of a real-cards game, as plain JSON-able dicts. Views are whitelists.

Everyone sees the pace (phase, who is ready, whose turn, who is waited
for), the score sheet and, once a seat that called Match! has entered its
cards, that seat's melds, so the table can check them. What the room owns
(who plays without a phone, whether phones may answer for them, the pause,
the clocks) is in the room's part of each view, not here. A phone also sees
its own picker (the cards tapped so far, laid out live by the solver) and
its own entry. The others' points stay hidden until the hand is scored: the
TV shows who has entered, then every score at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..rules.awards import ranks, story
from ..rules.cards import RANK_NAMES, Card, card_view
from ..rules.hands import window_open
from ..rules.melds import best_arrangement
from .entry import Entry, most_points, overdrawn
from .phases import WINDOWS, Phase
from .scorebook import Scorebook
from .table import moves

__all__ = ["table_view", "draft_view", "seat_view", "view_for", "view_for_host"]


def _faces(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """Cards in the shape the phones' game sends them (one card_view for both), with no id: real cards have none."""
    return [card_view(None, c) for c in cards]


def _laid(entry: Entry) -> dict[str, Any]:
    """An entry as the table may see it once it can be shown."""
    melds = [_faces(m) for m in entry.melds]
    return {
        "points": entry.points,
        "how": entry.how,
        "claim": entry.claim,
        "melds": melds,
        "orphans": _faces(entry.orphans),
    }


def _sheet(book: Scorebook) -> list[list[dict[str, Any]]]:
    """Every scored cell: points, how it was entered, the score as entered when corrected (None: not dealt in)."""
    cells = ((book.cell(h, s) for s in range(book.players)) for h in range(1, len(book.history) + 1))
    return [[None if c is None else dataclasses.asdict(c) for c in row] for row in cells]


def table_view(book: Scorebook) -> dict[str, Any]:
    """Everything public, the same for every viewer. Each seat's `can` is what the rules let it send now (its
    phone, or whoever answers for it; the room's pause stops all but score entry for a while)."""
    hand, variant = book.hand, book.variant
    scored = hand.phase is Phase.SCORED
    seats = []
    for seat, entry in enumerate(hand.entries):
        shown = entry is not None and (scored or seat in hand.matched)
        seats.append(
            {
                "seat": seat,
                "ready": hand.ready[seat],
                "matched": seat in hand.matched,
                "entered": entry is not None,
                "entry": _laid(entry) if shown else None,
                "can": [] if book.over else moves(hand, seat),
            }
        )
    wild = hand.wild_rank
    view = {
        "mode": "real",
        "call": _call(book),
        "pacing": variant.pacing,
        "setup_match": variant.setup_match,  # whether a dealt complete hand may call Match! before the first call
        "hand_no": hand.hand_no,
        "hands_total": variant.hands,
        "size": hand.size,
        "points_max": most_points(variant, hand.hand_no),  # the most a hand can score: a typed score's range
        "wild_rank": RANK_NAMES[wild] if wild else None,
        "jokers": variant.jokers,
        "decks": variant.decks_for(hand.players),
        "phase": hand.phase.value,
        # What the phase means, as the rules say it, so that no page works it out (as with cards on the phones):
        # the Match! window is open, the last cycle (or last turns) is on, the hand is scored.
        "window": window_open(variant, hand.phase in WINDOWS, hand.phase is Phase.SETUP),
        "revealed": hand.phase is Phase.REVEAL,  # the discards are down: the window after "Discard!"
        "readying": hand.phase in (Phase.READY, Phase.LAST_READY),  # the table waits for everyone's Ready
        "asking": hand.phase in (Phase.READY, Phase.LAST_READY, Phase.ENTRY),  # … for each seat's Ready, or hand
        "last_cycle": hand.phase in (Phase.LAST_READY, Phase.LAST_TURN)
        or (hand.phase is Phase.REVEAL and bool(hand.matched)),
        "scored": scored,
        "cycle": hand.cycle,
        "dealer": hand.dealer if variant.turns else None,
        "turn": hand.turn,
        "to_play": list(hand.to_play),
        "matched": [{"seat": s, "melds": hand.entries[s] and _laid(hand.entries[s])["melds"]} for s in hand.matched],
        "on_deal": list(hand.on_deal),  # seats that called Match! on the deal: why a hand can end at once
        "false_match": next(  # a Match! its cards did not bear out, once entered: "Not yet, Ana: 11 points"
            (
                {"seat": s, "points": hand.entries[s].points}
                for s in hand.matched
                if hand.entries[s] is not None and hand.entries[s].claim is False
            ),
            None,
        ),
        "waiting_for": hand.waiting_for(),
        "seats": seats,
        "newcomers": list(range(hand.players, book.players)),  # seats waiting for the next deal
        "sheet": _sheet(book),
        "totals": list(book.totals),
        "places": ranks(list(book.totals)),  # each seat's place on the totals, ties sharing the better one
        "game_over": book.over,
        "winners": list(book.winners) if book.winners is not None else None,
        "can_undo": bool(book.corrections),
        # Once scored: faces entered more often than the shoe holds them (a mistyped hand for the host to correct).
        "overdrawn": _faces(overdrawn(variant, hand.players, hand.entries)) if scored else [],
    }
    view |= story(book, [list(row) for row in book.scores], scored=hand.phase is Phase.SCORED, over=book.over)
    return view


def _call(book: Scorebook) -> str | None:
    """What the host's call does now: "deal" (the cards are dealt: Draw!), "call" (Discard! without the slow
    ones; a slow turn ends), "next" (the next hand); None while hands are entered, or once the game is over."""
    phase = book.hand.phase
    if book.over or phase is Phase.ENTRY:
        return None
    return {Phase.SETUP: "deal", Phase.SCORED: "next"}.get(phase, "call")


def view_for(book: Scorebook, seat: int, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """One seat's view: the table, its own picker laid out live, and its own entry."""
    return {**(table if table is not None else table_view(book)), "you": seat_view(book, seat)}


def seat_view(book: Scorebook, seat: int) -> dict[str, Any]:
    """What seat `seat` alone sees (a view's `you`, as with cards on the phones): its own picker laid out live,
    and its own entry; a newcomer waiting for the next deal, nothing yet."""
    if seat >= book.hand.players:
        return {"seat": seat, "waiting": True, "draft": None, "entry": None}
    entry = book.hand.entries[seat]
    laid = _laid(entry) if entry is not None else None
    return {"seat": seat, "waiting": False, "draft": draft_view(book, seat), "entry": laid}


def draft_view(book: Scorebook, seat: int) -> dict[str, Any]:
    """One seat's picker: the cards tapped so far, laid out live by the solver, with the penalty."""
    hand = book.hand
    draft = hand.drafts[seat]
    laid = best_arrangement(draft, hand.wild_rank, book.variant.meld_rules())
    return {
        "cards": _faces(draft),
        "melds": [_faces(m) for m in laid.melds],
        "orphans": _faces(laid.orphans),
        "penalty": laid.penalty,
        "complete": len(draft) == hand.size,
    }


def view_for_host(book: Scorebook, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The TV: the table and nothing of anyone's picker."""
    return (table if table is not None else table_view(book)) | {"you": None}
