"""The lobby and the seats of a room: who sits where, the host's choices, and what the host may do now.

A part of the Room (room.py), which it is written for: each action checks everything first, then writes its event
to the journal (`_do`) before it is made, so a refusal changes nothing; `host_can` is made of the same checks, so the
TV offers exactly what would be let through.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from ...rules.errors import RummyError
from ...rules.variants import DRAWS
from . import seats as seating
from .refused import Refused
from .seats import bot_name, check_strength

__all__ = ["Lobby"]


class Lobby:
    """The Room's lobby and seats (its attributes: `state`, `part`, `variant`, `variants`, `links`, `viewers`,
    `tickets`, `audience`, `clock`, `in_night`; its `_do`, `_unseat`, `_as`, `attach` and `playing`)."""

    def join(self, sid: str, name: str) -> int:
        """Seat a new player; their viewer becomes that seat. Returns the seat.

        Mid-game, a newcomer gets a new seat dealt in at the next hand if the variant says so.
        """
        token = self.seat_guest(name)
        seat = len(self.state.seats) - 1
        self.viewers[sid] = self._as(sid, "player", token)
        self.links[self.state.seats[seat]].sids.add(sid)
        return seat

    def seat_guest(self, name: str) -> str:
        """A new seat for a player whose phone is not here yet (the night of several tables seats its guests so):
        returns its token, which their phone connects with."""
        if self.playing() and self.variant.newcomers != "next-hand":
            raise Refused("error.started_take")
        self._not_locked()
        seating.check_name(self.state.seats, name)
        token = secrets.token_urlsafe(16)
        self._new_seat({"name": name, "token": token})
        return token

    def take_offer(self, sid: str) -> tuple[int, str]:
        """An audience member the host offered a seat takes it, between games (a locked room too: the host asked
        them): a new seat at the end of the ring. Returns the seat and its token; their page connects with it."""
        member, name = self.audience.seated(sid)
        seating.check_name(self.state.seats, name)
        token = secrets.token_urlsafe(16)
        seat = self._new_seat({"name": name, "token": token})
        self.audience.took_seat(member)
        return seat, token

    def add_bot(self, strength: str) -> int:
        """A bot takes a new seat (in the lobby, or mid-game as a newcomer would). Returns the seat."""
        check_strength(strength)
        return self._new_seat({"name": bot_name(self.state.seats), "token": None, "bot": strength})

    def add_person(self, name: str) -> int:
        """The host seats a player without a phone (the TV, or a helper, answers for them)."""
        seating.check_name(self.state.seats, name)
        return self._new_seat({"name": name, "token": None, "phoneless": True})

    def _new_seat(self, fields: dict[str, Any]) -> int:
        """Write a new seat at the end of the ring; mid-game, the engine deals it in at the next hand."""
        late, outcome = self._seat_for(fields)
        event = {"t": "join", **fields, "colour": seating.free_colour(self.state.seats), "joined": self.state.joins + 1}
        self._do(event | ({"late": True} if late else {}), outcome)
        return len(self.state.seats) - 1

    def _seat_for(self, fields: dict[str, Any]) -> tuple[bool, Any]:
        """Refuse a new seat the table cannot have (this way of playing's, a full table's, a game's that lets in
        no newcomer); else whether it comes late, and its effect on the game, for `_new_seat` to make."""
        self.part.check_seat(fields)
        if len(self.state.seats) >= self.variant.max_players:
            raise Refused("error.table_full", n=self.variant.max_players)
        late = self.playing()
        return late, self.part.check_arrive(fields) if late else None  # refuses, with nothing written

    def give_to_bot(self, seat: int, strength: str) -> None:
        """A bot carries on a seat mid-game, with its hand and score (a player who left, or long gone)."""
        check_strength(strength)
        self._may_hand_over(seat, bot=True)
        self._unseat(seat, "released", "notice.to_bot")
        self._do({"t": "seat", "seat": seat, "token": None, "bot": strength})

    def remove(self, seat: int, why: str = "removed") -> None:
        """Take a player off the table; mid-hand, the engine closes the ring behind them. Their phones are told
        `why` (removed; or moved, by the night of several tables, to another table)."""
        seating.check_seat(self.state.seats, seat)
        outcome = self.part.check_leave(seat) if self.playing() else None  # refuses, with nothing written
        self._unseat(seat, why)
        self._do({"t": "remove", "seat": seat}, outcome)

    def release(self, seat: int) -> None:
        """Open a seat mid-game: its hand and score wait for a newcomer, and the caller plays it meanwhile."""
        self._may_hand_over(seat, bot=False)
        self._unseat(seat, "released")
        self._do({"t": "seat", "seat": seat, "token": None})

    def _may_hand_over(self, seat: int, bot: bool) -> None:
        """Refuse to hand a seat over mid-game, to a bot (`bot`) or to whoever takes it next, when there is nothing
        to hand over: between games, a seat not dealt in yet, a player without a phone (take them off instead), a
        seat already the bot's or already open."""
        if bot:
            self.part.check_seat({"bot": True})  # a way of playing without bots
        if not self.playing():
            raise Refused("error.bot_between") if bot else Refused("error.remove_between")
        seating.check_seat(self.state.seats, seat)
        held = self.state.seats[seat]
        if seat >= self.state.dealt:
            raise Refused("error.seat_waiting")
        if held.phoneless:
            raise Refused("error.release_phoneless")
        if bot and held.robot is not None:
            raise Refused("error.bot_already")
        if not bot and held.open:
            raise Refused("error.seat_open_already")

    def take(self, sid: str, seat: int, name: str) -> str:
        """A newcomer takes an open seat (or a bot's, if the host allows it), with its hand and score.

        Returns their token. They join the VIP order as a newcomer: taking a seat never takes its place in it.
        """
        seating.check_seat(self.state.seats, seat)
        self._not_locked()
        taken = self.state.seats[seat]
        if taken.token is not None or (taken.robot is not None and not self.state.allow_bot_takeover):
            raise Refused("error.seat_taken")
        seating.check_name(self.state.seats, name, seat)
        token = secrets.token_urlsafe(16)
        self._do({"t": "seat", "seat": seat, "token": token, "name": name, "joined": self.state.joins + 1})
        self.attach(sid, self._as(sid, "player", token))
        return token

    def set_mode(self, mode: str) -> None:
        """How the night is played (in the lobby): one of MODES; refused if a seated player could not play it."""
        self._lobby_only("error.mode_between")
        if mode not in self.parts:
            raise Refused("error.no_mode")
        for seat in self.state.seats:
            self.parts[mode].check_seat({"bot": seat.robot is not None, "phoneless": seat.phoneless})
        self._do({"t": "mode", "mode": mode})

    def set_helpers(self, allow: bool) -> None:
        """Whether seated phones may answer for the players without a phone (the TV always may)."""
        self._do({"t": "helpers", "allow": allow})

    def set_locked(self, locked: bool) -> None:
        """The host locks the room (only the TV and seated phones, or a rejoin ticket, come in) or opens it."""
        self._do({"t": "lock", "locked": locked})

    def _not_locked(self) -> None:
        if self.state.locked:
            raise Refused("error.room_locked")

    def set_phoneless_ready(self, ready: bool) -> None:
        """Whether the seats without a phone are Ready at each "Draw!" (the host need not tap them each cycle)."""
        self._do({"t": "phoneless_ready", "ready": ready})

    def set_bot_takeover(self, allow: bool) -> None:
        """The host's choice: whether a phone may take a bot's seat (open seats stay takeable either way)."""
        self._do({"t": "takeover", "allow": allow})

    def ticket(self, seat: int) -> str:
        """A one-time rejoin code for a seat, for the TV (and only the TV) to show as a QR code."""
        seating.check_seat(self.state.seats, seat)
        return self.tickets.issue(self.state.seats[seat], self.clock())

    def valid_ticket(self, ticket: object) -> bool:
        """Whether this is a rejoin ticket that would still open its seat (a locked room lets its holder in)."""
        if not isinstance(ticket, str):
            return False
        try:
            self.tickets.seat_index(ticket, self.state.seats, self.clock())
        except Refused:
            return False
        return True

    def may_enter_locked(self, ticket: object) -> bool:
        """Whether a connection with this ticket may come into the locked room: a live ticket, that no other
        connection holds (a ticket is one device's way in, and once claimed nobody's)."""
        return self.valid_ticket(ticket) and all(viewer.ticket != ticket for viewer in self.viewers.values())

    def claim(self, sid: str, ticket: str) -> tuple[int, str]:
        """A device scanned a seat's rejoin QR: the seat gets a new token, and its old devices are told.

        Whoever scanned it joins the VIP order last, as a taken seat does: a ticket is a seat's key shown on a
        screen the whole room can see, and must never hand anyone the VIP's controls."""
        index = self.tickets.seat_index(ticket, self.state.seats, self.clock())
        token = secrets.token_urlsafe(16)
        self._do({"t": "seat", "seat": index, "token": token, "joined": self.state.joins + 1})
        self._unseat(index, "replaced")  # the old token is no key now: its screens are told, and watch
        self.tickets.spend(ticket)
        self.attach(sid, self._as(sid, "player", token))
        return index, token

    def move(self, seat: int, to: int) -> None:
        """Move a seat to another place in the ring (in the lobby)."""
        self._lobby_only("error.move_between")
        seating.check_seat(self.state.seats, seat)
        seating.check_seat(self.state.seats, to)
        self._do({"t": "move", "seat": seat, "to": to})

    def choose_variant(self, name: str) -> None:
        """Choose the rule set (in the lobby)."""
        self._lobby_only("error.rules_between")
        if name not in self.variants:
            raise Refused("error.no_variant")
        self._do({"t": "variant", "name": name})

    def start(self, seed: int | None = None, draws: str | None = None, by_night: bool = False) -> None:
        """Deal hand 1 to the seated players (or a new game after the last one ended).

        `draws`: how the game draws from the shoe, one of variants.DRAWS (a night deals its tables of the same
        size by the variant's `night_draws`); None is one shoe, as a single table plays. The start event carries
        it only for "own-order": a journal without it replays one shoe. A table of a night of several tables is
        dealt by the night alone (`by_night`), every table at once."""
        self._may_start(by_night)
        if draws is not None:
            if draws not in DRAWS:
                raise Refused("error.no_draws")
            self.part.check_draws(draws)
        if seed is None:
            seed = secrets.randbits(48) if self.seed is None else self.seed + len(self.state.night)
        event = {"t": "start", "variant": self.state.variant_name, "seed": seed}
        self._do(event | ({"draws": draws} if draws not in (None, "one-shoe") else {}))

    def _may_start(self, by_night: bool = False) -> None:
        """Refuse a deal while a game is on, or to too few or too many seats, or at a night's table but by the
        night."""
        if self.in_night is not None and not by_night:
            raise Refused("error.night_deals")
        if self.playing():
            raise Refused("error.game_on")
        if len(self.state.seats) < self.variant.min_players:
            raise Refused("error.need_players", n=self.variant.min_players)
        if len(self.state.seats) > self.variant.max_players:
            raise Refused("error.max_seats", n=self.variant.max_players)

    def host_can(self) -> dict[str, Any]:
        """What the host may do now, by the same checks the room makes when asked (the TV's controls show what is
        in it, and nothing else): the room's own actions, and for each seat-handing action the seats it may hand."""
        checks = {
            "start": self._may_start,
            "add_bot": lambda: self._seat_for({"bot": "easy"}),
            "add_person": lambda: self._seat_for({"phoneless": True}),
        }
        seats = range(len(self.state.seats))
        return {
            "can": [name for name, check in checks.items() if _allowed(check)],
            "seats_can": {
                "release": [s for s in seats if _allowed(lambda s=s: self._may_hand_over(s, bot=False))],
                "bot_seat": [s for s in seats if _allowed(lambda s=s: self._may_hand_over(s, bot=True))],
            },
        }

    def to_lobby(self) -> None:
        """After a game, back to the lobby with the seats kept: to change the rules or the way to play. The
        night's earlier games stay in its results and its CSV."""
        if self.playing():
            raise Refused("error.game_on")
        if self.state.game is not None:
            self._do({"t": "lobby"})

    def _lobby_only(self, key: str) -> None:
        if self.playing():
            raise Refused(key)


def _allowed(check: Callable[[], Any]) -> bool:
    """Whether a check passes (refuses nothing)."""
    try:
        check()
    except RummyError:
        return False
    return True
