"""The statistics of many solves and of many estimates (``solvers.stats``)."""
import random

import pytest

from solvers.stats import ranks, reliability, spearman


def test_spearman_and_ranks():
    assert ranks([3, 1, 2, 2]) == [4, 1, 2.5, 2.5]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1)
    assert spearman([1, 2], [1, 2]) is None and spearman([1, 1, 1], [1, 2, 3]) is None


def test_reliability_is_the_intraclass_correlation_of_single_values():
    """ICC(1): the textbook formula on equal groups; the share of variance between groups in a
    simulated population (true 1 / (1 + 0.3^2)); unequal groups; None without two groups."""
    assert reliability([[1, 2], [3, 5], [2, 2.5]]) == pytest.approx(0.58)
    rng = random.Random(1)
    groups = [[m + rng.gauss(0, 0.3) for _ in range(4)]
              for m in (rng.gauss(0, 1) for _ in range(3000))]
    assert reliability(groups) == pytest.approx(1 / (1 + 0.09), abs=0.01)
    assert reliability([g[:2 + i % 3] for i, g in enumerate(groups)]) == \
        pytest.approx(1 / (1 + 0.09), abs=0.015)
    assert reliability([[1, 2]]) is None and reliability([[1], [2]]) is None
