"""The solver's search compiled ahead of time, so that a command starts without importing numba.

``pip install`` (``setup.py``) compiles ``kernel.solve_search`` with numba's ahead-of-time
compiler into the extension module ``solvers.stacksquared._search_<digest>``, for the CPU it
is installed on; ``<digest>`` names the kernel sources it was compiled from.  ``load()`` imports
the module built from the sources beside it, so a kernel edited after the build is never
shadowed by stale machine code: without a matching build the solver uses the JIT kernel, with
the same results (the tests hold both to the same answers).
"""
from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

#: The files the compiled search is made from (this one holds its signature), relative to the
#: ``solvers`` package.
SOURCES = ("stacksquared/kernel.py", "stacksquared/codes.py", "stacksquared/aot.py", "timing.py",
           "jit.py")

#: ``kernel.solve_search``'s signature (see its docstring).
SIGNATURE = ("Tuple((i8, i8, i8[:], i8[:], i8, i8))"
             "(i1[::1], i8[::1], u8[::1], b1, i8, i8, i8, i8, f8, i8)")


def module_name() -> str:
    """The compiled module's name for the kernel sources as they are now."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((root / name).read_bytes())
    return f"_search_{digest.hexdigest()[:16]}"


def load():
    """The compiled module for these sources, or None when none was built."""
    try:
        return importlib.import_module(f"solvers.stacksquared.{module_name()}")
    except ImportError:
        return None


def extensions() -> list:
    """The setuptools extension that compiles the search; none where numba cannot (no
    ``numba.pycc``, or no C compiler to link it): the solver then runs the JIT kernel."""
    try:
        from numba.pycc import CC
    except ImportError:
        return []
    from solvers.stacksquared import kernel

    try:
        cc = CC(module_name())
    except RuntimeError as exc:  # numba found no working C compiler
        print(f"puzzlegen: the StacksSquared search is not compiled ahead of time: {exc}")
        return []
    cc.target_cpu = "host"  # compiled at install time, on the machine that runs it
    cc.export("solve_search", SIGNATURE)(kernel.solve_search.py_func)
    return [cc.distutils_extension(optional=True)]
