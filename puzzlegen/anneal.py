"""Simulated annealing over the deals of any game toward a difficulty level (``simanneal``).

A state is a deal; a move is the game's ``neighbour`` (or, for StacksSquared with designer
constraints, the constraints' ``step``, which keeps fixed cells, required cards and the theme).
Where the game can guess hardness from a deal's structure (``rough_hardness``), moves are
steered: a move draws ``STEER`` candidates and takes the one the guess calls hardest while the
deal is below the target, easiest while above; and a run without designer constraints starts
from the one of ``START_DRAWS`` random deals whose guess sits at the level's target percentile
among them.
The energy is smooth, in units of the game's hardness: for the levels up to expert, the distance
to the level's target, a hardness well inside its band (``TARGET`` percentile of the
calibration), so a run keeps pushing toward the heart of the level instead of stopping at its
edge, and stops at its first fully estimated deal within ``STOP`` of the target (``window``, in
percentiles; a target among the deals beyond the game's measure moves to the middle of the
level's measured part); for master, how far the deal is below ``MASTER_MARGIN`` past the master
cut (any harder deal is on target and stops the run).  A deal that cannot be won, or breaks a
constraint's bound, costs ``PENALTY`` (plus the constraint's excess).

At expert and master (``GUESSED``), where the game has a guess and no designer constraints
bind the deal, a run anneals on the guess alone (its energy is minus the guess, moves
unsteered): the guess's hardest deals are where those levels lie, and a step costs microseconds
instead of a player's estimate, so many cheap runs beat a few costly ones (docs/design.md,
"Generation").  The deal a run reaches is graded in full and kept by the same rule
(``keeps``) as any other.

Each deal is first estimated quickly (the game's ``hardness(quick=True)``); a deal whose quick
energy beats the best full estimate so far is estimated again in full, and that figure is its
energy, so a run never climbs on the noise of quick estimates and its best deal is graded as it
was scored.  Memoised per canonical deal.  The grade is still one estimate, and a search for the
hardest estimates also finds lucky ones: a pack keeps a deal only when ``CONFIRM`` independent
estimates agree with its level (``keeps``).

Reproducible: attempt ``k`` of a run seeded ``s`` seeds both the neighbour choices and the
acceptance draws with ``(s, k)``, each a ``random.Random`` of its own (never the ``random``
module, which other threads of a Dask worker draw from too), so the same seed gives the same
deals whatever the number of workers or where they run.  Runs go through the run engine
(:mod:`puzzlegen.runs`: in the command's process, on local workers or on a Dask cluster), which
handles Ctrl-C: an annealer never takes SIGINT (``simanneal``'s own would), and one in the
command's process stops at its next step when :func:`puzzlegen.runs.stopping` says so.
"""
from __future__ import annotations

import math
import random
import statistics
from functools import partial

from simanneal import Annealer

from puzzlegen import runs
from puzzlegen.grading import LEVELS, Grade, exact, grade, load
from solvers import game as games
from solvers.errors import LimitReached

#: simanneal's schedule (temperatures in hardness units) and the steps of one run.
T_MAX, T_MIN, STEPS = 0.5, 0.01, 300
#: Percentile of the calibration each level aims at (master: ``MASTER_MARGIN`` harder than its
#: cut, and any harder deal is on target too).
TARGET = {"easy": 3.0, "medium": 55.0, "hard": 95.0, "expert": 99.75, "master": 100.0}
MASTER_MARGIN = 0.5
#: Below master, a run's deal is kept only if its percentile is within this share of the distance
#: from the target percentile to the nearer edge of its level (1: anywhere in the largest range
#: centred on the target inside the level; 4x4 expert: 99.6-99.9), so that a run that never
#: reached the heart of the level does not put a deal from its edge in the pack.
WINDOW = 1.0
#: A run stops at its first fully estimated deal within this share (4x4 expert: 99.675-99.825;
#: master: at its first past the target); until then it keeps pushing toward the target.
STOP = 0.5
PENALTY = 100.0
#: Candidates a steered move draws, and the random deals a steered run's start is chosen from.
STEER, START_DRAWS = 5, 200
#: Independent estimates of a deal's hardness that must confirm its level before a pack keeps it.
CONFIRM = 3
#: Levels whose runs anneal on the game's guess alone (where it has one and no constraints).
GUESSED = ("expert", "master")


def hardness_at(percentile: float, table: dict) -> float:
    """The hardness at this percentile of the calibration (quantiles interpolated linearly;
    infinite where it draws on a quantile beyond the game's measure)."""
    quantiles = table["hardness"]
    position = min(max(percentile, 0.0), 100.0) / 100.0 * (len(quantiles) - 1)
    low = min(int(position), len(quantiles) - 2)
    share = position - low
    if share in (0.0, 1.0):
        return quantiles[low + int(share)]
    return (1 - share) * quantiles[low] + share * quantiles[low + 1]


