"""The audience on a live server: who gets in (a full table, a locked room), a member's picks across a reload and
a restart, what an audience phone receives (never a card), the host's controls, and with real cards the entries
resolving the round. In-process rooms where a clock or a deterministic hand is needed."""

from __future__ import annotations

import ast
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from partyrummy.rules.errors import RummyError
from partyrummy.server.defences.limits import LIMITS
from partyrummy.server.room.room import Refused as NotKept
from partyrummy.server.room.room import Room, Viewer
from partyrummy.server.storage.journal import Journal, NotSaved

from .audience_helpers import PILE, audience, cards_in, member, not_piles, pick_now, predict_all, resolved
from .live import LiveServer, Refused, guest, lan_server
from .night import Night
from .words import refused

# Every room's first game on the module's server is dealt from the seed: the same hands on every run.
pytestmark = pytest.mark.server("--seed", "3")

QUESTIONS = ("first", "under", "worst")


def full_table(nights, server, bots: int = 12, variant: str = "fast3") -> Night:
    """A new room on the module's server with its table full of bots (twelve: a full table), the rules chosen, not
    started."""
    night = nights(server=server, variant=variant)
    night.add_bots(bots)
    return night


def test_a_thirteenth_guest_at_a_full_table_joins_the_audience_and_predicts_in_hand_1(nights, server) -> None:
    night = full_table(nights, server)
    host = night.host
    guest = night.client()  # the thirteenth: the join page's guest
    assert not guest.state["room"]["can_join"]
    assert guest.call("join", {"name": "Zoe"})["error"]["code"] == "refused"  # the table is full
    ack = guest.call("audience_join", {"name": "Zoe"})
    assert ack["ok"] and ack["member"] == 0, ack
    zoe = night.client(role="audience", token=ack["audience_token"])
    state = zoe.state
    assert state["room"]["you"]["role"] == "audience" and state["room"]["you"]["name"] == "Zoe"
    round_ = audience(state)["round"]
    assert (round_["game"], round_["hand"], round_["status"]) == (1, 1, "open")
    bots = [s["name"] for s in host.state["room"]["seats"]]
    assert [q["key"] for q in round_["questions"]] == list(QUESTIONS)
    assert round_["questions"][0]["options"] == bots and round_["questions"][1]["subject"] == bots[0]
    picks = predict_all(zoe, lambda q: q["options"][-1])

    # A reload: the page connects again with its token; it is Zoe still, her picks as she made them.
    zoe.close()
    zoe = night.client(role="audience", token=ack["audience_token"])
    assert zoe.state["room"]["you"]["picks"] == picks and zoe.state["room"]["you"]["member"] == 0
    assert host.wait_for(lambda s: audience(s)["members"] == 1)

    assert host.call("start")["ok"]
    state = zoe.wait_for(resolved(1), timeout=30)
    last, you = audience(state)["last"], state["room"]["you"]
    assert you["last"]["hand"] == 1 and you["last"]["picks"] == picks
    assert last["split"] == {key: {option: 1} for key, option in picks.items()}
    from partyrummy.audience.predictions import BASE

    answers = last["answers"]
    right = {k: picks[k] in answers[k] for k in answers}
    assert you["last"]["earned"] == {k: (BASE if right[k] else 0) for k in answers}  # alone: BASE each
    assert you["points"] == sum(you["last"]["earned"].values())
    # The table said the same: the first to call Match! is the one the answer names.
    scored = host.wait_for(lambda s: s["game"]["hand_no"] >= 1 and audience(s)["last"] is not None)
    assert audience(scored)["last"]["answers"] == answers


