"""The audience of one room: its members and their connections, the predictions the table calls for, and what goes
out to them. Under the room's lock, like everything of a room.

The predictions are partyrummy.audience's (pure); this only translates. After each change of the room it reads the
public table (`facts_of`), makes and journals the moves it calls for (open, close, resolve), and keeps the
members' book in the journaled state (`RoomState.audience`), so a restart brings back every member, pick and
point. The audience's connections never join the room's own Socket.IO room: they hear only the audience's table
(`channel`), published once for all of them when it changes (a few times a hand), and each member its own part
when it changes (its pick; each resolved hand). Nothing of the game's table reaches them but what the audience's
views take from it: names, counts and points, never a card.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...audience import predictions as book_of
from ...audience.facts import Facts, facts_of
from ...audience.predictions import Book, Join, Offer, Remove, Seated, Settings, check_join, check_pick
from ...audience.views import hand, member, places, public, roster, standing
from ...rules.names import name_key
from ...wire.delta import diff
from ..defences.limits import LIMITS
from .channel import Channel
from .pace import moved
from .refused import Refused
from .seats import Viewer
from .state import RoomState
from .writes import Writes

__all__ = ["Audience", "Stage", "Ticket", "CAPS", "channel"]

# The caps the TV's host may choose, besides none (the server's most, LIMITS.audience).
CAPS = LIMITS.audience_caps
# How long a pick waits for the write that keeps it before it is refused as not saved (a write takes milliseconds;
# this is only a floor under a bug).
WRITE_WAIT_S = 10.0


def channel(code: str) -> str:
    """The Socket.IO room of a room's audience (the room's own is named by its code)."""
    return f"{code}/audience"


@dataclass(frozen=True)
class Stage:
    """What the audience may use of its room (the room's lock is held whenever it is called)."""

    code: str
    state: RoomState  # the journaled state: the seats, the games dealt, the audience's book
    game: Callable[[], dict[str, Any] | None]  # the game's public table now (its part's, once a version)
    clocks: Callable[[], dict[str, Any]]  # the caller's countdowns, in seconds from now
    clock: Callable[[], float]  # monotonic seconds
    journal: Writes  # write an event before it is applied (refuses, changing nothing); picks wait for a write
    changed: Callable[[], None]  # the room's table changed (its `room.audience`): a new version, batched
    publish: Callable[[str, str, dict], None]  # to every connection of a Socket.IO room at once
    send: Callable[[str, str, dict], None]  # to one connection
    free_seat: Callable[[], bool]  # whether a seat is free between games (an offered member may take it)
    locked: Callable[[Callable[[], None]], None]  # run this under the room's lock (from outside it)


class Ticket:
    """A member's pick, checked and queued for the write that keeps it: the picks that arrive together are written
    in one transaction (a commit costs far more than a row, and two hundred members guess in the same seconds).
    The pick is made, and its member answered, only once it is on disk."""

    def __init__(self, leader: bool, write: Callable[[], None]) -> None:
        self.leader = leader  # the first of its batch: it writes the batch
        self.write = write
        self.kept = threading.Event()
        self.error: Refused | None = None

    def done(self, error: Refused | None) -> None:
        self.error = error
        self.kept.set()

    def wait(self) -> None:
        """Out of the room's lock: the first of a batch lets the picks that came in with it join (one turn of the
        loop), then writes them all; the others wait for that write. Raises the write's refusal."""
        if self.leader:
            time.sleep(0)  # under gevent, every reader with a pick in hand queues it before this one goes on
            self.write()
        if not self.kept.wait(WRITE_WAIT_S):
            raise Refused("error.not_saved")
        self.result()

    def result(self) -> None:
        """Raises the write's refusal, if it refused the pick."""
        if self.error is not None:
            raise self.error


class Audience:
    """One room's audience: its connections and what they were last sent (the book itself is the room's state)."""

    def __init__(self, stage: Stage, version: int = 0) -> None:
        self.stage = stage
        stage.journal.first(self.queued, self.written)  # the picks waiting go with the room's next write
        self.out = Channel(channel(stage.code), stage.publish, stage.send)  # its table, and each member's part
        self.sids: dict[str, int | None] = {}  # audience connections -> their member (None: not joined yet)
        self.joined: dict[str, int] = {}  # any connection that joined the audience -> the member it brought
        self.v = version  # the audience's own versions: its table's and its members' parts
        self.dirty: set[int] = set()  # members whose own part changed since they were last sent it
        self.close_at: float | None = None  # when the open round closes, when the caller knows ("Draw!" after the deal)
        self.published_close: dict[str, float] = {}  # the closing time the published table says (pace.deadlines')
        self.always = False  # the table went out: every connection's own part goes too
        self.queue: list[tuple[book_of.Pick, Ticket]] = []  # picks checked, waiting for their write, in order
        self._read: tuple[Any, ...] | None = None  # the public table and seats, and what was read of them
        self._offered: tuple[tuple[Any, ...], set[int]] | None = None  # the members offered a seat, of a members tuple
        self._made: tuple[Book, Facts, dict[str, Any]] | None = None  # the public view, and what it was made of
        self._placed: tuple[Any, Any, list[int]] | None = None  # every member's place, for these points and members
        self._counted: tuple[Book, int, list[dict[str, Any]]] | None = None  # how many predict, and who, of a book

    @property
    def book(self) -> Book:
        return self.stage.state.audience

    # -- Who is who ---------------------------------------------------------------------------------------------

    def member_of(self, token: str | None) -> int | None:
        """The member this token is (compared in constant time), or None."""
        if not isinstance(token, str):
            return None
        found = None
        for index, m in enumerate(self.book.members):
            if secrets.compare_digest(m.token, token) and m.predicting:
                found = index
        return found

    def admits(self, token: str | None) -> bool:
        """Whether a connection asking for the audience may come in: a member's token, or anyone while the host
        lets an audience in (a locked room too: the lock keeps strangers from the table, not from watching)."""
        return self.member_of(token) is not None or self.book.on

    def attach(self, sid: str, viewer: Viewer) -> None:
        """An audience connection: it is sent its whole view at once."""
        self.sids[sid] = self.member_of(viewer.token)
        self.observe()
        self._publish()
        self.stage.send(sid, "state", self.state_for(sid))

    def detach(self, sid: str) -> None:
        self.sids.pop(sid, None)
        self.joined.pop(sid, None)

    # -- What members and the host do -----------------------------------------------------------------------------

    def join(self, sid: str, viewer: Viewer, name: str, source: str | None = None) -> tuple[int, str]:
        """A newcomer joins the audience by name (unique in the room, seats included); their member and token.
        An audience connection is the member from now on; a guest of the room connects again with the token.
        One connection brings one member, and one device (`source`, its address; None: the laptop) a few."""
        if viewer.role == "player":
            raise Refused("error.seated_already")
        if viewer.role == "host":
            raise Refused("error.host_only")
        if self.member_of(viewer.token) is not None or sid in self.joined:
            raise Refused("error.audience_already")
        key = name_key(name)
        seats = (s.name for s in self.stage.state.seats)
        if any(name_key(n) == key for n in [*seats, *(m.name for m in self.book.members)]):
            raise Refused("error.name_taken", name=name)
        check_join(self.book, LIMITS.audience, source, LIMITS.audience_per_device)
        token = secrets.token_urlsafe(16)
        self._do(Join(name, token, source))
        index = len(self.book.members) - 1
        self.joined[sid] = index
        if sid in self.sids:
            self.sids[sid] = index
            self.dirty.add(index)
            self._send_mine()
        self.stage.changed()  # the TV counts its audience
        return index, token

    def pick(self, sid: str, key: str, option: str) -> Ticket:
        """A member's pick (it may change until the round closes), checked now and queued for the next write (the
        room's next, or its batch's: `Ticket.wait`, out of the room's lock); only they hear of it, once kept."""
        index = self.sids.get(sid)
        if index is None:
            raise Refused("error.audience_first")
        self.observe()  # the table may have moved on since the last look: a pick after "Draw!" is too late
        move = check_pick(self.book, self._facts(), index, key, option)
        ticket = Ticket(not self.queue, lambda: self.stage.locked(self.commit))
        self.queue.append((move, ticket))
        return ticket

    def commit(self) -> None:
        """Write the queued picks, make them, and send their members their own part (the room's lock held)."""
        try:
            if self.queue:
                self.stage.journal()  # the room's journal writes the queue first: `queued`, then `written`
        except Refused:
            pass  # the disk refused: `written` told every ticket of the batch, and each tells its member
        finally:
            if self.queue:  # the write failed as nothing should (a bug): the waiting members are answered still
                self.written(Refused("error.server"))
        self._send_mine()

    def queued(self) -> list[dict[str, Any]]:
        """The queued picks as the journal writes them (before anything else it writes: they came first): of a
        member's picks of one question in the batch, only the last, which is the one that stands."""
        last = {(move.member, move.key): i for i, (move, _) in enumerate(self.queue)}
        return [book_of.to_dict(move) for i, (move, _) in enumerate(self.queue) if last[(move.member, move.key)] == i]

    def written(self, error: Refused | None) -> None:
        """The queued picks were written (error None: they are made now) or refused with their write."""
        queue, self.queue = self.queue, []
        if error is None and queue:
            self.stage.state.audience = book_of.apply_picks(self.book, [move for move, _ in queue])
            self.dirty.update(move.member for move, _ in queue)
        for _, ticket in queue:
            ticket.done(error)

    def settings(self, on: bool, cap: int | None) -> None:
        """The host switches the audience on or off, and caps it (None: the server's most)."""
        if cap is not None and cap not in CAPS:
            raise Refused("error.no_cap")
        self._do(Settings(on, cap))
        self.stage.changed()

    def offer(self, index: int, offered: bool) -> None:
        """The host offers a member a seat at the next game (or takes the offer back)."""
        self._check_member(index)
        self._do(Offer(index, offered))
        self.dirty.add(index)
        self.stage.changed()

    def remove(self, index: int, together: bool) -> int:
        """The host takes a member out of the audience (`together`: with every member their device brought); their
        picks of the hand on the table go with them and the cap has room again. Returns how many went."""
        self._check_member(index)
        source = self.book.members[index].source
        members = [index]
        if together and source is not None:
            members = [i for i in self.book.brought_by(source) if self.book.members[i].predicting]
        self._do(Remove(tuple(members)))
        self.dirty.update(members)  # each one's page says they were taken out
        self.stage.changed()
        return len(members)

    def _check_member(self, index: int) -> None:
        if not 0 <= index < len(self.book.members) or not self.book.members[index].predicting:
            raise Refused("error.no_member")

    def seated(self, sid: str) -> tuple[int, str]:
        """An offered member takes their seat: the member, and their name for the seat."""
        index = self.sids.get(sid)
        if index is None or not self.book.members[index].offered:
            raise Refused("error.no_offer")
        if not self.stage.free_seat():
            raise Refused("error.no_free_seat")
        return index, self.book.members[index].name

    def took_seat(self, index: int) -> None:
        """The member sat down: they predict no more (their points stay on the leaders' board)."""
        self._do(Seated(index))
        for sid, m in self.sids.items():
            if m == index:
                self.sids[sid] = None
        self.stage.changed()

    def _do(self, move: book_of.Command) -> None:
        """Journal a move, then make it (a disk that refuses it refuses the move: nothing changes)."""
        self.stage.journal(book_of.to_dict(move))
        self.stage.state.audience = book_of.apply(self.book, move)

    # -- Following the table -------------------------------------------------------------------------------------

    def _facts(self) -> Facts:
        """The facts of the table now: read again only when the public table (one object a version), the seats'
        names or the games dealt changed (each pick asks, twice)."""
        return self._table_read()[3]

    def _table_read(self) -> tuple[Any, ...]:
        """The public table as the audience reads it: (the table, the seats' names, the games dealt, its facts, the
        hand as the audience follows it), read once for each version of the table, whoever asks."""
        state = self.stage.state
        game, names = self.stage.game(), tuple(s.name for s in state.seats)
        read = self._read
        if read is None or read[0] is not game or read[1] != names or read[2] != state.games:
            table = {"room": {"seats": [{"name": n} for n in names]}, "game": game}
            self._read = read = (game, names, state.games, facts_of(table, state.games), hand(game, names))
        return read

    def observe(self, clocks: dict[str, Any] | None = None) -> bool:
        """Make the moves the table calls for (journaled first); whether the audience's public part changed.
        `clocks`: the caller's countdowns, when the room has them already."""
        facts = self._facts()
        made = False
        try:
            for move in book_of.due(self.book, facts):
                self._do(move)
                made = True
                if isinstance(move, book_of.Resolve):
                    self.dirty.update(range(len(self.book.members)))
        except Refused:  # the disk refused it: the same move is due again at the next look
            pass
        self._clock(facts, clocks)
        return made

    def _clock(self, facts: Facts, clocks: dict[str, Any] | None) -> None:
        """When the open round closes, while the caller counts it down (the match window before the first
        "Draw!"); None while only the host's call will close it."""
        r = self.book.round
        if r is None or r.status != "open":
            ends = None
        else:
            ends = (clocks if clocks is not None else self.stage.clocks()).get("match_ends_in")
        at = None if ends is None or not facts.playing or facts.begun else self.stage.clock() + ends
        if moved(_closes(self.close_at), _closes(at), slack=0.5):  # came, went or moved: the table says it anew
            self.close_at = at

    # -- What goes out --------------------------------------------------------------------------------------------

    def _view(self) -> dict[str, Any]:
        """The audience's public view (never changed once made: sent views share it), made again only when the book
        or what the table says of the room changed (every broadcast asks, twice)."""
        facts = self._facts()
        made = self._made
        if made is None or made[0] is not self.book or made[1] != facts:
            self._made = made = (self.book, facts, public(self.book, facts, facts.over))
        return made[2]

    def _places(self) -> list[int]:
        """Every member's place, once for the points as they stand (they move only when a round is resolved, or a
        member is taken out)."""
        book = self.book
        if self._placed is None or self._placed[0] is not book.points or self._placed[1] is not book.members:
            self._placed = (book.points, book.members, places(standing(book)))
        return self._placed[2]

    def public(self) -> dict[str, Any]:
        """The audience as every viewer of the room sees it (the TV shows it): the round, the leaders, how many."""
        book, most = self.book, LIMITS.audience if self.book.cap is None else min(self.book.cap, LIMITS.audience)
        if self._counted is None or self._counted[0] is not book:
            self._counted = (book, book.predicting(), roster(book))
        counted = self._counted[1]
        return self._view() | {"members": counted, "full": counted >= most, "caps": CAPS, "most": LIMITS.audience}

    def roster(self) -> list[dict[str, Any]]:
        """The members, for the TV's host alone (to offer one a seat): made once for each book, as the count."""
        self.public()
        return self._counted[2]

    def _closes_in(self) -> float | None:
        return None if self.close_at is None else round(max(0.0, self.close_at - self.stage.clock()), 1)

    def table(self) -> dict[str, Any]:
        """The audience's own table: what every audience connection sees alike (whether it is full, but no count:
        that would change at every join, for everyone)."""
        # Whether a newcomer would be turned away, said before they type a name (it changes only when the audience
        # fills or has room again: never a count, which would go out to everyone at every join).
        view = dict(self._view()) | {"full": self.public()["full"], "most": LIMITS.audience}
        if view["round"] is not None and self.close_at is not None:
            view["round"] = {**view["round"], "closes_in": self._closes_in()}
        colours = {s.name: s.colour for s in self.stage.state.seats}
        followed = self._table_read()[4]  # the hand on, as the TV shows it
        return {"room": {"code": self.stage.code, "mode": self.stage.state.mode, "audience": view,
                         "colours": colours, "hand": followed}, "game": None}

    def mine(self, index: int | None, place: list[int] | None = None) -> dict[str, Any]:
        """What one audience connection alone sees: who it is, its picks and points (`place`: every member's place,
        worked out once an update)."""
        you = {"role": "audience", "seat": None, "controls": False, **member(self.book, index, place)}
        if index is not None and self.book.members[index].offered:
            you["seat_free"] = self.stage.free_seat()
        return {"room": {"you": you}, "game": None}

    def state_for(self, sid: str) -> dict[str, Any]:
        """A connection's whole view: the audience's table as published (its clock counted from now), its own."""
        table = self.out.table
        if table is not None and self.close_at is not None:
            table = _with_clock(table, self._closes_in())
        return self.out.state(self.v, table, self.mine(self.sids.get(sid)))

    def send(self, clocks: dict[str, Any], moments: list[dict[str, Any]] | None = None) -> None:
        """After the room's changes (the moves they called for made: `observe`): the audience's table to every
        audience connection at once if it changed, with the `moments` of the table those changes came with (a
        Match!: a phone whose guess it bears out buzzes), and each member's own part where it changed (every
        one's, with a new table, so each shows the two together)."""
        self._publish(moments)
        self._send_mine()

    def _publish(self, moments: list[dict[str, Any]] | None = None) -> None:
        """The audience's table, if it changed (its clock ticking is no change; its closing time moving is)."""
        table, held = self.table(), self.out.table
        ticking = held is not None and not moved(self.published_close, _closes(self.close_at))
        if ticking and not moments and diff(_with_clock(held), _with_clock(table)) is None:
            return
        self.v += 1
        self.published_close = _closes(self.close_at)
        self.always = self.out.publish(table, self.v, moments) or held is not None

    def _send_mine(self) -> None:
        """Each connection's own part where it changed; every one's after a new table (its version named)."""
        always, self.always = self.always, False
        members = self.book.members
        if self._offered is None or self._offered[0] is not members:
            self._offered = (members, {i for i, m in enumerate(members) if m.offered})
        owed = self.dirty | self._offered[1]
        if not always and not owed:
            return
        self.v += 1
        place = self._places()
        owners = ((sid, index, index) for sid, index in list(self.sids.items()) if always or index in owed)
        self.out.parts(self.v, owners, lambda index: self.mine(index, place), always)
        self.dirty.clear()


def _closes(at: float | None) -> dict[str, float]:
    """The round's closing time as the room's countdowns are compared (pace.moved): none, or when."""
    return {} if at is None else {"closes": at}


def _with_clock(table: dict[str, Any], closes_in: float | None = None) -> dict[str, Any]:
    """The audience's table with its round's closing clock set to `closes_in` (None: without it)."""
    r = table["room"]["audience"]["round"]
    if r is None:
        return table
    round_ = {k: v for k, v in r.items() if k != "closes_in"}
    if closes_in is not None:
        round_["closes_in"] = closes_in
    return {**table, "room": {**table["room"], "audience": {**table["room"]["audience"], "round": round_}}}

