"""Bots: each decision on hands worked out by hand, sharp beating easy over many games, bots over sockets."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from partyrummy.phones.bots import Bot
from partyrummy.phones.simulate import play_game, simulate
from partyrummy.rules.cards import parse_cards
from partyrummy.rules.variants import default_variants

from .live import Client, LiveServer

DECKS = default_variants()["party"].decks


@pytest.fixture
def rules(party):
    return party.meld_rules()


def test_sharp_takes_the_pile_only_when_it_lowers_the_penalty(rules) -> None:
    hand = parse_cards("5H 6H KS KD 2C")  # no round wild here: wild rank None
    sharp, easy = Bot("sharp"), Bot("easy")
    assert sharp.draw(hand, parse_cards("KC")[0], None, rules) == "pile"  # K K K: a set, 20 points saved
    assert sharp.draw(hand, parse_cards("QC")[0], None, rules) == "shoe"  # a Q joins nothing: it would go again
    assert sharp.draw(hand, parse_cards("AD")[0], None, rules) == "pile"  # an A for the 2: one point less
    assert easy.draw(hand, parse_cards("KC")[0], None, rules) == "shoe"
    assert easy.draw(hand, parse_cards("7S")[0], 7, rules) == "pile"  # a wild, even for easy
    assert easy.discard([*hand, parse_cards("7S")[0]], 7, rules, DECKS) != 5  # and keeps it
    assert sharp.draw(hand, None, None, rules) == "shoe"


def test_sharp_discards_the_card_that_leaves_least_and_keeps_live_cards_on_ties(rules) -> None:
    hand = parse_cards("5H 6H 7H KS KD KC 9C 9S 2D")
    sharp = Bot("sharp")
    assert hand[sharp.discard(hand, None, rules, DECKS)].rank == 9  # 11 points left, not 18 (the 2's)
    # 10♣ or J♦ leave 19 alike; the J♦ has the 9♦ to grow a run with, so the 10♣ goes.
    hand = parse_cards("5H 6H 7H 10C JD 9D")
    assert str(hand[sharp.discard(hand, None, rules, DECKS)]) == "10C"
    # With every 10♦ seen on the piles, J♦-9♦ cannot become a run through it: still a neighbour, though.
    assert sharp._promise(hand, 4, None, DECKS, Counter()) > sharp._promise(
        hand, 4, None, DECKS, Counter(parse_cards("10D " * 4))
    )
    wild_hand = parse_cards("5H 6H 7H 3C QS")
    assert str(wild_hand[Bot("sharp").discard(wild_hand, 3, rules, DECKS)]) == "QS"  # the wild is never thrown


def test_bots_call_match_exactly_when_complete(rules) -> None:
    assert Bot("easy").match(parse_cards("5H 6H 7H"), 3, rules)
    assert not Bot("sharp").match(parse_cards("5H 6H 8H"), 3, rules)


@pytest.mark.slow  # 6 s here: many whole games of bots
def test_sharp_beats_easy_over_many_games(party) -> None:
    report = simulate(party, 6, 40, seed=7, strengths=["easy", "sharp"])
    table = report.by_strength()
    easy, sharp = table["easy"], table["sharp"]
    assert sharp[0] < easy[0] * 0.92, report.table()  # a clearly lower average total
    assert sharp[1] > easy[1], report.table()  # and more wins
    assert report.games == 40 and report.hands == 40 * 11


def test_simulate_prints_the_table() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "partyrummy", "simulate", "--players", "3", "--games", "2", "--strengths", "sharp"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "games: 2, players: 3" in out.stdout and "sharp" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "partyrummy", "simulate", "--strengths", "genius"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "genius" in bad.stderr


class BotsRun:
    """`partyrummy bots` as a person starts it, in the background: every line it prints, as it prints it."""

    def __init__(self, server: LiveServer, code: str, *args: str) -> None:
        rules = str(Path(__file__).with_name("fast.toml"))
        command = [sys.executable, "-m", "partyrummy", "--variants", rules, "bots", "--url", server.url, "--room", code]
        # Ctrl+C must reach it even when the tests run in a background job (which ignores SIGINT).
        self.proc = subprocess.Popen(
            [*command, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.lines: list[str] = []
        self.err: list[str] = []
        self.printed = threading.Condition()
        self.readers = [threading.Thread(target=self._read, daemon=True), threading.Thread(target=self._errors)]
        for reader in self.readers:
            reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            with self.printed:
                self.lines.append(line.rstrip("\n"))
                self.printed.notify_all()

    def _errors(self) -> None:
        self.err.extend(self.proc.stderr)

    def wait_for(self, line: str, times: int = 1, timeout: float = 120) -> None:
        """Until it has printed `line` `times` times."""
        with self.printed:
            if not self.printed.wait_for(lambda: self.lines.count(line) >= times, timeout):
                raise TimeoutError(f"{line!r} not printed {times} times: {self.lines[-5:]}")

    def end(self, sig: int | None, timeout: float = 15) -> tuple[int, str]:
        """Its exit code and what it wrote to stderr, once it ends (after `sig`, if given)."""
        if sig is not None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout)
        finally:
            self.proc.kill()
            for reader in self.readers:
                reader.join(5)
            self.proc.stdout.close()
            self.proc.stderr.close()
        return self.proc.returncode, "".join(self.err)


STAY = "The bots stay for the next game (Ctrl+C takes them away)."


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "count"), [("fast", 12), ("fastclassic", 4)])
def test_bots_fill_a_live_room_and_play_a_whole_game(variant: str, count: int) -> None:
    server = LiveServer()
    try:
        code, token = server.tv_page()
        host = Client(server.url, code, role="host", token=token)
        assert host.call("variant", {"name": variant})["ok"]
        bots = BotsRun(server, code, "--count", str(count), "--start")
        final = host.wait_for(lambda s: s["game"] and s["game"]["game_over"], timeout=300)
        bots.wait_for(STAY)
        assert len(final["room"]["seats"]) == count and len(final["game"]["history"]) == 11
        lines = list(bots.lines)
        # One line a hand as it is scored (who matched, everyone's points), then the final totals.
        names = [s["name"] for s in final["room"]["seats"]]
        for hand_no, points in enumerate(final["game"]["history"], start=1):
            scores = ", ".join(f"{name} {p}" for name, p in zip(names, points, strict=True))
            [line] = [x for x in lines if x.startswith(f"Hand {hand_no}: ")]
            assert line.endswith(scores) and "matched" in line, line
        standings = lines[lines.index("Final totals:") + 1 : -1]
        assert len(standings) == count and standings[0].endswith("winner")
        assert lines[0].startswith(f"{count} bots seated in room {code}") and len(lines) == 1 + 11 + 1 + count + 1
        # The game is over and the bots are still in their seats, until Ctrl+C takes them away.
        assert all(seat["health"] == "connected" for seat in host.sync()["state"]["room"]["seats"])
        returncode, err = bots.end(signal.SIGINT)
        assert returncode == 130 and not err.strip(), err
        assert bots.lines[-1] == "Stopped: the bots leave the room."
        host.close()
        assert "Traceback" not in "".join(server.output)
    finally:
        server.stop()


def over(state: dict) -> bool:
    return bool(state["game"] and state["game"]["game_over"])


@pytest.mark.slow  # about 20 s here: three games, a server killed and started again
def test_bots_stay_for_the_night_through_play_again_new_rules_and_a_restart(tmp_path: Path) -> None:
    """What the host does between games never sends the bots home: "Play again", the lobby and other rules, the
    laptop's server killed and started again. They leave when the host takes their seats back, quietly."""
    data = tmp_path / "rooms.sqlite3"
    server = LiveServer(data=data)
    try:
        code, token = server.tv_page()
        host = Client(server.url, code, role="host", token=token)
        assert host.call("variant", {"name": "fast3"})["ok"]
        bots = BotsRun(server, code, "--count", "3", "--start", "--name", "Robo")
        host.wait_for(over, timeout=60)
        bots.wait_for(STAY)
        assert host.call("start")["ok"]  # "Play again"
        # The same seats play the second game: "fast3" never plays for anyone, so every card drawn is theirs.
        second = host.wait_for(lambda s: not over(s) and s["game"]["history"], timeout=60)
        assert [seat["health"] for seat in second["room"]["seats"]] == ["connected"] * 3
        host.wait_for(over, timeout=60)
        bots.wait_for(STAY, times=2)
        assert host.call("lobby")["ok"] and host.call("variant", {"name": "fastclassic"})["ok"]
        assert host.call("start")["ok"]  # other rules: taking turns
        host.wait_for(lambda s: s["game"] and s["game"]["history"], timeout=60)
        host.close()
        server.kill()  # the laptop's server dies mid-game …
        server = LiveServer(data=data, port=server.port)  # … and is started again: the bots come back
        host = Client(server.url, code, role="host", token=token)
        played = len(host.state["game"]["history"])
        host.wait_for(lambda s: len(s["game"]["history"]) > played + 1, timeout=60)
        assert [seat["health"] for seat in host.state["room"]["seats"]] == ["connected"] * 3
        for seat in range(3):  # the host opens each bot's seat: the caller plays it, and the bot goes home
            assert host.call("release", {"seat": seat})["ok"]
        returncode, err = bots.end(None, timeout=30)
        assert returncode == 0 and not err.strip(), err
        assert bots.lines[-1] == "The host took back every bot's seat (released): the bots leave the room."
        host.close()
    finally:
        server.stop()


def test_a_costly_wild_is_not_passed_round_the_table_for_ever(variants) -> None:
    # Seed 38 of the app with 4 jokers once dealt a hand where every bot took the 3♥ (wild, 15 points
    # orphaned) off the pile and threw it straight back, turn after turn.
    for seed in (38, 1, 2, 3):
        game, _ = play_game(variants["app4"], [Bot(s) for s in ("easy", "sharp", "easy", "sharp")], seed)
        assert game.over
