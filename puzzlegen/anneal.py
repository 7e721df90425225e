"""Simulated annealing over deals toward a difficulty level (``simanneal``), in worker processes.

A state is a deal; a neighbour swaps two cells or deals an undealt card in place of one, keeping
the designer's fixed cells, required cards and theme (``puzzlegen.constraints``).  The energy is
smooth, in units of hardness (``-log10`` of the look3 player's chance to win): for the levels
up to expert, the distance to the level's target, a hardness well inside its band
(``TARGET`` percentile of the calibration), so a run keeps pushing toward the heart of the level
instead of stopping at its edge; for master, how far the deal is below ``MASTER_MARGIN`` past the
master cut (3 times rarer than the cut; any harder deal is on target).  A deal
without a single stack, or breaking the line-pair bound, costs ``PENALTY`` (plus the excess
pairs).

Each deal is first estimated quickly (``QUICK``: the look3 player alone with few particles); a
deal whose quick energy beats the best figure confirmed so far is estimated again with the
grade's own budget, and that figure is its energy, so a run never climbs on the noise of quick
estimates and its best deal is graded as it was scored.  Memoised per canonical deal.

Reproducible: attempt ``k`` of a run seeded ``s`` seeds both the neighbour choices and
simanneal's acceptance draws (the ``random`` module of its worker process) with ``(s, k)``, so
the same seed gives the same deals whatever the number of workers.  ``simanneal`` installs a
SIGINT handler, so annealing only ever runs in worker processes.
"""
from __future__ import annotations

import random
import signal

from simanneal import Annealer

from puzzlegen.constraints import Constraints, line_pairs, neighbour
from puzzlegen.grading import (DEFAULT_BUDGET, Budget, Grade, GradeLimit, estimated_hardness,
                               grade)
from solvers.stacksquared import Deal
from solvers.stacksquared.symmetry import canonical

#: The quick estimate: the look3 player alone, few particles.
QUICK = Budget((0, 0, 0, 16), DEFAULT_BUDGET.exact_stacks, 2_000_000)
#: simanneal's schedule (temperatures in hardness units) and the steps of one run.
T_MAX, T_MIN, STEPS = 0.5, 0.01, 300
#: Percentile of the calibration each level aims at (master: ``MASTER_MARGIN`` harder than its
#: cut, and any harder deal is on target too).
TARGET = {"easy": 10.0, "medium": 62.0, "hard": 94.0, "expert": 99.6, "master": 100.0}
MASTER_MARGIN = 0.5
#: A run stops early once its confirmed energy is this close to the target.
CLOSE = 0.02
PENALTY = 100.0


def target_hardness(level: str, table: dict) -> float:
    """The hardness a level aims at on this calibration."""
    if level == "master":
        return table["cuts"]["master"] + MASTER_MARGIN
    quantiles = table["hardness"]
    return quantiles[round(TARGET[level] / 100.0 * (len(quantiles) - 1))]


class DealAnnealer(Annealer):
    """simanneal's Annealer over the card list of a deal."""

    def __init__(self, deal: Deal, target: float, at_least: bool, constraints: Constraints,
                 rng: random.Random):
        self.rows, self.cols = deal.rows, deal.cols
        self.target, self.at_least = target, at_least
        self.constraints, self.rng = constraints, rng
        self.memo: dict[tuple, tuple[float, bool]] = {}
        self.best_confirmed = float("inf")
        super().__init__(list(deal.cards))

    def move(self) -> None:
        neighbour(self.state, self.rng, self.constraints, self.rows, self.cols)

    def energy_of(self, hardness: float | None) -> float:
        if hardness is None:
            return PENALTY
        if self.at_least:
            return max(0.0, self.target - hardness)
        return abs(hardness - self.target)

    def energy(self) -> float:
        deal = Deal(self.rows, self.cols, tuple(self.state))
        bound = self.constraints.max_line_pairs
        if bound is not None and line_pairs(deal.cards, self.rows, self.cols) > bound:
            return PENALTY + line_pairs(deal.cards, self.rows, self.cols) - bound
        key = canonical(deal)
        if key not in self.memo:
            try:
                value = self.energy_of(estimated_hardness(deal, QUICK))
                confirmed = False
                if value < self.best_confirmed:
                    full = estimated_hardness(deal, DEFAULT_BUDGET)
                    value, confirmed = self.energy_of(full), True
                    self.best_confirmed = min(self.best_confirmed, value)
            except GradeLimit:
                value, confirmed = PENALTY, True
            self.memo[key] = (value, confirmed)
        value, confirmed = self.memo[key]
        if confirmed and value <= CLOSE:
            self.user_exit = True  # on target: simanneal stops after this step
        return value


def attempt(job: tuple) -> str | None:
    """One annealing run (worker function): ``job = (rows, cols, level, seed, k, start, target,
    constraints)``; ``start`` is the starting deal's text or None for a random one meeting the
    constraints.  Returns the text of the best deal the run reached."""
    from puzzlegen.constraints import random_deal

    rows, cols, level, seed, k, start, target, constraints = job
    rng = random.Random(f"{seed}:{k}")
    random.seed(f"{seed}:{k}:accept")
    deal = Deal.parse(start, rows, cols) if start else random_deal(rows, cols, rng, constraints)
    annealer = DealAnnealer(deal, target, level == "master", constraints, rng)
    annealer.set_schedule({"tmax": T_MAX, "tmin": T_MIN, "steps": STEPS, "updates": 0})
    annealer.copy_strategy = "slice"
    state, energy = annealer.anneal()
    return None if energy >= PENALTY else str(Deal(rows, cols, tuple(state)))


def find(job: tuple) -> tuple[str, Grade] | None:
    """One annealing run and the full grade of the deal it reaches (worker function): None when
    it is not at the level asked, or breaks the constraints, or grading it hit its limit."""
    found = attempt(job)
    if found is None:
        return None
    rows, cols, level = job[:3]
    constraints = job[7]
    deal = Deal.parse(found, rows, cols)
    if constraints.violation(deal) is not None:
        return None
    try:
        graded = grade(deal)
    except GradeLimit:
        return None
    return (found, graded) if graded.level == level else None


def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (until simanneal takes it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

