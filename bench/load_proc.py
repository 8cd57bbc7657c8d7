"""Linux process accounting for bench/load.py: threads, and how long a process's threads waited for a CPU.

/proc/PID/task/TID/schedstat holds, per thread, the nanoseconds it ran and the
nanoseconds it sat runnable on a run queue waiting for a core. A server whose
threads wait long while it runs little is short of CPU because something
else (another process on its core) has it, not because of its own work.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["threads", "waits", "waited", "core_times"]


def threads(pid: int) -> int:
    """How many threads the process has now."""
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:"))


def waits(pid: int) -> dict[int, int]:
    """Nanoseconds each live thread of the process has waited on a run queue."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found[int(task.name)] = int((task / "schedstat").read_text().split()[1])
        except (FileNotFoundError, ProcessLookupError, IndexError):  # the thread ended while we looked
            continue
    return found


def waited(before: dict[int, int], after: dict[int, int]) -> float:
    """Seconds the threads waited between two `waits`: a lower bound, as threads that ended are not counted."""
    return sum(ns - before.get(tid, 0) for tid, ns in after.items()) / 1e9


def core_times(core: int) -> tuple[int, int]:
    """(busy, total) clock ticks core `core` has counted since boot (/proc/stat), whatever ran on it."""
    line = next(line for line in Path("/proc/stat").read_text().splitlines() if line.startswith(f"cpu{core} "))
    ticks = [int(field) for field in line.split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return sum(ticks) - idle, sum(ticks)
