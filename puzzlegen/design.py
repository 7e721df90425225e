"""Generating a puzzle pack for any game: annealing runs in worker processes, each deal graded.

Annealing runs ``k = 0, 1, ...`` go to the workers ahead of need, but their results are taken in
order of ``k``, so the pack depends on the seed alone, not on the number of workers.
"""
from __future__ import annotations

import math
import multiprocessing
import sys
from collections import deque
from typing import Callable, Iterator

from puzzlegen import packs
from puzzlegen.grading import load, offered
from solvers.errors import BadInput
from solvers.game import Designable

#: Annealing runs allowed per requested puzzle before ``generate`` gives up.
DEFAULT_ATTEMPTS_PER_PUZZLE = 50


class Unfinished(Exception):
    """``generate_pack`` stopped before it found every puzzle: Ctrl-C (``interrupted``), or its
    last allowed annealing run made; ``pack`` holds the puzzles found."""

    def __init__(self, message: str, pack: dict, interrupted: bool):
        super().__init__(message)
        self.pack, self.interrupted = pack, interrupted


def check_level(game: Designable, rules, level: str) -> dict:
    """The calibration of ``rules``; :class:`BadInput` when it cannot tell ``level`` apart."""
    table = load(game, rules)
    name = f"the {game.name} {game.format_rules(rules)} calibration"
    if level not in offered(table):
        reason = (f"has {table['winnable']} winnable deals, too few to tell {level} apart"
                  if table["cuts"][level] < math.inf else
                  f"cannot tell {level} apart: its cut falls among the "
                  f"{table.get('beyond', 0)} deals beyond what the grade measures")
        raise BadInput(f"{name} {reason}: choose one of {', '.join(offered(table))}")
    return table


def generate_pack(game: Designable, rules, count: int, levels: list[str], seed: int, jobs: int,
                  save: Callable[[dict], None] | None = None, bar=None,
                  max_attempts: int | None = None, constraints=None,
                  starts: Iterator | None = None, method: str = "anneal",
                  parameters: dict | None = None) -> dict:
    """Anneal until ``count`` distinct puzzles (up to symmetry) at each of ``levels``, and return
    the pack; ``save`` gets the pack so far after every accepted puzzle.  ``constraints``
    (StacksSquared) guide the moves and are checked on every puzzle; ``starts`` yields starting
    deals (else random ones).  ``max_attempts`` caps the annealing runs of each level;
    :class:`Unfinished` when they run out or on Ctrl-C."""
    from puzzlegen import anneal

    targets = {level: anneal.target_hardness(level, check_level(game, rules, level))
               for level in levels}
    name = game.format_rules(rules)
    parameters = {"rules": name, **(parameters or {}), "count": count,
                  **({"level": levels[0], "target_hardness": targets[levels[0]]}
                     if len(levels) == 1 else {"levels": levels, "target_hardness": targets}),
                  "schedule": {"tmax": anneal.T_MAX, "tmin": anneal.T_MIN, "steps": anneal.STEPS,
                               "stop": anneal.STOP, "window": anneal.WINDOW,
                               "steer": anneal.STEER, "start_draws": anneal.START_DRAWS,
                               "confirm": anneal.CONFIRM}}
    limit = max_attempts if max_attempts is not None else DEFAULT_ATTEMPTS_PER_PUZZLE * count
    puzzles: list[dict] = []
    seen: set = set()

    def so_far() -> dict:
        return packs.build(game, list(puzzles), method, seed, parameters)

    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    try:
        with ctx.Pool(jobs, initializer=anneal.ignore_sigint) as pool:
            for level in levels:
                pending: deque = deque()
                k = found_here = 0
                while found_here < count:
                    while len(pending) < 2 * jobs and k < limit:
                        start = None if starts is None else game.format_deal(next(starts))
                        job = (game.name, name, level, seed, k, start, targets[level],
                               constraints)
                        pending.append(pool.apply_async(anneal.find, (job,)))
                        k += 1
                    if not pending:
                        raise Unfinished(f"found {found_here} of {count} {level} puzzles in "
                                         f"{limit} annealing runs (--max-attempts)", so_far(),
                                         interrupted=False)
                    found = pending.popleft().get()
                    if found is None:
                        continue
                    text, graded = found
                    deal = game.parse_deal(text, rules)
                    form = game.canonical(deal, rules)
                    if form in seen:
                        continue
                    if graded.level != level or (constraints is not None
                                                 and constraints.violation(deal) is not None):
                        raise AssertionError(f"annealing returned {text}, which is not what "
                                             f"was asked")
                    seen.add(form)
                    found_here += 1
                    pid = f"{name}-{level}-{found_here:03d}"
                    puzzles.append(packs.puzzle_entry(game, pid, deal, rules, graded))
                    if save is not None:
                        save(so_far())
                    if bar is not None:
                        bar.update(1)
    except KeyboardInterrupt:
        raise Unfinished("interrupted", so_far(), interrupted=True) from None
    return so_far()
