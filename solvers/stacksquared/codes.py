"""The numbers the StacksSquared kernel and its Python callers agree on, importable without numba
(``kernel`` re-exports them); and the kernels compiled at install."""
import numpy as np

from solvers.aot import Kernel

# Search outcome codes, typed (see OPEN below).
DONE = np.int64(0)  # the search space was exhausted or the target reached: the result is exact
NODE_LIMIT = np.int64(1)
STATE_LIMIT = np.int64(2)
TIME_LIMIT = np.int64(3)

# Plans of ``kernel.solve_search``: how it orders and restarts its search.
ROW_MAJOR = 0        # one search, mover cell ascending, then destination cell ascending
FEWEST_PARTNERS = 1  # one search, in the most-promising-first order of ``kernel.generate_moves``
PERTURBED = 2        # restarts on Luby's schedule, each in a newly perturbed FEWEST_PARTNERS order
PORTFOLIO = -1       # the three above by turns (the solver's plan)

# Cuts of ``kernel.solve_search`` (bits of its ``cuts``): the partition bound and the pendant
# rule (the kernel's module docstring); the solver uses both.
PARTITION_CUT = 1
PENDANT_CUT = 2
ALL_CUTS = PARTITION_CUT | PENDANT_CUT

# What ``tree.decide`` answers for a position; the decision table stores it plus one in the two
# top bits of a row's first word (``kernel.STATUS_SHIFT``), so that a stored row is never all
# zero.  Typed, so that numba's ahead-of-time compiler gives a variable holding one code or
# another a single type (it types a plain integer global by its value alone).
OPEN = np.int64(0)
WINS = np.int64(1)
LOSES = np.int64(2)

#: A player's estimate stops after ``MAX_TRIES * particles`` tries (``players.win_chance``).
MAX_TRIES = 16

#: ``kernel.solve_search`` compiled at install (see its docstring for the arguments).
SEARCH = Kernel("solvers.stacksquared", "solve_search", (
    ("kernel.solve_search",
     "Tuple((i8, i8, i8[:], i8[:], i8, i8))(i1[::1], i8[::1], u8[::1], b1, i8, i8, i8, i8, f8, "
     "i8, i8)"),))

#: The grade's kernels compiled at install (see their docstrings for the arguments), so that
#: ``grade`` starts without numba too.
GRADE = Kernel("solvers.stacksquared", "grade", (
    ("tree.decide",
     "Tuple((i8, u8[:, ::1], i8, i8))(i1[::1], u8, i8, u8[::1], u8[::1], b1, u8[:, ::1], i8, "
     "i8, i8[::1], f8)"),
    ("tree.explore",
     "Tuple((i8, u8[:, ::1], b1[::1], f8[::1], i8[::1]))(i1[::1], u8[::1], u8[::1], i8)"),
    ("players.win_chance",
     "Tuple((f8[::1], i8[::1], u8[:, ::1], i8, f8[::1]))(i1[::1], i8, i8, i8, i8, i8, u8[::1], "
     "u8[::1], u8[:, ::1], i8, i8, i8[::1])"),
    ("chances.chances",
     "Tuple((f8[::1], f8[::1], b1, i8, u8[:, ::1], i8))(i1[::1], i8, i8, i8, u8[::1], u8[::1], "
     "u8[:, ::1], i8, i8, i8[::1])"),
))


def decision_table(width: int) -> np.ndarray:
    """An empty decision table: 2,048 rows (``memo_grow`` doubles them) of ``width`` key words."""
    return np.zeros((2048, width), dtype=np.uint64)


def explore_bytes(cells: int, states: int) -> int:
    """At most the bytes ``tree.explore`` takes to store ``states`` states of a ``cells``-card
    deal: its rows (a key of ``(cells + 7) // 8`` words and 17 bytes of figures) double when
    full, so up to 3 a state while both copies live, and its slot index (8 bytes a slot) doubles
    at 70% full, so up to 4.3 slots a state."""
    return states * (3 * (8 * ((cells + 7) // 8) + 17) + 35)


def decision_bytes(cells: int, states: int) -> int:
    """At most the bytes of a decision table holding ``states`` states of a ``cells``-card deal:
    it doubles at 70% full, so up to 2.9 rows a state, 4.3 while both copies live (6 here) of
    ``(cells + 7) // 8`` words."""
    return states * 6 * 8 * ((cells + 7) // 8)
