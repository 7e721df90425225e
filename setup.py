"""Build step beside pyproject.toml: compile the StacksSquared and Agnes searches, and the
StacksSquared grade's kernels, ahead of time at install (``solvers/aot.py``); everything else is
declared in pyproject.toml."""
import sys
import warnings
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the build backend does not add it
from solvers.agnes.codes import SEARCH as AGNES_SEARCH  # noqa: E402
from solvers.stacksquared.codes import GRADE as STACKSQUARED_GRADE  # noqa: E402
from solvers.stacksquared.codes import SEARCH as STACKSQUARED_SEARCH  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # numba.pycc announces its pending deprecation on import
    setup(ext_modules=(STACKSQUARED_SEARCH.extensions() + STACKSQUARED_GRADE.extensions()
                       + AGNES_SEARCH.extensions()))
