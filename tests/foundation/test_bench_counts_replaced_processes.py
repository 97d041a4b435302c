"""bench/machine_load.py's ``used``: the CPU of a service over a window read several times, where
processes come and go (a rooms thread's database connection is replaced every CONN_MAX_AGE)."""
import sys

from tests.live import PROJECT

sys.path.insert(0, str(PROJECT / "bench"))

from machine_load import used  # noqa: E402


def test_it_adds_each_process_growth_between_readings():
    assert used([{1: 10.0, 2: 5.0}, {1: 10.5, 2: 5.25}, {1: 11.0, 2: 5.5}]) == 1.5


def test_it_counts_a_process_born_within_the_window_whole():
    # Process 3 connected after the first reading: everything it used is the window's.
    assert used([{1: 10.0}, {1: 10.5, 3: 0.25}, {1: 11.0, 3: 0.75}]) == 1.75


def test_it_keeps_what_a_replaced_process_used_until_its_last_reading():
    # Process 1 (an old connection) ended after the second reading; 4 replaced it.
    assert used([{1: 10.0}, {1: 10.5}, {4: 0.5}]) == 1.0


def test_it_counts_nothing_for_a_single_reading():
    assert used([{1: 10.0}]) == 0.0
