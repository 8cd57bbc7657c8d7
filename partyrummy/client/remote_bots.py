"""`partyrummy bots`: bots that join a room over Socket.IO, exactly as phones do (docs/protocol.md).

Each bot is a real client with its own connection and token; it sees only its
own view. This is also the load generator of bench/room.py.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..phones.bots import Bot
from ..rules.cards import RANK_NAMES, Card
from ..rules.variants import DEFAULT_VARIANT, Variant
from ..wire.delta import Replica

__all__ = ["RemoteBot", "BotsError", "seat_bots", "play", "close_all"]


class BotsError(Exception):
    """The bots could not take their seats: the message says why, for the person at the terminal."""


def _card(view: dict[str, Any]) -> Card:
    return Card(view["rank"], view["suit"])


# The server's refusals of a reconnection that no retry can change: the room is no more, or it is locked and
# this bot's token no longer opens a seat (a seat's token always gets into a locked room).
_FOR_GOOD = ("no_room", "locked")
# The notices that say this connection no longer plays its seat (docs/protocol.md, `notice`).
_UNSEATED = ("removed", "released", "replaced")


class RemoteBot:
    """One bot at one room: acts on each new state from its own thread, never on the socket's.

    It plays for as long as it holds its seat: game after game ("Play again", the host's change of rules), through
    a lost connection or a restarted server (it comes back with its token), until the host takes the seat back
    (`left` says how) or `close` is called.
    """

    def __init__(
        self, url: str, room: str, name: str, strength: str, variants: dict[str, Variant], leader: bool = False
    ) -> None:
        import socketio  # the client side of python-socketio; loaded only for bots

        self.room, self.name, self.variants, self.leader = room, name, variants, leader
        self.bot = Bot(strength)
        self.state: dict | None = None
        self.token: str | None = None
        self.changed = threading.Condition()
        self.seen: Counter[Card] = Counter()
        self.seen_ids: set[int] = set()
        self.hand_no, self.cycle = 0, 0
        self.acted: int | None = None
        self.error: str | None = None
        self.left: str | None = None  # why this bot no longer plays its seat (a notice's code, or a refusal's)
        self.resync = False  # (re)connected: the next look is a whole view, taken whatever its version
        self.online = threading.Event()
        self.watch: Callable[[dict | None], None] | None = None  # sees each state this bot acts on
        # handle_sigint=False: by default the client catches Ctrl+C to disconnect every client one by one
        # (~3 s each) before the program hears of it. Reconnection never gives up: a server restarted comes back.
        self.sio = socketio.Client(
            reconnection=True, reconnection_delay=0.5, reconnection_delay_max=2, handle_sigint=False
        )
        self.replica = Replica()  # the view, kept from whole states and the updates that follow them
        self.sio.on("state", self._on_state)
        self.sio.on("table", lambda message: self._on_update("table", message))
        self.sio.on("mine", lambda message: self._on_update("mine", message))
        self.sio.on("notice", self._on_notice)
        self.sio.on("connect", self._on_connect)
        self.sio.on("disconnect", lambda *reason: self.online.clear())
        # The server's reason, when it refuses the connection (no such room …): a dict; a dead address gives text.
        refusals: list[dict] = []
        self.sio.on("connect_error", lambda data=None: self._on_refused(data, refusals))
        auth = lambda: {"role": "player", "room": room, "token": self.token}  # noqa: E731
        try:
            self.sio.connect(url, auth=auth, wait_timeout=10)
        except socketio.exceptions.ConnectionError:
            self.sio.shutdown()
            if refusals:
                reason = refusals[-1].get("message", "refused")
                raise BotsError(f"--room {room}: the server at {url} says: {reason}") from None
            raise BotsError(f"--url: cannot reach a PartyRummy server at {url} (is it running there?)") from None

    def _on_connect(self) -> None:
        # Called on the client's own thread: no call from here (its answer would wait on this very thread).
        with self.changed:
            self.online.set()
            self.resync = True
            self.changed.notify_all()

    def _on_refused(self, data: Any, refusals: list[dict]) -> None:
        if not isinstance(data, dict):
            return  # a dead address: the client tries again
        refusals.append(data)
        code = (data.get("data") or {}).get("code") if isinstance(data.get("data"), dict) else None
        if self.token is not None and code in _FOR_GOOD:
            self._leave(code)

    def _on_notice(self, notice: Any) -> None:
        if isinstance(notice, dict) and notice.get("code") in _UNSEATED:
            self._leave(notice["code"])

    def _leave(self, why: str) -> None:
        with self.changed:
            self.left = self.left or why
            self.changed.notify_all()

    def _on_state(self, state: dict, force: bool = False) -> None:
        with self.changed:
            if self.replica.full(state, force=force):
                self.state = self.replica.state
                self.changed.notify_all()

    def _on_update(self, event: str, message: dict) -> None:
        # Each message is handled on a thread of its own, so an update may come before the one it follows:
        # the replica keeps it until then. Still behind after that, the bot asks for the whole view.
        with self.changed:
            if self.replica.receive(event, message):
                self.state = self.replica.state
                self.changed.notify_all()
            behind = self.replica.behind
        if behind:
            self.sync()

    def join(self) -> None:
        ack = self.sio.call("join", {"name": self.name}, timeout=10)
        if not ack["ok"]:
            raise BotsError(f"{self.name} cannot join room {self.room}: {ack['error']['message']}")
        self.token = ack["token"]
        self.sync()

    def sync(self, force: bool = False) -> None:
        """Ask for the whole view (`force`: taken even if its version is not newer, as after a server restart)."""
        ack = self.send("sync")
        if ack.get("ok"):
            self._on_state(ack["state"], force=force)

    def send(self, event: str, data: dict | None = None) -> dict:
        """The server's answer; while the connection is down, a refusal coded "offline" (the move is tried again)."""
        import socketio

        try:
            return self.sio.call(event, data or {}, timeout=10)
        except socketio.exceptions.SocketIOError:  # dropped (BadNamespaceError), or no answer in time
            return {"ok": False, "error": {"code": "offline", "message": "not connected"}}

    def wait(self, timeout: float = 1.0) -> dict | None:
        """The newest state, waiting for one only if this bot has acted on the last (no lost wake-ups)."""
        with self.changed:
            due = self.left is not None or self.resync and self.online.is_set()  # a thing to do at once
            if not due and (self.state is None or self.state["v"] == self.acted):
                self.changed.wait(timeout)
            return self.state

    def step(self) -> bool:
        """Make the move this state calls for, if any; False once this bot no longer holds its seat."""
        if self.resync and self.online.is_set():
            self.resync, self.acted = False, None
            self.sync(force=True)  # back after a drop or a restart: the server's view, whatever its version
        state = self.state
        if self.left is None and state and self.token is not None and state["room"]["you"]["role"] != "player":
            self._leave("unseated")  # a token that opens no seat now: the seat went to someone else
        if self.left is not None:
            return False
        if self.watch is not None:
            self.watch(state)
        game = state and state["game"]
        if not game or game["game_over"] or game.get("mode", "phones") != "phones":
            return True  # between games, or real cards on the table (a bot holds none): it waits for the next
        if self.acted == state["v"]:
            return True
        self.acted = state["v"]
        if game["hand_no"] != self.hand_no or game["cycle"] < self.cycle:  # a new hand, maybe of a new game
            self.hand_no, self.seen, self.seen_ids = game["hand_no"], Counter(), set()
        self.cycle = game["cycle"]
        tops = [seat["pile_top"] for seat in game["seats"]] + [game["pile"] and game["pile"]["top"]]
        for top in tops:  # every card that has been a pile's top is known to be out of play
            if top and top["id"] not in self.seen_ids:
                self.seen_ids.add(top["id"])
                self.seen[_card(top)] += 1
        move = ("call_now", {}) if self.leader and game["phase"] == "scored" else self._move(state)
        if move is not None:
            ack = self.send(*move)
            if not ack["ok"]:
                self._refused(ack["error"])
        return True

    def _refused(self, error: dict) -> None:
        if error["code"] == "slow_down":
            time.sleep(0.5)  # the server's rate limit: wait, then try the same move again
            self.acted = None
        elif error["code"] == "offline":
            self.online.wait(1.0)  # the move goes again once the connection is back (or in a second)
            self.acted = None
        elif error["code"] not in ("stale", "out_of_phase", "already_done", "waiting"):
            self.error = error["message"]  # races with the caller are normal; anything else is worth a look

    def _move(self, state: dict) -> tuple[str, dict] | None:
        game = state["game"]
        you = game["you"]
        if you is None or you["waiting"]:
            return None
        mine = game["seats"][you["seat"]]
        if mine["matched"]:
            return None
        variant = self.variants.get(state["room"]["variant"]) or self.variants[DEFAULT_VARIANT]
        rules = variant.meld_rules()
        decks = variant.decks_for(len(game["seats"]))
        wild = RANK_NAMES.index(game["wild_rank"]) if game["wild_rank"] else None
        hand = [_card(c) for c in you["hand"]]
        can, cycle = mine["can"], game["cycle"]  # what the server says this seat may send now
        if "match" in can and len(hand) == game["size"] and self.bot.match(hand, wild, rules):
            return "match", {}
        if "ready" in can and not mine["ready"]:  # a Match! window: play on at once, as a bot at the table does
            return "ready", {"cycle": cycle}
        if "draw" in can:
            top = you["take"]["top"]
            source = self.bot.draw(hand, _card(top) if top else None, wild, rules)
            return "draw", {"source": source, "cycle": cycle}
        if "choose" in can and you["pick"] is None:
            index = self.bot.discard(hand, wild, rules, decks, self.seen)
            return "choose", {"card_id": you["hand"][index]["id"], "cycle": cycle}
        return None

    def close(self) -> None:
        self.sio.shutdown()  # also stops a bot that is still trying to reconnect


def seat_bots(
    url: str,
    room: str,
    count: int,
    strength: str,
    variants: dict[str, Variant],
    start: bool = False,
    name: str = "Bot",
) -> list[RemoteBot]:
    """Connect `count` bots named NAME 1, NAME 2 … and seat them (then start the game, if asked); or a BotsError."""
    bots: list[RemoteBot] = []
    try:
        for i in range(count):
            bots.append(RemoteBot(url, room, f"{name} {i + 1}", strength, variants, leader=start and i == 0))
            bots[-1].join()
        if start:
            ack = bots[0].send("start")
            if not ack["ok"]:
                raise BotsError(f"--start: the game cannot start: {ack['error']['message']}")
    except BaseException:
        close_all(bots)  # the ones already in leave with the error (or the Ctrl+C)
        raise
    return bots


def play(
    bots: list[RemoteBot],
    deadline: float = math.inf,
    watch: Callable[[dict | None], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Each bot on its own thread, acting on every new state, game after game, until the deadline, `stop` is set,
    or it no longer holds its seat (the host released it, gave it away or took it off the table).

    `watch`, if given, sees each state the first bot still seated acts on (the very state: a scored hand before
    its leader deals the next).
    """
    stop = stop or threading.Event()

    def run(bot: RemoteBot) -> None:
        while not stop.is_set() and time.monotonic() < deadline:
            bot.wait(0.5)
            teller = next((b for b in bots if b.left is None), None)
            bot.watch = watch if bot is teller else None
            if not bot.step():
                bot.close()  # its seat is someone else's now: it does not stay on as a guest
                return

    threads = [threading.Thread(target=run, args=(bot,), daemon=True) for bot in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        # Joined in short waits: the kernel may hand Ctrl+C to any thread, and a main thread blocked in an
        # endless join is never woken to raise it (the bots would play on until the game ends).
        while thread.is_alive():
            thread.join(0.25)


def close_all(bots: list[RemoteBot], timeout: float = 5.0) -> None:
    """Close every bot's connection at once (each close may wait seconds for its WebSocket), for at most `timeout`."""
    threads = [threading.Thread(target=bot.close, daemon=True) for bot in bots]
    for thread in threads:
        thread.start()
    ends = time.monotonic() + timeout
    for thread in threads:
        thread.join(max(0.0, ends - time.monotonic()))
