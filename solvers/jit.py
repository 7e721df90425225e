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

numba stamps a cached function with its own source file, but the cached code of a caller also
holds the code of every function it calls, from whichever module: edit a callee's module alone
and its callers would go on running the old callee.  Here a kernel's cache is stamped instead
with every source of its own package and of ``solvers`` itself (``solvers.sources``), so any
edit there compiles the package's kernels afresh.  Import this module before defining a kernel.
"""
import logging
import os

from numba import njit
from numba.core import caching, event

from solvers import sources

SOLVERS = sources.SOLVERS  # the tree whose kernels are stamped so


def _package_stamped(locator: type) -> type:
    """numba's ``locator`` for the files under ``SOLVERS``, stamping with the digest of the
    sources of the function's folder and of ``SOLVERS``."""

    class Locator(locator):
        def get_source_stamp(self):
            return sources.digest(os.path.dirname(self._py_file), SOLVERS)

        @classmethod
        def from_function(cls, py_func, py_file):
            inside = os.path.abspath(py_file).startswith(SOLVERS + os.sep)
            return super().from_function(py_func, py_file) if inside else None

    Locator.__name__ = f"Package{locator.__name__}"
    return Locator


def _numba(name: str):
    """A class of ``numba.core.caching`` (older numba names it with a leading underscore)."""
    return getattr(caching, name, None) or getattr(caching, "_" + name)


_numba("CacheImpl")._locator_classes = [
    *(_package_stamped(_numba(name)) for name in
      ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")),
    *_numba("CacheImpl")._locator_classes]

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
