"""Rejoin tickets: one-time codes the TV shows as QR codes, each a seat's key for a few minutes."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from ..defences.limits import LIMITS
from .refused import Refused
from .state import Seat

__all__ = ["TICKET_S", "Tickets"]

# A rejoin QR shown on the TV works once, for this long: it is a seat's key on a screen the room can see.
TICKET_S = LIMITS.ticket_s
# A used or expired ticket is remembered this much longer, so it can say "expired" rather than "no such ticket".
_TICKET_MEMORY_S = 3600


@dataclass
class Tickets:
    """The tickets handed out: ticket -> (its seat, None once used; when it expires)."""

    issued: dict[str, tuple[Seat | None, float]] = field(default_factory=dict)

    def issue(self, seat: Seat, now: float) -> str:
        """A new ticket for `seat`, valid TICKET_S from `now`; long-dead ones are forgotten."""
        self.issued = {t: entry for t, entry in self.issued.items() if entry[1] > now - _TICKET_MEMORY_S}
        ticket = secrets.token_urlsafe(16)
        self.issued[ticket] = (seat, now + TICKET_S)
        return ticket

    def seat_index(self, ticket: str, seats: list[Seat], now: float) -> int:
        """Where the ticket's seat sits now; refused if unknown, used, expired or the seat is gone."""
        if ticket not in self.issued:
            raise Refused("error.ticket_unknown")
        seat, expires = self.issued[ticket]
        index = next((i for i, s in enumerate(seats) if s is seat), None)
        if index is None or expires < now:
            raise Refused("error.ticket_expired")
        return index

    def spend(self, ticket: str) -> None:
        """Mark a ticket used: it works once only (and is still known, to say "expired")."""
        self.issued[ticket] = (None, self.issued[ticket][1])
