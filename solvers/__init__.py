"""Exact solvers, one subpackage per game; shared card model, result type and limits.

This package never imports :mod:`puzzlegen`.
"""
