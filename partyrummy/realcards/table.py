"""One hand played with real cards: the caller's cycles or the turns, then score entry, as a pure machine.

The cards are in people's hands, so the machine holds no cards: it keeps
the pace and the score. Caller pacing (RULES.md, "The caller-paced hand"):
"Draw!" opens READY, each seat taps Ready once it has drawn and holds its
discard face down; "Discard!" comes when every seat is ready, or when the
caller forces it (the hurry ran out, or the host's "call now"); REVEAL is the match
window; after a Match! everyone else has one last cycle. Turns (RULES.md,
"The classic turn-based hand"): the seat whose turn it is taps Done, or Out!
when it goes out, and everyone else has one more turn. Then ENTRY: each seat
enters its hand (`entry.py`); a seat that called Match! may enter as soon as
the last cycle starts, so the TV can show its melds for everyone to check.

`apply` checks a command fully before it builds the new state, so a refused
command changes nothing.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import replace

from ..rules.errors import AlreadyDone, BadCommand, OutOfPhase, RummyError, Stale, Waiting
from ..rules.seating import clockwise, dealer_after_leave, left_of
from ..rules.variants import Variant
from . import entry as entries
from .commands import (
    Call,
    CallMatch,
    Command,
    Confirm,
    Done,
    Draft,
    Out,
    Ready,
    TypePoints,
    Withdraw,
)
from .entry import Entry
from .events import (
    Called,
    Drafted,
    Entered,
    Event,
    HandScored,
    Matched,
    MatchWithdrawn,
    PhaseChanged,
    ReadyChanged,
    SeatLeft,
    TableSet,
    TurnBegan,
    WentOut,
)
from .phases import ACCEPTS, WINDOWS, Phase, TableHand, a_seat, may_answer

# The phases, their table and the state live in phases.py; they are named here too, as the machine's public face.
__all__ = ["Phase", "ACCEPTS", "TableHand", "deal", "apply", "leave", "may_answer", "moves", "MOVES"]


def deal(variant: Variant, hand_no: int, players: int, dealer: int = 0) -> tuple[TableHand, list[Event]]:
    """A new hand: what the TV tells the table to deal; people deal (SETUP) until the caller's first "Draw!".

    `dealer` is the seat dealing: the scorebook draws hand 1's from the seed and moves it left each hand.
    """
    if not variant.min_players <= players <= variant.max_players:
        raise BadCommand("error.player_count", min=variant.min_players, max=variant.max_players)
    hand = TableHand(
        variant=variant,
        hand_no=hand_no,
        phase=Phase.SETUP,
        players=players,
        dealer=dealer,
        ready=(False,) * players,
        drafts=((),) * players,
        entries=(None,) * players,
    )
    dealer = hand.dealer if variant.turns else None
    starter = left_of(hand.dealer, players) if variant.turns else None
    table_set = TableSet(hand_no, hand.size, hand.wild_rank, 1 if variant.turns else players, dealer, starter)
    return hand, [table_set, PhaseChanged(hand.phase.value)]


def apply(hand: TableHand, command: Command, helped: Set[int] = frozenset()) -> tuple[TableHand, list[Event]]:
    """The hand after `command` and the events it caused, or a RummyError with the hand untouched.

    `helped`: the seats a seated phone may answer for (the room's choice: its seats without a phone, when the
    host allows helpers)."""
    if not isinstance(command, ACCEPTS[hand.phase]):
        raise _refusal(hand, command)
    seat = getattr(command, "seat", None)
    if hasattr(command, "seat"):
        _check_seat(hand, command, helped)
    cycle = getattr(command, "cycle", None)
    if cycle is not None and cycle != hand.cycle:
        raise Stale("error.stale")
    match command:
        case Call(force=force):
            return _call(hand, force)
        case Ready(ready=ready):
            return _ready(hand, seat, ready)
        case CallMatch():
            on_deal = hand.on_deal + ((seat,) if hand.phase is Phase.SETUP else ())
            return replace(hand, matched=hand.matched + (seat,), on_deal=on_deal), [Matched(seat)]
        case Withdraw():
            matched = tuple(s for s in hand.matched if s != seat)
            on_deal = tuple(s for s in hand.on_deal if s != seat)
            return replace(hand, matched=matched, on_deal=on_deal), [MatchWithdrawn(seat)]
        case Done():
            return _next_turn(hand)
        case Out():
            return _out(hand, seat)
        case Draft(cards=cards):
            return _draft(hand, seat, cards)
        case Confirm():
            cards, claimed = hand.drafts[seat], seat in hand.matched
            return _enter(hand, seat, entries.from_cards(hand.variant, hand.players, hand.hand_no, cards, claimed))
        case TypePoints(points=points):
            return _enter(hand, seat, entries.from_points(hand.variant, hand.hand_no, points, seat in hand.matched))
    raise BadCommand("error.unknown_command")  # pragma: no cover - ACCEPTS lists every command


def _refusal(hand: TableHand, command: Command) -> OutOfPhase:
    if isinstance(command, (CallMatch, Withdraw)):
        return OutOfPhase("error.match_when")
    return OutOfPhase(f"table.phase.{hand.phase.value}")


def _check_seat(hand: TableHand, command: Command, helped: Set[int]) -> None:
    """A real seat, answered by someone allowed to, and one that may do this now."""
    seat, by = command.seat, command.by
    if not a_seat(hand, seat) or not (by is None or a_seat(hand, by)):
        raise BadCommand("error.no_seat")
    if not may_answer(hand, seat, by, helped):
        raise BadCommand("error.answer_for")
    refused = _seat_refusal(hand, type(command), seat)
    if refused is not None:
        raise refused


def _seat_refusal(hand: TableHand, kind: type, seat: int) -> RummyError | None:
    """Why `seat` may not make a move of this kind now (its phase accepting it), or None."""
    entering = (Draft, Confirm, TypePoints)
    if kind is CallMatch and hand.phase is Phase.SETUP and not hand.variant.setup_match:
        return OutOfPhase("error.match_when")
    if kind is CallMatch and seat in hand.matched:
        return AlreadyDone("error.matched_already")
    if kind is Withdraw and seat not in hand.matched:
        return OutOfPhase("error.no_claim")
    if kind in (Ready, Done, Out) and seat in hand.matched:
        return OutOfPhase("error.matched_already")
    if kind in (Done, Out) and seat != hand.turn:
        return OutOfPhase("error.not_your_turn")
    if kind in entering and hand.phase is not Phase.ENTRY and seat not in hand.matched:
        return OutOfPhase("error.enter_after")
    return None


# A seat's moves as the wire names them (the events of docs/protocol.md).
MOVES: dict[type, str] = {
    Ready: "ready", CallMatch: "match", Withdraw: "withdraw", Done: "done", Out: "out",
    Draft: "draft", Confirm: "confirm", TypePoints: "points",
}


def moves(hand: TableHand, seat: int) -> list[str]:
    """What `seat` may send now: the moves its phase accepts (ACCEPTS) that `apply` would let it make, by the
    same checks. A page shows exactly these (on a phone, or on the TV's tile of a seat it answers for)."""
    if not a_seat(hand, seat):
        return []
    return [MOVES[kind] for kind in ACCEPTS[hand.phase] if kind in MOVES and _seat_refusal(hand, kind, seat) is None]


def _begin(hand: TableHand) -> tuple[TableHand, list[Event]]:
    """The first "Draw!" (or the first turn); after a setup match, straight to the last cycle."""
    if len(hand.matched) == hand.players:
        return _to_entry(hand)
    if not hand.variant.turns:
        phase = Phase.LAST_READY if hand.matched else Phase.READY
        return _draw(replace(hand, phase=phase))
    starter = left_of(hand.dealer, hand.players)
    if hand.matched:  # a complete hand was dealt: everyone else has one turn, from the starter
        return _last_turns(hand, starter)
    hand = replace(hand, phase=Phase.TURN, turn=starter, cycle=1)
    return hand, [PhaseChanged(hand.phase.value), TurnBegan(starter, last=False)]


def _draw(hand: TableHand) -> tuple[TableHand, list[Event]]:
    """ "Draw!": every seat still playing owes a Ready."""
    hand = replace(hand, ready=(False,) * hand.players, cycle=hand.cycle + 1)
    return hand, [Called("draw"), PhaseChanged(hand.phase.value)]


def _call(hand: TableHand, force: bool) -> tuple[TableHand, list[Event]]:
    """The caller moves on; "Discard!" before every seat is ready only when forced (the hurry, or the host)."""
    if hand.phase in WINDOWS:
        return _begin(hand) if hand.phase is Phase.SETUP else _after_window(hand)
    if hand.phase in (Phase.TURN, Phase.LAST_TURN):
        if not force:
            raise Waiting("error.waiting_turn")
        return _next_turn(hand)  # the host's "call now" ends a turn for a player who forgot Done
    waiting = hand.waiting_for()
    if waiting and not force:
        raise Waiting("error.waiting_ready", n=len(waiting))
    events: list[Event] = [Called("discard", tuple(waiting))]
    if hand.phase is Phase.LAST_READY:
        hand, more = _to_entry(hand)
        return hand, events + more
    # The match window: Ready now says a seat goes on (ready for the next "Draw!"); nobody has yet.
    hand = replace(hand, phase=Phase.REVEAL, ready=(False,) * hand.players)
    return hand, events + [PhaseChanged(hand.phase.value)]


def _after_window(hand: TableHand) -> tuple[TableHand, list[Event]]:
    if len(hand.matched) == hand.players:
        return _to_entry(hand)
    return _draw(replace(hand, phase=Phase.LAST_READY if hand.matched else Phase.READY))


def _ready(hand: TableHand, seat: int, ready: bool) -> tuple[TableHand, list[Event]]:
    if not isinstance(ready, bool):
        raise BadCommand("error.not_bool", field="ready")
    if hand.ready[seat] == ready:
        raise AlreadyDone("error.ready_already") if ready else AlreadyDone("error.not_ready")
    hand = replace(hand, ready=hand.ready[:seat] + (ready,) + hand.ready[seat + 1 :])
    return hand, [ReadyChanged(seat, ready)]


def _last_turns(hand: TableHand, start: int) -> tuple[TableHand, list[Event]]:
    to_play = clockwise(start, hand.players, hand.matched)
    hand = replace(hand, phase=Phase.LAST_TURN, to_play=to_play, turn=to_play[0], cycle=hand.cycle + 1)
    return hand, [PhaseChanged(hand.phase.value), TurnBegan(hand.turn, last=True)]


def _out(hand: TableHand, seat: int) -> tuple[TableHand, list[Event]]:
    hand = replace(hand, matched=hand.matched + (seat,))
    following, events = _last_turns(hand, left_of(seat, hand.players))
    return following, [WentOut(seat), *events]


def _next_turn(hand: TableHand) -> tuple[TableHand, list[Event]]:
    """The turn passes on: to the left, or to the next of those still owed their one more turn."""
    if hand.phase is Phase.LAST_TURN:
        to_play = hand.to_play[1:]
        if not to_play:
            return _to_entry(replace(hand, to_play=()))
        hand = replace(hand, to_play=to_play, turn=to_play[0], cycle=hand.cycle + 1)
        return hand, [TurnBegan(hand.turn, last=True)]
    hand = replace(hand, turn=left_of(hand.turn, hand.players), cycle=hand.cycle + 1)
    return hand, [TurnBegan(hand.turn, last=False)]


def _to_entry(hand: TableHand) -> tuple[TableHand, list[Event]]:
    hand = replace(hand, phase=Phase.ENTRY, turn=None)
    return hand, [PhaseChanged(hand.phase.value)]


def _draft(hand: TableHand, seat: int, texts: tuple[str, ...]) -> tuple[TableHand, list[Event]]:
    """The picker of a seat: a seat that had entered its hand is changing it (it is in again when it confirms)."""
    cards = entries.parse_faces(texts)
    entries.check_cards(hand.variant, hand.players, hand.size, cards, whole=False)
    reopened = hand.entries[seat] is not None
    hand = replace(
        hand,
        drafts=hand.drafts[:seat] + (cards,) + hand.drafts[seat + 1 :],
        entries=hand.entries[:seat] + (None,) + hand.entries[seat + 1 :],
    )
    return hand, [Drafted(seat, len(cards), reopened)]


def _enter(hand: TableHand, seat: int, entry: Entry) -> tuple[TableHand, list[Event]]:
    hand = replace(hand, entries=hand.entries[:seat] + (entry,) + hand.entries[seat + 1 :])
    events: list[Event] = [Entered(seat, entry.points, entry.how, entry.claim)]
    if hand.phase is Phase.ENTRY and not hand.waiting_for():
        return _scored(hand, events)
    return hand, events


def _scored(hand: TableHand, events: list[Event]) -> tuple[TableHand, list[Event]]:
    hand = replace(hand, phase=Phase.SCORED)
    scores = tuple(e.points for e in hand.entries)
    return hand, events + [PhaseChanged(hand.phase.value), HandScored(hand.hand_no, scores)]


def leave(hand: TableHand, seat: int) -> tuple[TableHand, list[Event]]:
    """A seat leaves mid-hand: the seats after it move up one, and the table waits for it no more.

    With turns, a leaver whose turn it was passes it on to the next player
    (the last of the last turns ends the hand); in score entry, the hand is
    scored once everyone left has entered.
    """
    if not a_seat(hand, seat):
        raise BadCommand("error.no_seat")
    if hand.players - 1 < hand.variant.min_players:
        raise BadCommand("error.min_stay", n=hand.variant.min_players)

    def without(values: tuple) -> tuple:
        return values[:seat] + values[seat + 1 :]

    def renumber(seats: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s - (s > seat) for s in seats if s != seat)

    had_turn = hand.turn == seat
    hand = replace(
        hand,
        players=hand.players - 1,
        ready=without(hand.ready),
        drafts=without(hand.drafts),
        entries=without(hand.entries),
        matched=renumber(hand.matched),
        on_deal=renumber(hand.on_deal),
        to_play=renumber(hand.to_play),
        turn=None if hand.turn is None or had_turn else hand.turn - (hand.turn > seat),
        dealer=dealer_after_leave(hand.dealer, seat, hand.players),
    )
    events: list[Event] = [SeatLeft(seat)]
    if had_turn and hand.phase is Phase.LAST_TURN and not hand.to_play:  # the leaver was the last to play
        more = _to_entry(hand)
    elif had_turn:  # the next player, now at the leaver's place in the ring (or next of the last turns)
        following = hand.to_play[0] if hand.to_play else seat % hand.players
        hand = replace(hand, turn=following, cycle=hand.cycle + 1)
        more = hand, [TurnBegan(following, last=bool(hand.to_play))]
    elif hand.phase is Phase.ENTRY and not hand.waiting_for():
        more = _scored(hand, [])
    else:
        more = hand, []
    return more[0], events + more[1]
