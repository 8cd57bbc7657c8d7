"""One hand of Three-Thirteen as a pure state machine, in either of the variant's two pacings.

`caller` (RULES.md, "The caller-paced hand"): every player acts at once. Each
seat has a pending slot (what it drew, what it picked), and the caller's
`Call` applies all picks together. Seats sit in a ring in seat order; a
seat's pile lies to its left, so only its left-hand neighbour (seat + 1) may
take from it, and a seat draws from its right-hand neighbour's (seat - 1).

`turns` (RULES.md, "The classic turn-based hand"): the same phases and
commands, with one player acting in each cycle (`turn`), and one shared
pile. The player left of the dealer starts; a discard that leaves a complete
hand goes out, and then everyone else has one more turn (`to_play`).

The shoe is drawn in either of two ways (`draws`, chosen per game): "one-shoe", one shared shoe, or
"own-order", one face-down stack per seat (stacks.py), so that tables dealt from the same seed give each seat
the same draws whatever the other seats do.

`apply` checks a command fully before it builds the new state, so a refused
command changes nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum

from ..rules.cards import Card, make_shoe, shuffled
from ..rules.errors import AlreadyDone, BadCommand, CannotDraw, NotComplete, NotHeld, OutOfPhase, Stale, Waiting
from ..rules.hands import NumberedHand
from ..rules.melds import best_arrangement, best_discard, is_complete
from ..rules.seating import clockwise, dealer_after_leave, first_dealer, left_of, right_of
from ..rules.variants import DRAWS, Variant
from . import stacks as own_order
from .commands import (
    AutoPlay,
    Call,
    CallMatch,
    Choose,
    Chose,
    Command,
    Dealt,
    Draw,
    Drew,
    Event,
    Left,
    Matched,
    PhaseChanged,
    Ready,
    Revealed,
    ShoeRefilled,
)

__all__ = [
    "Phase",
    "ACCEPTS",
    "ACTING",
    "MATCH_WINDOWS",
    "HandState",
    "SeatResult",
    "deal",
    "first_dealer",
    "dealer_after_leave",
    "apply",
    "leave",
    "lay_out",
    "right_of",
    "left_of",
    "moves",
    "MOVES",
]


class Phase(StrEnum):
    SETUP = "setup"  # dealt; a complete hand may call Match! before the first Draw!
    DRAW = "draw"  # "Draw!": everyone takes one card (and may pick a discard at once)
    CHOOSE = "choose"  # everyone has drawn; picks may change until "Discard!"
    REVEAL = "reveal"  # "Discard!" turned the picks face up: the match window
    LAST_DRAW = "last_draw"  # someone matched: one more draw for everyone else
    LAST_CHOOSE = "last_choose"
    SCORED = "scored"


# The phases in which players act (draw, then pick), and the windows for Match!.
ACTING = frozenset({Phase.DRAW, Phase.CHOOSE, Phase.LAST_DRAW, Phase.LAST_CHOOSE})
MATCH_WINDOWS = frozenset({Phase.SETUP, Phase.REVEAL})

# The one table of what each phase accepts; anything else is OutOfPhase.
ACCEPTS: dict[Phase, tuple[type, ...]] = {
    Phase.SETUP: (CallMatch, Ready, Call),
    Phase.DRAW: (Draw, Choose, AutoPlay),
    Phase.CHOOSE: (Choose, AutoPlay, Call),
    Phase.REVEAL: (CallMatch, Ready, Call),
    Phase.LAST_DRAW: (Draw, Choose, AutoPlay),
    Phase.LAST_CHOOSE: (Choose, AutoPlay, Call),
    Phase.SCORED: (),
}


@dataclass(frozen=True)
class SeatResult:
    """A seat's hand laid out at scoring (card ids)."""

    penalty: int
    melds: tuple[tuple[int, ...], ...]
    orphans: tuple[int, ...]


