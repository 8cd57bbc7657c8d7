"""What bench/load.py prints for each step: the figures, and which side limited them, in plain words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from load_phone import Tally
from room import percentile

__all__ = ["P95_LIMIT_S", "Step", "blame", "report", "verdict"]

P95_LIMIT_S = 0.100  # a step passes with the reveal's p95 under this and nothing refused or lost
BUSY = 0.85  # the server above this share of its core is what limits the figures
GEN_BUSY = 0.80  # a generator process above this share of its core: its own delays are in the figures
FEW = 100  # up to this many cycles, p99 is the slowest one (up to 20, p95 too)
LATE = 0.25  # a generator loop late by this share of the p95 limit adds its own delay to what is measured
PER_ROOM = 8  # up to this many rooms, each room's p50 and p95 are printed
TOP_KEYS = 12  # the largest parts of what a phone receives, by event and key
PICK_WAY_S = 0.25  # before the flip's due moment, the last pick's way in to the server, which sets that moment
STARVED = 0.05  # waiting for a core less than this share of the time delays nothing worth naming


@dataclass
class Step:
    """One step's figures, gathered from every process and from /proc."""

    rooms: int
    connections: int
    latencies: list[float]  # seconds, each measured cycle: the flip due -> the room's last phone holds it
    tally: Tally
    gen_cpu: list[float]  # share of a core, per generator process
    gen_wait: list[float]  # share of the time each generator process waited for a core
    server_cpu: float | None  # share of a core
    server_wait: float | None  # thread-seconds the server's threads waited for a core, per second
    rss: int | None
    threads: int | None
    failed: int
    cycles: int  # cycles revealed in the window, over all rooms
    core_busy: float | None = None  # share of the time the server's core was busy, with anything (None: unpinned)
    gen_late: float = 0.0  # seconds: how late a generator process's loop ran its timers (p95, the latest process)
    audience_late: float = 0.0  # the same of the processes holding only audiences (they time no reveal)
    resolves: list[float] = field(default_factory=list)  # audience: TV's resolved round -> the room's last member's
    fans: int = 0  # audience connections held at the end of the step
    seconds: float = 0.0  # the step's wall time
    by_room: dict[str, list[float]] = field(default_factory=dict)  # the latencies by room code
    from_pick: int = 0  # cycles timed from their last pick (no countdown to the flip heard)
    players: float = 12  # phones in each room (a night's: on average, its guests over its tables)
    slowest: list = field(default_factory=list)  # load_worker.Slow: the slowest cycles, detailed
    gen_late_max: float = 0.0  # seconds: the latest any table process's loop ran one timer
    night: bool = False  # the rooms are the tables of a night
    moments: list = field(default_factory=list)  # each measured cycle: (room, due, first phone, last phone)
    server_waited: list = field(default_factory=list)  # (when, the server's main thread's wait for a core so far)

    def server_wait_in(self, start: float, end: float) -> float | None:
        """How long the server's main thread sat runnable waiting for a core between two moments (None: unknown)."""
        samples = self.server_waited
        if not samples or start < samples[0][0] or end > samples[-1][0] + 1:
            return None
        before = max(i for i, (at, _) in enumerate(samples) if at <= start) if samples[0][0] <= start else 0
        after = next((i for i, (at, _) in enumerate(samples) if at >= end), len(samples) - 1)
        return samples[after][1] - samples[before][1]

    @property
    def passed(self) -> bool:
        return bool(self.latencies) and self.p(0.95) < P95_LIMIT_S and not self.failed and not self.problems

    @property
    def problems(self) -> int:
        return sum(self.tally.refused.values()) + sum(self.tally.lost.values())

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)


