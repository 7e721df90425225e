"""puzzlegen: design solitaire card puzzles on top of the exact solvers in :mod:`solvers`."""
__version__ = "0.1.0"
