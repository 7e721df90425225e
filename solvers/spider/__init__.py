"""Spider degrees of freedom: the position model, the calculator and the exact oracle."""
from solvers.spider.api import (Board, Question, ask, calc, dof_report, format_board,
                                move_report, oracle, parse_board, random_board, random_question)

__all__ = ["Board", "Question", "ask", "calc", "dof_report", "format_board", "move_report",
           "oracle", "parse_board", "random_board", "random_question"]