def test_a_locked_room_lets_a_newcomer_into_the_audience_and_a_member_back_but_never_to_the_table(
    nights, server
) -> None:
    night = full_table(nights, server, bots=3)
    host = night.host
    assert host.call("lock", {"locked": True})["ok"]
    with pytest.raises(Refused) as stranger:
        night.client()
    assert stranger.value.code == "locked"
    zoe, token = member(night, "Zoe")
    assert audience(zoe.state)["round"]["status"] == "open"
    assert zoe.call("join", {"name": "Zoe2"})["error"]["code"] == "refused"  # the table is not theirs
    zoe.close()
    zoe = night.client(role="audience", token=token)  # back, through the lock
    assert zoe.state["room"]["you"]["name"] == "Zoe"
    # Switched off: no newcomer, and a locked room keeps strangers out again; a member is still let back, to the
    # round under way, which still takes their guesses.
    assert host.call("audience", {"on": False})["ok"]
    with pytest.raises(Refused) as off:
        night.client(role="audience")
    assert off.value.code == "locked"
    zoe.close()
    zoe = night.client(role="audience", token=token)
    assert not audience(zoe.state)["on"] and audience(zoe.state)["round"]["open"]
    assert zoe.call("predict", {"question": "first", "option": "Bot 1"})["ok"]


def test_the_host_switching_off_and_on_or_capping_low_keeps_every_guess_and_every_member(nights, server) -> None:
    """Off and on again, and a cap under the members' count: the same round, every pick in it, nobody out; off,
    the round under way still closes and resolves, the next one opens when the audience is on again; the table a
    stranger would join says full or off before any name is typed."""
    from partyrummy.server.room.audience import CAPS

    night = full_table(nights, server, bots=3)
    host = night.host
    fans = [member(night, f"Fan {i}")[0] for i in range(CAPS[0] + 2)]
    picks = [predict_all(fan, lambda q, i=i: q["options"][i % len(q["options"])]) for i, fan in enumerate(fans)]
    assert host.call("audience", {"on": False})["ok"]
    assert host.call("audience", {"on": True})["ok"]
    assert host.call("audience", {"on": True, "cap": CAPS[0]})["ok"]  # under the twelve already in
    state = host.wait_for(lambda s: audience(s)["cap"] == CAPS[0])
    assert audience(state)["members"] == len(fans) and audience(state)["full"]
    assert len(state["room"]["audience_roster"]) == len(fans)
    for fan, made in zip(fans, picks, strict=True):
        you = fan.wait_for(lambda s: audience(s)["cap"] == CAPS[0])["room"]["you"]
        assert you["picks"] == made and you["member"] is not None
    stranger = night.client(role="audience")  # what a stranger at a locked room would see, before a name
    assert audience(stranger.state)["full"] and audience(stranger.state)["cap"] == CAPS[0]
    assert "members" not in audience(stranger.state)  # no count to the audience: it would change at every join
    assert stranger.call("audience_join", {"name": "One more"})["error"]["code"] == "refused"

    # Off through the hand: its round closes at the first "Draw!" and resolves with the hand, as any other.
    assert host.call("audience", {"on": False, "cap": CAPS[0]})["ok"]
    assert audience(stranger.wait_for(lambda s: not audience(s)["on"]))["round"]["open"]
    assert host.call("start")["ok"]
    state = fans[0].wait_for(resolved(1), timeout=30)
    assert audience(state)["round"] is None  # off: hand 2's round waits
    assert state["room"]["you"]["last"]["picks"] == picks[0]
    assert host.call("audience", {"on": True, "cap": None})["ok"]

    def next_round(s: dict) -> bool:  # on again: the next round opens (hand 2, or later if play moved on)
        return (r := audience(s)["round"]) is not None and r["open"] and (r["game"], r["hand"]) != (1, 1)

    state = fans[0].wait_for(next_round)
    assert not audience(state)["full"]
    # What the switch and the cap added to the audience's views (full, most) is words and numbers: never a card
    # (but the piles' tops, face up on the TV, in the hand the audience follows).
    for link in (fans[0], stranger):
        assert all(not_piles(data) == [] for _, data in link.messages)


