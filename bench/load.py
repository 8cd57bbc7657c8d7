"""A load generator that can outrun the server: rooms of 12 simulated phones on asyncio, over several processes.

It starts `partyrummy` on 127.0.0.1 (or targets --url, loopback only), pins
the server to one core and its own processes to the others where the machine
allows, opens rooms as the TV does (/new, the host token from the TV page)
and seats 12 phones in each, which join and play as real phones do: at a
human pace (a draw 1-4 s after "Draw!", a pick 2-8 s after the draw, seeded,
the rules' waits all kept) or as fast as the caller allows. For each step it
prints the reveal latency (the flip due, by the table's own countdown ->
every phone of that room holds the flipped table; per room up to 8 rooms) at
p50/p95/p99, refused and lost events, the bytes each phone receives per
cycle, the server's CPU and memory (per room and per connection) from /proc,
each generator process's own CPU (with a warning above 80% of its core), what
one phone a room receives by event and key, and says which side was the limit
(see bench/README.md). --ramp adds rooms step by step and stops at the
first step with p95 >= 100 ms or any refused or lost event.

    python bench/load.py --rooms 5 --pace human --seconds 60
    python bench/load.py --ramp 1,5,10,20,50 --pace full --seconds 30
    python bench/load.py --rooms 20 --audience 200 --pace human --seconds 120
    python bench/load.py --rooms 4 --players 12 --audience 50 --pace human --seconds 90

With --audience N each room also holds an audience of N members, each its own
Socket.IO client, guessing every hand at a human pace, held by generator
processes apart from the rooms' TVs and phones; each step then also
prints how long after the TV the room's last member held a resolved round,
each guess's acknowledgement, and the guesses taken and missed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load_phone import PACES, Tally  # noqa: E402
from load_proc import core_times, threads, waited, waits  # noqa: E402
from load_report import P95_LIMIT_S, Step, report  # noqa: E402
from load_worker import CONNECTS_PER_S, PLAYERS, RoomSpec, Setup, Window, run  # noqa: E402
from room import percentile  # noqa: E402
from scale import server_usage  # noqa: E402

from partyrummy.server.defences.netaddr import is_loopback  # noqa: E402
from tests.live import LiveServer  # noqa: E402

WATCH_S = 0.02  # how often the step samples the server's wait for a core
ANSWER_S = 60  # a generator process answers a window or a stop within this (acks time out after 10 s)
VARIANTS = {"human": ("human", ROOT / "bench" / "load.toml"), "full": ("bench", ROOT / "bench" / "room.toml")}


class Remote(LiveServer):
    """A server someone else started, on a loopback address: LiveServer's pages without its process."""

    def __init__(self, url: str, pid: int | None) -> None:  # no super(): nothing to start
        host = urlsplit(url).hostname or ""
        if not is_loopback(host):
            raise SystemExit(f"load: only a server on this machine's loopback may be loaded, not {host!r}")
        self.url, self.pid = url.rstrip("/"), pid

    def stop(self) -> None:
        pass


def connections(args: argparse.Namespace, rooms: int) -> int:
    """The connections of `rooms` rooms (a night: its tables' TVs, its guests and its audience)."""
    if args.night:
        return rooms + args.players + args.audience
    return rooms * (args.players + 1 + args.audience)


def start_server(args: argparse.Namespace, variants: Path, rooms: int) -> LiveServer:
    # A party's server holds 200 connections; this one is raised to the run's largest step, and no further.
    capacity = connections(args, rooms) + 20
    extra = ["--variants", str(variants), "--async-mode", args.async_mode, "--capacity", str(capacity)]
    if args.pace == "full":
        extra += ["--event-rate", "10000"]  # far above a phone's 10 a second: lift the limit for this load
    server = LiveServer(*extra)
    server.pid = server.proc.pid
    return server


