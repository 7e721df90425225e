"""Stack Management (Code Jam 2017 World Finals): the graph-path checker, a brute-force oracle
and winning lines of play."""
from solvers.stackmgmt.api import (Case, format_contest, parse_contest, solve, solve_brute,
                                   verdict_word)

__all__ = ["Case", "parse_contest", "format_contest", "solve", "solve_brute", "verdict_word"]
