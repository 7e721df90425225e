"""Simulated annealing over deals toward a difficulty level (``simanneal``), in worker processes.

A state is a deal.  A neighbour swaps two cells, or swaps a cell with a card not dealt.  The
energy is 0 when the deal's calibrated score lies in the target level's range, otherwise the
distance in score points to that range; a deal without a single-stack solution has energy
``UNSOLVABLE_ENERGY``.  The score is the exact one of ``puzzlegen.grading`` (line figures only:
the whole-tree figures do not enter it), memoised per deal.  A run stops as soon as it reaches
energy 0.

Reproducible: attempt ``k`` of a run seeded ``s`` seeds both the neighbour choices and
simanneal's acceptance draws (the ``random`` module) with ``(s, k)``, and the schedule
(``T_MAX``, ``T_MIN``, ``STEPS``) is fixed, so the same seed gives the same deals whatever the
number of workers.  ``simanneal`` installs a SIGINT handler, so annealing only ever runs in
worker processes; Ctrl-C makes a run return its best deal at once.
"""
from __future__ import annotations

import random
import signal

from simanneal import Annealer

from puzzlegen.grading import LEVELS, Grade, GradeLimit, grade, line_figures, score
from solvers.cards import Card
from solvers.stacksquared import Deal

T_MAX, T_MIN, STEPS = 30.0, 0.3, 400
UNSOLVABLE_ENERGY = 200.0


def level_range(level: str) -> tuple[float, float]:
    """The score range [low, high) of ``level`` (the top level includes 100)."""
    cuts = sorted(LEVELS.values())
    low = LEVELS[level]
    higher = [c for c in cuts if c > low]
    return low, higher[0] if higher else 100.0 + 1e-9


def quick_score(deal: Deal) -> float | None:
    """The calibrated score from the line figures; None without a single-stack solution."""
    figures, _ = line_figures(deal)
    return score(figures, deal.rows, deal.cols) if figures["single_stack"] else None


def energy_of(score: float | None, low: float, high: float) -> float:
    """The annealing energy of a deal with this score (None: no single stack) for the level
    range [low, high): 0 inside, else the distance in score points."""
    if score is None:
        return UNSOLVABLE_ENERGY
    return 0.0 if low <= score < high else low - score if score < low else score - high + 0.01


class DealAnnealer(Annealer):
    """simanneal's Annealer over the card tuple of a deal."""

    def __init__(self, deal: Deal, level: str, rng: random.Random):
        self.rows, self.cols = deal.rows, deal.cols
        self.low, self.high = level_range(level)
        self.rng = rng
        self.memo: dict[tuple, float] = {}
        super().__init__(list(deal.cards))

    def move(self) -> None:
        n = len(self.state)
        a = self.rng.randrange(n)
        if self.rng.random() < 0.5:
            b = self.rng.randrange(n - 1)
            b += b >= a
            self.state[a], self.state[b] = self.state[b], self.state[a]
        else:
            dealt = set(self.state)
            spare = [c for c in range(52) if Card.from_index(c) not in dealt]
            self.state[a] = Card.from_index(self.rng.choice(spare))

    def energy(self) -> float:
        key = tuple(self.state)
        if key not in self.memo:
            try:
                value = quick_score(Deal(self.rows, self.cols, key))
            except GradeLimit:
                value = None
            self.memo[key] = energy_of(value, self.low, self.high)
        if self.memo[key] == 0.0:
            self.user_exit = True  # found: simanneal stops after this step
        return self.memo[key]


def start_deal(rows: int, cols: int, rng: random.Random) -> Deal:
    """A uniformly random deal."""
    return Deal(rows, cols, tuple(Card.from_index(i) for i in rng.sample(range(52), rows * cols)))


def attempt(job: tuple) -> str | None:
    """One annealing run (worker function): ``job = (rows, cols, level, seed, k, start)``.

    ``start`` is None for a random start deal, else the starting deal's text.  Returns the
    text of the deal reaching energy 0, or None when the run ended above 0.
    """
    rows, cols, level, seed, k, start = job
    rng = random.Random(f"{seed}:{k}")
    random.seed(f"{seed}:{k}:accept")
    deal = Deal.parse(start, rows, cols) if start else start_deal(rows, cols, rng)
    annealer = DealAnnealer(deal, level, rng)
    annealer.set_schedule({"tmax": T_MAX, "tmin": T_MIN, "steps": STEPS, "updates": 0})
    annealer.copy_strategy = "slice"
    state, energy = annealer.anneal()
    if energy != 0.0:
        return None
    return str(Deal(rows, cols, tuple(state)))


def find(job: tuple) -> tuple[str, Grade] | None:
    """One annealing run and the full grade of the deal it reaches (worker function), or None
    when the run ended above energy 0 or grading the deal hit its limit."""
    found = attempt(job)
    if found is None:
        return None
    rows, cols = job[:2]
    try:
        return found, grade(Deal.parse(found, rows, cols))
    except GradeLimit:
        return None


def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (until simanneal takes it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
