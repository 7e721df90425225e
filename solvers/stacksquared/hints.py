"""Hints for a StacksSquared position and the critical moments of a winning line.

A move is *safe* when one stack is still reachable after it, *losing* otherwise; every decision
is exact (the memoised search of :class:`solvers.stacksquared.difficulty.Decider`), or, when that
search hits its state limit, none is claimed (``limit``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from solvers.stacksquared.difficulty import (DEFAULT_BUDGET, Decider, line_cells_to_moves,
                                             safe_moves, tops)
from solvers.errors import BadInput, LimitReached
from solvers.stacksquared import Deal
from solvers.stacksquared.rules import Move, Position, replay


@dataclass
class Hint:
    solvable: bool | None   # None: the search hit its limit (``limit`` says which)
    safe: list[str]
    losing: list[str]
    suggested: str | None
    limit: str | None = None
    stopped_by: str | None = None   # the limit that stopped the search: "states" or "seconds"

    def to_json(self) -> dict:
        return {"solvable": self.solvable, "safe": self.safe, "losing": self.losing,
                "suggested": self.suggested, "limit": self.limit, "stopped_by": self.stopped_by}


def parse_moves(moves: Iterable[Move | str]) -> list[Move]:
    """Moves as :class:`Move`; :class:`BadInput` names the first malformed one by its number."""
    parsed = []
    for number, move in enumerate(moves, 1):
        try:
            parsed.append(Move.parse(move) if isinstance(move, str) else move)
        except BadInput as exc:
            raise BadInput(f"move {number} ({str(move).strip()}) is malformed: {exc}") from None
    return parsed


def winnable(decider: Decider, position: Position) -> bool:
    return decider.decide(tops(position))[0]


def hint(deal: Deal, moves: Iterable[Move | str] = (), max_states: int = DEFAULT_BUDGET.states,
         max_seconds: float | None = None) -> Hint:
    """Replay ``moves`` from ``deal`` (:class:`BadInput` names the first illegal one) and sort
    the legal moves there into safe and losing; ``suggested`` is the safe move leaving the most
    safe moves after it (ties: the smallest move text), None when no move is safe.  When the
    decision searches store more than ``max_states`` states or run past ``max_seconds``, nothing
    is claimed: ``solvable`` None, no moves, and ``limit`` says so."""
    position = replay(deal, parse_moves(moves))
    decider = Decider(deal, max_states, max_seconds)
    try:
        safe = safe_moves(decider, position)
        suggested = min(safe, key=lambda m: (-len(safe_moves(decider, position.play(m))), str(m)),
                        default=None)
        solvable = winnable(decider, position)
    except LimitReached as exc:
        return Hint(None, [], [], None, str(exc), decider.stopped_by)
    losing = [str(m) for m in position.legal_moves() if m not in safe]
    return Hint(solvable, [str(m) for m in safe], losing,
                None if suggested is None else str(suggested))


def critical_moments(deal: Deal, line: list[Move] | None = None,
                     max_states: int = DEFAULT_BUDGET.states) -> list[dict]:
    """The positions of the winning ``line`` (by default the decision search's reference line)
    where more than half of the legal moves lose, each as ``step`` (1-based number of the move
    about to be played), ``stacks``, ``legal``, ``losing``, ``winning`` (the safe moves) and
    ``played``; [] when the deal has no single-stack solution.  :class:`LimitReached` when the
    decision search stores more than ``max_states`` states."""
    decider = Decider(deal, max_states)
    position = Position.start(deal)
    if line is None:
        won, cells = decider.decide(tops(position), reference=True)
        line = line_cells_to_moves(deal, cells) if won else []
    moments = []
    for step, played in enumerate(line, 1):
        legal = list(position.legal_moves())
        safe = safe_moves(decider, position)
        if 2 * (len(legal) - len(safe)) > len(legal):
            moments.append({"step": step, "stacks": position.stacks(), "legal": len(legal),
                            "losing": len(legal) - len(safe), "winning": [str(m) for m in safe],
                            "played": str(played)})
        position = position.play(played)
    return moments


def explain_lines(moments: list[dict]) -> list[str]:
    """One sentence per critical moment, e.g. ``move 7 (9 stacks left): only 2 of 11 moves keep
    one stack reachable: 9H-TS, 8C-8H``."""
    lines = []
    for m in moments:
        wins = len(m["winning"])
        verb = "keeps" if wins == 1 else "keep"
        lines.append(f"move {m['step']} ({m['stacks']} stacks left): only {wins} of {m['legal']} "
                     f"moves {verb} one stack reachable: {', '.join(m['winning'])}")
    return lines
