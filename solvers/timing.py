"""Clock access for numba kernels, so a search can stop at a time limit.

``now()`` may be called from ``@njit`` code; it leaves nopython mode briefly, so call it every few
thousand nodes, not every node.
"""
import time

import numba


@numba.njit(cache=True)
def now() -> float:
    """Seconds on the monotonic performance clock, callable from nopython code."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t
