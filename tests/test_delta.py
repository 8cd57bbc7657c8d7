"""Small updates of views (partyrummy/delta.py): a client's copy made from updates is the view itself."""

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

from partyrummy.delta import Replica, apply, apply_update, diff, update

from .strategies import edited, json_values, view_histories

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


@given(view_histories())
def test_a_replica_fed_every_update_holds_every_view(views) -> None:
    replica = Replica()
    assert replica.full(views[0])
    for old, new in zip(views, views[1:], strict=False):
        assert replica.receive(wire(update(old, new)))
        assert replica.state == new and not replica.behind


@given(view_histories(), st.randoms(use_true_random=False))
def test_updates_out_of_order_wait_for_the_one_they_follow(views, rng: random.Random) -> None:
    messages = [update(old, new) for old, new in zip(views, views[1:], strict=False)]
    rng.shuffle(messages)
    replica = Replica()
    replica.full(views[0])
    for message in messages:
        replica.receive(message)
    assert replica.state == views[-1] and not replica.behind


@given(view_histories(), st.data())
def test_a_missed_update_leaves_the_copy_behind_until_a_full_state(views, data) -> None:
    replica = Replica()
    replica.full(views[0])
    lost = data.draw(st.integers(0, len(views) - 2))
    for i, (old, new) in enumerate(zip(views, views[1:], strict=False)):
        if i != lost:
            replica.receive(update(old, new))
    assert replica.state == views[lost]  # it stopped where the gap is
    assert replica.behind == (lost < len(views) - 2)  # and knows it, once an update after the gap came
    assert replica.full(views[-1])
    assert replica.state == views[-1] and not replica.behind
    assert not replica.receive(update(views[-2], views[-1]))  # old news now: dropped


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
    assert apply_update(old, message) == new
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
