"""variants.toml: every knob written out, and clear messages for mistakes."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from partyrummy.variants import Variant, VariantError, load_variants


def test_party_variant_is_the_caller_paced_big_group_game(party: Variant) -> None:
    assert party.pacing == "caller"
    assert (party.min_players, party.max_players, party.decks, party.jokers) == (2, 12, 4, 0)
    assert party.hand_sizes == tuple(range(3, 14))
    assert [party.wild_rank(h) for h in (1, 8, 9, 11)] == [3, 10, 11, 13]
    assert party.penalties["A"] == 1 and party.penalties["K"] == 10


def test_the_shipped_file_writes_every_field_out() -> None:
    text = Path(__file__).resolve().parent.parent.joinpath("variants.toml").read_text()
    party_table = text.split("[party]", 1)[1].split("\n[", 1)[0]
    for f in dataclasses.fields(Variant):
        if f.name != "name":
            assert f"\n{f.name} = " in party_table, f.name


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(textwrap.dedent(body))
    return path


def test_extends_changes_only_the_keys_given(tmp_path: Path, variants) -> None:
    path = write(
        tmp_path,
        """
        [quick]
        extends = "party"
        description = "Hands 3 to 7"
        hand_sizes = [3, 4, 5, 6, 7]
    """,
    )
    quick = load_variants(path, base=variants)["quick"]
    assert quick.hand_sizes == (3, 4, 5, 6, 7) and quick.decks == 4 and quick.hands == 5


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            '[x]\nextends = "party"\ndescription = "d"\ndecks = 1\n',
            "line 4: variant 'x', key 'decks': 12 players with 13-card hands need 180 cards",
        ),
        (
            '[x]\nextends = "party"\ndescription = "d"\nwild_cards = 3\n',
            "line 4: variant 'x', key 'wild_cards': unknown key",
        ),
        (
            '[x]\nextends = "party"\ndescription = "d"\ndecks = "four"\n',
            "key 'decks': should be a whole number, or a table of decks by player count ({ 2 = 1, 4 = 2 }), not 'four'",
        ),
        (
            '[x]\nextends = "party"\ndescription = "d"\naces = "high"\n',
            'key \'aces\': should be "low" or "low-or-high"',
        ),
        ('[x]\nextends = "party"\ndescription = "d"\nhand_sizes = [3, 14]\n', "key 'hand_sizes': 14 cards"),
        ('[x]\nextends = "nope"\n', "key 'extends': there is no variant named 'nope'"),
        ('[x]\ndescription = "d"\n', "variant 'x': no value for pacing"),
        ("[x\n", "not valid TOML"),
    ],
)
def test_mistakes_name_the_file_line_variant_key_and_problem(
    tmp_path: Path, variants, body: str, expected: str
) -> None:
    path = write(tmp_path, body)
    with pytest.raises(VariantError) as error:
        load_variants(path, base=variants)
    assert "rules.toml" in str(error.value) and expected in str(error.value)


def test_a_bad_file_stops_the_command_with_one_message_and_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, '[mine]\nextends = "party"\ndescription = "d"\nmax_players = 40\n')
    run = subprocess.run(
        [sys.executable, "-m", "partyrummy", "--variants", str(path), "solve", "5H", "6H", "7H"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "variant 'mine', key 'decks'" in run.stderr
