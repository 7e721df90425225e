"""Montana's search settings and default limits, in a module without kernels (so that the
command line's help and the game contract load without numba): the table sizes, the forgetting
search's budget, and :class:`Search`, how the movable-Twos rule is searched."""
from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import BadInput

DEFAULT_MAX_STATES = 10_000_000
#: Moves a forgetting-table search (``forget``, which never stops for memory) gets from the
#: command lines when given no other limit: with a table of ``FORGET_MAX_STATES`` layouts it
#: decides 99.9% of random 52-card deals with movable Twos (docs/montana.md).
FORGET_MAX_NODES = 2_500_000_000
#: The command lines' table (about 2.7 GB for 52 cards), which forgets when full by default.
FORGET_MAX_STATES = 40_000_000
HOP_BITS = 4  # the key field of the hops (hop-budget passes) or the free rows (classes)
MAX_HOP_BUDGET = (1 << HOP_BITS) - 1  # the hops a table key can hold


@dataclass(frozen=True)
class Search:
    """How the movable-Twos rule is searched (each part sound; see docs/montana.md).

    ``hop_budgets``: first search the round with at most that many hops (a Two moving between
    first-column gaps), one pass a budget in turn, each ending after ``pass_states`` layouts; a
    win found is a win.  Then the whole round, with ``columns`` (column classes) on or off.
    ``bound``: skip layouts whose bound on the locked cards they can reach is no better than the
    best seen: with ``reach`` at every layout, from the cells each card can ever reach; else
    only once the four Twos fill the first column, from the cards that can move at all.
    ``safe``: once the Twos fill the first column, play a safe move (a card onto its row's
    locked run) alone when there is one.  Without movable Twos none of this applies.
    """

    columns: bool = True
    bound: bool = True
    reach: bool = True
    safe: bool = True
    hop_budgets: tuple[int, ...] = (0, 1, 2, 3)
    pass_states: int = 5_000_000

    def __post_init__(self) -> None:
        budgets = tuple(self.hop_budgets)
        object.__setattr__(self, "hop_budgets", budgets)
        if any(not 0 <= b <= MAX_HOP_BUDGET for b in budgets) or list(budgets) != sorted(
                set(budgets)):
            raise BadInput(f"--hop-budgets must be rising numbers from 0 to {MAX_HOP_BUDGET} "
                           f"(or none), got {','.join(map(str, budgets)) or 'none'}")
        if self.pass_states < 1:
            raise BadInput(f"--pass-states must be at least 1, got {self.pass_states}")
