"""Atomic file writing: an output file is either complete or not there at all."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable

from solvers.errors import BadInput


def check_writable(path: str | os.PathLike) -> None:
    """:class:`BadInput` unless a file can be created at ``path``; commands call it before long
    work so a bad output path fails at once, naming the user's path."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise BadInput(f"cannot write {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise BadInput(f"cannot write {path}: the folder {folder} is not writable")


def check_regular(path: str | os.PathLike, folder_ok: bool = False) -> None:
    """:class:`BadInput` when ``path`` names something other than a regular file (or, with
    ``folder_ok``, a folder): an output never replaces a device, a pipe or a socket."""
    if os.path.exists(path) and not (os.path.isfile(path) or folder_ok and os.path.isdir(path)):
        raise BadInput(f"{path} is not a regular file: an output replaces only files")


def check_output(path: str | os.PathLike, force: bool = False,
                 remedy: str = "use --force to replace it", folder_ok: bool = False) -> None:
    """:class:`BadInput` unless ``path`` can be written and, without ``force``, does not exist
    yet: an output never silently replaces a file (the shared check of ``--out``/``--force``;
    ``remedy`` says what to do instead), and never replaces anything but a regular file (or a
    folder, with ``folder_ok``)."""
    check_writable(path)
    check_regular(path, folder_ok)
    if os.path.lexists(path) and not force:
        raise BadInput(f"{path} already exists; {remedy}")


def write_atomic(path: str | os.PathLike, text: str | bytes | Iterable[str]) -> None:
    """Write ``text`` (a string, bytes, or strings written in turn) to ``path`` via a temporary
    file in the same folder and an atomic rename.

    The file gets the usual permissions of a new file (0666 less the umask), not mkstemp's 0600.
    """
    check_writable(path)
    check_regular(path)
    target = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent or ".")
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
            fh.writelines([text] if isinstance(text, (str, bytes)) else text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:      # named by the user's path, not the temporary file's
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise
