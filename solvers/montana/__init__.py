"""Montana (Gaps): an exact solver with redeals (rules in ``rules``, search in ``kernel``).

The names below come from ``api`` on first use, so that importing a module of the package (its
``game`` for the command line's help, say) loads no numba kernel."""
import importlib

__all__ = ["DEFAULT_MAX_STATES", "FORGET_MAX_NODES", "FORGET_MAX_STATES", "Move", "Round",
           "Rules", "Search", "deal_from_seed", "format_deal", "format_grid", "game_json",
           "parse_deal", "solve", "solve_round"]


def __getattr__(name: str):
    if name in __all__:
        return getattr(importlib.import_module("solvers.montana.api"), name)
    raise AttributeError(f"module 'solvers.montana' has no attribute {name!r}")