@dataclass(frozen=True)
class HandState(NumberedHand):
    variant: Variant
    seed: int | str
    hand_no: int
    phase: Phase
    faces: tuple[Card, ...]  # card id -> face, for the whole shoe
    shoe: tuple[int, ...]  # face down; the top is the last. Own-order: always empty, the shoe is `stacks`
    hands: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[int, ...], ...]  # face up; the top is the last
    drawn: tuple[int | None, ...]  # the card each seat drew this cycle
    took_pile: tuple[bool, ...]
    picks: tuple[int | None, ...]
    matched: tuple[int, ...] = ()  # seats in the order they called Match!
    match_melds: tuple[tuple[tuple[int, ...], ...], ...] = ()  # laid face up, by order of matched
    on_deal: tuple[int, ...] = ()  # of those, the seats dealt a complete hand (Match! before the first "Draw!")
    cycle: int = 0  # draws called so far this hand (for turns: turns begun)
    refills: int = 0
    results: tuple[SeatResult, ...] = ()  # filled when the hand is scored
    turn: int | None = None  # turns: the seat whose turn it is (None: everyone acts at once)
    dealer: int = 0  # the seat that dealt; with turns, the player on its left starts
    to_play: tuple[int, ...] = ()  # turns: after someone went out, the seats still to have their last turn
    going_on: tuple[int, ...] = ()  # in a Match! window: the seats that said they go on (ready for "Draw!")
    draws: str = "one-shoe"  # how the shoe is drawn: one of variants.DRAWS
    stacks: own_order.Stacks = ()  # own-order: the shoe as one face-down stack per seat (stacks.py); else ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def shoe_count(self) -> int:
        """The cards in the shoe, however it is drawn (own-order: every stack's): what a view may show of it."""
        return len(self.shoe) + own_order.count(self.stacks)

    @property
    def shoe_cards(self) -> tuple[int, ...]:
        """Every card face down in the shoe, however it is drawn (for counting cards, never for a view)."""
        return self.shoe + tuple(card for stack in self.stacks for card in stack)

    @property
    def last_cycle(self) -> bool:
        return self.phase in (Phase.LAST_DRAW, Phase.LAST_CHOOSE)

    @property
    def decks(self) -> int:
        """Copies of each card in the shoe."""
        return (len(self.faces) - self.variant.jokers) // 52

    def window_done(self) -> bool:
        """In a Match! window: whether every seat still in the hand has called Match! or gone on."""
        return all(s in self.matched or s in self.going_on for s in range(self.players))

    def active(self, seat: int) -> bool:
        """Whether the seat plays this cycle: matched players are out, and with turns only one seat plays."""
        return seat not in self.matched and (self.turn is None or seat == self.turn)

    def pile_from(self, seat: int) -> int:
        """The pile this seat may draw from: its right-hand neighbour's, or the one shared pile."""
        return 0 if self.variant.turns else right_of(seat, self.players)

    def pile_to(self, seat: int) -> int:
        """The pile this seat discards onto: its own, or the one shared pile."""
        return 0 if self.variant.turns else seat

    def slow_seats(self) -> list[int]:
        """Seats still to pick a discard this cycle (the ones the caller would hurry)."""
        if self.phase not in ACTING:
            return []
        return [s for s in range(self.players) if self.active(s) and self.picks[s] is None]

    def waiting_for(self) -> list[int]:
        """Seats that have not acted in this phase yet."""
        if self.phase in (Phase.DRAW, Phase.LAST_DRAW):
            return [s for s in range(self.players) if self.active(s) and self.drawn[s] is None]
        return self.slow_seats()

    def cards_of(self, ids: tuple[int, ...] | list[int]) -> list[Card]:
        return [self.faces[i] for i in ids]