def test_an_audience_connection_that_joins_is_the_member_at_once(nights, server) -> None:
    night = full_table(nights, server, bots=2)
    fan = night.client(role="audience")
    assert fan.state["room"]["you"]["member"] is None
    ack = fan.call("audience_join", {"name": "Zoe"})
    you = fan.wait_for(lambda s: s["room"]["you"]["member"] == ack["member"])["room"]["you"]
    assert you["name"] == "Zoe" and fan.call("predict", {"question": "first", "option": "Bot 2"})["ok"]
    assert fan.wait_for(lambda s: s["room"]["you"]["picks"] == {"first": "Bot 2"})
    assert fan.call("audience_join", {"name": "Zoe again"})["error"]["code"] == "refused"  # once is enough


def test_names_are_one_across_the_table_and_the_audience_and_the_host_caps_it(nights, server) -> None:
    from partyrummy.server.room.audience import CAPS

    night = full_table(nights, server, bots=2)
    host = night.host
    zoe, _ = member(night, "Zoe")
    guest = night.client()  # a guest of the room: its join a member, the guest still a guest
    for taken in ("bot 1", "ZOE", "Zое"):  # a seat's name, a member's, with a Cyrillic о and е
        assert guest.call("audience_join", {"name": taken})["error"]["code"] == "refused", taken
    assert host.call("audience", {"on": True, "cap": 7})["error"]["code"] == "refused"  # not one of the caps
    assert host.call("audience", {"on": True, "cap": CAPS[0]})["ok"]
    assert host.wait_for(lambda s: audience(s)["cap"] == CAPS[0])
    assert guest.call("audience_join", {"name": "Fan 0"})["ok"]
    assert guest.call("audience_join", {"name": "Fan 00"})["error"]["code"] == "refused"  # one connection, one
    for i in range(1, CAPS[0] - 1):  # each from a connection of its own (the laptop's: no cap on its devices)
        assert night.client().call("audience_join", {"name": f"Fan {i}"})["ok"]
    full = night.client().call("audience_join", {"name": "One more"})
    assert full["error"]["code"] == "refused" and str(CAPS[0]) in full["error"]["message"]
    assert zoe.call("audience", {"on": False})["error"]["code"] == "refused"  # the host's alone
    assert zoe.call("audience_offer", {"member": 0})["error"]["code"] == "refused"
    assert host.call("predict", {"question": "first", "option": "Bot 1"})["error"]["code"] == "refused"


def test_the_host_offers_a_member_a_seat_which_they_take_between_games_even_locked(nights, server) -> None:
    night = full_table(nights, server, bots=2)
    host = night.host
    zoe, _ = member(night, "Zoe")
    assert zoe.call("audience_seat")["error"]["code"] == "refused"  # not offered
    assert host.call("lock", {"locked": True})["ok"]
    roster = host.wait_for(lambda s: s["room"].get("audience_roster"))["room"]["audience_roster"]
    assert roster == [{"member": 0, "name": "Zoe", "points": 0, "offered": False, "seated": False, "together": 0}]
    assert host.call("audience_offer", {"member": 0})["ok"]
    you = zoe.wait_for(lambda s: s["room"]["you"]["offered"])["room"]["you"]
    assert you["seat_free"]
    ack = zoe.call("audience_seat")
    assert ack["ok"] and ack["seat"] == 2, ack
    zoe.close()
    zoe = night.client(token=ack["token"])  # the page connects again, as the player
    you = zoe.state["room"]["you"]
    assert (you["role"], you["seat"]) == ("player", 2)  # and the VIP: the first person at a table of bots
    assert [s["name"] for s in zoe.state["room"]["seats"]] == ["Bot 1", "Bot 2", "Zoe"]
    seated = host.wait_for(lambda s: s["room"]["audience_roster"][0]["seated"])
    assert audience(seated)["members"] == 0


