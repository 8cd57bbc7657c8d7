"""When views go out: at once for the table moving on, batched for players' own moves."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BATCH_S", "Outbox"]

# Players' own moves (a draw, a pick) reach the others batched, at most this long after the first of
# them: twelve phones picking within a moment get one or two updates, not twelve each. The caller's calls
# (the table moving on) and everything else go out at once.
BATCH_S = 0.05


@dataclass
class Outbox:
    """Whether views are owed, how soon, and when they last went out (monotonic seconds)."""

    dirty: bool = False
    urgent: bool = False  # something must go out now, not with the next batch
    batch_due: float | None = None  # when the pending batch of moves goes out
    sent_at: float = float("-inf")  # when views last went out

    def mark(self, urgent: bool) -> None:
        """Something changed; `urgent`: it must go out now rather than with the batch."""
        self.dirty = True
        self.urgent = self.urgent or urgent

    def take(self, now: float) -> bool:
        """Whether to send now; if so the debt is cleared, if not a batch is scheduled."""
        if not self.dirty:
            return False
        if self.urgent or (self.batch_due is not None and now >= self.batch_due):
            self.dirty = self.urgent = False
            self.batch_due = None
            return True
        if self.batch_due is None:
            self.batch_due = now + BATCH_S
        return False
