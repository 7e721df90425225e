"""Generating a puzzle pack for any game: annealing runs on the run engine, each deal graded.

Annealing runs ``k = 0, 1, ...`` of each level go to the workers ahead of need (a stream of
runs, :func:`puzzlegen.runs.run`), but their results are taken in order of ``k``, so the pack
depends on the seed alone, not on the number of workers or the cluster.
"""
from __future__ import annotations

import contextlib
import math
from collections import deque
from typing import Callable, Iterator

from puzzlegen import packs, runs
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


def generate_pack(game: Designable, rules, count: int, levels: list[str], seed: int,
                  jobs: int = 1, save: Callable[[dict], None] | None = None, bar=None,
                  max_attempts: int | None = None, constraints=None,
                  starts: Callable[[], Iterator] | None = None, method: str = "anneal",
                  parameters: dict | None = None, scheduler: str | None = None) -> dict:
    """Anneal until ``count`` distinct puzzles (up to symmetry) at each of ``levels``, and return
    the pack; ``save`` gets the pack so far after every accepted puzzle.  ``constraints``
    (StacksSquared) guide the moves and are checked on every puzzle; ``starts()`` makes a stream
    of starting deals, one for each level (else random ones).  ``max_attempts`` caps the
    annealing runs of each level; :class:`Unfinished` when they run out, on Ctrl-C, or when the
    runs cannot go on (a lost Dask cluster).  ``jobs`` and ``scheduler``: where the runs go, as
    for :func:`puzzlegen.runs.run`."""
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
                               "confirm": anneal.CONFIRM, "guessed": list(anneal.GUESSED)}}
    limit = max_attempts if max_attempts is not None else DEFAULT_ATTEMPTS_PER_PUZZLE * count
    puzzles: list[dict] = []
    seen: set = set()
    found = dict.fromkeys(levels, 0)
    sent: deque = deque()   # (level, k) of each run read from the stream, in order

    def so_far() -> dict:
        return packs.build(game, list(puzzles), method, seed, parameters)

    def annealing_runs() -> Iterator[tuple]:
        """Runs k = 0, 1, ... of each level in turn, read by the run engine as workers free up;
        a level's runs end once its puzzles are all found (by the time the engine asks, so how
        many are made depends on timing, but never which come next: hence a stream of starting
        deals of its own for each level)."""
        for level in levels:
            deals = starts() if starts is not None else None
            for k in range(limit):
                if found[level] == count:
                    break
                start = None if deals is None else game.format_deal(next(deals))
                sent.append((level, k))
                yield game.name, name, level, seed, k, start, targets[level], constraints

    try:
        with contextlib.closing(runs.run(anneal.find, annealing_runs(), jobs=jobs,
                                         scheduler=scheduler, unit="annealing runs",
                                         progress_every=None)) as results:
            for result in results:
                level, k = sent.popleft()
                if found[level] < count and result is not None:
                    text, graded = result
                    deal = game.parse_deal(text, rules)
                    form = game.canonical(deal, rules)
                    if form not in seen:
                        if graded.level != level or (constraints is not None and
                                                     constraints.violation(deal) is not None):
                            raise AssertionError(f"annealing returned {text}, which is not "
                                                 f"what was asked")
                        seen.add(form)
                        found[level] += 1
                        pid = f"{name}-{level}-{found[level]:03d}"
                        puzzles.append(packs.puzzle_entry(game, pid, deal, rules, graded))
                        if save is not None:
                            save(so_far())
                        if bar is not None:
                            bar.update(1)
                if found[level] < count and k == limit - 1:
                    raise Unfinished(f"found {found[level]} of {count} {level} puzzles in "
                                     f"{limit} annealing runs (--max-attempts)", so_far(),
                                     interrupted=False)
                if all(n == count for n in found.values()):
                    break     # closing the run cancels the runs still under way
    except KeyboardInterrupt:
        raise Unfinished("interrupted", so_far(), interrupted=True) from None
    except BadInput as exc:   # the cluster lost, or no starting deal to be had
        raise Unfinished(str(exc), so_far(), interrupted=False) from None
    return so_far()