def target_percentile(level: str, table: dict) -> float:
    """The percentile a level below master aims at: ``TARGET``, or, when that falls among the
    deals beyond the game's measure, the middle of the level's measured part."""
    quantiles = table["hardness"]
    measured = 100.0 * (sum(q < math.inf for q in quantiles) - 1) / (len(quantiles) - 1)
    if TARGET[level] <= measured:
        return TARGET[level]
    return (LEVELS[level] + measured) / 2


def target_hardness(level: str, table: dict) -> float:
    """The hardness a level aims at on this calibration."""
    if level == "master":
        return table["cuts"]["master"] + MASTER_MARGIN
    return hardness_at(target_percentile(level, table), table)


def window(level: str, table: dict, share: float = WINDOW) -> tuple[float, float]:
    """The hardness range within ``share`` of the distance from the level's target percentile to
    the nearer edge of the level (master: from its target up)."""
    if level == "master":
        return target_hardness(level, table), math.inf
    cuts = list(LEVELS.values())
    low, high = LEVELS[level], cuts[list(LEVELS).index(level) + 1]
    aim = target_percentile(level, table)
    reach = share * min(aim - low, high - aim)
    return hardness_at(aim - reach, table), hardness_at(aim + reach, table)


class DealAnnealer(Annealer):
    """simanneal's Annealer over the deals of one game and rules: moves drawn from ``rng``,
    acceptance from ``accept``."""

    def __init__(self, game: games.Designable, rules, deal, target: float, at_least: bool,
                 reach: tuple[float, float], constraints, rng: random.Random,
                 accept: random.Random | None = None, objective=None):
        self.game, self.rules = game, rules
        self.target, self.at_least, self.reach = target, at_least, reach
        self.constraints, self.rng = constraints, rng
        self.accept = accept if accept is not None else random.Random()
        self.memo: dict = {}
        self.best_full = float("inf")
        self.objective = objective   # a function of the deal: annealed on alone when given
        self.steered = objective is None and game.rough_hardness(deal, rules) is not None
        # Not simanneal's __init__: it takes SIGINT (which only the main thread may, and which
        # is the run engine's to handle), besides copying the starting deal.
        self.state = self.copy_state(deal)

    def anneal(self):
        """simanneal's ``anneal`` (exponential cooling from ``Tmax`` to ``Tmin`` over ``steps``,
        Metropolis acceptance, the best deal kept; no progress updates), its acceptance drawn
        from ``accept`` instead of the ``random`` module.  Returns the best deal and its
        energy."""
        factor = -math.log(self.Tmax / self.Tmin)
        energy = self.best_energy = self.energy()
        previous, previous_energy = self.copy_state(self.state), energy
        self.best_state = self.copy_state(self.state)
        step = 0
        while step < self.steps and not self.user_exit:
            step += 1
            temperature = self.Tmax * math.exp(factor * step / self.steps)
            self.move()
            energy = self.energy()
            change = energy - previous_energy
            if change > 0.0 and math.exp(-change / temperature) < self.accept.random():
                self.state = self.copy_state(previous)
            else:
                previous, previous_energy = self.copy_state(self.state), energy
                if energy < self.best_energy:
                    self.best_state, self.best_energy = self.copy_state(self.state), energy
        self.state = self.copy_state(self.best_state)
        return self.best_state, self.best_energy

    def candidate(self):
        """The game's (or the constraints') move from the current deal."""
        if self.constraints is None:
            return self.game.neighbour(self.state, self.rules, self.rng)
        return self.constraints.step(self.state, self.rng)

    def move(self) -> None:
        """One candidate move; steered, the best of ``STEER`` for the way the current deal must
        go: the hardest by the guess below the target, the easiest above it or when it cannot
        be won (a deal not graded yet, e.g. one breaking the constraints, moves blind)."""
        known = self.steered and self.memo.get(self.game.canonical(self.state, self.rules))
        if not known:
            self.state = self.candidate()
            return
        hardness = known[2]
        way = 1 if hardness is not None and hardness < self.target else -1
        self.state = max((self.candidate() for _ in range(STEER)),
                         key=lambda deal: way * self.game.rough_hardness(deal, self.rules))

    def energy_of(self, hardness: float | None) -> float:
        if hardness is None:
            return PENALTY
        if self.at_least:
            return max(0.0, self.target - hardness)
        return abs(hardness - self.target)

    def energy(self) -> float:
        if self.objective is not None:
            if runs.stopping():
                raise KeyboardInterrupt
            return -self.objective(self.state)
        excess = 0 if self.constraints is None else self.constraints.excess(self.state)
        if excess:
            return PENALTY + excess
        key = self.game.canonical(self.state, self.rules)
        if key not in self.memo:
            try:
                hardness = self.game.hardness(self.state, self.rules, quick=True)
                value, full = self.energy_of(hardness), False
                if value < self.best_full:
                    hardness = self.game.hardness(self.state, self.rules)
                    value, full = self.energy_of(hardness), True
                    self.best_full = min(self.best_full, value)
            except LimitReached:
                hardness, value, full = None, PENALTY, True
            self.memo[key] = (value, full and hardness is not None
                              and self.reach[0] <= hardness <= self.reach[1], hardness)
        if runs.stopping():   # Ctrl-C, annealing in the command's own process (--jobs 1)
            raise KeyboardInterrupt
        value, reached, _ = self.memo[key]
        if reached:
            self.user_exit = True  # the run stops after this step
        return value