def report(step: Step, rss0: int | None, gen_cpus: int) -> str | None:
    """Print one step's line and what limited it; returns that limit (see `verdict`)."""
    lat = step.latencies
    figures = " ".join(f"{step.p(q) * 1000:7.1f}" for q in (0.5, 0.95, 0.99)) if lat else "      -       -       -"
    line = f"{step.rooms:>5} {step.connections:>5} {len(lat):>6} {figures}"
    if step.server_cpu is not None:
        per_room = (step.rss - rss0) / max(step.rooms, 1) / 2**20
        per_conn = (step.rss - rss0) / max(step.connections, 1) / 2**10
        line += f" {step.server_cpu:>6.0%} {step.rss / 2**20:>6.0f} {per_room:>6.2f} {per_conn:>6.0f} {step.threads:>5}"
        line += f" {step.server_wait:>5.0%}"
    line += "  " + " ".join(f"{c:.0%}/{w:.0%}" for c, w in zip(step.gen_cpu, step.gen_wait, strict=True))
    print(line, flush=True)
    refused, lost = sum(step.tally.refused.values()), sum(step.tally.lost.values())
    print(
        f"      refused {refused} {dict(step.tally.refused) or ''}  lost {lost} {dict(step.tally.lost) or ''}  "
        f"rooms not opened {step.failed}; events sent {step.tally.sent}, states received {step.tally.states}"
    )
    print(
        f"      the generator's event loop ran its timers {step.gen_late * 1000:.1f} ms late (p95), "
        f"{step.gen_late_max * 1000:.1f} ms at worst",
        end="",
    )
    print(f"; its audiences' {step.audience_late * 1000:.1f} ms" if step.audience_late else "")
    if step.fans or step.resolves:
        audience(step)
    if step.cycles:
        per_phone = step.tally.received / (step.cycles * step.players) / 1024
        print(f"      {step.cycles} cycles revealed; each phone received {per_phone:.1f} KB a cycle")
        sampled(step)
    timed = "the flip due" if not step.from_pick else f"the flip due ({step.from_pick} from their last pick)"
    print(f"      the server's: reveal from {timed} to the room's last phone holding it; its CPU, RSS, threads")
    if step.slowest:
        slowest(step)
    if 1 < len(step.by_room) <= PER_ROOM:
        rooms = "; ".join(
            f"{code} {len(lat)} cycles p50 {percentile(lat, 0.5) * 1000:.1f} p95 {percentile(lat, 0.95) * 1000:.1f} ms"
            for code, lat in sorted(step.by_room.items())
            if lat
        )
        print(f"      by {'table' if step.night else 'room'}, from the flip due: {rooms}")
    if 0 < len(step.latencies) <= FEW:
        which = "p95 and p99 are" if len(step.latencies) <= 20 else "p99 is"
        n = len(step.latencies)
        print(f"      only {n} cycle{'s' if n > 1 else ''}: {which} the slowest cycle, not a tail of a distribution")
    limit, words = verdict(step, gen_cpus)
    print("      " + words, flush=True)
    return limit


def slowest(step: Step) -> None:
    """The slowest cycles, each split: the first phone's latency (the server's send, as the flip reaches every phone
    of the room at once), the spread to the last (the generator's own delay, with its loop's worst lateness
    meanwhile), and how long the server's thread sat runnable waiting for its core from just before the flip was
    due (its last pick's way in moves the due moment) to the first phone holding it: the machine's share."""
    worst = sorted(step.slowest, key=lambda s: -s.last)[:3]
    waits = [step.server_wait_in(s.due - PICK_WAY_S, s.due + s.first) for s in worst]
    cycles = "; ".join(
        f"{s.room} {s.last * 1000:.0f} ms (first phone {s.first * 1000:.0f}, generator loop late "
        f"{s.loop_late * 1000:.0f}{'' if w is None else f', server waited for its core {w * 1000:.0f}'})"
        for s, w in zip(worst, waits, strict=True)
    )
    print(f"      slowest cycles, last phone from the flip due: {cycles}")
    top, wait = worst[0], waits[0]
    if top.last >= P95_LIMIT_S:
        words = {
            "generator": "the generator's: its loop ran late while the flip was on its way; the server sent it in time",
            "machine": f"the machine's: the server's thread sat runnable {(wait or 0) * 1000:.0f} ms waiting for its "
            f"core (another process ran there), of the first phone's {top.first * 1000:.0f} ms",
            "server": "the server's (or the way to the generator): even the first phone held it late",
            "shared": "shared: neither the first phone nor the generator's loop accounts for it alone",
        }
        print(f"      the slowest cycle was {words[blame(top, wait)]}")


def blame(slow: Any, wait: float | None) -> str:
    """Whose a slow cycle (a load_worker.Slow) was: the "generator" (its loop late while the last phones waited),
    the "machine" (the server's thread waited for its core for half the first phone's latency or more), the
    "server" (even the first phone held it late, the generator on time), or "shared"."""
    if slow.loop_late >= slow.last - slow.first and slow.last - slow.first > slow.first:
        return "generator"
    if wait is not None and wait >= slow.first / 2:
        return "machine"
    if slow.first >= P95_LIMIT_S / 2 and slow.loop_late < slow.first / 2:
        return "server"
    return "shared"


