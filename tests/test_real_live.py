"""Real cards on the table over real sockets: a twelve-seat night with four players without a phone.

One server and one room for the whole module, played in order: the lobby; hand 1 and hand 2 of the party
rules in caller pacing (Ready, Discard!, Match! with the matched melds shown to all, scores entered by
tapping cards and by typing points, for phones and for the phone-less seats by the TV and by a helper
phone); a correction undone and redone; the CSV; then one hand of the classic rules with Done and Out!.
Bad input is refused to its sender alone, and no phone ever receives what it may not see.
"""

from __future__ import annotations

import pytest

from tests.live import Client
from tests.night import Night
from tests.real_helpers import check_nothing_hidden_leaked, faces_of, game, phase_is, refused, seat_real, tap_in

pytestmark = pytest.mark.slow

PHONES, PHONELESS = 8, 4
TV_SEATS, HELPED = (8, 9), (10, 11)  # the TV answers for two phone-less seats, a helper phone for the others


class TwelveSeats(Night):
    """The module's night: eight phones, four players without a phone, and a guest watching."""

    def __init__(self) -> None:
        super().__init__(real=True, mode="real", variant="realparty")
        self.phones = seat_real(self, PHONES, PHONELESS)
        self.guest = self.client()
        self.helper = self.phones[7]

    @property
    def everyone(self) -> list[Client]:
        return [self.host, self.guest, *self.phones]

    def answerer(self, seat: int) -> tuple[Client, dict]:
        """Who taps for a seat, and the `seat` field it sends."""
        if seat < PHONES:
            return self.phones[seat], {}
        return (self.host if seat in TV_SEATS else self.helper), {"seat": seat}

    def all_ready(self, seats: range | list[int]) -> None:
        for seat in seats:
            client, extra = self.answerer(seat)
            assert client.call("ready", extra) == {"ok": True}, seat


@pytest.fixture(scope="module")
def night():
    with TwelveSeats() as night:
        yield night


def test_the_lobby_seats_players_without_a_phone_in_real_mode(night: Night) -> None:
    room = night.host.wait_for(lambda s: len(s["room"]["seats"]) == PHONES + PHONELESS)["room"]
    assert room["mode"] == "real" and not room["allow_helpers"]
    rows = room["seats"]
    assert [r["phoneless"] for r in rows] == [False] * PHONES + [True] * PHONELESS
    assert {r["health"] for r in rows[PHONES:]} == {"phoneless"} and not any(r["open"] for r in rows)
    # Bots cannot hold real cards; a phone-less player is for real cards only; the mode is the host's.
    assert refused(night.host.call("add_bot", {"strength": "easy"}), "refused")
    assert refused(night.phones[1].call("mode", {"mode": "phones"}), "refused")
    assert refused(night.host.call("mode", {"mode": "phones"}), "refused")  # phone-less players are seated
    assert refused(night.host.call("mode", {"mode": "chess"}), "refused")
    assert night.host.call("start") == {"ok": True}
    assert refused(night.host.call("mode", {"mode": "real"}), "refused")  # not mid-game


def test_hand_one_ready_discard_and_a_match_whose_melds_everyone_sees(night: Night) -> None:
    tv, phones = night.host, night.phones
    setup = game(tv.wait_for(phase_is("setup")))
    assert (setup["hand_no"], setup["size"], setup["wild_rank"]) == (1, 3, "3")
    # The table waits for the host's "Cards are dealt: Draw!".
    assert refused(phones[2].call("ready"), "out_of_phase")
    assert tv.call("call_now") == {"ok": True}
    ready = game(tv.wait_for(phase_is("ready")))
    assert ready["waiting_for"] == list(range(12))

    # Bad input, each to its sender only.
    before = tv.sync()["state"]["v"]
    assert refused(phones[2].call("ready", {"seat": 3}), "bad_command")  # another phone's seat
    assert refused(phones[2].call("ready", {"seat": 8}), "bad_command")  # phone-less, helpers not allowed
    assert refused(phones[2].call("ready", {"seat": 99}), "bad_command")
    assert refused(phones[2].call("draft", {"cards": ["7H"]}), "out_of_phase")  # scores come at the end
    assert refused(phones[2].call("ready", {"cycle": ready["cycle"] - 1}), "stale")
    assert refused(night.guest.call("ready"), "refused")  # a watcher holds no seat
    assert refused(phones[2].call("correct", {"hand": 1, "seat": 0, "points": 0}), "refused")  # not the host
    assert tv.sync()["state"]["v"] == before  # nothing changed for anyone

    assert tv.call("allow_helpers", {"allow": True}) == {"ok": True}
    night.helper.wait_for(lambda s: s["room"]["allow_helpers"])
    night.all_ready(range(12))
    game(tv.wait_for(phase_is("reveal")))
    assert phones[1].call("match") == {"ok": True}
    last = game(tv.wait_for(phase_is("last_ready")))
    assert [m["seat"] for m in last["matched"]] == [1]

    # The matched player enters their cards at once; every screen shows the melds to check.
    assert tap_in(phones[1], ["4H", "5H", "6H"])[-1]["penalty"] == 0
    assert phones[1].call("confirm") == {"ok": True}
    for client in night.everyone:
        row = game(client.wait_for(lambda s: s["game"]["seats"][1]["entered"]))["seats"][1]
        assert [faces_of(m) for m in row["entry"]["melds"]] == [["4H", "5H", "6H"]] and row["entry"]["claim"] is True
    night.all_ready([s for s in range(12) if s != 1])
    game(tv.wait_for(phase_is("entry")))


