"""Small updates of views (partyrummy/wire/delta.py): a client's copy made from updates is the view
itself."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partyrummy.wire.delta import Replica, apply, changes, diff, merge, update

from .strategies import edited, json_values

ROOT = Path(__file__).resolve().parent.parent


def wire(value):
    """As a client receives it: JSON text, decoded."""
    return json.loads(json.dumps(value))


@st.composite
def pairs(draw: st.DrawFn):
    old = draw(json_values)
    return old, draw(edited(old))


@given(pairs())
def test_applying_the_changes_to_the_old_value_gives_the_new_one(pair) -> None:
    old, new = pair
    before = copy.deepcopy(old)
    change = diff(old, new)
    assert apply(old, change) == new
    assert apply(wire(old), wire(change)) == wire(new)  # over the wire too: the changes are plain JSON
    assert old == before  # nothing changed in place
    assert change is not None or old == new


@given(json_values, json_values)
def test_unrelated_values_round_trip_too(old, new) -> None:
    assert apply(old, diff(old, new)) == new


@given(st.dictionaries(st.text(max_size=3), json_values), st.dictionaries(st.text(max_size=3), json_values))
def test_an_objects_changes_go_by_key(old, new) -> None:
    """What a `table` or `mine` update carries: an object of changes by key, and nothing when nothing changed."""
    found = changes(old, new)
    assert found is None if old == new else isinstance(found, dict)
    if "id" not in old and "id" not in new:  # (an object with another id is another thing: its keys go whole)
        assert apply(old, found) == new


def test_another_thing_altogether_goes_as_each_of_its_keys_whole() -> None:
    assert changes({"id": 1, "a": 1}, {"id": 2, "a": 1, "b": [3]}) == {"id": [2], "a": [1], "b": [[3]]}


@st.composite
def broadcasts(draw: st.DrawFn, max_steps: int = 6) -> tuple[list[dict], list[dict], list[tuple[str, dict]]]:
    """A room's views over time, as the server sends them: the states a client could be sent (`table`, its own
    part `mine`, and their versions), and the messages of each broadcast: the table's changes when it changed,
    and then the viewer's own part's, which comes too when the table changed (to go with it)."""

    def part(room_you: bool) -> dict:
        room = {"you": draw(json_values)} if room_you else draw(st.dictionaries(st.sampled_from("abc"), json_values))
        return {"room": room, "game": draw(st.one_of(st.none(), st.fixed_dictionaries({"x": json_values})))}

    table, mine = part(False), part(True)
    table["game"] = table["game"] or {"x": 0}
    states = [{"v": 1, "table_v": 1, "table": table, "mine": mine}]
    messages: list[tuple[str, dict]] = []
    table_v = mine_v = 1
    for step in range(2, 2 + draw(st.integers(1, max_steps))):
        new_table, new_mine = table, mine
        if draw(st.booleans()):
            new_table = {**table, "room": draw(st.dictionaries(st.sampled_from("abc"), json_values))}
        if draw(st.booleans()):
            new_mine = {**mine, "room": {"you": draw(json_values)}}
        table_changed = new_table != table
        if table_changed:
            messages.append(("table", {"v": step, "base": table_v, "changes": diff(table, new_table)}))
            table, table_v = new_table, step
        if table_changed or new_mine != mine:
            change = diff(mine, new_mine) or {}
            messages.append(("mine", {"v": step, "base": mine_v, "table_v": table_v, "changes": change}))
            mine, mine_v = new_mine, step
        states.append({"v": step, "table_v": table_v, "table": table, "mine": mine})
    return states, messages


def shown(state: dict) -> dict:
    """The whole view a state makes: the table with the viewer's own part in it."""
    return merge(state["table"], state["mine"])


def held(replica: Replica) -> dict:
    """The whole view a replica holds, without its version."""
    return {k: v for k, v in replica.state.items() if k != "v"}


@given(broadcasts())
def test_a_replica_fed_every_update_holds_every_view(history) -> None:
    states, messages = history
    replica = Replica()
    assert replica.full(wire(states[0]))
    for event, message in messages:
        replica.receive(event, wire(message))
    assert held(replica) == shown(states[-1]) and not replica.behind