def start_deal(game: games.Designable, rules, level: str, rng: random.Random):
    """A random deal; for a game with ``rough_hardness``, the one of ``START_DRAWS`` whose guess
    sits at the level's ``TARGET`` percentile among them."""
    first = game.random_deal(rng, rules)
    if game.rough_hardness(first, rules) is None:
        return first
    draws = sorted([first, *(game.random_deal(rng, rules) for _ in range(START_DRAWS - 1))],
                   key=lambda deal: game.rough_hardness(deal, rules))
    return draws[min(int(TARGET[level] / 100 * START_DRAWS), START_DRAWS - 1)]


def attempt(job: tuple, guess: bool = True):
    """One annealing run (worker function): ``job = (game, rules, level, seed, k, start, target,
    constraints)``; ``start`` is the starting deal's text or None for a random one (meeting the
    constraints).  Returns the best deal the run reached, None when it cannot be won.  At the
    ``GUESSED`` levels the run anneals on the game's guess alone, unless ``guess`` is False
    (then on the players' estimates, as at the other levels)."""
    name, rules_text, level, seed, k, start, target, constraints = job
    game = games.get(name)
    rules = game.parse_rules(rules_text)
    rng = random.Random(f"{seed}:{k}")
    if start:
        deal = game.parse_deal(start, rules)
    elif constraints is None:
        deal = start_deal(game, rules, level, rng)
    else:
        deal = constraints.start(rules, rng)
    guessed = (guess and level in GUESSED and constraints is None
               and game.rough_hardness(deal, rules) is not None)
    annealer = DealAnnealer(game, rules, deal, target, level == "master",
                            window(level, load(game, rules), STOP), constraints, rng,
                            random.Random(f"{seed}:{k}:accept"),
                            partial(game.rough_hardness, rules=rules) if guessed else None)
    annealer.set_schedule({"tmax": T_MAX, "tmin": T_MIN, "steps": STEPS, "updates": 0})
    annealer.copy_strategy = "deepcopy"
    state, energy = annealer.anneal()
    return None if not guessed and energy >= PENALTY else state


def find(job: tuple, guess: bool = True) -> tuple[str, Grade] | None:
    """One annealing run and the full grade of the deal it reaches (worker function): None when
    a pack would not keep it (``keeps``; never a ``limit`` grade), or it breaks the
    constraints.  ``guess``: as for :func:`attempt`."""
    deal = attempt(job, guess)
    if deal is None:
        return None
    game, level, constraints = games.get(job[0]), job[2], job[7]
    rules = game.parse_rules(job[1])
    if constraints is not None and constraints.violation(deal) is not None:
        return None
    graded = grade(game, deal, rules)
    if not keeps(game, rules, deal, level, graded, load(game, rules)):
        return None
    return game.format_deal(deal), graded


def keeps(game: games.Designable, rules, deal, level: str, graded: Grade, table: dict) -> bool:
    """Whether a pack of ``level`` keeps this graded deal: at the level and, below master,
    inside the level's ``window``; and, unless its hardness is exact, confirmed: the mean of
    ``CONFIRM`` independent estimates of its hardness (``hardness(repeat=r)``) is in the same
    range.  The search seeks the hardest
    estimates, noise included, so a grade alone overstates the deals it keeps."""
    low, high = (table["cuts"]["master"], math.inf) if level == "master" else \
        window(level, table)
    if graded.level != level or not low <= graded.metrics["hardness"] <= high:
        return False
    if exact(graded.metrics):   # every repeat would give the same value
        return True
    try:
        repeats = [game.hardness(deal, rules, repeat=r) for r in range(1, CONFIRM + 1)]
    except LimitReached:
        return False
    return None not in repeats and low <= statistics.fmean(repeats) <= high
