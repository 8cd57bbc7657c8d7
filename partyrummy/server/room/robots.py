"""Robots at the table: bots' seats and open seats, which the caller plays so nobody waits for them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...phones.bots import STRENGTHS, Bot, bot_move
from ...phones.commands import AutoPlay, Command, Ready
from ...phones.hand import MATCH_WINDOWS, HandState
from ...rules.errors import RummyError
from .refused import Refused
from .seats import Seat

__all__ = ["bot_name", "check_strength", "play_robots", "robot_of"]


def check_strength(strength: str) -> None:
    """Refuse a bot strength nobody wrote."""
    if strength not in STRENGTHS:
        raise Refused("error.no_such_bot")


def bot_name(seats: list[Seat]) -> str:
    """The first "Bot n" nobody at the table is called."""
    return next(f"Bot {n}" for n in range(1, 100) if all(s.name.casefold() != f"bot {n}" for s in seats))


def robot_of(event: dict[str, Any]) -> Bot | None:
    """The bot a journal event seats, if any."""
    return Bot(event["bot"]) if event.get("bot") else None


def play_robots(seats: list[Seat], hand: Callable[[], HandState], play: Callable[[Command], None]) -> bool:
    """Bots' seats make their moves at once, and open seats get the caller's play. True if any moved.

    `hand` gives the hand as it is now (each move changes it); `play` applies and journals one command.
    """
    moved = False
    for index, seat in enumerate(seats[: hand().players]):
        if seat.robot is not None:
            command = bot_move(hand(), index, seat.robot)
        elif seat.open and index in hand().slow_seats():
            command = AutoPlay(index)  # nobody holds it: play it rather than hold up the table
        elif seat.open and hand().phase in MATCH_WINDOWS and index not in (*hand().going_on, *hand().matched):
            command = Ready(index, True, hand().cycle)  # nor a window
        else:
            continue
        if command is None:
            continue
        try:
            play(command)
        except RummyError:  # a move the hand no longer allows (an empty shoe): the caller's own play
            if index not in hand().slow_seats():
                continue
            play(AutoPlay(index))
        moved = True
    return moved