@given(broadcasts(), st.randoms(use_true_random=False))
def test_updates_out_of_order_wait_for_the_one_they_follow(history, rng: random.Random) -> None:
    states, messages = history
    rng.shuffle(messages)
    replica = Replica()
    replica.full(states[0])
    for event, message in messages:
        replica.receive(event, message)
    assert held(replica) == shown(states[-1]) and not replica.behind


def test_a_new_table_waits_for_the_viewers_own_part_of_the_same_moment() -> None:
    """The two parts of one broadcast show together: never a new table with an old hand (or none)."""
    first = {"v": 1, "table_v": 1, "table": {"room": {}, "game": None}, "mine": {"room": {"you": 1}, "game": None}}
    replica = Replica()
    replica.full(first)
    table = {"v": 2, "base": 1, "changes": {"game": [{"phase": "draw"}]}}
    mine = {"v": 2, "base": 1, "table_v": 2, "changes": {"game": [{"you": {"hand": [3]}}]}}
    assert not replica.receive("table", table)  # a game began: the view waits for this seat's hand
    assert held(replica) == shown(first)
    assert replica.receive("mine", mine)
    assert replica.state["game"] == {"phase": "draw", "you": {"hand": [3]}}
    again = Replica()
    again.full(first)
    assert not again.receive("mine", mine)  # the other way round too
    assert again.receive("table", table) and again.state == replica.state


def test_the_moments_of_a_tables_updates_come_with_the_view_they_make_and_never_with_a_whole_one() -> None:
    first = {"v": 1, "table_v": 1, "table": {"room": {}, "game": None}, "mine": {"room": {"you": 1}, "game": None}}
    replica = Replica()
    replica.full(first)
    assert replica.moments == []
    table = {"v": 2, "base": 1, "changes": {"game": [{"phase": "reveal"}]}, "moments": [{"kind": "flip"}]}
    assert not replica.receive("table", table)  # waits for this seat's part of the same moment
    assert replica.receive("mine", {"v": 2, "base": 1, "table_v": 2, "changes": {}})
    assert replica.moments == [{"kind": "flip"}]
    replica.receive("table", {"v": 3, "base": 2, "changes": {}, "moments": [{"kind": "match", "seat": 0}]})
    assert replica.receive("mine", {"v": 3, "base": 2, "table_v": 3, "changes": {}})
    assert replica.moments == [{"kind": "match", "seat": 0}]  # each view its own
    replica.full({**first, "v": 4, "table_v": 4}, force=True)
    assert replica.moments == []  # a whole state: nothing seen happen


@given(broadcasts(), st.data())
def test_a_missed_update_leaves_the_copy_behind_until_a_full_state(history, data) -> None:
    states, messages = history
    if not messages:
        return
    replica = Replica()
    replica.full(states[0])
    lost = data.draw(st.integers(0, len(messages) - 1))
    for i, (event, message) in enumerate(messages):
        if i != lost:
            replica.receive(event, message)
    later = [event for event, _ in messages[lost + 1 :]]
    assert replica.behind == (messages[lost][0] in later)  # it knows, once an update after the gap came
    assert replica.full(states[-1], force=True)
    assert held(replica) == shown(states[-1]) and not replica.behind


def test_null_is_a_value_and_a_deletion_is_said_explicitly() -> None:
    assert diff({"a": 1}, {"a": None}) == {"a": [None]}
    assert diff({"a": None}, {}) == {"a": []}
    assert diff({}, {"a": None}) == {"a": [None]}
    assert apply({"a": None, "b": 2}, {"a": []}) == {"b": 2}


def test_lists_change_by_index_grow_and_shrink_or_go_whole() -> None:
    assert diff([1, 2, 3, 4], [1, 2, 9, 4]) == {"2": [9]}
    assert diff([1, 2, 3, 4], [1, 2, 3, 4, 5]) == {"4": [5], "len": 5}
    assert diff([1, 2, 3, 4], [1, 2, 3]) == {"len": 3}
    assert diff([1, 2, 3, 4], [2, 3, 4]) == [[2, 3, 4]]  # a card gone from the front: every item moved
    assert apply([1, 2, 3], {"3": [4], "4": [5], "len": 5}) == [1, 2, 3, 4, 5]


