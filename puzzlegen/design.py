"""Generating a puzzle pack for any game: annealing runs in worker processes, each deal graded.

Annealing runs ``k = 0, 1, ...`` go to the workers ahead of need, but their results are taken in
order of ``k``, so the pack depends on the seed alone, not on the number of workers.
"""
from __future__ import annotations

import multiprocessing
import sys
from collections import deque
from typing import Iterator

from puzzlegen import packs
from puzzlegen.fileio import write_atomic
from puzzlegen.grading import load, offered
from solvers.errors import BadInput
from solvers.game import Designable

#: Annealing runs allowed per requested puzzle before ``generate`` gives up.
DEFAULT_ATTEMPTS_PER_PUZZLE = 50


class AttemptsExhausted(Exception):
    """``generate`` made its last allowed annealing run before finding every puzzle."""

    def __init__(self, message: str, found: int):
        super().__init__(message)
        self.found = found


def check_level(game: Designable, rules, level: str) -> dict:
    """The calibration of ``rules``; :class:`BadInput` when it cannot tell ``level`` apart."""
    table = load(game, rules)
    if level not in offered(table):
        raise BadInput(f"the {game.name} {game.format_rules(rules)} calibration has "
                       f"{table['winnable']} winnable deals, too few to tell {level} apart: "
                       f"choose one of {', '.join(offered(table))}")
    return table


def generate_pack(game: Designable, rules, count: int, level: str, seed: int, jobs: int,
                  out: str, bar=None, max_attempts: int | None = None, constraints=None,
                  starts: Iterator | None = None, method: str = "anneal",
                  parameters: dict | None = None) -> dict:
    """Anneal until ``count`` distinct puzzles (up to symmetry) at ``level``; writes ``out``
    after every accepted puzzle.  ``constraints`` (StacksSquared) guide the moves and are checked
    on every puzzle; ``starts`` yields starting deals (else random ones)."""
    from puzzlegen import anneal

    target = anneal.target_hardness(level, check_level(game, rules, level))
    name = game.format_rules(rules)
    parameters = {"rules": name, **(parameters or {}), "count": count, "level": level,
                  "target_hardness": target,
                  "schedule": {"tmax": anneal.T_MAX, "tmin": anneal.T_MIN, "steps": anneal.STEPS}}
    puzzles: list[dict] = []
    seen: set = set()
    limit = max_attempts if max_attempts is not None else DEFAULT_ATTEMPTS_PER_PUZZLE * count
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(jobs, initializer=anneal.ignore_sigint) as pool:
        pending: deque = deque()
        k = 0
        while len(puzzles) < count:
            while len(pending) < 2 * jobs and k < limit:
                start = None if starts is None else game.format_deal(next(starts))
                job = (game.name, name, level, seed, k, start, target, constraints)
                pending.append(pool.apply_async(anneal.find, (job,)))
                k += 1
            if not pending:
                raise AttemptsExhausted(f"found {len(puzzles)} of {count} {level} puzzles in "
                                        f"{limit} annealing runs (--max-attempts)", len(puzzles))
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
                raise AssertionError(f"annealing returned {text}, which is not what was asked")
            seen.add(form)
            pid = f"{name}-{level}-{len(puzzles) + 1:03d}"
            puzzles.append(packs.puzzle_entry(game, pid, deal, rules, graded))
            write_atomic(out, packs.dumps(packs.build(game, puzzles, method, seed, parameters)))
            if bar is not None:
                bar.update(1)
    return packs.build(game, puzzles, method, seed, parameters)
