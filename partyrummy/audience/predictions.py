"""The audience's predictions: each hand, three questions about it, answered from the public table alone, closed
before play tells anything, resolved when the hand is scored; points for a right guess, more the fewer guessed it.

Pure: no I/O, no clock, no web. The room says what its public table shows (`facts.Facts`); `due` says which moves
of the book that calls for (open a round, close it, resolve it, void it); `apply` makes one move, as the journal
keeps them, so a journal replays to the same points. The players' scores are never read from here, let alone
written: the book holds only the audience.

Words:
- a **member**: one of the audience, known by join order (the index), which stays theirs: a member the host takes
  out of the audience is marked `removed`, never dropped from the list. Each carries the `source` that brought it
  (a device's address; None: the laptop itself), so that one device brings only a few.
- a **round**: one hand's questions. **Open** from the moment the hand before it is scored (the first hand's: in
  the lobby, or when the last game ended) until that hand's first "Draw!" or its first Match!, whichever comes
  first: until then the table has shown nothing of the hand but its deal. **Closed** (its options fixed to the
  players dealt in, and its split known) until the hand is scored; then **resolved**, or **void** when its hand
  never came (the seats changed the game).
- **on** or **off**: the host lets newcomers in and new rounds open, or not. Off keeps what was guessed: the round
  already open stays open to its members until its hand closes it, then resolves as any other; only the next
  round waits until the audience is on again (a switch flipped by mistake and back costs nobody a guess).
- the **questions**: `first`, who calls Match! first; `under`, whether the leader when the round opened scores
  under `LINE` points this hand ("yes"/"no"); `worst`, who takes the hand's biggest penalty (tied: each is right).
  A question whose answer the hand cannot give (nobody took a penalty; the leader left) is void: nobody scores.
- **points**: a right guess earns `BASE`, plus `BOLD` × the share of the predictions on that question that guessed
  otherwise: alone against everyone, nearly BASE + BOLD; with everyone, BASE.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..rules.errors import OutOfPhase, RummyError
from .facts import Facts

__all__ = [
    "BASE",
    "BOLD",
    "KEYS",
    "LINE",
    "OPEN",
    "CLOSED",
    "RESOLVED",
    "VOID",
    "YES",
    "NO",
    "Book",
    "Member",
    "Round",
    "Refused",
    "Join",
    "Open",
    "Pick",
    "Close",
    "Resolve",
    "Void",
    "Settings",
    "Offer",
    "Seated",
    "Remove",
    "Command",
    "apply",
    "apply_picks",
    "due",
    "check_join",
    "check_pick",
    "options",
    "earned",
    "to_dict",
    "from_dict",
]

KEYS = ("first", "under", "worst")
LINE = 10  # the leader's question: does the leader score under this many points this hand
BASE, BOLD = 50, 100
YES, NO = "yes", "no"
OPEN, CLOSED, RESOLVED, VOID = "open", "closed", "resolved", "void"


class Refused(RummyError):
    """A prediction or a join the audience's rules refuse (the room is not open to it, the round is closed…)."""

    code = "refused"


@dataclass(frozen=True)
class Member:
    """One of the audience. The token is the member's key, made by the server; no view ever shows it."""

    name: str
    token: str
    offered: bool = False  # the host offered them a seat at the next game
    seated: bool = False  # they took a seat at the table: they predict no more (their points stay theirs)
    source: str | None = None  # the device (its address) that brought them; None: the laptop itself
    removed: bool = False  # the host took them out of the audience: they predict no more, and count for nothing

    @property
    def predicting(self) -> bool:
        """Whether they may still predict (not seated, not removed)."""
        return not (self.seated or self.removed)


@dataclass(frozen=True)
class Round:
    """One hand's questions, and what the audience said of them."""

    game: int
    hand: int
    subject: str | None  # the `under` question's player: the leader when the round opened
    status: str = OPEN
    options: tuple[str, ...] = ()  # once closed: who the hand dealt in, the names `first` and `worst` may take
    picks: Mapping[tuple[int, str], str] = field(default_factory=dict)  # (member, question) -> the option picked
    answers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # once resolved: each answered question
    earned: Mapping[int, Mapping[str, int]] = field(default_factory=dict)  # once resolved: member -> question -> pts

    @property
    def key(self) -> tuple[int, int]:
        return (self.game, self.hand)

    def split(self) -> dict[str, dict[str, int]]:
        """How many picked each option of each question."""
        counts: dict[str, Counter[str]] = {key: Counter() for key in KEYS}
        for (_, key), option in self.picks.items():
            counts[key][option] += 1
        return {key: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for key, c in counts.items()}


