"""The codes the Agnes kernel shares with its callers (kept apart so that they load without
numba): empty-pile rules, pruning switches, outcomes, sizes; and the compiled search."""
from solvers.aot import Kernel

NONE, ANY1, ANYRUN, HIGH1, HIGHRUN = 0, 1, 2, 3, 4
# Pruning switches (each tested against the plain search).
SAFE = 1       # force a foundation move when no card could ever need to go onto it
DEAD = 2       # 'None' rule: a cycle of highest-rank cards blocking suits loses (not in max mode)
EMPTY = 4      # only the first of several equivalent empty piles; no whole-pile relabelling
SYMMETRY = 8   # piles no deal can reach any more are interchangeable (canonical order)
TABLE = 16     # transposition table of losing states
ALL = 31

WON, LOST = 0, 1
NODE_LIMIT, DEPTH_LIMIT, TIME_LIMIT = 2, 3, 4   # which limit stopped the search
MAX_DEPTH = 1 << 18   # a line of play may reach MAX_DEPTH - 2 moves; a longer one stops the search
WORDS = 7             # words of a state's encoding in the losing-state table
FRAMES = 7            # figures the search keeps per depth of its line

#: ``kernel.search`` compiled at install (see its docstring for the arguments).
SEARCH = Kernel("solvers.agnes", "search", (
    ("kernel.search",
     "Tuple((i8, i8, i8, i8))(i8[::1], i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, b1, i8, b1, "
     "i8, b1, i8, f8, u8[::1], u8[:, ::1], i8, i8[:, ::1], u8[::1], u8[:, ::1], i8[::1])"),))
