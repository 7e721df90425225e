"""``solvers.result.Chance``: the one shape of a simulated player's chance in every game."""
import math

import pytest

from solvers.result import Chance


def test_an_exact_chance_is_its_own_interval():
    c = Chance.exactly(0.25)
    assert (c.win, c.interval, c.games, c.exact) == (0.25, (0.25, 0.25), 0, True)
    assert c.log10 == pytest.approx(math.log10(0.25))
    assert Chance.exactly(0.0).log10 == -math.inf
    assert c.to_json() == {"win": 0.25, "interval": [0.25, 0.25], "particles": 0, "exact": True}


def test_a_log_scale_estimate_keeps_its_measured_log():
    c = Chance.from_log10(-400.0, games=1000, reached=31)
    assert c.win == 0.0 and c.log10 == -400.0          # below a float, the log is the figure
    assert c.interval is None and c.to_json("chance")["reached"] == 31
    assert Chance.from_log10(-2.0).log10 == -2.0


def test_certified_bounds_clip_the_estimate_and_its_interval():
    c = Chance(0.5, (0.1, 0.9), games=200).within(0.2, 0.4)
    assert (c.win, c.interval, c.bounds) == (0.4, (0.2, 0.4), (0.2, 0.4))
    assert c.to_json()["bounds"] == [0.2, 0.4] and c.to_json()["particles"] == 200
