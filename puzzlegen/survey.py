"""Solving many StacksSquared deals: one JSON record a deal, and the summary of a survey."""
from __future__ import annotations

import time
from collections import Counter
from functools import partial

from puzzlegen import runs
from puzzlegen.stats import percentile, proportion_summary
from solvers.result import Limits, Status
from solvers.stacksquared import Deal, solve, warm_up
from solvers.stacksquared.rules import replay


def solve_record(deal: Deal, limits: Limits, want_max: bool = True,
                 check: bool = False) -> dict:
    """The solve fields (docs/runs.md) for one deal; ``check`` replays its moves by the rule book
    first (they must reach the score the solver claims), as ``solve`` does before printing."""
    result = solve(deal, limits, max_score=want_max)
    if check:
        claimed = result.value if result.value is not None else result.details.get("best_score")
        end = replay(deal, result.moves)
        assert claimed is None or end.score() == claimed, "the solver's line does not replay"
    out = {"status": result.status.value,
           "single_stack": result.details["single_stack"],
           "max_score": result.details["max_score"],
           "moves": [str(m) for m in result.moves],
           "nodes": result.nodes,
           "seconds": round(result.seconds, 6)}
    if "best_score" in result.details:
        out["best_score"] = result.details["best_score"]
    return out


def solve_seed(seed: int, rows: int, cols: int, limits: Limits, want_max: bool = True,
               check: bool = False) -> dict:
    """The solve fields of the deal of ``seed``, with its ``seed`` (a run's function)."""
    return {"seed": seed,
            **solve_record(Deal.from_seed(seed, rows, cols), limits, want_max, check)}


def check_seed_record(seed: int, record: dict, rows: int, cols: int) -> None:
    """A resumed record of :func:`solve_seed` (a run's ``check``): its fields, and its moves
    replayed on the seed's deal to the score it claims; ``ValueError`` or :class:`BadInput`
    naming what is wrong."""
    cards = rows * cols
    runs.check_fields(record, {"seed": int, "status": tuple(s.value for s in Status),
                               "single_stack": (True, False, None),
                               "max_score": (None, range(cards, cards * cards + 1)),
                               "moves": [str], "nodes": range(2 ** 63), "seconds": float},
                      optional={"best_score": range(cards, cards * cards + 1)})
    end = replay(Deal.from_seed(seed, rows, cols), record["moves"])
    claimed = record["max_score"] if record["max_score"] is not None else record.get("best_score")
    if claimed is not None and end.score() != claimed:
        raise ValueError(f"its moves reach score {end.score()}, not the {claimed} it claims")
    if record["single_stack"] and end.stacks() != 1:
        raise ValueError("it claims a single stack its moves do not reach")


def solve_text(deal: str, rows: int, cols: int, limits: Limits, check: bool = False) -> dict:
    """The solve fields of a deal given as text, with its ``deal`` (a run's function)."""
    return {"deal": deal, **solve_record(Deal.parse(deal, rows, cols), limits, check=check)}


def fingerprint(rows: int, cols: int, limits: Limits) -> dict:
    """What decides a survey's records: the grid and the limits."""
    return {"command": "stacksquared stats", "rows": rows, "cols": cols,
            "max_nodes": limits.nodes, "max_states": limits.states,
            "max_seconds": limits.seconds}


class Tally:
    """The survey's figures, added up one record at a time (a million deals stay small)."""

    def __init__(self) -> None:
        self.deals = self.decided = self.single = self.limit = 0
        self.scores: Counter = Counter()
        self.seconds: list[float] = []

    def add(self, r: dict) -> None:
        self.deals += 1
        if r["single_stack"] is not None:
            self.decided += 1
            self.single += bool(r["single_stack"])
        if r["max_score"] is not None:
            self.scores[r["max_score"]] += 1
        self.limit += r["status"] == "limit"
        self.seconds.append(r["seconds"])

    def summary(self) -> dict:
        seconds = sorted(self.seconds)
        return {"single_stack": proportion_summary(self.single, self.decided),
                "limit": self.limit, "undecided_single_stack": self.deals - self.decided,
                "max_score_distribution": {str(k): self.scores[k] for k in sorted(self.scores)},
                "timing": {"mean_ms": round(1e3 * sum(seconds) / self.deals, 4),
                           "median_ms": round(1e3 * percentile(seconds, 50), 4),
                           "p99_ms": round(1e3 * percentile(seconds, 99), 4),
                           "max_ms": round(1e3 * seconds[-1], 4)}}


def survey(rows: int, cols: int, seeds: range, limits: Limits, jobs: int = 1,
           scheduler: str | None = None, per_deal: str | None = None,
           resume: bool = False) -> dict:
    """Solve the seeded deals and summarise: single-stack share (Wilson 95%), max scores, time.

    The deals run on :func:`puzzlegen.runs.run` (``jobs``, ``scheduler``, ``per_deal``,
    ``resume`` as there); ``timing`` has the solver's time per deal and the run's wall time.
    """
    Deal.from_seed(0, rows, cols)  # checks the grid before any work
    tally = Tally()
    started = time.perf_counter()
    # The lines a --per-deal file keeps are replayed first, as every printed line is.
    solve_one = partial(solve_seed, rows=rows, cols=cols, limits=limits, check=bool(per_deal))
    for record in runs.run(solve_one, seeds,
                           key="seed", jobs=jobs, scheduler=scheduler, per_deal=per_deal,
                           resume=resume, fingerprint=fingerprint(rows, cols, limits),
                           check=partial(check_seed_record, rows=rows, cols=cols),
                           setup=warm_up, desc=f"{rows}x{cols} deals"):
        tally.add(record)
    out = {"rows": rows, "cols": cols, "deals": len(seeds), "seed_start": seeds.start,
           **tally.summary()}
    out["timing"].update(wall_seconds=round(time.perf_counter() - started, 3), jobs=jobs,
                         scheduler=scheduler)
    return out
