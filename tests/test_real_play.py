"""Real cards on the table over real sockets (server/room/real_play.py): no seat blocks the hand, and score entry goes
as fast as the TV can tap, sending nothing to the phones that cannot see it.

One server and one room for the module: four phones and four players without a phone, hands of 13 cards.
"""

from __future__ import annotations

import pytest

from tests.live import Client
from tests.night import Night
from tests.real_helpers import game, phase_is, refused

pytestmark = pytest.mark.slow

RULES = """
[real13x2]
extends = "party"
description = "Two hands of 13 cards from four decks (for the real-cards entry tests)"
hand_sizes = [13, 13]
table_beat_s = 0.02
table_match_window_s = 0.3
table_hurry_after_s = 0
"""
PHONES, PHONELESS = 4, 4
HANDS = [  # thirteen cards for each of the four seats without a phone, all taps from the TV
    ["AH", "2H", "3H", "4H", "5H", "6S", "7S", "8S", "9S", "10C", "10D", "10H", "10S"],
    ["AC", "2C", "3C", "4C", "5C", "6D", "7D", "8D", "9D", "JC", "JD", "JH", "JS"],
    ["KS", "KD", "KC", "QS", "QD", "QC", "2S", "3S", "4S", "5D", "6D", "7C", "9H"],
    ["AS", "AD", "AC", "8H", "8D", "8C", "5S", "6H", "7H", "9C", "10H", "JH", "QH"],
]


class Table(Night):
    """The module's night: four phones, four players without a phone, and a guest watching."""

    def __init__(self) -> None:
        super().__init__(rules=RULES, mode="real", variant="real13x2")
        self.phones = self.players(PHONES)
        self.add_people(*(f"N{i}" for i in range(PHONELESS)))
        self.guest = self.client()

    def to_entry(self, matcher: int = 0) -> None:
        """Deal, one cycle (the seats without a phone are Ready by themselves), a Match!, the last cycle."""
        tv = self.host
        assert tv.call("call_now")["ok"]
        for phone in self.phones:
            assert phone.call("ready")["ok"]
        tv.wait_for(phase_is("reveal"))
        assert self.phones[matcher].call("match")["ok"]
        tv.wait_for(phase_is("last_ready"))
        for i, phone in enumerate(self.phones):
            if i != matcher:
                assert phone.call("ready")["ok"]
        tv.wait_for(phase_is("entry"))


@pytest.fixture(scope="module")
def table():
    with Table() as table:
        assert table.host.call("start")["ok"]
        table.to_entry()
        yield table


def test_the_tv_taps_in_four_thirteen_card_hands_as_fast_as_it_can_and_nobody_else_hears_a_tap(table) -> None:
    tv, others = table.host, [table.guest, *table.phones]
    version = tv.sync()["state"]["v"]
    for client in others:  # every update of the table so far has arrived
        client.wait_for(lambda s: s["v"] >= version)
    heard = [len(client.messages) for client in others]
    for k, hand in enumerate(HANDS):
        seat = PHONES + k
        for n in range(1, len(hand) + 1):
            ack = tv.call("draft", {"cards": hand[:n], "seat": seat})
            assert ack == {"ok": True}, (seat, n, ack)  # never slow_down: the TV's bound is its own
    picker = tv.wait_for(lambda s: all(len(s["game"]["drafts"][str(PHONES + k)]["cards"]) == 13 for k in range(4)))
    assert picker["game"]["drafts"][str(PHONES)]["penalty"] == 0  # laid out by the solver, live
    # Another seat's picker is nobody else's business: not even a version number went to anyone else.
    assert [len(client.messages) for client in others] == heard
    for k in range(PHONELESS):
        assert tv.call("confirm", {"seat": PHONES + k}) == {"ok": True}
    table.phones[1].wait_for(lambda s: all(s["game"]["seats"][PHONES + k]["entered"] for k in range(4)))


def test_a_phone_changes_its_own_entry_until_the_hand_is_scored(table) -> None:
    tv, phone = table.host, table.phones[1]
    assert phone.call("points", {"points": 30}) == {"ok": True}
    tv.wait_for(lambda s: s["game"]["seats"][1]["entered"])
    assert phone.call("draft", {"cards": ["KS"]}) == {"ok": True}  # taken back: the table waits for it again
    assert 1 in game(tv.wait_for(lambda s: not s["game"]["seats"][1]["entered"]))["waiting_for"]
    assert phone.call("points", {"points": 12}) == {"ok": True}
    assert refused(phone.call("points", {"points": 1_000_000}), "bad_command", "0 to")  # the range, in words