def test_an_audience_phone_never_receives_a_card_of_anyones_hand(nights, server) -> None:
    """A whole game of twelve bots: every payload an audience phone received, walked to the bottom, holds no card
    but the piles' tops, each of which the TV showed face up, and nothing else of the game's table; a watcher of the
    room, beside it, got cards (the walk finds them)."""
    night = full_table(nights, server)
    host = night.host
    zoe, _ = member(night, "Zoe")
    watcher = night.client()
    predict_all(zoe)
    assert host.call("start")["ok"]
    for hand in (1, 2, 3):
        zoe.wait_for(resolved(hand), timeout=60)
        if hand < 3:
            predict_all(zoe, lambda q: q["options"][-1])
            host.wait_for(lambda s, h=hand: s["game"]["hand_no"] == h and s["game"]["scored"])
            assert host.call("call_now")["ok"]
    final = zoe.wait_for(lambda s: audience(s)["best"] is not None or audience(s)["round"]["game"] == 2)
    assert audience(final)["round"]["hand"] == 1  # the next game's first hand is open
    received = [(event, data) for event, data in zoe.messages]
    assert len(received) > 10 and {e for e, _ in received} <= {"state", "table", "mine"}
    tops = [s["pile_top"] for v in watcher.views if v["game"] for s in v["game"]["seats"] if s["pile_top"]]
    face_up = {top["card"] for top in tops} | {top["label"] for top in tops}
    piles = 0
    for event, data in received:
        for found in cards_in(data):
            path, value = found.split(": ", 1)
            card = ast.literal_eval(value)
            face = card["card"] if isinstance(card, dict) else card
            face = face[0] if isinstance(face, list) else face  # a pile top changed a field at a time: ["7H"]
            assert PILE.search(path) and face in face_up, (event, found)
            piles += 1
        assert "game" not in str(data.get("changes", {}).keys()), data  # never a change of the game's table
        table = data.get("table")
        if table is not None:
            assert table["game"] is None and set(table["room"]) == {"code", "mode", "audience", "colours", "hand"}
    assert piles, "the audience follows the piles as the TV shows them"
    assert cards_in([d for _, d in watcher.messages]), "the walk finds the cards a watcher of the room gets"


def test_a_flooding_member_is_slowed_down_as_one_member_on_however_many_connections(nights, server) -> None:
    """Forty picks at once from a member on each of two connections, forty `lang` events from a guest: the member's
    two connections share one member's budget, tighter than a connection's, and are heard again once it refills."""
    night = full_table(nights, server, bots=2)
    zoe, token = member(night, "Zoe")
    again = night.client(role="audience", token=token)  # the same member on a second screen
    guest = night.client()
    said = {"member": [], "guest": []}
    began = time.monotonic()
    for _ in range(40):
        for link in (zoe, again):
            said["member"].append(link.sio.call("predict", {"question": "first", "option": "Bot 1"}, timeout=10))
        said["guest"].append(guest.sio.call("lang", {"lang": "en"}, timeout=10))
    heard = {who: sum(1 for a in acks if a["ok"]) for who, acks in said.items()}
    budget = LIMITS.rate("member")
    took = time.monotonic() - began
    # Of 80: the member's burst (less its two connections' first syncs), and what refilled meanwhile.
    assert budget.burst - 2 <= heard["member"] <= budget.burst + budget.per_s * took, (heard, took)
    assert heard["guest"] > heard["member"], heard  # a connection's own budget is the wider
    assert all(a["ok"] or a["error"]["code"] == "slow_down" for a in said["member"])
    deadline = time.monotonic() + 5
    while not (ack := zoe.call("predict", {"question": "first", "option": "Bot 2"}))["ok"]:
        assert ack["error"]["code"] == "slow_down" and time.monotonic() < deadline, ack
        time.sleep(1 / budget.per_s)  # the member's budget refills at this pace