def _put(values: tuple, index: int, value: object) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def deal(
    variant: Variant,
    players: int,
    seed: int | str,
    hand_no: int,
    dealer: int | None = None,
    draws: str = "one-shoe",
) -> tuple[HandState, list[Event]]:
    """Shuffle a new shoe and deal hand `hand_no`: n cards each, then one face up to start each pile (or the pile).

    `dealer` is the seat dealing (the game draws the first and moves it left each hand); by default the
    dealer moves left from seat 0 in hand 1. `draws` "own-order": the dealing goes on, round robin from
    seat 0, into one face-down stack per seat (stacks.py), the same for every table of this size and seed.
    """
    if dealer is None:
        dealer = (hand_no - 1) % players
    if not variant.min_players <= players <= variant.max_players:
        raise BadCommand("error.player_count", min=variant.min_players, max=variant.max_players)
    if draws not in DRAWS:
        raise BadCommand("error.no_draws")
    faces = make_shoe(variant.decks_for(players), variant.jokers)
    order = shuffled(range(len(faces)), random.Random(f"{seed}:{hand_no}"))
    size = variant.hand_sizes[hand_no - 1]
    # Deal from the top of the shoe (the end of the list), one card a seat at a time.
    hands = [[] for _ in range(players)]
    for _ in range(size):
        for seat in range(players):
            hands[seat].append(order.pop())
    piles = tuple((order.pop(),) for _ in range(1 if variant.turns else players))
    own = draws == "own-order"
    state = HandState(
        variant=variant,
        seed=seed,
        hand_no=hand_no,
        phase=Phase.SETUP if variant.setup_match else Phase.DRAW,
        faces=faces,
        shoe=() if own else tuple(order),
        hands=tuple(tuple(h) for h in hands),
        piles=piles,
        drawn=(None,) * players,
        took_pile=(False,) * players,
        picks=(None,) * players,
        cycle=0 if variant.setup_match else 1,
        dealer=dealer,
        draws=draws,
        stacks=own_order.split(reversed(order), players) if own else (),  # the dealing goes on from the top
    )
    if variant.turns:  # the player on the dealer's left starts
        state = replace(state, turn=left_of(state.dealer, players))
    return state, [Dealt(hand_no, size, state.wild_rank), PhaseChanged(state.phase.value)]


# A seat's moves as the wire names them (the events of docs/protocol.md).
MOVES: dict[type, str] = {Draw: "draw", Choose: "choose", CallMatch: "match", Ready: "ready"}


def moves(state: HandState, seat: int) -> list[str]:
    """What `seat` may send now: the moves its phase accepts (ACCEPTS), narrowed by the seat's own state as
    `apply` checks it (its turn, a card drawn or not, already matched). A page shows exactly these."""
    if not 0 <= seat < state.players or seat in state.matched:
        return []
    found = []
    for kind in ACCEPTS[state.phase]:
        if kind not in MOVES or kind not in (CallMatch, Ready) and not state.active(seat):
            continue
        if kind is Draw and state.drawn[seat] is not None or kind is Choose and state.drawn[seat] is None:
            continue
        if kind is CallMatch and state.phase is Phase.SETUP and not state.variant.setup_match:
            continue
        found.append(MOVES[kind])
    return found