def test_items_changed_in_place_go_as_their_changes_however_many() -> None:
    """At a call every seat changes a field or two: twelve small changes, not the twelve seats again (2.4 KB to
    every phone at every "Draw!" and "Discard!"); items that shifted still send the list whole."""
    seats = [{"seat": i, "name": f"P{i}", "ready": True, "can": []} for i in range(12)]
    called = [seat | {"ready": False, "can": ["draw"]} for seat in seats]
    change = diff(seats, called)
    assert change == {str(i): {"ready": [False], "can": [["draw"]]} for i in range(12)}
    assert apply(seats, change) == called
    hand = [{"id": i, "card": "7H"} for i in range(6)]
    assert diff(hand, hand[1:]) == [hand[1:]]  # a card gone from the front: every item is another


def test_a_card_goes_whole_never_a_field_at_a_time() -> None:
    seven = {"id": 17, "card": "7H", "label": "7♥", "rank": 7, "suit": 2}
    twin = seven | {"id": 69}  # the same face from another deck
    assert diff({"drawn": seven}, {"drawn": twin}) == {"drawn": [twin]}
    assert diff({"top": seven}, {"top": seven | {"label": "7"}}) == {"top": {"label": ["7"]}}


def test_the_update_message_names_its_base_and_version() -> None:
    old = {"v": 41, "room": {"paused": False, "night": []}, "game": None}
    new = {"v": 44, "room": {"paused": True, "night": []}, "game": None}
    message = update(old, new)
    assert message == {"v": 44, "base": 41, "changes": {"room": {"paused": [True]}}}
    assert apply(old, message["changes"]) | {"v": 44} == new
    assert update(old, old | {"v": 42}) == {"v": 42, "base": 41, "changes": {}}


def test_changes_that_do_not_fit_the_value_are_refused() -> None:
    for old, change in [([1], {"5": [2]}), (3, {"a": [1]}), ({"a": 1}, {"a": [1, 2]}), ([1, 2], {"len": 3})]:
        with pytest.raises(ValueError):
            apply(old, change)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
@settings(max_examples=1, deadline=None)
@given(st.lists(pairs(), min_size=200, max_size=200))
def test_the_pages_apply_changes_as_the_server_means_them(cases) -> None:
    """static/js/delta.js's applyChange (the module the pages import), run by node on the same cases, gives the new
    values too."""
    cases = [wire(pair) for pair in cases]
    script = (
        f"import {{ applyChange }} from {json.dumps((ROOT / 'static/js/delta.js').as_uri())};"
        "import fs from 'fs';"
        "const cases = JSON.parse(fs.readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(cases.map(([o, c]) => c === null ? o : applyChange(o, c))));"
    )
    changes = [[old, diff(old, new)] for old, new in cases]
    node = ["node", "--input-type=module", "-e", script]
    done = subprocess.run(node, input=json.dumps(changes), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [new for _, new in cases]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
@settings(max_examples=1, deadline=None)
@given(st.lists(st.tuples(broadcasts(), st.randoms(use_true_random=False)), min_size=50, max_size=50))
def test_the_pages_copy_holds_what_the_servers_does(cases) -> None:
    """static/js/delta.js's replica (the pages' copy of their view), fed the same states and updates in the same
    (shuffled) order as the Python one, shows the same view at every step."""
    runs = []
    for (states, messages), rng in cases:
        rng.shuffle(messages)
        runs.append(wire({"state": states[0], "messages": messages}))
    script = (
        f"import {{ replica }} from {json.dumps((ROOT / 'static/js/delta.js').as_uri())};"
        "import fs from 'fs';"
        "const runs = JSON.parse(fs.readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(runs.map(({ state, messages }) => {"
        "  const copy = replica(); const seen = [copy.full(state) ? copy.state : null];"
        "  for (const [event, message] of messages) seen.push(copy.receive(event, message) ? copy.state : null);"
        "  return [seen, copy.behind];"
        "})));"
    )
    node = ["node", "--input-type=module", "-e", script]
    done = subprocess.run(node, input=json.dumps(runs), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for run, (seen, behind) in zip(runs, json.loads(done.stdout), strict=True):
        copy_ = Replica()
        expected = [copy_.state if copy_.full(run["state"]) else None]
        for event, message in run["messages"]:
            expected.append(copy_.state if copy_.receive(event, message) else None)
        assert seen == expected and behind == copy_.behind