@pytest.mark.slow  # a server killed and started again
def test_picks_sent_at_once_are_each_answered_once_on_disk_and_survive_a_crash(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    server = LiveServer(data=data)
    try:
        with Night(server=server) as night:
            night.add_bots(3)
            fans = [member(night, f"Fan {n + 1}") for n in range(24)]
            names = [s["name"] for s in night.host.state["room"]["seats"]]

            def all_pick(whom: list[tuple], option: int) -> list[dict]:
                def pick(fan: tuple) -> dict:
                    return fan[0].call("predict", {"question": "first", "option": names[option]})

                with ThreadPoolExecutor(len(whom)) as pool:
                    return list(pool.map(pick, whom))

            assert all(ack == {"ok": True} for ack in all_pick(fans, 0))
            # The disk refuses (another process holds the file): every pick of the burst is refused, none made.
            other = sqlite3.connect(data, isolation_level=None)
            other.execute("BEGIN EXCLUSIVE")
            refusals = all_pick(fans[:4], 1)
            other.execute("ROLLBACK")
            other.close()
            assert all(a["error"]["code"] == "refused" and "could not save" in a["error"]["message"] for a in refusals)
            assert all_pick(fans[4:8], 2) == [{"ok": True}] * 4  # the file is writable again: no restart needed
            # Killed at once: what each member was told was kept comes back.
            server.kill()
            server = LiveServer(data=data, port=server.port)
            for n, (_, token) in enumerate(fans):
                back = night.client(role="audience", token=token)
                assert back.state["room"]["you"]["picks"] == {"first": names[2 if 4 <= n < 8 else 0]}, n
    finally:
        server.stop()
    assert "Traceback" not in server.log


# -- In-process: the journal, the players' scores ---------------------------------------------------------------


def real_room(journal: Journal | None = None) -> Room:
    """A room of real cards with three players without a phone, the TV answering for them: a hand as we say."""
    record = journal.append_all if journal else lambda code, events: None
    room = Room("REAL", _variants(), "party", lambda *a: None, record=record)
    if journal is not None:
        journal.open_room(room.code, room.host_token)
    room.attach("tv", Viewer("host", room.host_token))
    room.set_mode("real")
    for name in ("Ana", "Bob", "Cy"):
        room.add_person(name)
    return room


def _variants():
    from partyrummy.rules.variants import default_variants

    return {"party": default_variants()["party"]}


def play_real_hand(room: Room, first: int, points: dict[int, int]) -> None:
    """A hand: dealt, "Draw!", "Discard!", seat `first` calls Match!, the last cycle, the entries typed in."""
    tv = room.viewers["tv"]
    room.call_now()  # "Cards are dealt: Draw!" (the seats without a phone are Ready by themselves)
    room.call_now()  # "Discard!"
    room.answer(tv, "match", {"seat": first})
    room.call_now()  # the last cycle
    room.call_now()  # its "Discard!": the entries
    for seat, pts in points.items():
        room.answer(tv, "points", {"seat": seat, "points": pts})
    room.flush()


def test_with_real_cards_the_entries_resolve_the_round_and_a_restart_keeps_every_pick_and_point(
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "rooms.sqlite3")
    room = real_room(journal)
    fans = []
    for name in ("Zoe", "Max", "Lu"):
        room.attach(f"sid-{name}", Viewer("audience"))
        _, token = room.audience.join(f"sid-{name}", room.viewers[f"sid-{name}"], name)
        room.detach(f"sid-{name}")
        room.attach(f"sid-{name}", Viewer("audience", token))
        fans.append(f"sid-{name}")
    for sid, (first, under, worst) in zip(
        fans, (("Bob", "yes", "Cy"), ("Ana", "no", "Cy"), ("Bob", "no", "Ana")), strict=True
    ):
        for key, option in (("first", first), ("under", under), ("worst", worst)):
            pick_now(room, sid, key, option)
    room.start()
    room.flush()
    with refused(RummyError, "are closed"):
        room.call_now()  # "Draw!": closed
        pick_now(room, fans[0], "first", "Ana")
    room.call_now()  # "Discard!"
    room.answer(room.viewers["tv"], "match", {"seat": 1})  # Bob
    room.call_now()
    room.call_now()
    for seat, pts in {0: 4, 1: 0, 2: 25}.items():
        room.answer(room.viewers["tv"], "points", {"seat": seat, "points": pts})
    room.flush()
    last = room.state.audience.last
    assert dict(last.answers) == {"first": ("Bob",), "under": ("yes",), "worst": ("Cy",)}  # Ana (the leader) 4
    # Two of three said Bob, two said Cy: 50 + 100 * 1 // 3 = 83 each; Zoe alone said Ana scores under 10: 116.
    assert room.state.audience.points == (83 + 116 + 83, 83, 83)
    totals = list(room.state.game.totals)
    assert totals == [4, 0, 25]  # the players' scores are what they entered, whatever the audience said
    journal.close()

    [(code, _, events)] = Journal(tmp_path / "rooms.sqlite3").recent_rooms()
    again = Room(code, _variants(), "party", lambda *a: None)
    again.restore(events)
    assert again.state.audience == room.state.audience
    assert again.audience.member_of(room.state.audience.members[1].token) == 1
    assert list(again.state.game.totals) == totals


class Disk:
    """A journal that keeps each write's events (one list a transaction), or refuses writes while `full`."""

    def __init__(self) -> None:
        self.writes: list[list[dict]] = []
        self.full = False

    def __call__(self, code: str, events: list[dict]) -> None:
        if self.full:
            raise NotSaved("disk full")
        self.writes.append(events)


def fans_in(room: Room, *names: str) -> list[str]:
    """Members of the audience joined in-process, each connected with its token; their connections."""
    sids = []
    for name in names:
        room.attach(f"new-{name}", Viewer("audience"))
        _, token = room.audience.join(f"new-{name}", room.viewers[f"new-{name}"], name)
        room.detach(f"new-{name}")
        room.attach(f"sid-{name}", Viewer("audience", token))
        sids.append(f"sid-{name}")
    return sids


def test_picks_that_come_together_are_written_together_before_anything_after_them_and_made_only_once_kept() -> None:
    disk = Disk()
    room = Room("PICK", _variants(), "party", lambda *a: None, record=disk)
    room.attach("tv", Viewer("host", room.host_token))
    for name in ("Ana", "Bob", "Cy"):
        room.join(f"sid-{name}", name)
    zoe, max_ = fans_in(room, "Zoe", "Max")
    tickets = [room.audience.pick(zoe, "first", "Bob"), room.audience.pick(max_, "first", "Cy"),
               room.audience.pick(zoe, "first", "Ana")]
    assert [t.leader for t in tickets] == [True, False, False]  # the first writes the batch
    assert room.state.audience.round.picks == {} and not any(t.kept.is_set() for t in tickets)  # not kept: not made
    written = len(disk.writes)
    room.start(seed=1)  # the room's next write takes the queued picks first, in the order they came
    batch = disk.writes[written]
    # Zoe's Bob is not written: her Ana, later in the same batch, replaced it (a flood of picks writes one each).
    assert [(e.get("do"), e.get("option")) for e in batch[:2]] == [("pick", "Cy"), ("pick", "Ana")]
    assert len(batch) > 2 and not any(e.get("do") == "pick" for e in batch[2:])  # then the room's own change
    for ticket in tickets:
        ticket.result()  # kept: no refusal
    assert room.state.audience.round.picks == {(0, "first"): "Ana", (1, "first"): "Cy"}  # Zoe's last pick stands

    # A burst written by its leader: one write for them all.
    written = len(disk.writes)
    tickets = [room.audience.pick(zoe, "worst", "Cy"), room.audience.pick(max_, "worst", "Ana")]
    tickets[0].wait()  # the leader (in-process: nothing else to let in) writes the batch
    assert len(disk.writes) == written + 1 and [e["option"] for e in disk.writes[-1]] == ["Cy", "Ana"]
    tickets[1].wait()

    # The disk refuses: every pick of the batch is refused, none is made; the next write goes through.
    disk.full = True
    before = room.state.audience
    tickets = [room.audience.pick(zoe, "worst", "Ana"), room.audience.pick(max_, "worst", "Bob")]
    room.audience.commit()
    for ticket in tickets:
        with refused(NotKept, "save"):
            ticket.result()
    assert room.state.audience == before and room.audience.queue == []
    disk.full = False
    pick_now(room, max_, "worst", "Bob")
    assert room.state.audience.round.picks[(1, "worst")] == "Bob"


def test_the_audience_never_moves_a_players_score() -> None:
    """The same hands entered with and without an audience predicting: the same totals, hand by hand."""
    plain, crowded = real_room(), real_room()
    crowded.attach("fan", Viewer("audience"))
    _, token = crowded.audience.join("fan", crowded.viewers["fan"], "Zoe")
    crowded.attach("fan2", Viewer("audience", token))
    for room in (plain, crowded):
        room.start()
        room.flush()
    for first, points in ((0, {0: 0, 1: 12, 2: 7}), (2, {0: 30, 1: 1, 2: 0})):
        pick_now(crowded, "fan2", "worst", "Bob")
        for room in (plain, crowded):
            play_real_hand(room, first, points)
            assert room.state.game.hand.phase.value == "scored"
            room.call_now()
        assert list(plain.state.game.totals) == list(crowded.state.game.totals)
    assert crowded.state.audience.points[0] == 50 and crowded.state.audience.last.status == "resolved"  # Bob, once


def test_the_round_closes_on_the_first_draw_and_counts_down_to_it(party) -> None:
    from dataclasses import replace

    class Clock:
        now = 100.0

        def __call__(self) -> float:
            return self.now

    clock, sent = Clock(), []
    variants = {"party": replace(party, match_window_s=8, beat_s=0.5, hurry_after_s=0)}
    room = Room("TICK", variants, "party", lambda sid, event, data: sent.append((sid, event, data)), clock)
    room.attach("tv", Viewer("host", room.host_token))
    for name in ("Ana", "Bob"):
        room.join(f"sid-{name}", name)
    room.attach("fan", Viewer("audience"))
    _, token = room.audience.join("fan", room.viewers["fan"], "Zoe")
    room.attach("zoe", Viewer("audience", token))
    room.start(seed=1)
    room.flush()
    tables = [d for sid, e, d in sent if sid == "zoe" and e == "table"]
    assert tables[-1]["changes"]["room"]["audience"]["round"]["closes_in"] == [8.0]
    clock.now = 103.0
    assert room.audience.state_for("zoe")["table"]["room"]["audience"]["round"]["closes_in"] == 5.0
    pick_now(room, "zoe", "first", "Bob")
    clock.now = 108.0
    room.settle()  # "Draw!"
    assert room.state.game.hand.phase.value == "draw" and room.state.audience.round.status == "closed"
    closed = [d for sid, e, d in sent if sid == "zoe" and e == "table"][-1]["changes"]["room"]["audience"]["round"]
    assert closed["status"] == ["closed"] and closed["split"] == [{"first": {"Bob": 1}, "under": {}, "worst": {}}]


@pytest.mark.slow
def test_an_audience_of_two_hundred_from_two_hundred_addresses_gets_in_beside_a_full_table() -> None:
    """A server that counts only 127.0.0.1 as the laptop (tests/lan_server.py): twelve players and two hundred members
    of the audience, each from an address of its own (127.0.0.2 and up), all get in under the guests' shares as
    shipped; the two hundred and first is refused by the audience's size, not by the server's shares."""
    from concurrent.futures import ThreadPoolExecutor

    server = lan_server({})
    try:
        with Night(server=server) as night:
            for n in range(12):
                night.client(f"Player {n + 1}", source=guest(n + 1))

            def fan(n: int) -> None:
                client = night.client(role="audience", source=guest(13 + n))
                ack = client.call("audience_join", {"name": f"Fan {n + 1}"})
                assert ack["ok"], ack

            with ThreadPoolExecutor(16) as pool:
                list(pool.map(fan, range(200)))
            fans = [c for c in night.clients if c.role == "audience"]
            assert night.host.wait_for(lambda s: audience(s)["members"] == 200 and audience(s)["full"], timeout=30)
            assert all(f.sio.connected and f.state["room"]["you"]["member"] is not None for f in fans)
            late = night.client(role="audience", source=guest(240))
            refusal = late.call("audience_join", {"name": "One too many"})["error"]
            assert refusal["code"] == "refused" and "200" in refusal["message"]
    finally:
        server.stop()