@dataclass(frozen=True)
class Book:
    """The audience of a room: its members, their points, the round being predicted and the last one settled."""

    on: bool = True  # the host lets an audience in (off: no new member, no new round; the one under way carries on)
    cap: int | None = None  # the host's cap on members predicting (None: the server's most)
    members: tuple[Member, ...] = ()
    points: tuple[int, ...] = ()  # by member
    round: Round | None = None  # open or closed
    last: Round | None = None  # the last round resolved or voided, shown until the next one is

    def predicting(self) -> int:
        """Members who may still predict (not seated, not removed)."""
        return sum(1 for m in self.members if m.predicting)

    def brought_by(self, source: str | None) -> list[int]:
        """The members one device brought who were not seated (taken out of the audience or not): what counts
        against its share."""
        return [i for i, m in enumerate(self.members) if m.source == source and not m.seated]


# -- The moves, as the journal keeps them -------------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    name: str
    token: str
    source: str | None = None


@dataclass(frozen=True)
class Open:
    game: int
    hand: int
    subject: str | None


@dataclass(frozen=True)
class Pick:
    member: int
    key: str
    option: str


@dataclass(frozen=True)
class Close:
    options: tuple[str, ...]


@dataclass(frozen=True)
class Resolve:
    answers: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Void:
    pass


@dataclass(frozen=True)
class Settings:
    on: bool
    cap: int | None


@dataclass(frozen=True)
class Offer:
    member: int
    offered: bool


@dataclass(frozen=True)
class Seated:
    member: int


@dataclass(frozen=True)
class Remove:
    members: tuple[int, ...]


Command = Join | Open | Pick | Close | Resolve | Void | Settings | Offer | Seated | Remove
_NAMES = {
    Join: "join",
    Open: "open",
    Pick: "pick",
    Close: "close",
    Resolve: "resolve",
    Void: "void",
    Settings: "settings",
    Offer: "offer",
    Seated: "seated",
    Remove: "remove",
}
_KINDS = {name: kind for kind, name in _NAMES.items()}


def to_dict(command: Command) -> dict[str, Any]:
    """A move as the journal writes it: `{"t": "audience", "do": …, its fields}`."""
    fields = {k: (list(v) if isinstance(v, tuple) else v) for k, v in command.__dict__.items()}
    if isinstance(command, Resolve):
        fields = {"answers": {k: list(v) for k, v in command.answers.items()}}
    return {"t": "audience", "do": _NAMES[type(command)], **fields}


def from_dict(event: dict[str, Any]) -> Command:
    """A journaled move."""
    kind = _KINDS[event["do"]]
    fields = {k: v for k, v in event.items() if k not in ("t", "do")}
    if kind is Close:
        fields["options"] = tuple(fields["options"])
    if kind is Remove:
        fields["members"] = tuple(fields["members"])
    if kind is Resolve:
        fields["answers"] = {k: tuple(v) for k, v in fields["answers"].items()}
    return kind(**fields)


# -- Making a move --------------------------------------------------------------------------------------------


def apply(book: Book, command: Command) -> Book:
    """The book after one move (live, or replayed from the journal)."""
    match command:
        case Join(name, token, source):
            newcomer = Member(name, token, source=source)
            return replace(book, members=book.members + (newcomer,), points=book.points + (0,))
        case Open(game, hand, subject):
            return replace(book, round=Round(game, hand, subject))
        case Pick(member, key, option):
            picks = dict(book.round.picks)
            picks[(member, key)] = option
            return replace(book, round=replace(book.round, picks=picks))
        case Close(names):
            kept = {(m, k): o for (m, k), o in book.round.picks.items() if k == "under" or o in names}
            return replace(book, round=replace(book.round, status=CLOSED, options=tuple(names), picks=kept))
        case Resolve(answers):
            won = earned(book.round.picks, answers)
            points = tuple(p + sum(won.get(m, {}).values()) for m, p in enumerate(book.points))
            done = replace(book.round, status=RESOLVED, answers=dict(answers), earned=won)
            return replace(book, round=None, last=done, points=points)
        case Void():
            return replace(book, round=None, last=replace(book.round, status=VOID)) if book.round else book
        case Settings(on, cap):
            return replace(book, on=on, cap=cap)
        case Offer(member, offered):
            return _member(book, member, offered=offered)
        case Seated(member):
            return _member(book, member, seated=True, offered=False)
        case Remove(members):
            for index in members:
                book = _member(book, index, removed=True, offered=False)
            if book.round is None:
                return book
            # What they said of the hand on the table counts for nothing: not in the split, not in the points.
            kept = {(m, k): o for (m, k), o in book.round.picks.items() if m not in members}
            return replace(book, round=replace(book.round, picks=kept))
    raise TypeError(f"not a move of the audience: {command!r}")


