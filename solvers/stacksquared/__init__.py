"""StacksSquared (Birds of a Feather): rules, exact solver, deals."""
from solvers.stacksquared.api import DEFAULT_LIMITS, solve, warm_up
from solvers.stacksquared.rules import Deal, Move, Position, compatible, replay

__all__ = ["DEFAULT_LIMITS", "Deal", "Move", "Position", "compatible", "replay", "solve", "warm_up"]
