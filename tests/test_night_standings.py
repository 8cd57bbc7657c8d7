"""The night's standings: the totals of every game, and the duplicate score of players dealt the same cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from partyrummy.night.standings import Played, standings
from partyrummy.night.state import Table


def played(
    table: int, guests: list[str], points: list[list[int]], duplicate: bool = True, real: bool = False
) -> Played:
    held = Table(f"R{table}", 0, tuple(guests), duplicate, real)
    return Played(table, held, tuple(g.upper() for g in guests), tuple(tuple(p) for p in points))


def test_each_player_is_compared_with_the_same_seat_elsewhere() -> None:
    one = played(0, ["a", "b"], [[0, 10], [5, 0]])
    two = played(1, ["c", "d"], [[4, 10], [5, 2]])
    three = played(2, ["e", "f"], [[2, 4], [5, 0]])
    night = standings([[one, two, three]], {}, {})
    rows = {r.key: r for r in night.rows}
    assert night.ranked_by == "duplicate"
    # a: hand 1 0 against (4+2)/2 = 3, hand 2 10 against (10+4)/2 = 7: -3 + 3 = 0
    assert rows["a"].duplicate == 0 and rows["a"].total == 10 and rows["a"].hands_compared == 2
    assert rows["e"].duplicate == (2 - 2) + (4 - 10)  # -6: the best at seat 1
    assert rows["d"].duplicate == (5 - 5) + (2 - 0)
    assert night.rows[0].key == "e"  # ranked by the duplicate score: lowest first


@given(st.lists(st.lists(st.integers(0, 80), min_size=3, max_size=3), min_size=2, max_size=4))
def test_a_seat_s_duplicate_scores_sum_to_zero(hands: list[list[int]]) -> None:
    """Against the others' average, the players of one seat gain what the others lose: par is 0."""
    tables = [played(t, [f"p{t}"], [row]) for t, row in enumerate(hands)]
    rows = standings([tables], {}, {}).rows
    assert abs(sum(r.duplicate for r in rows)) < 0.05 * len(rows)


def test_unequal_or_real_tables_are_ranked_by_totals() -> None:
    ten = played(0, ["a", "b", "c"], [[1], [2], [3]])
    eleven = played(1, ["d", "e"], [[0], [9]])
    night = standings([[ten, eleven]], {}, {})
    assert night.ranked_by == "totals" and [r.key for r in night.rows] == ["d", "a", "b", "c", "e"]
    assert all(r.duplicate is None for r in night.rows)  # compared with nobody
    real = played(1, ["d", "e", "f"], [[0], [9], [1]], real=True)
    assert standings([[ten, real]], {}, {}).ranked_by == "totals"


def test_the_night_adds_up_every_game_by_guest() -> None:
    first = [played(0, ["a", "b"], [[3, 4], [0, 1]]), played(1, ["c", "d"], [[1, 1], [2, 2]])]
    second = [played(0, ["d", "a"], [[5], [5]]), played(1, ["b", "c"], [[0], [9]])]
    night = standings([first, second], {"a": "Ana", "z": "Zoe"}, {"a": 1, "z": 0})
    rows = {r.key: r for r in night.rows}
    assert night.rows[-1].key == "z" and rows["z"].games == 0  # just come: on the board, after those who played
    assert rows["a"].games == 2 and rows["a"].total == 7 + 5 and rows["a"].name == "Ana" and rows["a"].table == 1
    assert rows["c"].total == 2 + 9


def test_ties_share_a_place_and_more_games_rank_first() -> None:
    one = played(0, ["a", "b", "c"], [[5], [5], [9]], duplicate=False)
    two = played(1, ["d"], [[0]], duplicate=False)
    again = played(0, ["a", "b"], [[1], [1]], duplicate=False)
    rows = standings([[one, two], [again]], {}, {}).rows
    assert [(r.key, r.place) for r in rows] == [("a", 1), ("b", 1), ("d", 3), ("c", 4)]
