"""The daily puzzle: a date picks one puzzle of the served packs, and a spoiler-free line to
share how it went (docs/server.md).

Each year orders the puzzles by the SHA-256 of ``"puzzlegen daily YEAR CODE"``: a permutation
that depends on the year and the set of puzzles only (not on Python's random generator, nor on
the order the packs are given in).  Day ``d`` of the year (0 for 1 January) gets puzzle
``d mod n`` of that order, so no puzzle comes back within a year when the packs hold at least
366 puzzles, and with fewer each puzzle comes once before any comes again.
"""
from __future__ import annotations

import datetime
import hashlib


def order(codes: list[str], year: int) -> list[str]:
    """The puzzles' codes in the order the days of ``year`` take them."""
    return sorted(set(codes), key=lambda code: hashlib.sha256(
        f"puzzlegen daily {year} {code}".encode()).hexdigest())


def pick(codes: list[str], day: datetime.date) -> str:
    """The code of the puzzle of ``day``."""
    ordered = order(codes, day.year)
    return ordered[(day.timetuple().tm_yday - 1) % len(ordered)]


def clock(seconds: float) -> str:
    """A time on task as ``m:ss`` (``h:mm:ss`` from an hour)."""
    s = round(seconds)
    return (f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600
            else f"{s // 60}:{s % 60:02d}")


def share(day: datetime.date, title: str, rules: str, level: str, attempt: dict | None) -> str:
    """``puzzlegen daily 2026-12-06 · StacksSquared 4x4 hard · solved in 3:12, 2 hints``: the
    puzzle's game, rules and level and how the attempt ended, never a move."""
    head = f"puzzlegen daily {day.isoformat()} \u00b7 {title} {rules} {level}"
    if attempt is None:
        return head
    if attempt["result"] == "solved":
        hints = attempt["hints"]
        how = f"solved in {clock(attempt['seconds'])}" + (
            f", {hints} hint{'s' * (hints != 1)}" if hints else ", no hints")
    elif attempt["result"] == "shown":
        how = "solution shown"
    else:
        how = "not solved"
    return f"{head} \u00b7 {how}"
