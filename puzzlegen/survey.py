"""StacksSquared solves as JSON records: the fields ``stacksquared solve`` prints a deal with."""
from __future__ import annotations

from solvers.result import Limits
from solvers.stacksquared import Deal, solve
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


def solve_text(deal: str, rows: int, cols: int, limits: Limits, check: bool = False) -> dict:
    """The solve fields of a deal given as text, with its ``deal`` (a run's function)."""
    return {"deal": deal, **solve_record(Deal.parse(deal, rows, cols), limits, check=check)}