def test_hand_one_scores_entered_both_ways_for_phones_and_phone_less_seats(night: Night) -> None:
    tv, phones, helper = night.host, night.phones, night.helper
    entry = game(tv.wait_for(phase_is("entry")))
    assert entry["waiting_for"] == [s for s in range(12) if s != 1]

    # Bad input in score entry.
    me = phones[2]
    before = tv.sync()["state"]["v"]
    assert refused(me.call("ready"), "out_of_phase")
    assert refused(me.call("draft", {"cards": ["ZZ"]}), "bad_command", "ZZ")
    assert refused(me.call("draft", {"cards": ["7H", "7H", "7H"]}), "bad_command", "7")  # two decks
    assert refused(me.call("draft", {"cards": ["2C", "2D", "2H", "2S"]}), "bad_command")  # a 3-card hand
    assert refused(me.call("draft", {"cards": "7H 8H"}), "bad_command")
    assert refused(me.call("draft", {"cards": ["JK"]}), "bad_command")  # no jokers in these rules
    assert refused(me.call("points", {"points": 9999}), "bad_command")
    assert refused(me.call("confirm"), "bad_command")  # nothing tapped yet: not the hand's count
    assert refused(me.call("draft", {"cards": ["2C"], "seat": 3}), "bad_command")
    assert refused(tv.call("correct", {"hand": 1, "seat": 0, "points": 5}), "out_of_phase")  # not scored yet
    assert tv.sync()["state"]["v"] == before

    scores = {}
    # Tapped in, tap by tap: the picker lays the hand out after each tap; the score is its penalty.
    for seat, faces in (
        (0, ["KS", "KD", "KC"]),
        (4, ["9C", "JD", "2S"]),
        (8, ["QS", "QH", "5D"]),
        (10, ["3C", "8H", "8D"]),
    ):
        client, extra = night.answerer(seat)
        layouts = tap_in(client, faces, extra.get("seat"))
        assert [faces_of(layout["cards"]) for layout in layouts] == [faces[:k] for k in (1, 2, 3)]
        assert layouts[-1]["complete"] and not layouts[0]["complete"]
        scores[seat] = layouts[-1]["penalty"]
        assert client.call("confirm", extra) == {"ok": True}
    assert scores[0] == 0  # three kings meld
    # The helper and the TV saw only the phone-less seats' pickers, and only until they were entered.
    assert "10" not in game(helper.wait_for(lambda s: s["game"]["seats"][10]["entered"]))["you"]["helping"]
    # Typed, by the phones and for the phone-less seats.
    for seat in (2, 3, 5, 6, 7, 9, 11):
        client, extra = night.answerer(seat)
        assert client.call("points", {"points": seat, **extra}) == {"ok": True}
        scores[seat] = seat
    scored = game(tv.wait_for(phase_is("scored")))
    scores[1] = 0
    assert [cell["points"] for cell in scored["sheet"][0]] == [scores[s] for s in range(12)]
    hows = [cell["how"] for cell in scored["sheet"][0]]
    assert [s for s in range(12) if hows[s] == "cards"] == [0, 1, 4, 8, 10]
    assert scored["totals"] == [scores[s] for s in range(12)]


