"""One process of bench/load.py's generator: the rooms it is given, on one asyncio loop, answering over a pipe.

The parent sends ("add", [RoomSpec, ...]), ("window", None) and ("stop", None);
the process answers each with ("ready", failed rooms) or a `Window`: the reveal
latencies of the cycles whose last pick came since the previous window, the
cycles revealed, the refused and lost events, the bytes its phones received,
and its own CPU and run-queue time over that wall time. With an audience
(`Setup.audience` members a room), also how long after the TV each room's last
member held a resolved round, and each guess's acknowledgement.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

import socketio
from load_phone import PACES, Brain, Client, Fan, NightDealer, Pace, Phone, Tally, Tv
from load_proc import waited, waits

from partyrummy.rules.variants import Variant, default_variants, load_variants
from partyrummy.server.collector import fewer_full_collections

__all__ = ["CONNECTS_PER_S", "PLAYERS", "RoomSpec", "Setup", "Slow", "Window", "run"]

PLAYERS = 12  # phones in every room, besides its TV (the most: `Setup.players` may say fewer)
CONNECTING_AT_ONCE = 50  # handshakes in flight per process: a burst of hundreds only times them out
# Connections begun a second over all processes: under the server's limit for its own machine's address
# (20 a second after a burst of 200, server/transport/sockets.py), which would refuse the rest.
CONNECTS_PER_S = 18
PROBE_S = 0.01  # the event loop's timer probe (Worker.probe)
PROBES_KEPT_S = 30  # a cycle's way to its last phone may begin in the window before


@dataclass(frozen=True)
class RoomSpec:
    """A room the parent opened over HTTP, as the TV page shows it (or a night's table, as the night's view shows
    it, with the guests the night seated there)."""

    index: int  # the room's number in the run: seeds its players' pace
    code: str
    host_token: str
    night: str | None = None  # a table of this night of several tables: the night deals, not the TV
    table: int = 0  # which table of the night (1...)
    seats: tuple[tuple[str, str], ...] = ()  # a night's table: (name, seat token) of each guest seated there
    audience: int | None = None  # members of its audience (None: Setup.audience)


@dataclass(frozen=True)
class Setup:
    """What every process of one run shares."""

    url: str
    pace: str  # a key of load_phone.PACES
    variant: str  # the variant the TV picks before dealing
    variants_path: str  # the server's variants file, so the bots read the same rules
    strength: str
    seed: int
    cpus: frozenset[int] | None  # pinned to these, when the machine allows
    workers: int = 1  # processes sharing CONNECTS_PER_S
    audience: int = 0  # members of each room's audience
    players: int = PLAYERS  # phones in each room
    part: str = "all"  # what of each room this process holds: "all", its "table" (TV and phones) or its "audience"
    share: float | None = None  # this process's share of CONNECTS_PER_S (None: an equal share of `workers`)


class Pacer:
    """Lets one connection begin at a time, at most `rate` a second, in order."""

    def __init__(self, rate: float) -> None:
        self.gap, self.next = 1 / rate, 0.0

    async def wait(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        slot = max(now, self.next)
        self.next = slot + self.gap
        await asyncio.sleep(slot - now)


@dataclass(frozen=True)
class Slow:
    """One of the slowest cycles: its room, the last phone's latency and the first's (from the due moment), and
    how late the generator's loop ran a timer meanwhile (all seconds)."""

    room: str
    last: float
    first: float
    loop_late: float
    due: float = 0.0  # when its flip was due (perf_counter: the machine's monotonic clock, as the server's)


SLOWEST = 3  # the slowest cycles of each window, detailed


@dataclass
class Window:
    """One process's figures over one window of the run."""

    latencies: list[float] = field(default_factory=list)  # seconds, the flip due -> every phone holds the reveal
    by_room: dict[str, list[float]] = field(default_factory=dict)  # the same, by room code
    from_pick: int = 0  # of those, cycles timed from the last pick (no countdown heard: a pace with no wait)
    slowest: list[Slow] = field(default_factory=list)  # the slowest cycles, detailed
    # Every measured cycle as (room, its due moment, the first phone's, the last phone's): perf_counter seconds,
    # the machine's monotonic clock on Linux, as the server's own (load.py --cycles writes them out).
    moments: list[tuple[str, float, float, float]] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    cpu: float = 0.0  # this process's CPU seconds
    wait: float = 0.0  # seconds its threads sat runnable, waiting for a core
    wall: float = 0.0
    rooms: int = 0
    connections: int = 0
    cycles: int = 0  # cycles played to their reveal in this window, over all rooms (measured or not)
    late: list[float] = field(default_factory=list)  # seconds this process's event loop ran a timer late
    resolves: list[float] = field(default_factory=list)  # seconds from the TV's resolved round to the last member's
    fans: int = 0  # audience connections held
    part: str = "all"  # the process's `Setup.part`
    # With the table and the audience in processes apart, each side's moments for the parent to pair (one clock:
    # perf_counter is the machine's): (room, game, hand) -> when the TV / the room's last member held it resolved.
    tv_resolved: dict[tuple[str, int, int], float] = field(default_factory=dict)
    fans_resolved: dict[tuple[str, int, int], float] = field(default_factory=dict)


