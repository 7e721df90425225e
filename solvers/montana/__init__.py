"""Montana (Gaps): an exact solver with redeals (rules in ``rules``, search in ``kernel``)."""
from solvers.montana.api import (DEFAULT_MAX_STATES, FORGET_MAX_NODES, FORGET_MAX_STATES, Move,
                                 Round, Rules, Search, deal_from_seed, format_deal, format_grid,
                                 game_json, parse_deal, solve, solve_round)

__all__ = ["DEFAULT_MAX_STATES", "FORGET_MAX_NODES", "FORGET_MAX_STATES", "Move", "Round",
           "Rules", "Search", "deal_from_seed", "format_deal", "format_grid", "game_json",
           "parse_deal", "solve", "solve_round"]
