"""``manage.py simulate memory`` and ``manage.py memory_values``: their printed interfaces."""
import io
import json
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_simulate_memory_prints_the_summary_as_its_last_line():
    lines = run("simulate", "memory", "--players", "2", "--cpu", "hard,medium", "--games", "12",
                "--seed", "5", "--option", "cards=24", "--option", "jokers=true")
    summary = json.loads(lines[-1])
    assert summary["game"] == "memory" and summary["games"] == 12 and summary["players"] == 2
    assert summary["cpu"] == ["hard", "medium"] and summary["unfinished"] == 0
    assert sum(summary["wins"]) + summary["draws"] == 12
    for key in ("mean_score", "mean_winner_score", "seconds"):
        assert key in summary


def test_simulate_memory_solo_reports_failed_flips():
    summary = json.loads(run("simulate", "memory", "--players", "1", "--cpu", "perfect",
                             "--games", "10", "--seed", "1", "--option", "match=colour")[-1])
    assert summary["players"] == 1 and summary["mean_score"] == [26.0]
    assert summary["mean_failed_flips"] > 0


def test_simulate_memory_refuses_bad_options():
    with pytest.raises(CommandError):
        run("simulate", "memory", "--players", "2", "--cpu", "hard,hard", "--games", "1",
            "--option", "match=suit")


def test_memory_values_prints_one_line_per_deck_size():
    lines = run("memory_values", "--players", "2", "--match", "colour", "--max-pairs", "27")
    assert len(lines) == 27
    values = dict(line.split() for line in lines)
    assert [int(n) for n in values] == list(range(1, 28))
    assert float(values["2"]) == pytest.approx(-2 / 3)
    assert float(values["3"]) == pytest.approx(-1 / 5)
    assert float(values["4"]) == pytest.approx(-4 / 35)


def test_memory_values_exact_and_solo():
    lines = run("memory_values", "--players", "1", "--match", "colour", "--max-pairs", "3", "--exact")
    assert lines == ["1 1", "2 8/3", "3 13/3"]
    assert Fraction(run("memory_values", "--max-pairs", "4", "--exact")[-1].split()[1]) == Fraction(-4, 35)
    with pytest.raises(CommandError):
        run("memory_values", "--players", "9")