def test_hand_two_a_match_after_a_second_cycle_then_a_correction_undone_and_redone(night: Night) -> None:
    tv, phones = night.host, night.phones
    assert phones[0].call("call_now") == {"ok": True}  # the VIP's phone deals the next hand
    game(tv.wait_for(lambda s: s["game"]["hand_no"] == 2 and s["game"]["phase"] == "setup"))
    assert tv.call("call_now") == {"ok": True}
    for cycle in (1, 2):
        game(tv.wait_for(lambda s, c=cycle: phase_is("ready")(s) and s["game"]["cycle"] == c))
        night.all_ready(range(12))
        game(tv.wait_for(lambda s, c=cycle: phase_is("reveal")(s) and s["game"]["cycle"] == c))
    assert phones[3].call("match") == {"ok": True}
    game(tv.wait_for(phase_is("last_ready")))
    night.all_ready([s for s in range(12) if s != 3])
    game(tv.wait_for(phase_is("entry")))
    assert phones[3].call("points", {"points": 0}) == {"ok": True}  # typed 0: the claim holds
    for seat in [s for s in range(12) if s != 3]:
        client, extra = night.answerer(seat)
        assert client.call("points", {"points": 20 - seat, **extra}) == {"ok": True}
    scored = game(tv.wait_for(phase_is("scored")))
    assert scored["seats"][3]["entry"]["claim"] is True
    hand_one = scored["sheet"][0][2]["points"]

    # The host corrects hand 1 of seat 2; undoes it; does it again.
    assert tv.call("correct", {"hand": 1, "seat": 2, "points": hand_one + 5}) == {"ok": True}
    cell = game(tv.wait_for(lambda s: s["game"]["can_undo"]))["sheet"][0][2]
    assert cell == {"points": hand_one + 5, "how": "typed", "corrected_from": hand_one}
    assert tv.call("undo_correction") == {"ok": True}
    undone = game(tv.wait_for(lambda s: not s["game"]["can_undo"]))
    assert undone["sheet"][0][2] == {"points": hand_one, "how": "typed", "corrected_from": None}
    assert refused(tv.call("undo_correction"), "already_done")
    assert tv.call("correct", {"hand": 1, "seat": 2, "points": hand_one + 5}) == {"ok": True}
    redone = game(phones[5].wait_for(lambda s: s["game"]["can_undo"]))
    assert redone["sheet"][0][2]["corrected_from"] == hand_one
    assert redone["totals"][2] == hand_one + 5 + 18

    over = tv.wait_for(lambda s: s["game"]["game_over"])  # the last hand scored ended the game at once
    assert refused(tv.call("call_now"), "game_over")
    totals = over["game"]["totals"]
    assert over["game"]["winners"] == [s for s, t in enumerate(totals) if t == min(totals)]
    assert over["room"]["night"][-1]["totals"]["P2"] == hand_one + 5 + 18


def test_the_csv_says_how_each_score_was_entered_and_what_a_correction_replaced(night: Night) -> None:
    lines = night.server.get(f"/room/{night.host.room}/scores.csv").splitlines()
    assert lines[0].startswith("Player,Hand 1,How (hand 1),Corrected from (hand 1),Hand 2,")
    rows = {line.split(",")[0]: line.split(",")[1:] for line in lines[1:]}
    assert rows["P0"][:3] == ["0", "cards", ""]
    assert rows["P2"][1:3] == ["typed", str(int(rows["P2"][0]) - 5)]
    assert rows["N8"][1] == "cards" and rows["N9"][1] == "typed"


def test_nobody_received_another_seats_picker_or_hidden_points(night: Night) -> None:
    for client in night.everyone:
        assert check_nothing_hidden_leaked(client, set(range(PHONES, PHONES + PHONELESS))) > 10


def test_one_classic_hand_with_done_and_out(night: Night) -> None:
    tv, phones = night.host, night.phones
    for seat in (11, 10, 9, 8):  # the classic rules seat eight at most
        assert tv.call("remove", {"seat": seat}) == {"ok": True}
    assert tv.call("variant", {"name": "realclassic"}) == {"ok": True}
    assert tv.call("start") == {"ok": True}
    setup = game(tv.wait_for(lambda s: phase_is("setup")(s) and s["game"]["pacing"] == "turns"))
    assert setup["dealer"] is not None and setup["seats"] and len(setup["seats"]) == 8
    assert tv.call("call_now") == {"ok": True}
    first = game(tv.wait_for(phase_is("turn")))
    starter = first["turn"]
    assert starter == (setup["dealer"] + 1) % 8
    other = phones[(starter + 1) % 8]
    assert refused(other.call("done"), "out_of_phase")  # not their turn
    assert refused(other.call("ready"), "out_of_phase")  # no Ready with turns
    for k in range(3):  # three turns, each passing left
        state = game(tv.wait_for(lambda s, k=k: s["game"]["turn"] == (starter + k) % 8))
        assert phones[state["turn"]].call("done", {"cycle": state["cycle"]}) == {"ok": True}
    out_seat = (starter + 3) % 8
    game(tv.wait_for(lambda s: s["game"]["turn"] == out_seat))
    assert phones[out_seat].call("out") == {"ok": True}
    last = game(tv.wait_for(phase_is("last_turn")))
    assert [m["seat"] for m in last["matched"]] == [out_seat] and len(last["to_play"]) == 7
    for k in range(7):
        seat = (out_seat + 1 + k) % 8
        game(tv.wait_for(lambda s, seat=seat: s["game"]["turn"] == seat))
        assert phones[seat].call("done") == {"ok": True}
    game(tv.wait_for(phase_is("entry")))
    assert tap_in(phones[out_seat], ["7S", "7D", "7C"])[-1]["penalty"] == 0
    assert phones[out_seat].call("confirm") == {"ok": True}
    for seat in [s for s in range(8) if s != out_seat]:
        assert phones[seat].call("points", {"points": seat + 1}) == {"ok": True}
    scored = game(tv.wait_for(phase_is("scored")))
    assert scored["seats"][out_seat]["entry"]["claim"] is True
    assert [c["points"] for c in scored["sheet"][0]] == [0 if s == out_seat else s + 1 for s in range(8)]