class LoadRoom:
    """One room's TV and phones, all in this process so that one clock times the whole room; and its audience, here
    too or in a process of its own (`Setup.part`)."""

    def __init__(self, spec: RoomSpec, setup: Setup, variants: dict[str, Variant], tally: Tally) -> None:
        pace = PACES[setup.pace]
        self.spec, self.setup = spec, setup
        rules = variants[setup.variant]
        self.wait_s = max(rules.beat_s, rules.flip_min_s)  # the least the flip waits after the last pick
        table, audience = setup.part != "audience", setup.part != "table"
        tv_rng = random.Random(f"{setup.seed}/{spec.index}/tv")
        deals = spec.night is None  # a night's table is dealt by the night (NightDealer), its TV only moves on
        self.tv = Tv(setup.url, spec.code, spec.host_token, pace, tv_rng, tally, deals=deals) if table else None
        # A room's phones join by name; a night's were seated by the night, each with its seat token.
        seats = spec.seats or tuple((f"P{i + 1}", None) for i in range(setup.players))
        self.phones = [self._phone(i, *seat, pace, variants, tally) for i, seat in enumerate(seats)] if table else []
        members = setup.audience if spec.audience is None else spec.audience
        self.fans = [
            Fan(setup.url, spec.code, f"Fan {i + 1}", pace, random.Random(f"{setup.seed}/{spec.index}/fan{i}"), tally)
            for i in range(members if audience else 0)
        ]

    @property
    def label(self) -> str:
        """The room's name in the figures: its code, and its table for a night's."""
        return f"table {self.spec.table} {self.spec.code}" if self.spec.night else self.spec.code

    def _phone(
        self, i: int, name: str, token: str | None, pace: Pace, variants: dict[str, Variant], tally: Tally
    ) -> Phone:
        rng = random.Random(f"{self.setup.seed}/{self.spec.index}/{i}")
        brain = Brain(self.setup.strength, variants)
        return Phone(self.setup.url, self.spec.code, name, brain, pace, rng, tally, sampled=i == 0, token=token)

    @property
    def clients(self) -> list[Client]:
        return [*([self.tv] if self.tv else []), *self.phones, *self.fans]

    async def open(self, gate: asyncio.Semaphore, pacer: Pacer) -> bool:
        """Connect the TV, choose the variant, seat every phone, then the audience (what this process holds of the
        room); False if any of it failed (counted lost)."""
        try:
            if self.tv is not None:
                await pacer.wait()
                async with gate:
                    await self.tv.connect()
                if self.spec.night is None:  # a night's tables play the night's rules, chosen as it began
                    ack = await self.tv.call("variant", {"name": self.setup.variant})
                    if not (ack and ack["ok"]):
                        return False
            if not all(await asyncio.gather(*(self._seat(phone, gate, pacer) for phone in self.phones))):
                return False
            return all(await asyncio.gather(*(self._seat(fan, gate, pacer) for fan in self.fans)))
        except (socketio.exceptions.ConnectionError, TimeoutError):  # the room is not played; the tally shows it
            self.clients[0].tally.lost["connect"] += 1
            return False

    @staticmethod
    async def _seat(phone: Phone | Fan, gate: asyncio.Semaphore, pacer: Pacer) -> bool:
        await pacer.wait()
        async with gate:
            await phone.connect()
        return await phone.join()

    def play(self, stop: asyncio.Event) -> list[asyncio.Task]:
        tasks = [asyncio.create_task(client.play(stop)) for client in self.clients]
        for task in tasks:
            task.add_done_callback(self._ended)
        return tasks

    def _ended(self, task: asyncio.Task) -> None:
        """A client that stopped playing before the run did: counted lost, and its traceback shown once."""
        error = None if task.cancelled() else task.exception()
        if error is not None:
            lost = self.clients[0].tally.lost
            lost[f"crashed:{type(error).__name__}"] += 1
            if not lost[f"crashed:{type(error).__name__}"] - 1:
                traceback.print_exception(error)

    def latencies(self, since: float) -> tuple[list[float], int, int, list[tuple[float, float, float, float]]]:
        """Each cycle's reveal, from the moment its flip was due to the last phone holding it face up.

        The due moment is the server's, and the phones bound it from both sides. Not after what the table says:
        `call_in` counts down to the flip from the update that carries it, so the due moment is at the latest that
        update's arrival plus `call_in` (the earliest any phone of the room places it; late by that update's own
        delay, which the server's bursts make up to 0.1 s). Not before the last pick plus the rules' wait (the flip
        never comes sooner than `flip_min_s` after a pick, nor sooner than the beat after the last to act), when
        every phone picked in it or had called Match! in that hand. The earlier of the two is taken: the
        reveal's latency then never leaves out a delay of the server's (the last pick's own way to it counts).
        A cycle with no countdown heard (a pace with no wait: `--pace full`) is timed from its last pick.
        Cycles every phone holds revealed are then forgotten. Also returns how many cycles were revealed since
        `since`, measured or not, how many of those measured were timed from the last pick alone, and each measured
        cycle as (latency, the first phone's, the due moment, the last phone's moment): the server sends the flip to
        every phone of the room at once, so a last phone far behind the first was held up here, in the generator.
        """
        found, cycles, from_pick, details = [], 0, 0, []
        for key in set().union(*(phone.revealed for phone in self.phones)):
            if not all(key in phone.revealed for phone in self.phones):
                continue  # on its way to some phone
            flipped = max(phone.revealed[key] for phone in self.phones)
            first = min(phone.revealed[key] for phone in self.phones)
            cycles += flipped >= since
            dues = [phone.due[key] for phone in self.phones if key in phone.due]
            picks = [phone.picked[key] for phone in self.phones if key in phone.picked]
            sat_out = sum(key[:2] in phone.matched for phone in self.phones if key not in phone.picked)
            every_pick = bool(picks) and len(picks) + sat_out == len(self.phones)
            if dues and flipped >= since:
                due = min(dues)
                if every_pick:
                    due = min(due, max(picks) + self.wait_s)
                found.append(flipped - due)
                details.append((flipped - due, first - due, due, flipped))
            elif every_pick and max(picks) >= since:
                found.append(flipped - max(picks))
                details.append((flipped - max(picks), first - max(picks), max(picks), flipped))
                from_pick += 1
            for phone in self.phones:
                phone.picked.pop(key, None)
                phone.due.pop(key, None)
                del phone.revealed[key]
        return found, cycles, from_pick, details

    def resolves(self, since: float) -> list[float]:
        """Each round resolved since `since`: from the TV holding it to the last member holding it (one broadcast
        tells both; this is the audience's share of it). Rounds every member holds are then forgotten."""
        found = []
        for key, at in list(self.tv.resolved.items()):
            if not all(key in fan.resolved for fan in self.fans):
                continue  # on its way to some member
            if at >= since:
                found.append(max(fan.resolved[key] for fan in self.fans) - at)
            del self.tv.resolved[key]
            for fan in self.fans:
                del fan.resolved[key]
        return found

    def tv_resolved(self) -> dict[tuple[str, int, int], float]:
        """When the TV first held each round resolved (then forgotten: each is told once)."""
        told = {(self.spec.code, *key): at for key, at in self.tv.resolved.items()}
        self.tv.resolved.clear()
        return told

    def fans_resolved(self) -> dict[tuple[str, int, int], float]:
        """When the room's last member held each round resolved, for the rounds every member holds (then forgotten)."""
        held = {}
        for key in set().union(*(fan.resolved for fan in self.fans)):
            if all(key in fan.resolved for fan in self.fans):
                held[(self.spec.code, *key)] = max(fan.resolved.pop(key) for fan in self.fans)
        return held

    async def close(self) -> None:
        for client in self.clients:
            if client.sio.connected:
                await client.close()


