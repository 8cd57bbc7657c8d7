"""Where a night of several tables seats its guests: balanced tables, whatever the order they come in or how the
host seats them again."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from partyrummy.night.seating import balance, emptiest, final, mix

tables_st = st.integers(min_value=2, max_value=4)


def sizes_of(where: dict[str, int], tables: int) -> list[int]:
    return [sum(1 for t in where.values() if t == n) for n in range(tables)]


@given(tables_st, st.integers(min_value=0, max_value=48))
def test_newcomers_one_by_one_keep_the_tables_within_one(tables: int, guests: int) -> None:
    sizes = [0] * tables
    for _ in range(min(guests, 12 * tables)):
        table = emptiest(sizes, 12)
        assert table is not None
        sizes[table] += 1
        assert max(sizes) - min(sizes) <= 1
    if guests >= 12 * tables:
        assert emptiest(sizes, 12) is None  # every seat taken: the rest go to the audience


@given(tables_st, st.lists(st.integers(min_value=0, max_value=3), min_size=0, max_size=48), st.integers())
def test_every_reseat_balances_and_keeps_everyone(tables: int, at: list[int], seed: int) -> None:
    where = {f"g{i}": t % tables for i, t in enumerate(at)}
    ranking = sorted(where, reverse=True)
    for plan in (mix(where, tables, seed), balance(where, tables), final(where, tables, ranking)):
        assert set(plan) == set(where)
        sizes = sizes_of(plan, tables)
        assert max(sizes) - min(sizes) <= 1, sizes


def test_balance_moves_as_few_as_it_must() -> None:
    where = {"a": 0, "b": 0, "c": 0, "d": 0, "e": 1}
    plan = balance(where, 2)
    assert sum(plan[k] != where[k] for k in where) == 1
    assert balance({"a": 0, "b": 1, "c": 0}, 2) == {"a": 0, "b": 1, "c": 0}  # already balanced: nobody moves


def test_the_final_table_seats_the_leaders_at_table_one() -> None:
    where = {f"g{i}": i % 3 for i in range(30)}
    ranking = [f"g{i}" for i in (29, 3, 17, 8, 11, 0, 22, 5, 14, 26, 1, 2)]
    plan = final(where, 3, ranking)
    assert {k for k, t in plan.items() if t == 0} == set(ranking[:10])


def test_a_mix_is_drawn_from_its_seed() -> None:
    where = {f"g{i}": 0 for i in range(20)}
    assert mix(where, 2, 7) == mix(where, 2, 7)
    assert mix(where, 2, 7) != mix(where, 2, 8)