def apply_picks(book: Book, picks: list[Pick]) -> Book:
    """The book after picks made one after another (as `apply` makes each: the last pick of a question stands),
    the round's picks copied once for them all."""
    if not picks:
        return book
    made = dict(book.round.picks)
    for pick in picks:
        made[(pick.member, pick.key)] = pick.option
    return replace(book, round=replace(book.round, picks=made))


def _member(book: Book, index: int, **changes: Any) -> Book:
    members = list(book.members)
    members[index] = replace(members[index], **changes)
    return replace(book, members=tuple(members))


def earned(picks: Mapping[tuple[int, str], str], answers: Mapping[str, tuple[str, ...]]) -> dict[int, dict[str, int]]:
    """What each member earns for a round: for each answered question, a right pick earns BASE plus BOLD times the
    share of that question's predictions that picked otherwise (integers, rounded down). A wrong one earns 0."""
    asked: Counter[str] = Counter(k for _, k in picks)
    same: Counter[tuple[str, str]] = Counter((k, o) for (_, k), o in picks.items())
    won: dict[int, dict[str, int]] = {}
    for (member, key), option in picks.items():
        if key not in answers:
            continue  # void: nobody scores
        n = asked[key]
        right = option in answers[key]
        won.setdefault(member, {})[key] = BASE + BOLD * (n - same[(key, option)]) // n if right else 0
    return won


# -- What the table calls for --------------------------------------------------------------------------------


def due(book: Book, facts: Facts) -> Iterator[Command]:
    """The moves the table calls for now, in order (each as made on the book the ones before it leave)."""
    for _ in range(4):  # void, open, close, resolve at most
        move = _next(book, facts)
        if move is None:
            return
        yield move
        book = apply(book, move)


def _next(book: Book, facts: Facts) -> Command | None:
    r = book.round
    if r is not None:  # on or off: switching off stops new rounds, never one already guessed
        here = (facts.game, facts.hand) == r.key
        if r.status == OPEN and here and (facts.begun or facts.scored):
            return Close(facts.dealt)
        if r.status == CLOSED and here and facts.scored:
            return Resolve(_answers(r, facts))
        if r.status == OPEN and facts.target != r.key or r.status == CLOSED and not here:
            return Void()  # its hand will not come (a new game, the way to play changed), or came unseen
        return None
    target = facts.target
    last = book.last
    if not book.on or target is None or len(facts.players) < 2:
        return None
    if last is not None and last.key == target and last.status == RESOLVED:
        return None
    return Open(target[0], target[1], facts.leader())


def _answers(r: Round, facts: Facts) -> dict[str, tuple[str, ...]]:
    """Each question the scored hand answers."""
    answers: dict[str, tuple[str, ...]] = {}
    if facts.first is not None:
        answers["first"] = (facts.first,)
    points = {n: p for n, p in zip(facts.dealt, facts.points or (), strict=False) if p is not None}
    if r.subject in points:
        answers["under"] = (YES if points[r.subject] < LINE else NO,)
    worst = max(points.values(), default=0)
    if worst > 0:
        answers["worst"] = tuple(n for n, p in points.items() if p == worst)
    return answers


# -- What a member may do -------------------------------------------------------------------------------------


def options(book: Book, facts: Facts, key: str) -> tuple[str, ...]:
    """What a question of the round may be answered with: yes or no, or the players of the hand."""
    if key == "under":
        return (YES, NO)
    r = book.round
    return r.options if r is not None and r.status != OPEN else facts.players


def check_join(book: Book, most: int, source: str | None = None, each: int | None = None) -> None:
    """Refuse a newcomer to an audience the host switched off, or full (the host's cap, or the server's `most`), or
    from a device (`source`, not the laptop's None) that brought `each` already, taken out of it or not."""
    if not book.on:
        raise Refused("error.audience_off")
    cap = most if book.cap is None else min(book.cap, most)
    if book.predicting() >= cap:
        raise Refused("error.audience_full", n=cap)
    if source is not None and each is not None and len(book.brought_by(source)) >= each:
        raise Refused("error.audience_device", n=each)


def check_pick(book: Book, facts: Facts, member: int, key: str, option: str) -> Pick:
    """The pick, if the member may make it now; Refused, changing nothing, if not."""
    if not 0 <= member < len(book.members) or not book.members[member].predicting:
        raise Refused("error.audience_first")
    r = book.round
    if r is None or r.status != OPEN:  # off: the round under way still takes its members' guesses
        raise OutOfPhase("error.predictions_closed")  # too late (or too early): a moment, not a rule
    if key not in KEYS or (key == "under" and r.subject is None):
        raise Refused("error.no_question")
    if option not in options(book, facts, key):
        raise Refused("error.no_option", option=option)
    return Pick(member, key, option)
