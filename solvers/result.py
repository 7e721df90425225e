"""The one result type every solver returns, the limits every solver accepts, and the one
result of a simulated player's chance to win a deal.

The solve contract (README): a solve ends ``solved``, ``unsolvable`` or ``limit``.  ``limit``
means a node, state, time or memory limit stopped the search; it is never reported as
unsolvable.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
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


@dataclass(frozen=True)
class Chance:
    """A simulated player's chance to win a deal, exact or estimated.

    ``win`` is the chance; ``log10`` its logarithm, kept as measured where the estimator works
    on the log scale (``from_log10``: Agnes's splitting estimate, whose chance may be too small
    for a float).  ``interval`` is the 95% interval: the value twice when ``exact``, None where
    the estimator gives none (Agnes's splitting keeps no lineage to measure it; Stack
    Management's random lines are not summarised).  ``games`` counts the simulated games or
    particles behind an estimate, 0 when exact.  ``reached``: where every simulated game lost,
    how far the best got (Agnes: cards home), the chance then an extrapolation; else None.
    ``bounds``: the certified bounds of an exact search stopped at its limit, the estimate and
    its interval clipped to them (``within``).
    """

    win: float
    interval: tuple[float, float] | None = None
    games: int = 0
    exact: bool = False
    reached: int | None = None
    bounds: tuple[float, float] | None = None
    measured_log10: float | None = field(default=None, repr=False)

    @classmethod
    def exactly(cls, win: float) -> "Chance":
        """An exact chance."""
        return cls(win, (win, win), exact=True)

    @classmethod
    def from_log10(cls, log10: float, **kwargs) -> "Chance":
        """An estimate measured as its ``log10``."""
        return cls(10.0 ** log10, measured_log10=log10, **kwargs)

    @property
    def log10(self) -> float:
        """``log10`` of the chance (-inf for 0)."""
        if self.measured_log10 is not None:
            return self.measured_log10
        return math.log10(self.win) if self.win > 0 else -math.inf

    def within(self, lo: float, hi: float) -> "Chance":
        """This estimate with the certified bounds ``lo``, ``hi``: its value and interval
        clipped to them (the chance lies inside them for sure)."""
        low, high = self.interval
        return replace(self, win=min(max(self.win, lo), hi), bounds=(lo, hi),
                       interval=(min(max(low, lo), hi), min(max(high, lo), hi)))

    def to_json(self, name: str = "win") -> dict[str, Any]:
        """``{name: win, "interval", "particles", "exact"}``, then ``"bounds"`` if any and
        ``"reached"`` if any."""
        out: dict[str, Any] = {name: self.win,
                               "interval": None if self.interval is None else list(self.interval),
                               "particles": self.games, "exact": self.exact}
        if self.bounds is not None:
            out["bounds"] = list(self.bounds)
        if self.reached is not None:
            out["reached"] = self.reached
        return out