def pin(pid: int, cpus: set[int]) -> None:
    """Every thread of a process (affinity is per thread; new threads inherit their creator's)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), cpus)
        except ProcessLookupError:  # a thread that ended meanwhile (a request's)
            continue


class Generator:
    """The worker processes, each pinned, each holding its share of the rooms. With an audience, the rooms' tables
    (TV and phones) and their audiences are held by processes apart: a real audience guesses on phones of its own,
    and the phones that time the reveal must not wait behind the work of thousands of simulated members."""

    def __init__(self, setup: Setup, workers: int, audience_workers: int = 0) -> None:
        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads or sockets inherited
        self.pipes: list[Connection] = []
        self.procs = []
        parts = ["table"] * workers + ["audience"] * audience_workers if audience_workers else ["all"] * workers
        setup = replace(setup, workers=len(parts))  # every process shares the connection rate
        # Each process's share of the rate, as its part of each room's connections (its TV and phones, its audience).
        table = (setup.players + 1) / (setup.players + 1 + setup.audience)
        shares = {"all": 1 / workers, "table": table / workers, "audience": (1 - table) / max(audience_workers, 1)}
        for part in parts:
            mine, theirs = spawn.Pipe()
            proc = spawn.Process(target=run, args=(theirs, replace(setup, part=part, share=shares[part])), daemon=True)
            proc.start()
            self.pipes.append(mine)
            self.procs.append(proc)
        self.parts = parts
        self.players: float = setup.players  # phones a room (a night's: its guests over its tables, on average)
        self.night = False  # the rooms are a night's tables
        self.held = [0] * len(parts)  # rooms given to each process
        self.tv_resolved: dict[tuple, float] = {}  # rounds the TV held resolved, waiting for their audience's
        self.fans_resolved: dict[tuple, float] = {}

    def add(self, specs: list[RoomSpec], timeout: float) -> int:
        """Give each process its share of the new rooms (each room to one process of each part); how many failed to
        open."""
        shares: list[list[RoomSpec]] = [[] for _ in self.pipes]
        groups: dict[str, list[RoomSpec]] = {}  # a night's tables stay together: its dealer watches all their TVs
        for spec in specs:
            groups.setdefault(spec.night or spec.code, []).append(spec)
        for part in set(self.parts):
            ours = [i for i, p in enumerate(self.parts) if p == part]
            for group in groups.values():  # each new room (or night) to the process of this part holding the fewest
                least = min(ours, key=lambda i: self.held[i] + len(shares[i]))
                shares[least].extend(group)
        for i, (pipe, share) in enumerate(zip(self.pipes, shares, strict=True)):
            pipe.send(("add", share))
            self.held[i] += len(share)
        failed = [_answer(pipe, timeout)[1] for pipe in self.pipes]
        return max(sum(f for f, part in zip(failed, self.parts, strict=True) if part == p) for p in set(self.parts))

    @property
    def rooms(self) -> int:
        return sum(held for held, part in zip(self.held, self.parts, strict=True) if part != "audience")

    def windows(self, command: str = "window") -> list[Window]:
        for pipe in self.pipes:
            pipe.send((command, None))
        found = [_answer(pipe, ANSWER_S) for pipe in self.pipes]
        self._pair(found)
        return found

    def _pair(self, windows: list[Window]) -> None:
        """With processes apart: each round the TV and its room's last member both held resolved, as the spread
        between the two (put in the first window's `resolves`)."""
        for w in windows:
            self.tv_resolved.update(w.tv_resolved)
            self.fans_resolved.update(w.fans_resolved)
        paired = self.tv_resolved.keys() & self.fans_resolved.keys()
        spreads = [self.fans_resolved.pop(key) - self.tv_resolved.pop(key) for key in paired]
        if windows:
            windows[0].resolves.extend(spreads)

    def stop(self) -> None:
        self.windows("stop")
        for proc in self.procs:
            proc.join(30)


def _answer(pipe: Connection, timeout: float) -> Any:
    """A process's answer; a process that does not answer in time ends the run (runs are bounded)."""
    if not pipe.poll(timeout):
        raise SystemExit(f"load: a generator process did not answer within {timeout:.0f} s")
    return pipe.recv()


def open_rooms(server: LiveServer, first: int, count: int) -> list[RoomSpec]:
    """New rooms, opened as the TV's "new room" does; the TV page gives the code and the host token."""
    specs = []
    for index in range(first, first + count):
        # A POST from the TV page's own origin, as its button sends (a GET, or another origin, is refused).
        request = urllib.request.Request(server.url + "/new", method="POST", headers={"Origin": server.url})
        urllib.request.urlopen(request, timeout=10).close()
        code, token = server.tv_page()
        specs.append(RoomSpec(index, code, token))
    return specs


def open_night(server: LiveServer, tables: int, guests: int, audience: int, variant: str) -> list[RoomSpec]:
    """A night of `tables` tables begun as the laptop's big screen does (`POST /night`, a form from the server's own
    page), each table's room and host token read from the night's view (its screen's link carries the key), and
    every guest seated by the night as a phone scanning its code is (`POST /n/CODE/seat`): at the emptiest table,
    with that room's seat token. The audience is split over the tables, the first ones one more when it does not
    divide."""
    form = urllib.parse.urlencode({"tables": tables, "variant": variant}).encode()
    begin = urllib.request.Request(server.url + "/night", data=form, method="POST", headers={"Origin": server.url})
    with urllib.request.urlopen(begin, timeout=10) as answer:  # redirected to the big screen, /night/CODE
        code = urlsplit(answer.geturl()).path.rstrip("/").rsplit("/", 1)[-1]
    seated: dict[str, list[tuple[str, str]]] = {}
    for i in range(guests):
        body = json.dumps({"name": f"P{i + 1}"}).encode()
        seat = urllib.request.Request(
            f"{server.url}/n/{code}/seat", data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(seat, timeout=10) as answer:
            found = json.loads(answer.read())
        if not found.get("ok") or found.get("audience"):
            raise SystemExit(f"load: the night could not seat guest {i + 1}: {found}")
        seated.setdefault(found["room"], []).append((f"P{i + 1}", found["token"]))
    with urllib.request.urlopen(f"{server.url}/night/{code}/view", timeout=10) as answer:
        view = json.loads(answer.read())
    specs = []
    for i, table in enumerate(view["tables"]):
        key = parse_qs(urlsplit(table["screen"]).query)["key"][0]  # the table's screen: its room's host token
        members = audience // tables + (i < audience % tables)
        specs.append(
            RoomSpec(i, table["room"], key, night=code, table=table["table"], seats=tuple(seated[table["room"]]),
                     audience=members)
        )
    print(
        f"night {code}: {tables} tables, "
        + ", ".join(f"table {s.table} {s.code} {len(s.seats)} guests, {s.audience} in its audience" for s in specs)
    )
    return specs


def measure(server: LiveServer, gen: Generator, seconds: float, failed: int, core: int | None = None) -> Step:
    """Hold the current rooms for `seconds` and gather what every process and /proc saw (`core`: the one the
    server is pinned to, whose business is measured too, whatever ran on it)."""
    pid = server.pid
    seating = gen.windows()  # the window starts now: only the seating's refused and lost events are kept
    cpu0, queued0, t0 = (server_usage(pid)[0] if pid else None), (waits(pid) if pid else {}), time.perf_counter()
    busy0 = core_times(core) if core is not None else None
    waited_at = watch(pid, seconds)  # the generator's processes are doing the work; this one watches the server
    windows = gen.windows()
    wall = time.perf_counter() - t0
    cpu1, rss = server_usage(pid) if pid else (None, None)
    queued1 = waits(pid) if pid else {}
    busy1 = core_times(core) if core is not None else None
    tally = Tally()
    for w in seating + windows:
        tally.refused.update(w.tally.refused)
        tally.lost.update(w.tally.lost)
    for w in windows:
        tally.sent += w.tally.sent
        tally.states += w.tally.states
        tally.received += w.tally.received
        tally.late += w.tally.late
        tally.guesses += w.tally.guesses
        tally.fan_received += w.tally.fan_received
        tally.acks += w.tally.acks
        tally.sampled.update(w.tally.sampled)
        tally.messages.update(w.tally.messages)
    return Step(
        rooms=sum(w.rooms for w in windows if w.part != "audience"),
        connections=sum(w.connections for w in windows),
        latencies=[lat for w in windows for lat in w.latencies],
        by_room={code: found for w in windows for code, found in w.by_room.items()},
        from_pick=sum(w.from_pick for w in windows),
        players=gen.players,
        tally=tally,
        gen_cpu=[w.cpu / w.wall for w in windows],
        gen_wait=[w.wait / w.wall for w in windows],
        gen_late=max((percentile(w.late, 0.95) for w in windows if w.late and w.part != "audience"), default=0.0),
        audience_late=max((percentile(w.late, 0.95) for w in windows if w.late and w.part == "audience"), default=0.0),
        server_cpu=(cpu1 - cpu0) / wall if pid else None,
        server_wait=waited(queued0, queued1) / wall if pid else None,
        rss=rss,
        threads=threads(pid) if pid else None,
        failed=failed,
        cycles=sum(w.cycles for w in windows),
        core_busy=(busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) if busy0 and busy1 else None,
        resolves=[spread for w in windows for spread in w.resolves],
        fans=sum(w.fans for w in windows),
        seconds=wall,
        slowest=[slow for w in windows for slow in w.slowest],
        gen_late_max=max((max(w.late) for w in windows if w.late and w.part != "audience"), default=0.0),
        night=gen.night,
        moments=[moment for w in windows for moment in w.moments],
        server_waited=waited_at,
    )


def watch(pid: int | None, seconds: float) -> list[tuple[float, float]]:
    """Hold the step for `seconds`, sampling every WATCH_S how long the server's main thread (in gevent mode, all of
    its work) has sat runnable waiting for a core, in all: (when, seconds). A cycle's slowness is then laid against
    what the machine did to the server meanwhile, not the step's average."""
    end = time.perf_counter() + seconds
    found: list[tuple[float, float]] = []
    while (now := time.perf_counter()) < end:
        try:
            if pid is not None:
                found.append((now, int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9))
        except (OSError, IndexError, ValueError):
            pid = None  # gone, or not ours to read: just wait
        time.sleep(min(WATCH_S, max(0.0, end - now)))
    return found


def cores(server_pid: int | None) -> tuple[frozenset[int] | None, int, int | None]:
    """Pin the server to one core and give the generator the rest; (generator cores or None, their count, the
    server's core or None)."""
    allowed = sorted(os.sched_getaffinity(0))
    if server_pid is None or len(allowed) < 2:
        print(f"not pinned: {len(allowed)} core(s) allowed{'' if server_pid else ', or the server is not ours'}")
        return None, len(allowed), None
    pin(server_pid, {allowed[0]})
    rest = frozenset(allowed[1:])
    print(f"server pinned to core {allowed[0]}; generator processes to {sorted(rest)}")
    return rest, len(rest), allowed[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--url",
        help="a running server on a loopback address, started with the pace's variants file (see bench/README.md)",
    )
    parser.add_argument("--pid", type=int, help="with --url: the server's process id, for its CPU and memory")
    parser.add_argument("--async-mode", default="gevent", choices=("gevent", "threading"))  # the server's default first
    parser.add_argument("--pace", default="human", choices=sorted(PACES))
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--rooms", type=int, help="one step of this many rooms")
    group.add_argument("--ramp", default="1,5,10,20,50,100,200", help="rooms at each step, in order")
    group.add_argument(
        "--night",
        type=int,
        help="one step: a night of this many tables (2 to 4), begun over HTTP as the laptop does, --players its "
        "guests in all (seated by the night), --audience its audience in all (split over the tables)",
    )
    parser.add_argument("--seconds", type=float, default=60, help="how long each step is held")
    parser.add_argument(
        "--workers",
        type=int,
        help="generator processes (default: one per core the generator has: on one core, two "
        "would only queue for it behind each other)",
    )
    parser.add_argument("--strength", default="easy", choices=("easy", "sharp"))
    parser.add_argument(
        "--players",
        type=int,
        help=f"phones in each room (2 to {PLAYERS}, default {PLAYERS}); with --night, the night's guests in all",
    )
    parser.add_argument(
        "--audience",
        type=int,
        default=0,
        help="members of each room's audience (with --night: the night's, split over its tables), each a client "
        "guessing every hand",
    )
    parser.add_argument(
        "--audience-workers",
        type=int,
        default=1,
        help="with --audience: processes holding the audiences, apart from the tables' (0: in the same processes)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cycles",
        type=Path,
        help="write every measured cycle here, a JSON line each: its room, when its flip was due, when its first and "
        "its last phone held it (the machine's monotonic clock, as the server's time.monotonic())",
    )
    parser.add_argument("--no-pin", action="store_true", help="leave every process free to run on any core")
    args = parser.parse_args()
    try:
        import aiohttp  # noqa: F401  (python-socketio's AsyncClient speaks through it)
    except ImportError:
        raise SystemExit("load: the asyncio client needs aiohttp: .venv/bin/pip install aiohttp") from None
    steps = [args.night or args.rooms] if args.night or args.rooms else [int(r) for r in args.ramp.split(",")]
    if any(b <= a for a, b in zip(steps, steps[1:], strict=False)) or steps[0] < 1 or steps[-1] > 1000:
        raise SystemExit("load: steps must grow, from 1 room to at most 1000")
    tables = args.night or 1  # the audience and the guests of a night are split over its tables
    if args.night:
        args.players = PLAYERS if args.players is None else args.players
        if not 2 <= args.night <= 4 or not 2 * args.night <= args.players <= PLAYERS * args.night:
            raise SystemExit(f"load: a night has 2 to 4 tables, of 2 to {PLAYERS} guests each")
    elif args.players is None:
        args.players = PLAYERS
    elif not 2 <= args.players <= PLAYERS:
        raise SystemExit(f"load: 2 to {PLAYERS} players a room (the variant's most)")
    if not 0 <= args.audience <= 200 * tables or args.audience and args.pace != "human":
        raise SystemExit("load: an audience of 0 to 200 a room (the server's most), at the human pace")
    # Each connection is a socket in the server and in a generator process: lift the soft limit to the hard one.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    variant, variants = VARIANTS[args.pace]
    server = Remote(args.url, args.pid) if args.url else start_server(args, variants, steps[-1])
    try:
        run_steps(args, server, steps, variant, variants)
    finally:
        server.stop()


def run_steps(args: argparse.Namespace, server: LiveServer, steps: list[int], variant: str, variants: Path) -> None:
    gen_set, gen_cpus, server_core = cores(None if args.url or args.no_pin else server.pid)
    args.workers = args.workers or (gen_cpus if gen_set else max(1, gen_cpus - 1))
    rss0 = server_usage(server.pid)[1] if server.pid else None
    tables = args.night or 1
    setup = Setup(  # a night's players and audience a table, for each process's share of the connections
        server.url, args.pace, variant, str(variants), args.strength, args.seed, gen_set, args.workers,
        -(-args.audience // tables), players=-(-args.players // tables),
    )
    apart = f" and {args.audience_workers} for the audiences" if args.audience and args.audience_workers else ""
    seated = f"{args.players} players a room"
    if args.night:
        seated = f"a night of {args.night} tables, {args.players} guests"
    fans = f"an audience of {args.audience} {'in all' if args.night else 'a room'}, " if args.audience else ""
    print(
        f"{args.pace} pace, {'the given server' if args.url else args.async_mode + ' mode'}, {seated}, {fans}"
        f"{args.workers} generator processes{apart}, {os.cpu_count()} cores; "
        f"load average {Path('/proc/loadavg').read_text().split()[:3]}"
    )
    print(
        f"{'rooms':>5} {'conns':>5} {'cycles':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'server':>6} {'RSS MB':>6} {'MB/rm':>6} {'KB/cn':>6} {'thrds':>5} {'queue':>5}  generator CPU/queue"
    )
    gen = Generator(setup, args.workers, args.audience_workers if args.audience else 0)
    if args.night:
        gen.players, gen.night = args.players / args.night, True
    best, limit = None, None
    try:
        for rooms in steps:
            new = rooms - gen.rooms
            seating = 60 + 2 * connections(args, new) / CONNECTS_PER_S  # twice their paced time
            if args.night:
                specs = open_night(server, args.night, args.players, args.audience, variant)
            else:
                specs = open_rooms(server, gen.rooms, new)
            failed = gen.add(specs, timeout=seating)
            step = measure(server, gen, 0 if failed else args.seconds, failed, server_core)  # unseated: it fails
            limit = report(step, rss0, gen_cpus)
            if args.cycles:
                with args.cycles.open("a") as out:
                    for room, due, first, last in step.moments:
                        out.write(json.dumps({"room": room, "due": due, "first": first, "last": last}) + "\n")
            if not step.passed:
                break
            best = rooms
    finally:
        gen.stop()
    load = Path("/proc/loadavg").read_text().split()[:3]
    if args.night:
        print(
            f"a night of {args.night} tables, reveal p95 under {P95_LIMIT_S * 1000:.0f} ms and nothing refused or "
            f"lost: {'passed' if best else 'failed'}; load average {load}"
        )
    else:
        print(
            f"largest room count with reveal p95 under {P95_LIMIT_S * 1000:.0f} ms and nothing refused or lost: "
            f"{best if best is not None else 'none'}; load average {load}"
        )
    if limit in ("generator", "machine"):
        print(f"the last step was limited by the {limit}, not the server: the server's own figure may be higher")


if __name__ == "__main__":
    main()
