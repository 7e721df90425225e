"""Spider's degrees of freedom as a :class:`solvers.game.Game`: empty as many stacks as the
reversible moves allow.

The rules name the random boards, ``"SxR"``: S stacks, cards of R consecutive ranks
(:func:`solvers.spider.api.random_board`); any board parses under any rules.  ``solve`` is the
exact oracle: ``value`` is the most empty stacks reachable by reversible moves, ``moves`` a line
reaching them; a replay's ``value`` is the empty stacks it reaches, ``won`` when every stack is
empty.  Spider offers no design pipeline: positions, not deals, are its puzzles.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from solvers.errors import BadInput
from solvers.game import Game, Replayed, parse_size
from solvers.result import Limits, SolveResult, Status
from solvers.spider import oracle
from solvers.spider.api import random_board
from solvers.spider.search import STATE_BYTES
from solvers.spider.rules import Board, empty_count, format_board, parse_board, parse_move, replay


@dataclass(frozen=True)
class Boards:
    """Random boards of ``stacks`` stacks over ``ranks`` consecutive ranks."""

    stacks: int
    ranks: int

    def __post_init__(self) -> None:
        if not (1 <= self.stacks <= 10 and 1 <= self.ranks <= 13):
            raise BadInput(f"random boards need 1..10 stacks and 1..13 ranks, not "
                           f"{self.stacks}x{self.ranks}")

    def __str__(self) -> str:
        return f"{self.stacks}x{self.ranks}"


class Spider(Game):
    name = "spider"
    code_name = "p"
    title = "Spider's degrees of freedom"
    default_rules = "4x6"
    #: About a minute and 1 GB.
    default_limits = Limits(states=1_000_000, seconds=60.0)

    def variants(self) -> list[str]:
        return ["4x6", "5x8", "6x10"]

    def parse_rules(self, text: str) -> Boards:
        return Boards(*parse_size(text, "STACKSxRANKS", "4x6"))

    def format_rules(self, rules: Boards) -> str:
        return str(rules)

    def parse_deal(self, text: str, rules: Boards) -> Board:
        return parse_board(text)

    def format_deal(self, deal: Board) -> str:
        return format_board(deal)

    def deal_from_seed(self, seed: int, rules: Boards) -> Board:
        return self.random_deal(random.Random(seed), rules)

    def random_deal(self, rng: random.Random, rules: Boards) -> Board:
        return random_board(rng, rules.stacks, rules.ranks)

    def parse_move(self, text: str):
        return parse_move(text)

    def replay(self, deal: Board, rules: Boards, moves: list) -> Replayed:
        end = replay(deal, moves, reversible=True)
        return Replayed(empty_count(end) == len(end), empty_count(end))

    def memory(self, rules: Boards, limits: Limits, **tuning) -> tuple[int, str]:
        """The boards a search stores (``STATE_BYTES`` each)."""
        if limits.states is None:
            return 0, ""
        return limits.states * STATE_BYTES, f"--max-states {limits.states}"

    def solve(self, deal: Board, rules: Boards, limits: Limits = Limits()) -> SolveResult:
        """The most empty stacks reachable by reversible moves (``value``) and a line to them:
        ``solved`` when that empties every stack, ``unsolvable`` when the search ended short
        of it."""
        result = oracle.max_empty_stacks(deal, limits)
        if result.solved and result.value < len(deal):
            result.status = Status.UNSOLVABLE
        return result


GAME = Spider()
