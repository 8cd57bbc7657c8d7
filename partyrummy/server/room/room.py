"""A room: the seats, the game, the caller's pacing, and who is watching, under one lock.

The room translates: a validated command from a known seat goes to the
engine; after every change each viewer gets its own view. It never emits by
itself: `send(sid, event, payload)` is injected, and time comes in as `now`.

It is the one place that holds the lock; the parts live beside it, each in the module named for it: the
journaled state and how each event changes it (state.py), the journal as the room's parts write to it
(writes.py), the lobby and the seats (lobby.py), who is who and each seat's connections (seats.py), the
rejoin tickets (tickets.py), the views (room_view.py), the channel they go out on (channel.py) and when
(outbox.py), with the moments they came with (moments.py). The game itself is a part with one face
(game_part.GamePart), one per way to play: cards on the phones (phones_play.py) or real cards on the table
(real_play.py). The room chooses it from the night's mode in one place (`part`) and hands it everything of
the game; a part sees of the room only a `Table`, and the audience only a `Stage` (audience.py).

The caller thread (app.py) sleeps until the next deadline: a change wakes it only when it brings a
deadline sooner than the one it sleeps until (`replan`); calls due at once are made by the command itself
(`settle`).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...i18n import Catalogs, default_catalogs
from ...rules.variants import PACES, Variant
from ...wire.delta import merge
from . import seats as seating
from .audience import Audience, Stage, channel
from .channel import Channel
from .game_part import GamePart, Table
from .lobby import Lobby
from .outbox import Outbox
from .pace import deadlines, moved
from .phones_play import PhonesPlay
from .real_play import RealPlay
from .refused import Refused
from .room_view import RoomFacts, room_mine, room_table, variant_menu
from .seats import COLOURS, DROP_GRACE_S, RECONNECT_GRACE_S, Links, Viewer
from .state import RoomState, Seat, apply_event
from .tickets import TICKET_S, Tickets
from .writes import Writes

__all__ = ["Room", "Seat", "Viewer", "Refused", "COLOURS", "MODES", "RECONNECT_GRACE_S", "TICKET_S"]

# The ways to play a night: cards on the phones, or real cards on the table (the TV calls and keeps the score).
PARTS: tuple[type[GamePart], ...] = (PhonesPlay, RealPlay)
MODES = tuple(part.mode for part in PARTS)


class Room(Lobby):
    """One room of the night: its journaled state, its connections, and its caller, under `lock` (its lobby and
    seats: lobby.py)."""

    def __init__(
        self,
        code: str,
        variants: dict[str, Variant],
        variant: str,
        send: Callable[[str, str, dict], None],
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        record: Callable[[str, list[dict]], None] = lambda code, events: None,
        catalogs: Catalogs | None = None,
        publish: Callable[[str, str, dict], None] | None = None,
    ) -> None:
        """`send(sid, event, payload)` reaches one connection; `publish(code, event, payload)` every connection of
        the room at once (encoded once: a Socket.IO room); without it, each connection is sent it in turn."""
        self.catalogs = catalogs or default_catalogs()
        self.journal = Writes(code, record)  # each change written before it is made (writes.py)
        self.seed = seed  # when set, game k of the night is dealt from seed + k
        self.code = code
        self.variants = variants
        self.variant_menu = variant_menu(variants)
        self.send = send
        self.publish = publish or self._publish_each
        self.clock = clock
        self.lock = threading.RLock()
        self.wake = threading.Event()  # set when a deadline comes sooner than the caller sleeps until
        self.sleeps_until: float | None = None  # the caller thread's next look (None: until woken)
        self.host_token = secrets.token_urlsafe(16)
        self.state = RoomState(variant)
        self.links = Links()  # each seat's live connections, beside its journaled state
        self.viewers: dict[str, Viewer] = {}
        self.unseated: list[tuple[str, str | None]] = []  # connections that lost their seat, for the transport
        self.version = 0
        self.outbox = Outbox()
        self.channel = Channel(code, self.publish, send)  # the table published to the room, each one's own part
        self.broadcast_v = -1  # the version last sent to everyone
        self.published_ends: dict[str, float] = {}  # the moments the countdowns last sent to everyone end
        self.tickets = Tickets()  # rejoin QR codes
        self.drops_due: float | None = None  # when to tell the table of seats whose connection dropped
        self.asked = 0.0  # when a connection or a page last asked for the room by its code (Rooms lets it go after)
        self.in_night: dict[str, Any] | None = None  # a table of a night of several tables: its code, which table
        # The game part of each way to play; `part` is the one of this night. Each sees the room as a Table.
        table = Table(
            state=self.state,
            clock=clock,
            journal=self.journal,
            changed=self._changed_by_part,
            tell=self._tell,
            version=lambda: self.version,
            links=self.links,
        )
        self.parts: dict[str, GamePart] = {kind.mode: kind(table) for kind in PARTS}
        # Everyone past the table: its own connections, views and versions (audience.py).
        stage = Stage(
            code=code,
            state=self.state,
            game=lambda: self.part.public(),
            clocks=lambda: self.part.clocks(),
            clock=clock,
            journal=self.journal,
            changed=lambda: self.changed(batch=True),
            publish=self.publish,
            send=send,
            free_seat=self._seat_free,
            locked=self._locked,
        )
        self.audience = Audience(stage, version=int(time.time() * 1000))

    def _seat_free(self) -> bool:
        """Whether a seat is free between games (an offered member may take it)."""
        return not self.playing() and len(self.state.seats) < self.variant.max_players

    def _locked(self, action: Callable[[], None]) -> None:
        """Run an action under the room's lock, from outside it."""
        with self.lock:
            action()

    def _publish_each(self, name: str, event: str, payload: dict) -> None:
        """Without a Socket.IO server (tests in-process): a publish to each connection of that Socket.IO room."""
        for sid, viewer in list(self.viewers.items()):
            if name == self.channel_name(viewer):
                self.send(sid, event, payload)

    def channel_name(self, viewer: Viewer) -> str:
        """The Socket.IO room a connection hears the table in: the room's own, or its audience's."""
        return channel(self.code) if viewer.role == "audience" else self.code

    # -- The journaled state's own questions -------------------------------------

    @property
    def part(self) -> GamePart:
        """The game part of the way this night is played: the one place the night's mode is asked."""
        return self.parts[self.state.mode]

    @property
    def variant(self) -> Variant:
        """The chosen rule set."""
        return self.variants[self.state.variant_name]

    # -- Who is who ---------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token holds, if any."""
        return seating.seat_of(self.state.seats, token)

    def seat_for(self, viewer: Viewer) -> int | None:
        """The seat a connection plays, if it is a seated player."""
        return self.seat_of(viewer.token) if viewer.role == "player" else None

    def is_host(self, token: str | None) -> bool:
        """Whether this is the TV's token."""
        return token is not None and secrets.compare_digest(self.host_token, token)

    def vip(self) -> int | None:
        """The seat of the first-joined person still here: their phone runs the evening."""
        return seating.vip(self.state.seats)

    def may_host(self, viewer: Viewer) -> bool:
        """Whether this connection shows the host's controls: the TV, or the VIP's phone (which may run the
        evening, never move seats or see their keys: events.py says which controls are whose)."""
        seat = self.seat_for(viewer)
        return viewer.role == "host" or (seat is not None and seat == self.vip())

    def attach(self, sid: str, viewer: Viewer) -> None:
        """A connection joins the room; a seat's token on a second screen (a phone and a tablet, two tabs) plays
        the seat too: each is live, each sees the other's taps.

        It is sent its own view at once. Only a seat's connection changes the table (its health), and that
        goes to the others with the next batch: a burst of connections is one update, a watcher none.
        """
        self.viewers[sid] = viewer
        if viewer.role == "audience":  # the audience has its own table, its own parts and versions
            self.audience.attach(sid, viewer)
            return
        seat = self.seat_for(viewer)
        if seat is not None:
            link = self.links[self.state.seats[seat]]
            gone = link.gone_since
            link.sids.add(sid)
            link.gone_since = None
            if gone is not None and self.outbox.sent_at >= gone:  # the table saw it go: it sees it back
                self.changed(batch=True)
        self.send(sid, "state", self.state_for(viewer))

    def detach(self, sid: str) -> None:
        """A connection left; a seat left with none is told to the table after DROP_GRACE_S."""
        viewer = self.viewers.pop(sid, None)
        if viewer is None:
            return
        self.audience.detach(sid)
        seat = self.seat_for(viewer)
        if seat is not None:
            link = self.links[self.state.seats[seat]]
            link.sids.discard(sid)
            if not link.sids:
                now = self.clock()
                link.gone_since = now
                self.drops_due = self.drops_due or now + DROP_GRACE_S  # the next flush tells the caller

    def announce_drops(self) -> float | None:
        """The caller's: tell the table of seats still without a connection DROP_GRACE_S after they dropped.

        Returns when to look again (None: nothing pending).
        """
        if self.drops_due is None:
            return None
        if self.clock() < self.drops_due:
            return self.drops_due
        self.drops_due = None
        gone = [self.links[s] for s in self.state.seats if s.token is not None]
        if any(not link.sids and link.gone_since is not None for link in gone):
            self.changed(batch=True)
        return None

    def _unseat(self, seat: int, code: str, key: str | None = None) -> None:
        """Tell a seat's devices they no longer play it (a notice `code`); they stay, watching, as any guest does
        (`take_unseated` tells the transport, which holds what each connection may hold)."""
        link = self.links[self.state.seats[seat]]
        for sid in link.sids:
            self.viewers[sid] = self._as(sid, "guest")
            self.notify(sid, code, key)
            self.unseated.append((sid, self.state.seats[seat].token))
        link.sids = set()

    def take_unseated(self) -> list[tuple[str, str | None]]:
        """The connections that lost their seat since the last call, each with the seat's token as it was."""
        unseated, self.unseated = self.unseated, []
        return unseated

    def _as(self, sid: str, role: str, token: str | None = None) -> Viewer:
        """This connection's viewer in a new role, still reading its own language."""
        return replace(self.viewers.get(sid, Viewer("guest")), role=role, token=token)

    def set_lang(self, sid: str, lang: str) -> None:
        """A connection now reads another language (one the catalogs have): its next refusals come in it."""
        if lang not in self.catalogs.languages:
            raise Refused("error.no_language")
        self.viewers[sid] = replace(self.viewers[sid], lang=lang)

    def notify(
        self, sid: str, code: str, key: str | None = None, params: dict | None = None, extra: dict | None = None
    ) -> None:
        """A `notice` to one connection: `code` for programs, message `key` (`notice.<code>`, with `params`) in its
        language, and any `extra` fields."""
        message = self.catalogs.text(self.viewers[sid].lang, key or f"notice.{code}", **(params or {}))
        self.send(sid, "notice", {"code": code, "message": message, **(extra or {})})

    def _tell(self, seat: int, code: str, key: str, params: dict, extra: dict) -> None:
        """A notice to each device of one seat (a game part's word to a player)."""
        for sid in self.links[self.state.seats[seat]].sids:
            self.notify(sid, code, key, params, extra)

    # -- Play -----------------------------------------------------------------

    def playing(self) -> bool:
        """Whether a game is on (dealt and not over)."""
        return self.state.playing


    def play(self, command: Any) -> None:
        """Apply one command of the current game; a RummyError leaves everything as it was (and unrecorded)."""
        self.part.play(command)

    def answer(self, viewer: Viewer, event: str, data: dict[str, Any]) -> None:
        """An event of the game (a seat's move; the host's correction), for the night's part to check and apply."""
        self.part.answer(viewer, self.seat_for(viewer), event, data)

    def call_now(self) -> None:
        """The host's "Call now": with cards on the phones, play for whoever is slow and call at once; with
        real cards, "Cards are dealt: Draw!", "Discard!" without the slow ones, a turn ended; the next hand."""
        self.part.call_now()

    def set_pace(self, pace: str) -> None:
        """The host's pace for the night (relaxed, normal, quick): every time of the caller, times its factor."""
        if pace not in PACES:
            raise Refused("error.no_pace")
        self._do({"t": "pace", "pace": pace})

    def set_paused(self, paused: bool) -> None:
        """The host pauses the table, or resumes it with the caller's clocks started again."""
        if not self.playing():
            raise Refused("error.nothing_to_pause")
        self._do({"t": "pause", "paused": paused})
        self.part.pause(paused)

    # -- Events: written ahead, then applied; a restart replays them ------------

    def _do(self, event: dict[str, Any], outcome: Any = None) -> None:
        """Write a change to the journal before making it, so that nobody sees what was not kept (`outcome`: its
        effect on the game, as checked before)."""
        self.journal(event)
        self.apply_event(event, outcome)
        self.changed()

    def apply_event(self, event: dict[str, Any], outcome: Any = None) -> None:
        """Make one recorded change (live, or replayed after a restart)."""
        apply_event(self.state, event, self.variants, self.part, outcome)

    def restore(self, events: list[dict[str, Any]]) -> None:
        """Rebuild the room from its journal, card for card."""
        for event in events:
            self.apply_event(event)
        for seat in self.state.seats:  # nobody is connected yet: every phone is on its way back
            self.links[seat].gone_since = self.clock()
        for part in self.parts.values():
            part.take_moments()  # what the journal replayed happened before anyone now connected
        # Versions go on growing across a restart (clients keep the highest): start from the clock, in ms.
        self.version = max(self.version, int(time.time() * 1000))
        self.changed()

    # -- The caller ------------------------------------------------------------

    def tick(self) -> float | None:
        """Make any call that is due now; return when to look again (None: wait for a change)."""
        return self.part.tick()

    # -- Views ------------------------------------------------------------------

    def changed(self, batch: bool = False) -> None:
        """After any change: a new version, and the pace's clocks. `flush` sends it; `settle` or `replan` then
        tells the caller of a deadline the change brought.

        `batch`: a player's own move, which may wait for the next batch unless it moved the table on.
        """
        moved = self.part.track()
        self.version += 1
        self.outbox.mark(urgent=not batch or moved)

    def _changed_by_part(self, batch: bool) -> None:
        self.changed(batch=batch)

    def next_deadline(self, due: float | None) -> float | None:
        """The soonest of a call due (`due`, from `tick`), the pending batch of updates and the drops to tell."""
        times = [t for t in (due, self.outbox.batch_due, self.drops_due) if t is not None]
        return min(times) if times else None

    def replan(self, due: float | None = None) -> None:
        """Wake the caller thread if a deadline is now sooner than the one it sleeps until (`due`: a call's)."""
        deadline = self.next_deadline(due)
        if deadline is not None and (self.sleeps_until is None or deadline < self.sleeps_until):
            self.sleeps_until = deadline
            self.wake.set()

    def flush(self) -> None:
        """Send every viewer its view, once for all the changes since the last send: now, or with the batch (and
        then the caller thread is told when)."""
        if self.outbox.dirty and self.outbox.take(self.clock()):
            self.broadcast()
        self.replan()

    def settle(self) -> None:
        """After a command: make any call already due (a zero beat), send one update, and tell the caller thread
        of a sooner deadline (a new phase's clock, a batch of moves)."""
        try:
            due = self.tick()
        except Refused:  # a call the disk would not keep: the command itself went in; the caller tries again
            due = self.clock()
        self.flush()
        self.replan(due)

    def broadcast(self) -> None:
        """Send the changes since the last broadcast: the table's once to the whole room, then each connection's
        own part (one per seat or role, shared by its devices), to it alone and only when it changed; then the
        audience's, by the same clocks."""
        self.outbox.sent_at = self.clock()
        self.broadcast_v = self.version
        clocks = self.part.clocks()
        self.audience.observe(clocks)  # the predictions the table now calls for, in the table about to go out
        ends, before = deadlines(clocks, self.outbox.sent_at), self.published_ends
        self.published_ends = ends
        moments = self.part.take_moments()
        published = self.channel.publish(self.table(clocks), self.version, moments, moved(before, ends))
        owners = ((sid, (v.role, self.seat_for(v)), v) for sid, v in list(self.viewers.items()) if v.role != "audience")
        self.channel.parts(self.version, owners, self.mine, always=published)
        self.audience.send(clocks, moments)

    def table(self, clocks: dict[str, Any] | None = None) -> dict[str, Any]:
        """The table: what every viewer sees alike (the room, with its clocks and the seats' health as of now, and
        the game, which its part builds once a version). `clocks`: the part's, when the caller has them."""
        return {"room": self._room_table(clocks or self.part.clocks()), "game": self.part.public()}

    def mine(self, viewer: Viewer) -> dict[str, Any]:
        """What one viewer alone sees: who they are to the room, and their own part of the game."""
        seat = self.seat_for(viewer)
        room = room_mine(viewer, seat, self.may_host(viewer))
        if viewer.role == "host":  # the TV's alone: what it may do now, the audience by name to offer one a seat
            room["you"] |= self.host_can()
            room["audience_roster"] = self.audience.roster()
        return {"room": room, "game": self.part.mine(viewer, seat)}

    def state_for(self, viewer: Viewer) -> dict[str, Any]:
        """A connection's whole view (on connecting, and when it asks): the table of the version last published
        (so the next `table` change follows it), its own part, and their versions. A change not yet sent goes out
        to everyone first, the table and each one's own part together; else nobody else hears of it: the table is
        built again for this one alone, its clocks counted from now, and however often a connection asks, the
        room sends everyone else nothing more."""
        if self.broadcast_v != self.version or self.channel.table is None:
            self.broadcast()
            table = self.channel.table
        else:
            table = self.table()  # the same version: only the clocks and how long seats were gone have moved on
        return self.channel.state(self.version, table, self.mine(viewer))

    def sync(self, sid: str, viewer: Viewer) -> dict[str, Any]:
        """A connection asks for its whole view again (it missed an update): its next `mine` follows this one."""
        state = self.audience.state_for(sid) if viewer.role == "audience" else self.state_for(viewer)
        self.send(sid, "sync", state)  # the stream keeps what the answer gives it (nothing is sent)
        return state

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """Everything one viewer may see, in one: the table with their own part in it."""
        if viewer.role == "audience":
            member = self.audience.member_of(viewer.token)
            return {"v": self.audience.v, **merge(self.audience.table(), self.audience.mine(member))}
        return {"v": self.version, **merge(self.table(), self.mine(viewer))}

    def sheets(self) -> list[tuple[list[str], list, list[int]]]:
        """The night's scores as the CSV gives them, a game a sheet (names, each seat's cells, totals): every game
        finished, then the one being played; none before the first."""
        game = self.state.game
        names = [s.name for s in self.state.seats]
        playing = [(names, self.part.sheet(game), list(game.totals))] if self.playing() else []
        return list(self.state.sheets) + playing

    def _room_table(self, clocks: dict[str, Any]) -> dict[str, Any]:
        now = self.clock()
        facts = RoomFacts(
            code=self.code,
            variant=self.variant,
            menu=self.variant_menu,
            vip=self.vip(),
            # Whether a newcomer may join now (a new seat); open seats are in "seats" either way.
            can_join=len(self.state.seats) < self.variant.max_players
            and (not self.playing() or self.variant.newcomers == "next-hand"),
            clocks=clocks,
            now=now,
            links=self.links,
        )
        return room_table(self.state, facts) | {"audience": self.audience.public(), "in_night": self.in_night}

