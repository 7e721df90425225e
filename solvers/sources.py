"""Which sources a game's compiled kernels depend on, as one digest (no numba imported here).

A numba function's compiled code holds the code of everything it calls, from any module of its
game's folder or of ``solvers`` itself; so both numba's cache (``solvers.jit``) and the kernels
compiled at install (``solvers.aot``) are named or stamped with the digest of all the Python
sources there: an edit to any of them never leaves stale machine code in use.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache

SOLVERS = os.path.dirname(os.path.abspath(__file__))


def digest(folder: str, root: str = SOLVERS) -> bytes:
    """SHA-256 of the ``.py`` files of ``folder`` and of ``root``, by their names relative to
    ``root`` (the same wherever the package is installed)."""
    folders = sorted({os.path.abspath(folder), os.path.abspath(root)})
    files = [os.path.join(f, name) for f in folders for name in sorted(os.listdir(f))
             if name.endswith(".py")]
    return _digest(root, tuple((path, os.stat(path).st_mtime_ns) for path in files))


@lru_cache(maxsize=None)
def _digest(root: str, stamped: tuple) -> bytes:
    """The digest of the files in ``stamped`` (memoised on their modification times)."""
    h = hashlib.sha256()
    for path, _ in stamped:
        with open(path, "rb") as fh:
            h.update(os.path.relpath(path, root).encode() + b"\0" + fh.read() + b"\0")
    return h.digest()
