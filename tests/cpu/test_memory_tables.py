"""The Zwick–Paterson tables: known values, the NumPy solver against the reference, the pass rule."""
from fractions import Fraction

import numpy as np
import pytest

from games.cpu import memory_tables as mt


def margin(table, **counts):
    value = table.value_of(counts)
    return value[0] - value[1]


def test_two_player_margins_of_the_paper_exactly():
    exact = mt.solve_reference(mt.PAIRS, 4, 2, exact=True)
    assert margin(exact, pair=1) == 1
    assert margin(exact, pair=2) == Fraction(-2, 3)
    assert margin(exact, pair=3) == Fraction(-1, 5)
    assert margin(exact, pair=4) == Fraction(-4, 35)


def test_one_player_expected_turns_exactly():
    exact = mt.solve_reference(mt.PAIRS, 5, 1, exact=True)

    def turns(n):
        return -exact.value_of({"pair": n})[0] + n  # failed turns + one turn per pair

    assert turns(2) == Fraction(8, 3)
    assert turns(3) == Fraction(13, 3)
    assert turns(4) == Fraction(622, 105)
    assert turns(5) == Fraction(7137, 945)


def test_start_values_as_memory_values_prints_them():
    rows = mt.start_values("colour", 2, 4, exact=True)
    assert rows == [(1, 1), (2, Fraction(-2, 3)), (3, Fraction(-1, 5)), (4, Fraction(-4, 35))]
    floats = mt.start_values("colour", 2, 27)
    assert [n for n, _ in floats] == list(range(1, 28))
    assert floats[3][1] == pytest.approx(-4 / 35, abs=1e-12)
    assert mt.start_values("colour", 1, 3, exact=True)[1:] == [(2, Fraction(8, 3)), (3, Fraction(13, 3))]
    assert [n for n, _ in mt.start_values("rank", 2, 9)] == [2, 4, 6, 8]
    three = mt.start_values("rank", 3, 4)
    assert three[0] == (2, (2.0, 0.0, 0.0))  # one rank of four: the first player takes both pairs
    with pytest.raises(ValueError):
        mt.start_values("zebra", 2, 60)


def test_rank_rule_small_cases_by_hand():
    exact = mt.solve_reference(mt.RANK, 2, 2, exact=True)
    # One rank of four: the first player takes everything.
    assert exact.value_of({"four": 1}) == (2, 0)
    # One rank of two: the first player takes it.
    assert exact.value_of({"two": 1}) == (1, 0)
    # One rank with a known card: the next unseen card always matches it.
    assert exact.value_of({"four_known": 1}) == (2, 0)


@pytest.mark.parametrize("structure, size", [(mt.PAIRS, 6), (mt.RANK, 4), (mt.ZEBRA, 3)])
def test_numpy_solver_agrees_with_the_reference(structure, size):
    for players in range(1, 7):
        for one_flip in (False, True):
            reference = mt.solve_reference(structure, size, players, one_flip)
            fast = mt.solve(structure, size, players, one_flip)
            assert len(reference.values) == int((fast.rows >= 0).sum())
            for key, value in reference.values.items():
                row = fast.rows[key]
                assert np.allclose(fast.values[row], value, atol=1e-12, rtol=0)
                assert np.allclose(fast.actives[row], reference.actives[key], atol=1e-12, rtol=0)
                for opened in range(len(structure.opens)):
                    assert fast.known_second[row, opened] == bool(reference.known_second[key] >> opened & 1)


def test_every_table_the_site_uses_builds_from_scratch_whole(monkeypatch):
    """What a server builds on first use, at full size: a row for every position, no value
    left unsolved. How long it takes is bench/memory_bench.py's to measure."""
    monkeypatch.setattr(mt, "_LAYOUTS", {})  # from scratch: the shared arrays of each rule too
    for name, players, one_flip in mt.all_table_keys():
        structure, size = mt.STRUCTURES[name], mt.FULL_SIZE[name]
        built = mt.solve(structure, size, players, one_flip)
        assert int((built.rows >= 0).sum()) == len(mt._states(structure, size)) == len(built.values)
        assert np.isfinite(built.values).all() and np.isfinite(built.actives).all()


@pytest.mark.parametrize("name", ["pairs", "rank", "zebra"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_expected_pairs_add_up_to_the_pairs_left(name, players):
    table = mt.table(name, players)
    structure = table.structure
    lay_counts = mt._states(structure, mt.FULL_SIZE[name])
    pairs_left = {"pairs": {"pair": 1, "half_known": 1}, "rank": {"four": 2, "four_known": 2, "two": 1, "two_known": 1},
                  "zebra": {"four": 2, "four_known": 2, "four_known_two": 2, "two": 1, "two_known": 1}}[name]
    pairs_left = {**pairs_left, "jokers": 2, "joker_known": 2}
    for counts in lay_counts[::7]:
        by_name = {t.name: c for t, c in zip(structure.types, counts, strict=True)}
        total = sum(pairs_left[n] * c for n, c in by_name.items())
        assert sum(table.value_of(by_name)) == pytest.approx(total, abs=1e-9)


def test_one_move_and_zero_move_are_both_used():
    table = mt.table("pairs", 2)
    assert table.known_second.any()  # the 1-move (a known card second) is sometimes best
    # n = 5 pairs, 4 of them half known: moving loses for the mover, so it passes.
    row = table.row({"pair": 1, "half_known": 4})
    active = table.active(row)
    assert active[0] - active[1] == pytest.approx(-1 / 3)
    assert mt.chain_outcome(active, 0) == (active, True)


def test_pass_round_two_players():
    losing = (1.0, 3.0)   # the mover would lose by moving
    winning = (3.0, 1.0)
    # First to pass: the opponent passes back, then the first must move: same value, but a
    # pass gains against an opponent who moves instead.
    assert mt.chain_outcome(losing, 0) == (losing, True)
    # The opponent passed first: pass back, it must move.
    assert mt.chain_outcome(losing, 1) == ((3.0, 1.0), True)
    assert mt.chain_outcome(winning, 0) == (winning, False)
    assert mt.chain_outcome(winning, 1) == (winning, False)


def test_pass_round_three_players():
    # Moving is worth 1 to whoever moves and more to the others: both others would rather the
    # mover moved, so the round comes back to it. Its pass costs nothing and gains if the
    # next seat moves instead.
    assert mt.chain_outcome((1.0, 2.0, 3.0), 0) == ((1.0, 2.0, 3.0), True)
    # Moving is worth most to the mover: everybody moves at once, nobody passes.
    assert mt.chain_outcome((2.0, 1.0, 1.5), 0) == ((2.0, 1.0, 1.5), False)
    # Two passes already: the next seat passed first and must move; pass iff that is better.
    active = (1.0, 2.0, 3.0)
    assert mt.chain_outcome(active, 2) == ((3.0, 1.0, 2.0), True)
    assert mt.chain_outcome((2.0, 1.0, 1.5), 2) == ((2.0, 1.0, 1.5), False)


def test_rotate_is_numpy_roll():
    vec = (1.0, 2.0, 3.0, 4.0)
    for steps in range(6):
        assert mt.rotate(vec, steps) == tuple(np.roll(vec, steps))
