"""Kernels compiled ahead of time at install, so that a command starts without importing numba.

``pip install`` (``setup.py``) compiles a kernel's entry functions with numba's ahead-of-time
compiler into an extension module ``<package>._<name>_<digest>`` for the CPU it is installed
on; ``<digest>`` names the sources it was compiled from (``solvers.sources``: every source of the
game's folder and of ``solvers``).  :meth:`Kernel.load` imports the module built from the
sources as they are now, so a kernel edited after the build is never shadowed by stale machine
code: without a matching build the solver runs the JIT kernel, with the same
results (each game's tests hold both to the same answers).
"""
from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace

from solvers import sources


@dataclass(frozen=True)
class Kernel:
    """Kernel functions of ``package`` compiled into one extension module, ``name``:
    ``exports`` pairs each ``"module.function"`` (a module of the package) with its signature."""

    package: str
    name: str
    exports: tuple[tuple[str, str], ...]

    def module_name(self) -> str:
        """The compiled module's name for the sources as they are now."""
        folder = sources.SOLVERS + "/" + self.package.split(".")[-1]
        return f"_{self.name}_{sources.digest(folder).hex()[:16]}"

    def functions(self) -> SimpleNamespace:
        """The exported functions by name: compiled ahead of time when built for these
        sources, else numba's JIT functions (numba is imported only then)."""
        return _functions(self)

    def load(self):
        """The compiled module for these sources, or None when none was built."""
        try:
            return importlib.import_module(f"{self.package}.{self.module_name()}")
        except ImportError:
            return None

    def built(self):
        """The compiled module for these sources wherever it was built: in place (an editable
        install) or in the installed distribution (``pip install .``, while the checkout's
        sources come first on the path); None when neither has it."""
        module = self.load()
        if module is not None:
            return module
        name = self.module_name()
        # Every copy of the metadata: the checkout's own egg-info may come first on the path.
        for dist in importlib.metadata.distributions(name="puzzlegen"):
            for file in dist.files or []:
                if file.name.startswith(name + ".") and file.suffix in (".so", ".pyd"):
                    spec = importlib.util.spec_from_file_location(f"{self.package}.{name}",
                                                                  file.locate())
                    module = importlib.util.module_from_spec(spec)
                    spec.loader.exec_module(module)
                    return module
        return None

    def extensions(self) -> list:
        """The setuptools extension that compiles the function; none where numba cannot (no
        ``numba.pycc``, or no C compiler to link it): the solver then runs the JIT kernel."""
        try:
            from numba.pycc import CC
        except ImportError:
            return []
        jitted = _jitted(self)
        first = self.exports[0][0].split(".")[0]  # the module sits beside the package's modules
        try:
            cc = CC(self.module_name(),
                    source_module=importlib.import_module(f"{self.package}.{first}"))
        except RuntimeError as exc:  # numba found no working C compiler
            print(f"puzzlegen: {self.package} {self.name} is not compiled ahead of time: {exc}")
            return []
        cc.target_cpu = "host"  # compiled at install time, on the machine that runs it
        for (_, signature), (function, dispatcher) in zip(self.exports, jitted.items()):
            cc.export(function, signature)(dispatcher.py_func)
        return [cc.distutils_extension(optional=True)]


def _jitted(kernel: Kernel) -> dict:
    """The numba JIT functions of ``kernel``'s exports, by name."""
    found = {}
    for path, _ in kernel.exports:
        module, function = path.split(".")
        found[function] = getattr(importlib.import_module(f"{kernel.package}.{module}"), function)
    return found


@lru_cache(maxsize=None)
def _functions(kernel: Kernel) -> SimpleNamespace:
    compiled = kernel.load()
    if compiled is None:
        return SimpleNamespace(**_jitted(kernel))
    return SimpleNamespace(**{function: getattr(compiled, function)
                              for function in (path.split(".")[1] for path, _ in kernel.exports)})