def test_the_tv_enters_for_a_seat_whose_phone_is_gone_and_the_hand_scores(table) -> None:
    tv = table.host
    assert refused(tv.call("points", {"points": 5, "seat": 2}), "bad_command")  # P2's phone is here: theirs
    table.phones[2].close()  # P2's phone locks and drops
    tv.wait_for(lambda s: not s["room"]["seats"][2]["connected"])
    assert tv.call("points", {"points": 5, "seat": 2}) == {"ok": True}
    assert tv.call("points", {"points": 0, "seat": 0, "override": True}) == {"ok": True}  # the host's choice
    assert table.phones[3].call("points", {"points": 8}) == {"ok": True}
    scored = game(tv.wait_for(phase_is("scored")))
    assert [cell["points"] for cell in scored["sheet"][0][:4]] == [0, 12, 5, 8]
    ana = table.phones[0]  # P0's phone is told the TV entered its hand
    with ana.changed:
        told = ana.changed.wait_for(
            lambda: any(e == "notice" and d["code"] == "entered_for_you" for e, d in ana.messages), timeout=5
        )
    assert told


def test_a_claimed_seat_without_a_phone_is_nobody_elses_to_see_from_then_on(table) -> None:
    # A helper phone answers for a seat without a phone; then someone claims that seat with its rejoin code. From
    # that version on, only the claimer sees its picker: no helper's view (whole, or made from the table's and
    # its own updates) ever holds a picker but those of seats without a phone, nor its own seat's as a helper.
    tv, helper = table.host, table.phones[1]
    assert tv.call("allow_helpers", {"allow": True})["ok"]
    assert tv.call("call_now")["ok"]  # hand 2 is dealt
    tv.wait_for(lambda s: s["game"]["hand_no"] == 2 and s["game"]["phase"] == "setup")
    assert tv.call("call_now")["ok"]  # "Draw!"
    for seat, phone in enumerate(table.phones):
        client, extra = (tv, {"seat": 2}) if seat == 2 else (phone, {})  # P2's phone is gone: the TV answers
        assert client.call("ready", extra)["ok"], seat
    tv.wait_for(phase_is("reveal"))
    assert table.phones[0].call("match")["ok"]
    tv.wait_for(phase_is("last_ready"))
    for seat in (1, 3):
        assert table.phones[seat].call("ready")["ok"]
    assert tv.call("ready", {"seat": 2})["ok"]
    tv.wait_for(phase_is("entry"))
    claimed = PHONES + 1
    assert helper.call("draft", {"cards": ["KS"], "seat": claimed}) == {"ok": True}
    helper.wait_for(lambda s: str(claimed) in s["game"]["you"]["helping"])
    ticket = tv.call("rejoin_code", {"seat": claimed})["url"].split("#claim=")[1]
    claimer = Client(table.server.url, tv.room)
    try:
        assert claimer.call("claim", {"ticket": ticket})["ok"]
        mine = claimer.wait_for(lambda s: s["room"]["you"]["seat"] == claimed and s["game"]["you"]["seat"] == claimed)
        assert [c["card"] for c in mine["game"]["you"]["draft"]["cards"]] == ["KS"]  # the helper's taps are its own now
        late = helper.call("draft", {"cards": ["QS"], "seat": claimed})  # its phone is here now
        assert refused(late, "bad_command", "your own seat")
        assert claimer.call("draft", {"cards": ["KS", "KD"]}) == {"ok": True}
        helper.wait_for(lambda s: str(claimed) not in s["game"]["you"]["helping"])
        for client in (helper, claimer, table.phones[0], table.phones[3], table.guest):
            for view in client.views:
                g = view["game"]
                if not g or g.get("mode") != "real":
                    continue
                phoneless = {str(row["seat"]) for row in view["room"]["seats"] if row["health"] == "phoneless"}
                mine = g.get("you") or {}
                seen = set(mine.get("helping", {})) | set(g.get("drafts", {}))
                assert seen <= phoneless and str(mine.get("seat")) not in seen, (view["v"], mine, seen)
    finally:
        claimer.close()
