"""What the puzzle page needs of one StacksSquared puzzle, computed exactly when the page is built.

Besides the deal and the stored solution (replayed here by the rules module), each position along
a single-stack solution gets the moves that keep one stack reachable there, decided by the exact
search of ``solvers.stacksquared.difficulty.Decider``; the page's hints use them on that line and
its own exact search (``stacksquared.js``) elsewhere.
"""
from __future__ import annotations

from puzzlegen.web import shown
from solvers.errors import BadInput, LimitReached
from solvers.stacksquared.difficulty import Decider, tops
from solvers.stacksquared import Deal, Position, replay
from solvers.stacksquared.rules import Move


def checked_solution(pid: str, deal: Deal, entry: dict) -> list[Move]:
    """The stored solution as moves, replayed: it must reach what the pack claims."""
    try:
        end = replay(deal, entry["solution"])
    except BadInput as exc:
        raise BadInput(f"puzzle {pid}: field solution: {exc}") from None
    wanted = entry["metrics"]["max_score"]
    if end.score() != wanted or (entry["metrics"]["single_stack"] and end.stacks() != 1):
        raise BadInput(f"puzzle {pid}: field solution: reaches score {end.score()} in "
                       f"{end.stacks()} stacks, the pack claims {wanted}")
    return [Move.parse(m) for m in entry["solution"]]


def safe_moves(deal: Deal, solution: list[Move]) -> list[list[str]]:
    """For each position along ``solution``, the legal moves after which one stack is reachable."""
    decider = Decider(deal)
    position, safe = Position.start(deal), []
    for move in solution:
        safe.append([str(m) for m in position.legal_moves()
                     if decider.decide(tops(position.play(m)))[0]])
        position = position.play(move)
    return safe


def puzzle_data(entry: dict) -> dict:
    pid = entry["id"]
    try:
        deal = Deal.parse(entry["deal"], entry["rows"], entry["cols"])
    except BadInput as exc:
        raise BadInput(f"puzzle {pid}: field deal: {exc}") from None
    solution = checked_solution(pid, deal, entry)
    data = shown(entry, deal.rows, deal.cols)
    data.update(max_score=entry["metrics"]["max_score"],
                single_stack=entry["metrics"]["single_stack"])
    if data["single_stack"]:
        try:
            data["safe"] = safe_moves(deal, solution)
        except LimitReached as exc:
            raise BadInput(f"puzzle {pid}: its hints cannot be decided exactly: {exc}") from None
    return data
