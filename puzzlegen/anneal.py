"""Simulated annealing over the deals of any game toward a difficulty level (``simanneal``).

A state is a deal; a move is the game's ``neighbour`` (or, for StacksSquared with designer
constraints, the constraints' ``step``, which keeps fixed cells, required cards and the theme).
The energy is smooth, in units of the game's hardness: for the levels up to expert, the distance
to the level's target, a hardness well inside its band (``TARGET`` percentile of the
calibration), so a run keeps pushing toward the heart of the level instead of stopping at its
edge; for master, how far the deal is below ``MASTER_MARGIN`` past the master cut (any harder
deal is on target).  A deal that cannot be won, or breaks a constraint's bound, costs
``PENALTY`` (plus the constraint's excess).

Each deal is first estimated quickly (the game's ``hardness(quick=True)``); a deal whose quick
energy beats the best figure confirmed so far is estimated again in full, and that figure is its
energy, so a run never climbs on the noise of quick estimates and its best deal is graded as it
was scored.  Memoised per canonical deal.

Reproducible: attempt ``k`` of a run seeded ``s`` seeds both the neighbour choices and
simanneal's acceptance draws (the ``random`` module of its worker process) with ``(s, k)``, so
the same seed gives the same deals whatever the number of workers.  ``simanneal`` installs a
SIGINT handler, so annealing only ever runs in worker processes.
"""
from __future__ import annotations

import random
import signal

from simanneal import Annealer

from puzzlegen.grading import Grade, grade
from solvers import game as games
from solvers.errors import LimitReached

#: simanneal's schedule (temperatures in hardness units) and the steps of one run.
T_MAX, T_MIN, STEPS = 0.5, 0.01, 300
#: Percentile of the calibration each level aims at (master: ``MASTER_MARGIN`` harder than its
#: cut, and any harder deal is on target too).
TARGET = {"easy": 5.0, "medium": 55.0, "hard": 95.0, "expert": 99.75, "master": 100.0}
MASTER_MARGIN = 0.5
#: A run stops early once its confirmed energy is this close to the target.
CLOSE = 0.02
#: Below master, a run's deal is kept only this close to the target (hardness units), so that a
#: run that never reached the heart of the level does not put a deal from its edge in the pack.
WINDOW = 0.25
PENALTY = 100.0


def target_hardness(level: str, table: dict) -> float:
    """The hardness a level aims at on this calibration (quantiles interpolated linearly)."""
    if level == "master":
        return table["cuts"]["master"] + MASTER_MARGIN
    quantiles = table["hardness"]
    position = TARGET[level] / 100.0 * (len(quantiles) - 1)
    low = min(int(position), len(quantiles) - 2)
    share = position - low
    return (1 - share) * quantiles[low] + share * quantiles[low + 1]


class DealAnnealer(Annealer):
    """simanneal's Annealer over the deals of one game and rules."""

    def __init__(self, game: games.Designable, rules, deal, target: float, at_least: bool,
                 constraints, rng: random.Random):
        self.game, self.rules = game, rules
        self.target, self.at_least = target, at_least
        self.constraints, self.rng = constraints, rng
        self.memo: dict = {}
        self.best_confirmed = float("inf")
        super().__init__(deal)

    def move(self) -> None:
        if self.constraints is None:
            self.state = self.game.neighbour(self.state, self.rules, self.rng)
        else:
            self.state = self.constraints.step(self.state, self.rng)

    def energy_of(self, hardness: float | None) -> float:
        if hardness is None:
            return PENALTY
        if self.at_least:
            return max(0.0, self.target - hardness)
        return abs(hardness - self.target)

    def energy(self) -> float:
        excess = 0 if self.constraints is None else self.constraints.excess(self.state)
        if excess:
            return PENALTY + excess
        key = self.game.canonical(self.state, self.rules)
        if key not in self.memo:
            try:
                value = self.energy_of(self.game.hardness(self.state, self.rules, quick=True))
                confirmed = False
                if value < self.best_confirmed:
                    full = self.game.hardness(self.state, self.rules)
                    value, confirmed = self.energy_of(full), True
                    self.best_confirmed = min(self.best_confirmed, value)
            except LimitReached:
                value, confirmed = PENALTY, True
            self.memo[key] = (value, confirmed)
        value, confirmed = self.memo[key]
        if confirmed and value <= CLOSE:
            self.user_exit = True  # on target: simanneal stops after this step
        return value


def attempt(job: tuple):
    """One annealing run (worker function): ``job = (game, rules, level, seed, k, start, target,
    constraints)``; ``start`` is the starting deal's text or None for a random one (meeting the
    constraints).  Returns the best deal the run reached, None when it cannot be won."""
    name, rules_text, level, seed, k, start, target, constraints = job
    game = games.get(name)
    rules = game.parse_rules(rules_text)
    rng = random.Random(f"{seed}:{k}")
    random.seed(f"{seed}:{k}:accept")
    if start:
        deal = game.parse_deal(start, rules)
    elif constraints is None:
        deal = game.random_deal(rng, rules)
    else:
        deal = constraints.start(rules, rng)
    annealer = DealAnnealer(game, rules, deal, target, level == "master", constraints, rng)
    annealer.set_schedule({"tmax": T_MAX, "tmin": T_MIN, "steps": STEPS, "updates": 0})
    annealer.copy_strategy = "deepcopy"
    state, energy = annealer.anneal()
    return None if energy >= PENALTY else state


def find(job: tuple) -> tuple[str, Grade] | None:
    """One annealing run and the full grade of the deal it reaches (worker function): None when
    it is not at the level asked or, below master, not within ``WINDOW`` of the target, or
    breaks the constraints, or grading it hit its limit."""
    deal = attempt(job)
    if deal is None:
        return None
    game = games.get(job[0])
    constraints = job[7]
    if constraints is not None and constraints.violation(deal) is not None:
        return None
    try:
        graded = grade(game, deal, game.parse_rules(job[1]))
    except LimitReached:
        return None
    level, target = job[2], job[6]
    if graded.level != level or (level != "master"
                                 and abs(graded.metrics["hardness"] - target) > WINDOW):
        return None
    return game.format_deal(deal), graded


def ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (until simanneal takes it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