class Worker:
    """The process's event loop: rooms added on request, figures sent back per window."""

    def __init__(self, conn: Connection, setup: Setup) -> None:
        self.conn, self.setup = conn, setup
        self.variants = load_variants(setup.variants_path, base=default_variants())
        self.tally = Tally()
        self.rooms: list[LoadRoom] = []
        self.dealers: list[NightDealer] = []  # a night's big screen, for the nights whose tables are held here
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
        self.pacer = Pacer(CONNECTS_PER_S * (setup.share if setup.share is not None else 1 / setup.workers))
        self.since, self.cpu, self.waits = time.perf_counter(), time.process_time(), waits(os.getpid())
        self.late: list[tuple[float, float]] = []  # (when a probe was due, how late it ran), this window
        self.earlier: list[tuple[float, float]] = []  # the previous window's last PROBES_KEPT_S of them

    async def probe(self) -> None:
        """How late the loop runs a timer: a phone's message waits as long behind the others' work, and the
        reveal's latency measured here includes that wait."""
        while not self.stop.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(PROBE_S)
            self.late.append((asked + PROBE_S, time.perf_counter() - asked - PROBE_S))

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        self.tasks.append(asyncio.create_task(self.probe()))
        while True:
            command, arg = await loop.run_in_executor(None, self.conn.recv)
            if command == "add":
                self.conn.send(("ready", await self.add(arg)))
            elif command == "window":
                self.conn.send(self.window())
            else:
                await self.close()
                self.conn.send(self.window())
                return

    async def add(self, specs: list[RoomSpec]) -> int:
        """Open these rooms and set them playing; how many could not be opened."""
        rooms = [LoadRoom(spec, self.setup, self.variants, self.tally) for spec in specs]
        opened = await asyncio.gather(*(room.open(self.gate, self.pacer) for room in rooms))
        for room, ok in zip(rooms, opened, strict=True):
            if ok:
                self.rooms.append(room)
                self.tasks += room.play(self.stop)
            else:
                await room.close()
        nights: dict[str, list[Tv]] = {}  # a night's tables all come in one "add", to one process of each part
        for room, ok in zip(rooms, opened, strict=True):
            if ok and room.spec.night and room.tv:
                nights.setdefault(room.spec.night, []).append(room.tv)
        for code, tvs in nights.items():
            rng = random.Random(f"{self.setup.seed}/{code}/dealer")
            dealer = NightDealer(self.setup.url, code, tvs, PACES[self.setup.pace], rng, self.tally)
            self.dealers.append(dealer)
            self.tasks.append(asyncio.create_task(dealer.play(self.stop)))
        return opened.count(False)

    def _slowest(self, measured: list[tuple]) -> list[Slow]:
        """The window's slowest cycles (SLOWEST of them), each with how late this loop ran a timer while it was on
        its way (from its due moment to its last phone): a late loop held every phone's message as long."""
        cycles = [
            (detail, room.label) for room, (_, _, _, details) in zip(self.rooms, measured, strict=True)
            for detail in details
        ]
        out = []
        for (lat, first, due, flipped), label in sorted(cycles, key=lambda c: -c[0][0])[:SLOWEST]:
            lag = max((late for at, late in self.earlier + self.late if due - PROBE_S <= at <= flipped), default=0.0)
            out.append(Slow(label, lat, first, lag, due))
        return out

    def window(self) -> Window:
        """The figures since the last window, and a new window from now."""
        now, cpu, queued = time.perf_counter(), time.process_time(), waits(os.getpid())
        measured = [room.latencies(self.since) for room in self.rooms]
        figures = Window(
            latencies=[lat for found, _, _, _ in measured for lat in found],
            by_room={room.label: lat for room, (lat, _, _, _) in zip(self.rooms, measured, strict=True) if room.tv},
            from_pick=sum(n for _, _, n, _ in measured),
            slowest=self._slowest(measured),
            moments=[
                (room.label, due, due + first, flipped)
                for room, (_, _, _, details) in zip(self.rooms, measured, strict=True)
                for _, first, due, flipped in details
            ],
            tally=self.tally.reset(),
            cpu=cpu - self.cpu,
            wait=waited(self.waits, queued),
            wall=now - self.since,
            rooms=len(self.rooms),
            connections=sum(client.sio.connected for room in self.rooms for client in room.clients),
            cycles=sum(cycles for _, cycles, _, _ in measured),
            late=[late for _, late in self.late],
            resolves=[spread for room in self.rooms if room.fans and room.tv for spread in room.resolves(self.since)],
            fans=sum(fan.sio.connected for room in self.rooms for fan in room.fans),
            tv_resolved={k: at for room in self.rooms if not room.fans for k, at in room.tv_resolved().items()},
            fans_resolved={k: at for room in self.rooms if not room.tv for k, at in room.fans_resolved().items()},
        )
        figures.part = self.setup.part
        self.earlier = [probe for probe in self.late if probe[0] > now - PROBES_KEPT_S]  # cycles may span windows
        self.since, self.cpu, self.waits, self.late = now, cpu, queued, []
        return figures

    async def close(self) -> None:
        # Each client's writer says "packet queue is empty, aborting" as it is closed: that is the stop, not news.
        logging.getLogger("engineio.client").setLevel(logging.CRITICAL)
        self.stop.set()
        for room in self.rooms:
            for client in room.clients:
                client.wake()
        for dealer in self.dealers:
            dealer.wake()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(room.close() for room in self.rooms), return_exceptions=True)


def run(conn: Connection, setup: Setup) -> None:
    """A process's entry point: pin it, then serve the parent until it says stop."""
    if setup.cpus:
        os.sched_setaffinity(0, setup.cpus)
    fewer_full_collections()  # as the server: a full collection here held every phone's message 0.1 to 0.5 s

    async def main() -> None:
        await Worker(conn, setup).serve()

    asyncio.run(main())