def sampled(step: Step) -> None:
    """The first phone of each room's bytes a cycle by event and by the payloads' top-level keys (the largest), and
    its messages a cycle by event."""
    tally, cycles = step.tally, step.cycles
    if not tally.sampled:
        return
    by_event: dict[str, int] = {}
    for (event, _), size in tally.sampled.items():
        by_event[event] = by_event.get(event, 0) + size
    events = ", ".join(
        f"{event} {size / cycles / 1024:.2f} KB in {tally.messages[event] / cycles:.1f}"
        for event, size in sorted(by_event.items(), key=lambda item: -item[1])
    )
    print(f"      one phone a room, a cycle: {sum(by_event.values()) / cycles / 1024:.1f} KB: {events} messages")
    top = sorted(tally.sampled.items(), key=lambda item: -item[1])[:TOP_KEYS]
    keys = ", ".join(f"{event}:{key} {size / cycles:.0f} B" for (event, key), size in top)
    print(f"      by key, bytes a cycle: {keys}")


def audience(step: Step) -> None:
    """The audience's figures: its connections, its guesses, how long a resolved round took to reach every member of
    its room after the TV held it, and each guess's acknowledgement."""
    tally = step.tally
    spread = " ".join(f"{percentile(step.resolves, q) * 1000:.1f}" for q in (0.5, 0.95, 0.99)) if step.resolves else "-"
    acks = " ".join(f"{percentile(tally.acks, q) * 1000:.1f}" for q in (0.5, 0.95, 0.99)) if tally.acks else "-"
    per_fan = tally.fan_received / max(step.fans, 1) / 1024
    print(
        f"      audience: {step.fans} connections; {tally.guesses} guesses taken, {tally.late} too late; "
        f"{len(step.resolves)} rounds resolved, the last member {spread} ms after the TV (p50/p95/p99); "
        f"a guess answered in {acks} ms; each member received {per_fan:.1f} KB in {step.seconds:.0f} s"
    )


def verdict(step: Step, gen_cpus: int) -> tuple[str | None, str]:
    """Which side was the limit of this step ("generator", "machine", "server threads", "server" or None), and in
    plain words: the server's threads waiting for its core are its own doing when nothing else ran there.

    A process that waited for a core longer than it ran was starved: its delays are the machine's (other
    processes on its cores), not its own work; the figures then say little about the server.
    """
    busiest = max(step.gen_cpu)
    starved = any(w > c and w > STARVED for c, w in zip(step.gen_cpu, step.gen_wait, strict=True))
    if busiest > GEN_BUSY or sum(step.gen_cpu) > GEN_BUSY * gen_cpus:
        return "generator", (
            f"WARNING: THE GENERATOR WAS THE LIMIT: a process at {busiest:.0%} of a core, {sum(step.gen_cpu):.0%} in "
            f"all on {gen_cpus} core(s); the latencies are the generator's own delays as much as the server's"
        )
    if step.gen_late > LATE * P95_LIMIT_S:
        return "generator", (
            f"THE GENERATOR WAS THE LIMIT: its event loop ran timers {step.gen_late * 1000:.0f} ms late (p95) at "
            f"{busiest:.0%} of a core; a phone's message waited as long, so the latencies include its own delays"
        )
    if starved:
        return "machine", (
            f"THE MACHINE WAS THE LIMIT: a generator process waited for a core longer than it ran "
            f"(busiest at {busiest:.0%}, waits up to {max(step.gen_wait):.0%}); other processes hold its cores"
        )
    if step.server_cpu is None:
        return None, f"generator not the limit (busiest process {busiest:.0%} of a core); server CPU unknown (no --pid)"
    server = f"server at {step.server_cpu:.0%} of a core, its threads waited {step.server_wait:.0%} for one"
    if step.server_wait > max(step.server_cpu, STARVED):
        others = None if step.core_busy is None else max(0.0, step.core_busy - step.server_cpu)
        if others is not None and others < STARVED:  # nothing else ran on its core: its threads queued for it
            return "server threads", (
                f"THE SERVER'S OWN THREADS WERE THE LIMIT: {server}, with {step.threads} threads queueing for its "
                f"one core while other processes used only {others:.0%} of it"
            )
        why = "longer than they ran: other processes on its core" + (
            f" ({others:.0%} of it)" if others is not None else ", or its own threads queueing for it"
        )
        return "machine", f"THE MACHINE WAS THE LIMIT: {server}, {why}"
    if step.server_cpu > BUSY:
        return "server", f"THE SERVER WAS THE LIMIT: {server}; generator processes at most {busiest:.0%} of a core"
    return None, f"neither side saturated: {server}; generator processes at most {busiest:.0%} of a core"
