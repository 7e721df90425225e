"""Kernels compiled ahead of time at install, so that a command starts without importing numba.

``pip install`` (``setup.py``) compiles a kernel's entry function with numba's ahead-of-time
compiler into an extension module ``<package>._<function>_<digest>`` for the CPU it is installed
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
from solvers import sources


@dataclass(frozen=True)
class Kernel:
    """``package.kernel.function`` compiled with ``signature``."""

    package: str
    function: str
    signature: str

    def module_name(self) -> str:
        """The compiled module's name for the sources as they are now."""
        folder = sources.SOLVERS + "/" + self.package.split(".")[-1]
        return f"_{self.function}_{sources.digest(folder).hex()[:16]}"

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
        kernel = importlib.import_module(f"{self.package}.kernel")
        try:
            cc = CC(self.module_name(), source_module=kernel)
        except RuntimeError as exc:  # numba found no working C compiler
            print(f"puzzlegen: {self.package}.kernel.{self.function} is not compiled ahead of "
                  f"time: {exc}")
            return []
        cc.target_cpu = "host"  # compiled at install time, on the machine that runs it
        cc.export(self.function, self.signature)(getattr(kernel, self.function).py_func)
        return [cc.distutils_extension(optional=True)]
