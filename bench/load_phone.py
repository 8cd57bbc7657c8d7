"""Simulated phones and TVs on asyncio for bench/load.py: each a real Socket.IO client of docs/protocol.md.

A `Fan` is one of a room's audience: it joins the audience by name and guesses each hand's three questions
while they are open, at a human pace, as an audience phone does (docs/protocol.md, "The audience").

A `Phone` joins as a real phone does and plays with the engine's bots (the
choices of partyrummy.phones.bots, read off its own view as `partyrummy bots` reads
them), at a human pace or as fast as the caller allows. It notes when it sent
each pick and when it first held that cycle's flipped table, so its room can
measure the reveal. A `Tv` holds the host token: it starts the game, deals
each next hand and plays again at the end, so a room plays for as long as the
run lasts.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import socketio

from partyrummy.client.remote_bots import RemoteBot
from partyrummy.rules.variants import Variant
from partyrummy.wire.delta import Replica

__all__ = ["PACES", "Pace", "Tally", "Brain", "Client", "Fan", "NightDealer", "Phone", "Tv", "cycle_key"]

ACK_TIMEOUT_S = 10.0  # an acknowledgement later than this counts as lost

Key = tuple[int, int, int]  # (games finished in the room, hand_no, cycle): one cycle, in order


@dataclass(frozen=True)
class Pace:
    """How long a player thinks before each kind of move, as (low, high) seconds; absent: at once."""

    name: str
    think: dict[str, tuple[float, float]]

    def delay(self, event: str, rng: random.Random) -> float:
        low, high = self.think.get(event, (0.0, 0.0))
        return rng.uniform(low, high) if high else 0.0


PACES = {
    # The pace: a draw 1-4 s after "Draw!", a pick 2-8 s after the draw, "Play on" 1-4 s into a Match!
    # window. A Match! comes inside the window; the TV's host reads the scores for a few seconds before dealing the
    # next hand.
    # The audience guesses each question 0.3-2.5 s after the one before, while the round is open (from the last
    # hand's scores to the first "Draw!": the TV's 2-5 s, then the deal's match window).
    "human": Pace(
        "human",
        {
            "draw": (1, 4),
            "choose": (2, 8),
            "match": (0.5, 2),
            "ready": (1, 4),  # "Play on" in a Match! window, once the cards are looked at (a bot taps it at once)
            "call_now": (2, 5),
            "start": (2, 5),
            "guess": (0.3, 2.5),
        },
    ),
    "full": Pace("full", {}),
}


@dataclass
class Tally:
    """What one process's clients did: refused events by event and code, lost ones by kind, events sent,
    states and bytes received."""

    refused: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    states: int = 0
    received: int = 0  # bytes of Socket.IO packets the phones received (the TVs' and the audience's not counted)
    late: int = 0  # guesses sent as their round closed (refused out_of_phase: a moment missed, not a fault)
    guesses: int = 0  # guesses taken
    fan_received: int = 0  # bytes the audience's connections received
    acks: list[float] = field(default_factory=list)  # seconds from a guess sent to its acknowledgement
    # The first phone of each room only (decoding every phone's messages twice would load the generator): its
    # bytes by event and by the payload's top-level key (`split`), and its messages by event.
    sampled: Counter[str] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)

    def reset(self) -> Tally:
        """This tally, and a fresh one in its place."""
        old = Tally(self.refused, self.lost, self.sent, self.states, self.received, self.late, self.guesses,
                    self.fan_received, self.acks, self.sampled, self.messages)
        self.refused, self.lost, self.sent, self.states, self.received = Counter(), Counter(), 0, 0, 0
        self.late, self.guesses, self.fan_received, self.acks = 0, 0, 0, []
        self.sampled, self.messages = Counter(), Counter()
        return old


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def split(data: str) -> tuple[str, list[tuple[str, int]]]:
    """One Socket.IO packet a phone received (its Engine.IO message's text), as its event (`ack` for an
    acknowledgement) and its bytes by part: each top-level key of the room's and the game's changes
    (`room.seats`, `game.you`...), the moments, and the rest (`envelope`: versions, names, brackets)."""
    start = data.find("[")
    if start < 0:
        return "other", [("envelope", len(data))]
    body = json.loads(data[start:])
    if data[0] != "2":  # 3: an acknowledgement
        return "ack", [("envelope", len(data))]
    event, payload = body[0], body[1] if len(body) > 1 else None
    parts: list[tuple[str, int]] = []
    if event in ("table", "mine") and isinstance(payload, dict):
        changes = payload.get("changes") or {}
        for section in ("room", "game"):
            sub = changes.get(section) if isinstance(changes, dict) else None
            if isinstance(sub, dict):
                parts += [(f"{section}.{key}", _size(value)) for key, value in sub.items()]
            elif sub is not None:
                parts.append((f"{section} (whole)", _size(sub)))
        if payload.get("moments"):
            parts.append(("moments", _size(payload["moments"])))
    elif event == "state" and isinstance(payload, dict):
        for section in ("table", "mine"):
            if payload.get(section) is not None:
                parts.append((f"{section} (whole)", _size(payload[section])))
    parts.append(("envelope", len(data) - sum(size for _, size in parts)))
    return event, parts


def cycle_key(state: dict[str, Any]) -> Key | None:
    """The cycle a state shows, comparable in play order across hands and games; None before the first deal."""
    game = state.get("game")
    if not game:
        return None
    return (len(state["room"]["night"]), game["hand_no"], game["cycle"])


ACTING = ("draw", "choose", "last_draw", "last_choose")  # phases in which a cycle is being played


def _revealed(state: dict[str, Any]) -> bool:
    """The cycle in this state has its picks face up (its "Discard!" came, or the hand or game is over)."""
    game = state["game"]
    return game["phase"] in ("reveal", "scored") or game["game_over"]


def _wants(state: dict[str, Any]) -> tuple | None:
    """The parts of a state a player's move depends on (the cycle, the phase, its own seat's turn, draw, pick,
    hand and pile to take from): a state equal in these needs no new decision, so the bots think once a change."""
    game = state.get("game")
    if not game:
        return None
    you = game["you"]
    if you is None or you["waiting"]:
        return (cycle_key(state), game["phase"], game["game_over"])
    top = you["take"]["top"] if you.get("take") else None
    return (
        cycle_key(state),
        game["phase"],
        game["game_over"],
        you["seat"] in game["waiting_for"],
        game["seats"][you["seat"]]["matched"],
        you["drawn"] and you["drawn"]["id"],
        you["pick"] is not None,
        len(you["hand"]),
        top and top["id"],
    )


class Brain(RemoteBot):
    """The move `partyrummy bots` would make in a state, without its blocking client: the same code decides."""

    def __init__(self, strength: str, variants: dict[str, Variant]) -> None:  # no super(): no connection here
        from partyrummy.phones.bots import Bot

        self.bot, self.variants, self.leader = Bot(strength), variants, False
        self.state: dict | None = None
        self.seen: Counter = Counter()
        self.seen_ids: set[int] = set()
        self.hand_no, self.cycle, self.acted, self.error, self.watch = 0, 0, None, None, None
        self.token, self.left, self.resync = None, None, False  # no seat of its own: the Phone holds it
        self.move: tuple[str, dict] | None = None

    def send(self, event: str, data: dict | None = None) -> dict:
        self.move = (event, data or {})  # RemoteBot.step() "sends" its move here: keep it, the Phone sends it
        return {"ok": True}

    def decide(self, state: dict) -> tuple[str, dict] | None:
        self.state, self.acted, self.move = state, None, None
        self.step()
        return self.move


class Client:
    """A python-socketio AsyncClient that keeps the newest state and counts refused and lost events."""

    def __init__(self, url: str, room: str, role: str, token: str | None, tally: Tally) -> None:
        self.url, self.room, self.role, self.token, self.tally = url, room, role, token, tally
        self.state: dict | None = None
        self.changed = asyncio.Event()
        self.closing = False
        self.sio = socketio.AsyncClient(reconnection=False, handle_sigint=False)
        self.replica = Replica()  # the view, kept from whole states and the updates that follow them
        self.table_at = 0.0  # when the table held now came (a state, or a `table` update): its clocks count from then
        self.sio.on("state", self._receive_state)
        self.sio.on("table", self._receive_table)
        self.sio.on("mine", self._receive_mine)
        self.sio.on("disconnect", self._on_disconnect)

    async def connect(self) -> None:
        # Default transports (polling, then the upgrade), as phones; the token is read at each connection.
        await self.sio.connect(
            self.url,
            auth=lambda: {"role": self.role, "room": self.room, "token": self.token},
            wait_timeout=ACK_TIMEOUT_S,
        )
        ack = await self.call("sync")  # as the pages do on every connection: never rely on a missed packet
        if ack and ack["ok"]:
            self._receive_state(ack["state"])

    def wake(self) -> None:
        """Look at the table again now (a new state, or the run stopping)."""
        self.changed.set()

    def _receive_state(self, state: dict) -> None:
        self.tally.states += 1
        self.table_at = time.perf_counter()
        if self.replica.full(state):
            self.on_state(self.replica.state)

    async def _receive_table(self, message: dict) -> None:
        await self._receive_update("table", message)

    async def _receive_mine(self, message: dict) -> None:
        await self._receive_update("mine", message)

    async def _receive_update(self, event: str, message: dict) -> None:
        self.tally.states += 1
        if event == "table":
            self.table_at = time.perf_counter()
        if self.replica.receive(event, message):
            self.on_state(self.replica.state)
        if self.replica.behind:  # it missed one (never, on one connection): the whole view, as the pages do
            ack = await self.call("sync")
            if ack and ack["ok"]:
                self._receive_state(ack["state"])

    def on_state(self, state: dict) -> None:
        """A newer view to hold (a phone also notes the moments it cares about)."""
        self.state = state
        self.wake()

    def _on_disconnect(self, *_: Any) -> None:
        if not self.closing:
            self.tally.lost["disconnect"] += 1

    async def call(self, event: str, data: dict | None = None, late: bool = False) -> dict | None:
        """The acknowledgement, or None when it did not come in time (counted lost); refusals are counted (`late`:
        an out_of_phase refusal is a moment missed, counted apart)."""
        self.tally.sent += 1
        try:
            ack = await self.sio.call(event, data or {}, timeout=ACK_TIMEOUT_S)
        except (socketio.exceptions.TimeoutError, socketio.exceptions.BadNamespaceError):
            self.tally.lost[event] += 1
            return None
        if not ack.get("ok"):
            if late and ack["error"]["code"] == "out_of_phase":
                self.tally.late += 1
            else:
                self.tally.refused[f"{event}:{ack['error']['code']}"] += 1
        return ack

    async def close(self) -> None:
        self.closing = True
        await self.sio.disconnect()


class Phone(Client):
    """One player: joins, then acts on its own view at the given pace until told to stop."""

    def __init__(
        self,
        url: str,
        room: str,
        name: str,
        brain: Brain,
        pace: Pace,
        rng: random.Random,
        tally: Tally,
        sampled: bool = False,
        token: str | None = None,
    ) -> None:
        super().__init__(url, room, "player", token, tally)  # a token: seated already (a night's guest)
        self.name, self.brain, self.pace, self.rng = name, brain, pace, rng
        self.sampled = sampled  # its bytes are split by event and key (Tally.sampled)
        self.picked: dict[Key, float] = {}  # when this phone sent its pick of each cycle
        # When each cycle's flip is due, as this phone reads the table's `call_in` (seconds from the update that
        # carried the table, counted from when that arrived here): the latest countdown it heard before the flip.
        self.due: dict[Key, float] = {}
        self.playing: set[Key] = set()  # cycles it has seen being played, not yet seen revealed
        self.revealed: dict[Key, float] = {}  # when it first held each cycle face up
        self.matched: set[tuple[int, int]] = set()  # (game, hand) in which its seat called Match!: it picks no more
        self.done: dict[str, Key | None] = {}  # the cycle of the last move of each kind: never twice in one
        self.wants: tuple | None = None  # what the brain last decided on (see _wants), and its move
        self.move: tuple[str, dict] | None = None
        self._count_bytes()

    def _count_bytes(self) -> None:
        """Count every Engine.IO message's bytes before python-socketio decodes it (wraps its own handler)."""
        decode = self.sio.eio.handlers["message"]

        async def counted(data: str | bytes) -> None:
            # A str's bytes on the wire: its length when ASCII (nearly always: JSON escapes the rest), no copy made.
            ascii_text = isinstance(data, str) and data.isascii()
            size = len(data if ascii_text or isinstance(data, bytes) else data.encode())
            self.tally.received += size
            if self.sampled and isinstance(data, str):
                event, parts = split(data)
                self.tally.messages[event] += 1
                for key, part in parts:
                    self.tally.sampled[(event, key)] += part
            await decode(data)

        self.sio.eio.on("message", counted)

    async def join(self) -> bool:
        if self.token is not None:  # seated by the night: it connected with its seat's token, as a seated phone does
            return True
        ack = await self.call("join", {"name": self.name})
        if not ack or not ack["ok"]:
            return False
        self.token = ack["token"]
        return True

    def on_state(self, state: dict) -> None:
        now = time.perf_counter()
        key = cycle_key(state)
        if key is not None:
            self._track(state, key, now)
        super().on_state(state)

    def _track(self, state: dict, key: Key, now: float) -> None:
        game = state["game"]
        if game["phase"] in ACTING:
            self.playing.add(key)
            call_in = state["room"].get("call_in")
            if call_in is not None:  # a countdown counts from the update that carried the table
                self.due[key] = self.table_at + call_in
        flipped = _revealed(state)
        for k in [k for k in self.playing if k < key or (k == key and flipped)]:  # a later cycle: this one is over
            self.revealed[k] = now
            self.playing.discard(k)
        you = game["you"]
        if you and not you["waiting"] and game["seats"][you["seat"]]["matched"]:
            self.matched.add(key[:2])

    def _next_move(self) -> tuple[str, dict, Key | None] | None:
        if self.state is None:
            return None
        wants = _wants(self.state)
        if wants != self.wants:  # most states (another seat's draw or pick) change nothing this player acts on
            self.wants, self.move = wants, self.brain.decide(self.state)
        move = self.move
        if move is None:
            return None
        key = cycle_key(self.state)
        return None if self.done.get(move[0], ()) == key else (*move, key)  # () is no key: nothing done yet

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.changed.clear()
            move = self._next_move()
            if move is not None:
                delay = self.pace.delay(move[0], self.rng)
                if delay:
                    await _sleep_unless(stop, delay)
                    move = self._next_move()  # the table may have moved on while this player thought
            if move is not None and not stop.is_set():
                await self._send(*move)
                continue
            await self.changed.wait()

    async def _send(self, event: str, data: dict, key: Key | None) -> None:
        self.done[event] = key
        if event == "choose":
            self.picked[key] = time.perf_counter()
        ack = await self.call(event, data)
        if event == "choose" and not (ack and ack["ok"]):
            del self.picked[key]  # not a pick of this cycle: nothing to measure


