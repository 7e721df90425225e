"""The numbers the StacksSquared kernel and its Python callers agree on, importable without numba
(``kernel`` re-exports them); and the compiled search."""
from solvers.aot import Kernel

# Search outcome codes.
DONE = 0       # the search space was exhausted or the target reached: the result is exact
NODE_LIMIT = 1
STATE_LIMIT = 2
TIME_LIMIT = 3

# Plans of ``kernel.solve_search``: how it orders and restarts its search.
ROW_MAJOR = 0        # one search, mover cell ascending, then destination cell ascending
FEWEST_PARTNERS = 1  # one search, in the most-promising-first order of ``kernel.generate_moves``
PERTURBED = 2        # restarts on Luby's schedule, each in a newly perturbed FEWEST_PARTNERS order
PORTFOLIO = -1       # the three above by turns (the solver's plan)

#: ``kernel.solve_search`` compiled at install (see its docstring for the arguments).
SEARCH = Kernel("solvers.stacksquared", "solve_search",
                "Tuple((i8, i8, i8[:], i8[:], i8, i8))"
                "(i1[::1], i8[::1], u8[::1], b1, i8, i8, i8, i8, f8, i8)")
