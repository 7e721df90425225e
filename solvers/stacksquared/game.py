"""StacksSquared as a :class:`solvers.game.Designable`: the rules are the grid, ``"4x4"``."""
from __future__ import annotations

import random
from dataclasses import dataclass

from collections import Counter

from solvers.cards import FREECELL_SEEDS, Card, full_deck
from solvers.errors import BadInput, LimitReached
from solvers.game import Designable, Figures, Pool, Replayed, Sheet, Tuning, parse_size
from solvers.result import Limits, SolveResult, Status
from solvers.stats import proportion_summary
from solvers.stacksquared.api import DEFAULT_LIMITS, solve, table_bytes
from solvers.stacksquared.rules import Deal, Move, Position, check_grid, replay
from solvers.stacksquared.symmetry import CARD_MAPS, canonical_with_map, map_card

DECK = tuple(full_deck())
# Grids whose grades would be noise (docs/design.md, "How precise is a grade?"): no calibration.
UNGRADED = {(4, 13): "one deal's estimates spread twice as much as random deals differ"}


@dataclass(frozen=True)
class Grid:
    """The rules of a StacksSquared deal: its shape."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        check_grid(self.rows, self.cols)

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"


def shuffle_step(cards: list[Card], rng: random.Random, fixed=frozenset(), keep=frozenset(),
                 deck=DECK) -> None:
    """An annealing move in place: swap two cells not in ``fixed``, or put a card of ``deck``
    that is not dealt in place of one that is neither fixed nor in ``keep`` (even odds when
    both are possible)."""
    free = [i for i in range(len(cards)) if i not in fixed]
    loose = [i for i in free if cards[i] not in keep]
    dealt = set(cards)
    spare = [c for c in deck if c not in dealt]
    can_swap, can_replace = len(free) >= 2, bool(loose and spare)
    if can_swap and (not can_replace or rng.random() < 0.5):
        a, b = rng.sample(free, 2)
        cards[a], cards[b] = cards[b], cards[a]
    elif can_replace:
        cards[rng.choice(loose)] = rng.choice(spare)


def _difficulty():
    """The difficulty module, imported on first use: it compiles numba kernels, which a solve
    (ahead-of-time compiled) never needs."""
    from solvers.stacksquared import difficulty
    return difficulty


class StacksSquared(Designable):
    name = "stacksquared"
    code_name = "s"
    title = "StacksSquared (Birds of a Feather)"
    seeds = FREECELL_SEEDS
    tuning = (Tuning("max_score", bool, True,
                     "Without a single stack, also find the exact maximum score."),)
    default_rules = "4x4"
    default_limits = DEFAULT_LIMITS
    check_figure = "halfway.ratio"
    goal = ("Move a stack onto another in its row or column when the top cards share a suit or "
            "are equal or adjacent in rank (A low, K high). Make one stack.")
    notation = "5C-JC: the stack topped by 5C goes onto the stack topped by JC."
    page_script = "page.js"

    def variants(self) -> list[str]:
        return ["3x3", "3x4", "4x4", "4x5", "5x5", "6x6", "4x13"]

    def parse_rules(self, text: str) -> Grid:
        return Grid(*parse_size(text, "ROWSxCOLS", "4x4"))

    def format_rules(self, rules: Grid) -> str:
        return str(rules)

    def parse_deal(self, text: str, rules: Grid) -> Deal:
        return Deal.parse(text, rules.rows, rules.cols)

    def format_deal(self, deal: Deal) -> str:
        return str(deal)

    def deal_from_seed(self, seed: int, rules: Grid) -> Deal:
        return Deal.from_seed(seed, rules.rows, rules.cols)

    def code_pool(self, rules: Grid) -> Pool:
        """The grid's cards, row-major, drawn from the 52 cards (``Card.index``)."""
        return Pool.distinct(rules.rows * rules.cols, 52)

    def code_symbols(self, deal: Deal, rules: Grid) -> list[int]:
        return [card.index for card in deal.cards]

    def code_deal(self, symbols: list[int], rules: Grid) -> Deal:
        return Deal(rules.rows, rules.cols, tuple(map(Card.from_index, symbols)))

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def replay(self, deal: Deal, rules: Grid, moves: list) -> Replayed:
        end = replay(deal, moves)
        return Replayed(end.stacks() == 1, end.score())

    def solve(self, deal: Deal, rules: Grid, limits: Limits = DEFAULT_LIMITS,
              max_score: bool = True) -> SolveResult:
        """``value``: the score the line reaches (the maximum, or on a limit the best found)."""
        result = solve(deal, limits, max_score)
        if result.value is None and result.moves:
            result.value = result.details.get("best_score")
        return result

    def record(self, deal: Deal, rules: Grid, result: SolveResult) -> dict:
        """Whether the deal makes one stack, its maximum score (None where undecided), the
        best score a stopped search reached, and the line to the best."""
        return {"single_stack": result.details["single_stack"],
                "max_score": result.details["max_score"],
                "best_score": result.details.get("best_score"),
                "moves": [str(m) for m in result.moves]}

    def record_fields(self, rules: Grid) -> dict:
        cards = rules.rows * rules.cols
        scores = (None, range(cards, cards * cards + 1))
        return {"single_stack": (True, False, None), "max_score": scores, "best_score": scores,
                "moves": [str]}

    def summary(self, records: list[dict], rules: Grid) -> dict:
        """The share of deals with one stack among those decided (Wilson 95%), and how many
        deals reach each maximum score."""
        decided = [r["single_stack"] for r in records if r["single_stack"] is not None]
        scores = Counter(r["max_score"] for r in records if r["max_score"] is not None)
        return {"single_stack": proportion_summary(sum(decided), len(decided)),
                "max_score_distribution": {str(k): scores[k] for k in sorted(scores)}}

    def summary_lines(self, summary: dict) -> list[str]:
        p = summary["single_stack"]
        rate = "n/a" if p["rate"] is None else f"{100 * p['rate']:.2f}%"
        return [f"single stack {p['count']:,}/{p['deals']:,} = {rate} (Wilson 95%: "
                f"{100 * p['wilson95'][0]:.2f}%..{100 * p['wilson95'][1]:.2f}%)",
                "max score distribution: " + ", ".join(
                    f"{k}: {v:,}" for k, v in summary["max_score_distribution"].items())]

    def memory(self, rules: Grid, limits: Limits, **tuning) -> tuple[int, str]:
        if limits.states is None:
            return 0, ""
        return (table_bytes(limits.states, rules.rows * rules.cols),
                f"--max-states {limits.states}")

    def result_lines(self, deal: Deal, rules: Grid, result: SolveResult) -> list[str]:
        n, d = deal.size, result.details
        if result.status is Status.LIMIT:
            lines = [f"limit: the search stopped after {result.nodes:,} nodes "
                     f"({result.seconds:.3f} s) without deciding"]
            if d.get("best_score") is not None:
                lines.append(f"no single stack; best score found {d['best_score']} "
                             f"(not proven maximal)")
        elif d["single_stack"]:
            lines = [f"single stack: yes, score {n * n} in {len(result.moves)} moves"]
        else:
            lines = [f"single stack: no; maximum score {d['max_score']} (of {n * n})"]
        return lines

    def puzzle_fields(self, deal: Deal, rules: Grid) -> dict:
        return {"rows": deal.rows, "cols": deal.cols}

    def entry_rules(self, entry: dict) -> Grid:
        return Grid(entry["rows"], entry["cols"])

    def show_deal(self, deal: Deal) -> str:
        return deal.grid_text()

    def canonical(self, deal: Deal, rules: Grid) -> Deal:
        return canonical_with_map(deal)[0]

    def symmetric_copy(self, deal: Deal, rules: Grid, rng: random.Random) -> Deal:
        suits, flip = rng.choice(CARD_MAPS)
        grid = [[map_card(deal.cards[r * deal.cols + c], suits, flip) for c in range(deal.cols)]
                for r in range(deal.rows)]
        rng.shuffle(grid)
        order = rng.sample(range(deal.cols), deal.cols)
        grid = [[row[c] for c in order] for row in grid]
        if rng.random() < 0.5:
            grid = [list(col) for col in zip(*grid)]
        return Deal(len(grid), len(grid[0]), tuple(c for row in grid for c in row))

    def neighbour(self, deal: Deal, rules: Grid, rng: random.Random) -> Deal:
        cards = list(deal.cards)
        shuffle_step(cards, rng)
        return Deal(deal.rows, deal.cols, tuple(cards))

    def hardness(self, deal: Deal, rules: Grid, quick: bool = False,
                 repeat: int = 0) -> float | None:
        measure = _difficulty()
        return measure.estimated_hardness(deal, measure.QUICK if quick else
                                          measure.DEFAULT_BUDGET, repeat)

    def rough_hardness(self, deal: Deal, rules: Grid) -> float:
        return _difficulty().rough_hardness(deal)

    def figures(self, deal: Deal, rules: Grid, tree_states: int | None = None) -> Figures:
        metrics, moves = _difficulty().figures(deal, tree_states=tree_states)
        return Figures(metrics["single_stack"], metrics, moves)

    def explain(self, level: str, percentile: float | None, metrics: dict, rules: Grid) -> str:
        rows, cols = sorted((rules.rows, rules.cols))
        if not metrics["single_stack"]:
            return (f"unsolvable: no line of play gathers the {rows * cols} cards in one stack "
                    f"(the best score is {metrics['max_score']}).")
        return _difficulty().explain(level, percentile, metrics, rows, cols)

    def sheet(self, deal: Deal, rules: Grid) -> Sheet:
        return Sheet(deal.rows, deal.cols, list(deal.cards))

    def reached(self, entry: dict) -> str:
        return "one stack" if entry["metrics"]["single_stack"] else \
            f"no single stack: the best score, {entry['metrics']['max_score']}"

    def skill_words(self, metrics: dict) -> str | None:
        """From the players' chances: how many times as often looking three moves ahead wins as
        random play."""
        if "skill" not in metrics:
            return None
        skill = metrics["skill"]
        return (f"Skill matters by {skill:.1f} orders of magnitude: looking three moves ahead "
                f"wins {10 ** skill:,.0f} times as often as random play.")

    def page_puzzle(self, deal: Deal, rules: Grid, entry: dict) -> dict:
        """Besides the board, each position along a single-stack solution gets the moves that
        keep one stack reachable, decided exactly; the page's hints use them on that line and
        its own exact search elsewhere."""
        metrics = entry["metrics"]
        data = {"rows": deal.rows, "cols": deal.cols, "max_score": metrics["max_score"],
                "single_stack": metrics["single_stack"]}
        if metrics["single_stack"]:
            measure = _difficulty()
            decider, position, data["safe"] = measure.Decider(deal), Position.start(deal), []
            try:
                for move in entry["solution"]:
                    data["safe"].append([str(m) for m in measure.safe_moves(decider, position)])
                    position = position.play(Move.parse(move))
            except LimitReached as exc:
                raise BadInput(f"its hints cannot be decided exactly: {exc}") from None
        return data

    def check_graded(self, rules: Grid) -> None:
        shape = tuple(sorted((rules.rows, rules.cols)))
        if shape in UNGRADED:
            raise BadInput(f"stacksquared {rules} is not graded: {UNGRADED[shape]}, so a level "
                           f"would be a draw of the noise (docs/design.md)")

    def calibration_key(self, rules: Grid) -> str:
        rows, cols = sorted((rules.rows, rules.cols))
        return f"{rows}x{cols}"


GAME = StacksSquared()
