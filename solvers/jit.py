"""How the numba kernels are compiled.

``leaf`` compiles a kernel function that allocates no array, without numba's reference
counting.  Numba otherwise wraps each call in atomic increments and decrements of the counts of
the function's array arguments; in the StacksSquared players' recursive look-ahead and decision
search these took about 45% of a grade's time (docs/design.md, "Speed").  A ``leaf`` function
must not create or return an array; views and element writes are fine, its caller owns every
array it touches.  numba refuses to compile an allocation or a returned view there, but not a
returned argument, which its caller would then release once too often.

The first compile in a process (numba found no cached copy: the first run after an install)
is logged once, at INFO on this module's logger; the command line shows it on a terminal.
"""
import logging

from numba import njit
from numba.core import event

leaf = njit(cache=True, _nrt=False)


class _FirstCompile(event.Listener):
    """Logs the process's first compile; loads from numba's cache are no compile."""

    said = False

    def on_start(self, ev):
        if not self.said:
            self.said = True
            logging.getLogger(__name__).info(
                "compiling the solver kernels for this machine (the first run after an install "
                "waits a minute or so; later runs load them from numba's cache)")

    def on_end(self, ev):
        pass


event.register("numba:compile", _FirstCompile())