def apply(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """The state after `command` and the events it caused, or a RummyError with the state untouched."""
    if not isinstance(command, ACCEPTS[state.phase]):
        raise _refusal(state, command)
    seat = getattr(command, "seat", None)
    if seat is not None:
        _check_seat(state, seat, isinstance(command, (CallMatch, Ready)))
    cycle = getattr(command, "cycle", None)
    if cycle is not None and cycle != state.cycle:
        raise Stale("error.stale")
    match command:
        case Draw(seat=seat, source=source):
            return _draw(state, seat, source)
        case Choose(seat=seat, card_id=card_id):
            return _choose(state, seat, card_id)
        case AutoPlay(seat=seat):
            return _auto_play(state, seat)
        case CallMatch(seat=seat):
            return _match(state, seat)
        case Ready(seat=seat, ready=ready):
            return _ready(state, seat, ready)
        case Call():
            state, events = _call(state)
            return replace(state, going_on=()), events  # each window starts with nobody gone on
    raise BadCommand("error.unknown_command")  # pragma: no cover - ACCEPTS lists every command


def _refusal(state: HandState, command: Command) -> OutOfPhase:
    if isinstance(command, CallMatch):
        return OutOfPhase("error.match_when")
    if isinstance(command, Call) and state.phase in (Phase.DRAW, Phase.LAST_DRAW):
        return OutOfPhase("error.waiting_draw", n=len(state.waiting_for()))
    return _out_of_phase(state.phase)


def _out_of_phase(phase: Phase) -> OutOfPhase:
    """What a player is told when a command does not fit the phase: the message `phase.<phase>` says what does."""
    return OutOfPhase(f"phase.{phase.value}")


def _check_seat(state: HandState, seat: int, anyone: bool) -> None:
    """A real seat still in play; unless `anyone` may act (Match! is open to all), the seat whose turn it is."""
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise BadCommand("error.no_seat")
    if seat in state.matched:
        raise OutOfPhase("error.matched_already")
    if not anyone and not state.active(seat):
        raise OutOfPhase("error.not_your_turn")


def _draw(state: HandState, seat: int, source: str) -> tuple[HandState, list[Event]]:
    if state.drawn[seat] is not None:
        raise AlreadyDone("error.drawn_already")
    events: list[Event] = []
    if source == "shoe":
        if not state.shoe_count:
            state, events = _refill(state)
        if not state.shoe_count:
            raise CannotDraw("error.shoe_empty")
        card, state = _from_shoe(state, seat)
    elif source == "pile":
        pile = state.piles[state.pile_from(seat)]
        if not pile:
            raise CannotDraw("error.pile_empty")
        card = pile[-1]
        state = replace(state, piles=_put(state.piles, state.pile_from(seat), pile[:-1]))
    else:
        raise BadCommand("error.bad_source")
    state = replace(
        state,
        hands=_put(state.hands, seat, state.hands[seat] + (card,)),
        drawn=_put(state.drawn, seat, card),
        took_pile=_put(state.took_pile, seat, source == "pile"),
    )
    events.append(Drew(seat, source, card))
    if not state.waiting_for():
        state = replace(state, phase=Phase.LAST_CHOOSE if state.last_cycle else Phase.CHOOSE)
        events.append(PhaseChanged(state.phase.value))
    return state, events


def _from_shoe(state: HandState, seat: int) -> tuple[int, HandState]:
    """The card `seat` draws from a shoe that holds one: its top, or (own-order) its own stack's (stacks.take)."""
    if state.draws == "own-order":
        card, left = own_order.take(state.stacks, seat)
        return card, replace(state, stacks=left)
    return state.shoe[-1], replace(state, shoe=state.shoe[:-1])


def _refill(state: HandState) -> tuple[HandState, list[Event]]:
    """RULES 7: gather every pile but its top card and shuffle them into a new shoe (own-order: dealt round robin
    from seat 0 into new stacks)."""
    if state.variant.empty_shoe != "reshuffle-piles":
        return state, []
    gathered = [card for pile in state.piles for card in pile[:-1]]
    if not gathered:
        return state, []
    rng = random.Random(f"{state.seed}:{state.hand_no}:refill:{state.refills}")
    new_shoe = tuple(shuffled(gathered, rng))
    piles = tuple(pile[-1:] for pile in state.piles)
    state = replace(state, shoe=new_shoe, piles=piles, refills=state.refills + 1)
    if state.draws == "own-order":
        state = replace(state, shoe=(), stacks=own_order.split(reversed(new_shoe), state.players))
    return state, [ShoeRefilled(len(new_shoe))]


def _choose(state: HandState, seat: int, card_id: int) -> tuple[HandState, list[Event]]:
    if state.drawn[seat] is None:
        raise _out_of_phase(Phase.DRAW)
    if not isinstance(card_id, int) or card_id not in state.hands[seat]:
        face = state.faces[card_id] if isinstance(card_id, int) and 0 <= card_id < len(state.faces) else None
        raise NotHeld("error.not_held", card=face) if face else NotHeld("error.not_in_hand")
    state = replace(state, picks=_put(state.picks, seat, card_id))
    return state, [Chose(seat)]


def _auto_play(state: HandState, seat: int) -> tuple[HandState, list[Event]]:
    """RULES 8: draw from the shoe (the pile when the shoe is out), discard the least-penalty card."""
    events: list[Event] = []
    if state.drawn[seat] is None:
        try:
            state, events = _draw(state, seat, "shoe")
        except CannotDraw:
            state, events = _draw(state, seat, "pile")
    elif state.picks[seat] is not None:
        raise AlreadyDone("error.picked_already")
    ids = state.hands[seat]
    pick = ids[best_discard(state.cards_of(ids), state.wild_rank, state.variant.meld_rules())]
    state, chose = _choose(state, seat, pick)
    return state, events + chose


def _match(state: HandState, seat: int) -> tuple[HandState, list[Event]]:
    if state.phase is Phase.SETUP and not state.variant.setup_match:
        raise _out_of_phase(Phase.SETUP)
    cards = state.cards_of(state.hands[seat])
    rules = state.variant.meld_rules()
    if not is_complete(cards, state.wild_rank, rules):
        # Solved once here: the refusal carries what the table is told ("Not yet, Ana: 11 points left").
        best = best_arrangement(cards, state.wild_rank, rules)
        if best.orphans:
            raise NotComplete("error.not_complete", cards=tuple(best.orphans), points=best.penalty)
        raise NotComplete("error.not_a_match", points=best.penalty)
    melds = lay_out(state, state.hands[seat]).melds
    on_deal = state.on_deal + ((seat,) if state.phase is Phase.SETUP else ())
    state = replace(state, matched=state.matched + (seat,), match_melds=state.match_melds + (melds,), on_deal=on_deal)
    return state, [Matched(seat)]


def _ready(state: HandState, seat: int, ready: bool) -> tuple[HandState, list[Event]]:
    if not isinstance(ready, bool):
        raise BadCommand("error.not_bool", field="ready")
    if ready == (seat in state.going_on):
        raise AlreadyDone("error.ready_already") if ready else AlreadyDone("error.not_ready")
    going_on = state.going_on + (seat,) if ready else tuple(s for s in state.going_on if s != seat)
    return replace(state, going_on=going_on), []


def _call(state: HandState) -> tuple[HandState, list[Event]]:
    waiting = state.waiting_for()
    if waiting:
        raise Waiting("error.waiting_pick", n=len(waiting))
    if state.phase in (Phase.CHOOSE, Phase.LAST_CHOOSE):
        state, events = _reveal(state)
        if state.variant.turns:
            return _next_turn(state, events)
        if state.phase is Phase.LAST_CHOOSE:
            return _score(state, events)
        state = replace(state, phase=Phase.REVEAL)
        return state, events + [PhaseChanged(state.phase.value)]
    # SETUP or REVEAL: the next "Draw!", unless everyone has matched and nobody is left to play
    if len(state.matched) == state.players:
        return _score(state, [])
    if state.variant.turns and state.matched:  # a complete hand was dealt: everyone else has one turn
        to_play = clockwise(state.turn, state.players, state.matched)
        state = replace(state, to_play=to_play, turn=to_play[0])
    phase = Phase.LAST_DRAW if state.matched else Phase.DRAW
    state = replace(state, phase=phase, cycle=state.cycle + 1)
    return state, [PhaseChanged(phase.value)]


def _next_turn(state: HandState, events: list[Event]) -> tuple[HandState, list[Event]]:
    """Turns: the discard is down; the player goes out if it left them complete, then the next turn."""
    seat = state.turn
    if state.to_play:  # a last turn
        state = replace(state, to_play=tuple(s for s in state.to_play if s != seat))
        if not state.to_play:
            return _score(state, events)
    elif is_complete(state.cards_of(state.hands[seat]), state.wild_rank, state.variant.meld_rules()):
        melds = lay_out(state, state.hands[seat]).melds
        state = replace(state, matched=state.matched + (seat,), match_melds=state.match_melds + (melds,))
        state = replace(state, to_play=clockwise(left_of(seat, state.players), state.players, state.matched))
        events.append(Matched(seat))
    following = state.to_play[0] if state.to_play else left_of(seat, state.players)
    phase = Phase.LAST_DRAW if state.matched else Phase.DRAW
    state = replace(state, phase=phase, turn=following, cycle=state.cycle + 1)
    return state, events + [PhaseChanged(phase.value)]


def _reveal(state: HandState) -> tuple[HandState, list[Event]]:
    """'Discard!': every pick turns face up on its owner's pile at the same moment."""
    hands, piles = list(state.hands), list(state.piles)
    picks = []
    for seat, card in enumerate(state.picks):
        if card is None:
            continue
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        piles[state.pile_to(seat)] += (card,)
        picks.append((seat, card))
    n = state.players
    state = replace(
        state,
        hands=tuple(hands),
        piles=tuple(piles),
        drawn=(None,) * n,
        took_pile=(False,) * n,
        picks=(None,) * n,
    )
    return state, [Revealed(tuple(picks))]


def leave(state: HandState, seat: int) -> tuple[HandState, list[Event]]:
    """A seat leaves mid-hand: its hand (and its own pile) go under the shoe and the ring closes up.

    Own-order: its stack, then its hand and pile, go one card at a time under the stacks of those who stay,
    from its left-hand neighbour on round the ring (stacks.put_under).

    The ring is the order of seats, so dropping the seat rewires it: the
    leaver's left-hand neighbour now takes from the leaver's right-hand
    neighbour, and every pile keeps exactly one taker. With turns, a leaver
    whose turn it was passes it on to the next player. Every card stays in
    exactly one place.
    """
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise BadCommand("error.no_seat")
    if state.players - 1 < state.variant.min_players:
        raise BadCommand("error.min_stay", n=state.variant.min_players)
    turns = state.variant.turns
    returned = state.hands[seat] + (() if turns else state.piles[seat])

    def without(values: tuple) -> tuple:
        return values[:seat] + values[seat + 1 :]

    def renumber(seats: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s - (s > seat) for s in seats if s != seat)

    kept = [(s - (s > seat), m) for s, m in zip(state.matched, state.match_melds, strict=True) if s != seat]
    had_turn = state.turn == seat
    stacks_left = state.stacks
    if state.draws == "own-order":  # its stack from the top, then its hand and pile; from its left-hand neighbour
        pack = tuple(reversed(state.stacks[seat])) + returned
        stacks_left = own_order.put_under(without(state.stacks), pack, seat % (state.players - 1))
    state = replace(
        state,
        shoe=state.shoe if state.draws == "own-order" else returned + state.shoe,  # under it: the top is the end
        stacks=stacks_left,
        hands=without(state.hands),
        piles=state.piles if turns else without(state.piles),
        drawn=without(state.drawn),
        took_pile=without(state.took_pile),
        picks=without(state.picks),
        matched=tuple(s for s, _ in kept),
        match_melds=tuple(m for _, m in kept),
        on_deal=renumber(state.on_deal),
        results=without(state.results) if state.results else (),
        to_play=renumber(state.to_play),
        going_on=renumber(state.going_on),
        turn=None if state.turn is None else state.turn - (state.turn > seat),
        dealer=dealer_after_leave(state.dealer, seat, state.players),
    )
    events: list[Event] = [Left(seat, len(returned))]
    if had_turn and state.phase in ACTING:
        if state.last_cycle and not state.to_play:  # the leaver was the last to play
            return _score(state, events)
        # The turn passes to the next player (now at the leaver's place in the ring), from its draw.
        following = state.to_play[0] if state.to_play else seat % state.players
        phase = Phase.LAST_DRAW if state.last_cycle else Phase.DRAW
        state = replace(state, turn=following, phase=phase, cycle=state.cycle + 1)
        return state, events + [PhaseChanged(phase.value)]
    if had_turn:  # dealt, or scored: the next player is first
        state = replace(state, turn=seat % state.players)
    if state.phase in (Phase.DRAW, Phase.LAST_DRAW) and not state.waiting_for():
        state = replace(state, phase=Phase.LAST_CHOOSE if state.last_cycle else Phase.CHOOSE)
        events.append(PhaseChanged(state.phase.value))
    return state, events


def lay_out(state: HandState, ids: tuple[int, ...] | list[int]) -> SeatResult:
    """The best arrangement of these cards (a hand, by id), melds and orphans as ids."""
    arrangement = best_arrangement(state.cards_of(ids), state.wild_rank, state.variant.meld_rules())
    by_face: dict[Card, list[int]] = {}
    for card_id in ids:
        by_face.setdefault(state.faces[card_id], []).append(card_id)
    melds = tuple(tuple(by_face[c].pop() for c in meld) for meld in arrangement.melds)
    orphans = tuple(by_face[c].pop() for c in arrangement.orphans)
    return SeatResult(arrangement.penalty, melds, orphans)


def _score(state: HandState, events: list[Event]) -> tuple[HandState, list[Event]]:
    """RULES 6: matched players and anyone complete score 0; the rest score their orphans."""
    results = []
    for seat in range(state.players):
        laid = lay_out(state, state.hands[seat])
        results.append(replace(laid, penalty=0) if seat in state.matched else laid)
    state = replace(state, phase=Phase.SCORED, results=tuple(results))
    return state, events + [PhaseChanged(state.phase.value)]