def resolved_round(state: dict[str, Any]) -> tuple[int, int] | None:
    """The round the audience resolved last, as (game, hand), in any view that carries the audience."""
    last = (state.get("room", {}).get("audience") or {}).get("last")
    return (last["game"], last["hand"]) if last and last["status"] == "resolved" else None


class Tv(Client):
    """The room's TV: the host's connection. It starts the game and moves on after each scored hand; it notes when
    it first holds each round the audience resolved (the table and the audience hear of it in one broadcast).
    A night's table (`deals` False) is dealt by the night: its TV only moves on between hands, and tells the
    night's dealer of each new state (`watchers`)."""

    def __init__(
        self, url: str, room: str, token: str, pace: Pace, rng: random.Random, tally: Tally, deals: bool = True
    ) -> None:
        super().__init__(url, room, "host", token, tally)
        self.pace, self.rng, self.deals = pace, rng, deals
        self.done: dict[str, Key | None] = {}
        self.resolved: dict[tuple[int, int], float] = {}
        self.watchers: list[asyncio.Event] = []

    def on_state(self, state: dict) -> None:
        key = resolved_round(state)
        if key is not None:
            self.resolved.setdefault(key, time.perf_counter())
        super().on_state(state)
        for watcher in self.watchers:
            watcher.set()

    @property
    def between_games(self) -> bool:
        """No game on the table: none dealt yet, or the last one over."""
        game = self.state and self.state["game"]
        return self.state is not None and (game is None or game["game_over"])

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.changed.clear()
            event, key = self._due()
            if event and self.done.get(event, ()) != key:  # () is no key: nothing done yet
                await self._host(event, key, stop)
                continue
            await self.changed.wait()

    def _due(self) -> tuple[str | None, Key | None]:
        """What the host does next: deal the first game or play again, deal the next hand, or nothing."""
        if self.state is None:
            return None, None
        game = self.state["game"]
        if game is None or game["game_over"]:  # play again: the load lasts as long as the run (a night's deals)
            return ("start" if self.deals else None), cycle_key(self.state)
        return ("call_now" if game["phase"] == "scored" else None), cycle_key(self.state)

    async def _host(self, event: str, key: Key | None, stop: asyncio.Event) -> None:
        """Deal on; a refused or lost call is tried again (counted all the same), or the room would stall."""
        self.done[event] = key
        await _sleep_unless(stop, self.pace.delay(event, self.rng))
        if stop.is_set():
            return
        ack = await self.call(event)
        if not (ack and ack["ok"]):
            del self.done[event]
            await _sleep_unless(stop, 1.0)


