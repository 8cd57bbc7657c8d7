"""variants.toml: every knob written out and each one changing its rule, clear messages for mistakes,
and the `partyrummy variants` command."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from partyrummy.phones import game as engine
from partyrummy.phones.commands import Call
from partyrummy.phones.hand import Phase, deal
from partyrummy.phones.views import view_for
from partyrummy.rules.cards import parse_cards
from partyrummy.rules.melds import best_arrangement
from partyrummy.rules.scoring import winners
from partyrummy.rules.variants import Variant, VariantError, load_variants


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


def refusal(tmp_path: Path, variants: dict[str, Variant], body: str) -> VariantError:
    """The one error a rules file of `body` is refused with."""
    with pytest.raises(VariantError) as error:
        load_variants(write(tmp_path, body), base=variants)
    return error.value


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
    said = str(refusal(tmp_path, variants, body))
    assert "rules.toml" in said and expected in said


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
    # Blamed on the line that changed the count (the decks are inherited), not on the table's line.
    assert run.stderr.strip() == (
        "partyrummy: rules.toml, line 4: variant 'mine', key 'max_players': 40 players with 13-card hands "
        "need 600 cards (hands, piles and a first draw), but 4 decks hold only 208"
    )


def test_a_check_reports_every_problem_at_once_each_on_its_own_line(tmp_path: Path, variants) -> None:
    body = """\
        [one]
        extends = "party"
        description = "d"
        aces = "high"
        jokerz = 2
        beat_s = -1

        [two]
        extends = "one-that-is-not"
        """
    assert refusal(tmp_path, variants, body).problems == [
        "rules.toml, line 4: variant 'one', key 'aces': should be \"low\" or \"low-or-high\", not 'high'",
        "rules.toml, line 5: variant 'one', key 'jokerz': unknown key (known keys: "
        + ", ".join(sorted(f.name for f in dataclasses.fields(Variant) if f.name != "name"))
        + ")",
        "rules.toml, line 9: variant 'two', key 'extends': there is no variant named 'one-that-is-not'",
    ]
    refused = run_cli("variants", "--check", str(write(tmp_path, body)))
    assert refused.returncode == 2 and refused.stderr.count("partyrummy: rules.toml, line ") == 3
    # Once the key's type is right, the numbers are checked too, all of them.
    numbers = refusal(tmp_path, variants, '[x]\nextends = "party"\nmin_players = 1\njokers = -1\nbeat_s = -1\n')
    assert [p.split(":")[0] for p in numbers.problems] == [f"rules.toml, line {n}" for n in (3, 4, 5)]


def test_a_toml_mistake_at_the_end_of_the_file_has_its_line(tmp_path: Path, variants) -> None:
    unfinished = refusal(tmp_path, variants, '[x]\nextends = "party"\ndescription = "unfinished\n')
    assert re.search(r"^rules.toml, line 3: not valid TOML: ", str(unfinished))
    cut = refusal(tmp_path, variants, '[x]\nextends = "party"\nbeat_s =')
    assert re.search(r"^rules.toml, line 3: not valid TOML: .* at the end of the file$", str(cut))


def test_a_file_may_change_a_shipped_variant_by_name_with_only_its_changed_keys(tmp_path: Path, variants) -> None:
    alone = load_variants(write(tmp_path, "[party]\nhints = false\n"), base=variants)
    assert alone["party"] == replace(variants["party"], hints=False)
    assert alone["quick"] == variants["quick"]  # what extends it in the shipped file stays as shipped
    same = load_variants(write(tmp_path, '[party]\nextends = "party"\nbeat_s = 3\n'), base=variants)
    assert same["party"] == replace(variants["party"], beat_s=3)  # the shipped one, not a circle
    mine = load_variants(write(tmp_path, '[party]\nbeat_s = 3\n[family]\nextends = "party"\nhints = false\n'), variants)
    assert mine["family"] == replace(variants["party"], name="family", beat_s=3, hints=False)
    assert "circle" in str(refusal(tmp_path, variants, '[a]\nextends = "b"\n[b]\nextends = "a"\n'))


# -- Each house-rule knob changes the rule it names ---------------------------


def penalty(variant: Variant, cards: str, wild: int | None) -> int:
    return best_arrangement(parse_cards(cards), wild, variant.meld_rules()).penalty


def test_wild_penalty_prices_an_orphaned_wild(variants) -> None:
    # Hand 1 (3s wild): a lone 3♣ melds with nothing, so it is an orphan.
    assert penalty(variants["party"], "3C", 3) == 3  # its face value
    assert penalty(variants["app"], "3C", 3) == 15


def test_joker_penalty_prices_an_orphaned_joker(variants) -> None:
    assert penalty(variants["app"], "JK", 3) == 20
    assert penalty(dataclasses.replace(variants["app"], joker_penalty=50), "JK", 3) == 50


def test_aces_low_or_high_makes_q_k_a_a_run_and_a_high_ace_costs_15(variants) -> None:
    assert penalty(variants["party"], "QH KH AH", None) == 21
    assert penalty(variants["highaces"], "QH KH AH", None) == 0
    assert penalty(variants["party"], "AH 2H 3H", None) == penalty(variants["highaces"], "AH 2H 3H", None) == 0
    assert penalty(variants["highaces"], "AS 5H 9C", None) == 15 + 5 + 9
    assert penalty(variants["party"], "AS 5H 9C", None) == 1 + 5 + 9
    assert penalty(variants["highaces"], "KS AS 2S", None) > 0  # runs never wrap


def test_the_tie_rule_of_the_app_gives_no_winner(variants) -> None:
    for name, won in (("party", (0, 1)), ("app", ())):
        assert winners(variants[name], (5, 5, 9)) == won


def test_a_quick_game_deals_fewer_hands_with_their_own_wilds(variants) -> None:
    quick = variants["quick"]
    assert quick.hands == 5 and [quick.wild_rank(h) for h in range(1, 6)] == [5, 6, 7, 8, 9]
    hand, _ = deal(quick, 4, seed=1, hand_no=5)
    assert [len(h) for h in hand.hands] == [9] * 4


def test_jokers_go_into_the_shoe_and_are_wild_in_every_hand(variants) -> None:
    for name, jokers in (("app", 2), ("app4", 4), ("classic", 0)):
        hand, _ = deal(variants[name], 4, seed=1, hand_no=3)
        assert sum(1 for face in hand.faces if face.rank == 0) == jokers
    assert penalty(variants["app4"], "JK 7H 8H", 9) == 0  # a joker completes the run in any hand


def test_hints_off_sends_no_hint_to_phones(variants) -> None:
    quiet = dataclasses.replace(variants["party"], hints=False)
    for variant, has_hint in ((variants["party"], True), (quiet, False)):
        game, _ = engine.new_game(variant, 3, 1)
        assert (view_for(game, 0)["you"]["hint"] is not None) is has_hint


def test_pacing_decides_who_acts_and_how_many_piles(variants) -> None:
    for name, turns, piles in (("party", False, 4), ("classic", True, 1)):
        game, _ = engine.new_game(variants[name], 4, 1)
        if game.hand.phase is Phase.SETUP:
            game, _ = engine.apply(game, Call())
        # Everyone at once, or only the player on the dealer's left.
        acting = [(game.hand.dealer + 1) % 4] if turns else [0, 1, 2, 3]
        assert game.hand.waiting_for() == acting and len(game.hand.piles) == piles


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('pacing = "solo"', 'key \'pacing\': should be "caller" or "turns"'),
        ("decks = { 2 = 1, 4 = 2 }", "key 'decks': says nothing for 12 players"),
        ("decks = { two = 1, 12 = 4 }", "key 'decks': 'two' is not a number of players"),
        ("decks = { 4 = 1, 12 = 4 }", "key 'decks': 4 players with 13-card hands need 60 cards"),
    ],
)
def test_pacing_and_deck_table_mistakes(tmp_path: Path, variants, body: str, expected: str) -> None:
    assert expected in str(refusal(tmp_path, variants, f'[x]\nextends = "party"\ndescription = "d"\n{body}\n'))


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "partyrummy", *args], capture_output=True, text=True, timeout=60)


def test_the_variants_command_lists_and_checks(tmp_path: Path, variants) -> None:
    listing = run_cli("variants")
    assert listing.returncode == 0
    for name, variant in variants.items():
        assert any(line.startswith(name + " ") and variant.description in line for line in listing.stdout.splitlines())
    good = write(tmp_path, '[mine]\nextends = "app"\ndescription = "Ours, with 4 jokers"\njokers = 4\n')
    checked = run_cli("variants", "--check", str(good))
    assert (
        checked.returncode == 0
        and "fine (1 variant: mine)" in checked.stdout
        and "Ours, with 4 jokers" in checked.stdout
    )
    bad = write(tmp_path, '[mine]\nextends = "app"\ndescription = "d"\njokerz = 4\n')
    refused = run_cli("variants", "--check", str(bad))
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert "rules.toml, line 4: variant 'mine', key 'jokerz': unknown key" in refused.stderr


def test_a_check_lists_the_problems_in_the_files_order(tmp_path: Path, variants) -> None:
    body = """\
        [party]
        hints = "no"
        aces = "high"
        """
    lines = [problem.split(":")[0] for problem in refusal(tmp_path, variants, body).problems]
    assert lines == ["rules.toml, line 2", "rules.toml, line 3"]  # hints before aces, as written
