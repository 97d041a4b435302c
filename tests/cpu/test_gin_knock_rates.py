"""Gin Rummy's CPU levels weigh the undercut risk as docs/gin.md says: easy knocks at every
chance, normal holds back as the stock runs down, hard holds back most (and plays on for gin).
Measured from behaviour on seeded whole games (``games.sim.gin.knock_rate``), so the figures
are the same on every run."""
from games.sim import gin as gin_sim


def test_easy_knocks_at_every_chance_normal_weighs_the_undercut_and_hard_weighs_it_most():
    rates = {level: gin_sim.knock_rate(level, games=12, seed=41) for level in ("easy", "normal", "hard")}
    assert all(measured["chances"] >= 100 for measured in rates.values())
    assert rates["easy"]["rate"] == 1.0
    assert rates["normal"]["rate"] < 0.95
    assert rates["hard"]["rate"] < rates["normal"]["rate"]
