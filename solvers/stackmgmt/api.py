"""Public surface of the Stack Management solver: parse contest input, decide cases, explain wins.

``solve`` is the analysis' checker (exact, linear after sorting); ``solve_brute`` the exhaustive
oracle.  Both return :class:`SolveResult` with status ``solved`` (POSSIBLE) or ``unsolvable``
(IMPOSSIBLE); only the oracle can stop at a limit.
"""
from __future__ import annotations

import time

from solvers.result import Limits, SolveResult, Status
from solvers.stackmgmt.brute import brute_force
from solvers.stackmgmt.checker import decide
from solvers.stackmgmt.contest import Case, format_contest, parse_contest
from solvers.stackmgmt.rules import replay
from solvers.stackmgmt.strategy import winning_line

__all__ = ["Case", "parse_contest", "format_contest", "solve", "solve_brute", "verdict_word"]


def _check_line(case: Case, moves: list) -> None:
    """A winning line is replayed by the rule book before anyone sees it: it must win."""
    if moves:
        assert replay(case.stacks(), moves).won(), "the solver's line does not replay"


def solve(case: Case, explain: bool = False) -> SolveResult:
    """Decide ``case`` with the graph-path checker; with ``explain``, a winning line as moves.

    ``nodes`` counts the cards of the case (the checker looks at each a bounded number of
    times); ``details`` holds ``suits``, ``stacks``, ``reason`` and the ``path`` of ace stacks.
    """
    start = time.perf_counter()
    verdict = decide(case)
    moves = winning_line(case.stacks(), verdict) if explain and verdict.possible else []
    _check_line(case, moves)
    return SolveResult(Status.SOLVED if verdict.possible else Status.UNSOLVABLE, moves,
                       nodes=case.cards, seconds=time.perf_counter() - start,
                       details={"suits": verdict.suits, "stacks": case.n,
                                "reason": verdict.reason,
                                "path": [a + 1 for a in verdict.path]})


def solve_brute(case: Case, limits: Limits = Limits()) -> SolveResult:
    """Decide ``case`` by trying every play; ``limit`` if ``limits.states`` positions stored
    (its memory), ``limits.nodes`` positions examined or ``limits.seconds`` run out first.
    ``nodes`` counts the positions examined, ``details["states"]`` those stored; a ``limit``
    result names its limit in ``details["stopped_by"]``: ``{"limit": "states" | "nodes" |
    "seconds", "value": ...}``."""
    start = time.perf_counter()
    line, decided, counts = brute_force(case.stacks(), limits.states, limits.seconds,
                                        limits.nodes)
    _check_line(case, line or [])
    status = Status.LIMIT if not decided else Status.SOLVED if line is not None \
        else Status.UNSOLVABLE
    details: dict = {"states": counts["states"]}
    if not decided:
        by = counts["stopped_by"]
        details["stopped_by"] = {"limit": by, "value": getattr(limits, by)}
    return SolveResult(status, line or [], nodes=counts["nodes"],
                       seconds=time.perf_counter() - start, details=details)


def verdict_word(result: SolveResult) -> str:
    """The contest's answer for a result: POSSIBLE, IMPOSSIBLE, or LIMIT for an unfinished one."""
    return {Status.SOLVED: "POSSIBLE", Status.UNSOLVABLE: "IMPOSSIBLE"}.get(result.status,
                                                                           "LIMIT")