class NightDealer:
    """The laptop's big screen of a night of several tables: it deals every table at once (`POST /night/CODE/do`,
    from the laptop with the server's own Origin, as the big screen's button) once no table has a game on, after
    the host's few seconds on the scores, so the night plays for as long as the run lasts."""

    def __init__(self, url: str, code: str, tvs: list[Tv], pace: Pace, rng: random.Random, tally: Tally) -> None:
        self.url, self.code, self.tvs, self.pace, self.rng, self.tally = url, code, tvs, pace, rng, tally
        self.changed = asyncio.Event()
        for tv in tvs:
            tv.watchers.append(self.changed)

    def wake(self) -> None:
        self.changed.set()

    def _between(self) -> tuple | None:
        """Every table between games: the games each has seen end (a deal is owed once for each such moment)."""
        if not all(tv.between_games for tv in self.tvs):
            return None
        return tuple(len(tv.state["room"]["night"]) for tv in self.tvs)

    def _deal(self) -> dict | None:
        request = urllib.request.Request(
            f"{self.url}/night/{self.code}/do",
            data=json.dumps({"action": "deal"}).encode(),
            method="POST",
            headers={"Origin": self.url, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=ACK_TIMEOUT_S) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:  # a refusal is answered 400 with its code
            return json.loads(error.read() or b"{}") or None
        except OSError:
            return None

    async def play(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        dealt: tuple | None = None
        while not stop.is_set():
            self.changed.clear()
            between = self._between()
            if between is None or between == dealt:
                await self.changed.wait()
                continue
            await _sleep_unless(stop, self.pace.delay("start", self.rng))
            if stop.is_set() or self._between() != between:
                continue
            self.tally.sent += 1
            ack = await loop.run_in_executor(None, self._deal)  # a blocking request, off the phones' loop
            if ack is None:
                self.tally.lost["night_deal"] += 1
            elif not ack.get("ok"):
                self.tally.refused[f"night_deal:{ack.get('error', {}).get('code')}"] += 1
            if ack and ack.get("ok"):
                dealt = between
            else:
                await _sleep_unless(stop, 1.0)  # tried again: the night would stall


class Fan(Client):
    """One of the audience: joins it by name, then guesses each round's three questions while it is open, one after
    another at a human pace; notes when it first holds each round resolved and how long each guess's answer took."""

    def __init__(self, url: str, room: str, name: str, pace: Pace, rng: random.Random, tally: Tally) -> None:
        super().__init__(url, room, "audience", None, tally)
        self.name, self.pace, self.rng = name, pace, rng
        self.resolved: dict[tuple[int, int], float] = {}
        self.guessed: set[tuple[int, int]] = set()
        decode = self.sio.eio.handlers["message"]

        async def counted(data: str | bytes) -> None:
            ascii_text = isinstance(data, str) and data.isascii()
            self.tally.fan_received += len(data if ascii_text or isinstance(data, bytes) else data.encode())
            await decode(data)

        self.sio.eio.on("message", counted)

    async def join(self) -> bool:
        ack = await self.call("audience_join", {"name": self.name})
        if not ack or not ack["ok"]:
            return False
        self.token = ack["audience_token"]  # this connection is the member now; a reconnection brings the token
        return True

    def on_state(self, state: dict) -> None:
        key = resolved_round(state)
        if key is not None:
            self.resolved.setdefault(key, time.perf_counter())
        super().on_state(state)

    def _open(self) -> dict | None:
        r = self.state["room"]["audience"]["round"] if self.state else None
        return r if r is not None and r["open"] else None

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.changed.clear()
            r = self._open()
            key = (r["game"], r["hand"]) if r else None
            if r is None or key in self.guessed:
                await self.changed.wait()
                continue
            self.guessed.add(key)
            for question in r["questions"]:
                await _sleep_unless(stop, self.pace.delay("guess", self.rng))
                now = self._open()
                if stop.is_set() or now is None or (now["game"], now["hand"]) != key:
                    break  # closed meanwhile: the rest of this round's guesses are too late
                option = self.rng.choice(question["options"])
                sent = time.perf_counter()
                ack = await self.call("predict", {"question": question["key"], "option": option}, late=True)
                if ack and ack["ok"]:
                    self.tally.guesses += 1
                    self.tally.acks.append(time.perf_counter() - sent)


async def _sleep_unless(stop: asyncio.Event, seconds: float) -> None:
    """Sleep, but wake at once when the run stops."""
    if seconds <= 0:
        return
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass
