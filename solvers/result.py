"""The one result type every solver returns, and the limits every solver accepts.

The solve contract (README): a solve ends ``solved``, ``unsolvable`` or ``limit``.  ``limit``
means a node, state, time or memory limit stopped the search; it is never reported as
unsolvable.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Status(str, Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT = "limit"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Limits:
    """Search limits: ``nodes`` examined, distinct ``states`` stored (bounds memory), ``seconds``.

    ``None`` means unlimited (a negative or NaN limit is a ``ValueError``).  A solver that
    reaches any of them returns ``Status.LIMIT``.
    """

    nodes: int | None = None
    seconds: float | None = None
    states: int | None = None

    def __post_init__(self) -> None:
        for name in ("nodes", "seconds", "states"):
            value = getattr(self, name)
            if value is not None and not value >= 0:  # NaN too; below zero meant "unlimited"
                raise ValueError(f"limit {name} must be at least 0 (None: unlimited), "
                                 f"not {value!r}")

    @property
    def node_cap(self) -> int:
        """The node limit as an integer for numba kernels (-1 = unlimited)."""
        return -1 if self.nodes is None else int(self.nodes)

    @property
    def second_cap(self) -> float:
        """The time limit as a float for numba kernels (-1.0 = unlimited)."""
        return -1.0 if self.seconds is None else float(self.seconds)

    def after(self, nodes_used: int = 0, seconds_used: float = 0.0) -> "Limits":
        """What is left of these limits for the next of several searches sharing them, after
        ``nodes_used`` nodes and ``seconds_used`` seconds (never below 0)."""
        nodes = None if self.nodes is None else max(0, self.nodes - nodes_used)
        seconds = None if self.seconds is None else max(0.0, self.seconds - seconds_used)
        return Limits(nodes, seconds, self.states)

    @property
    def state_cap(self) -> int:
        """The state limit as an integer for numba kernels (-1 = unlimited)."""
        return -1 if self.states is None else int(self.states)



@dataclass
class SolveResult:
    """The outcome of one solve.

    ``moves`` is a line of play in the game's own move objects (each prints in the game's
    notation and has ``to_json()``); for ``solved`` it reaches the solution, otherwise it may
    reach the best result found (``value``).  ``nodes`` counts the nodes or states examined;
    ``details`` holds game-specific figures (for StacksSquared ``single_stack``, ``max_score``).
    """

    status: Status
    moves: list = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    value: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: status, value, details, moves in notation, nodes, seconds."""
        out: dict[str, Any] = {"status": self.status.value}
        if self.value is not None:
            out["value"] = self.value
        out.update(self.details)
        out["moves"] = [m.to_json() if hasattr(m, "to_json") else str(m) for m in self.moves]
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out
