"""Near Swaps, a game written only to prove that a new game is one package plus one line.

A row of the cards Ace..N of spades, shuffled.  A move swaps two neighbouring cards whose ranks
differ by at most two; the row is won in order, Ace first.  Two cards more than two ranks apart
never pass each other, so a deal with a high card left of a card three or more below it cannot
be won.  Rules: ``"N"``, the number of cards (3..7).  A move names the two cards, ``"3S-5S"``.
The hardness is the length of the shortest win, plus the share of first moves that lose time.
"""
from __future__ import annotations

import random
from collections import deque
from functools import lru_cache

from solvers.cards import Card
from solvers.errors import BadInput
from solvers.game import Designable, Figures, Replayed, Sheet, harder_than
from solvers.result import Limits, SolveResult, Status

Deal = tuple[int, ...]          # the ranks, left to right


def parse_move(text: str) -> tuple[int, int]:
    left, sep, right = text.partition("-")
    if not sep:
        raise BadInput(f"malformed move {text!r}: expected two cards, e.g. 3S-5S")
    return Card.parse(left).rank, Card.parse(right).rank


def play(deal: Deal, move: tuple[int, int]) -> Deal:
    """The row after ``move``; :class:`BadInput` naming why it is illegal."""
    a, b = move
    if a not in deal or b not in deal:
        raise BadInput(f"move {a}-{b}: a card is not in the row")
    i, j = sorted((deal.index(a), deal.index(b)))
    if j != i + 1 or abs(a - b) > 2:
        raise BadInput(f"move {a}-{b}: the cards must be neighbours at most two ranks apart")
    row = list(deal)
    row[i], row[j] = row[j], row[i]
    return tuple(row)


def moves(deal: Deal) -> list[tuple[int, int]]:
    return [(deal[i], deal[i + 1]) for i in range(len(deal) - 1)
            if abs(deal[i] - deal[i + 1]) <= 2]


@lru_cache(maxsize=None)
def distances(n: int) -> dict[Deal, int]:
    """Every winnable row of ``n`` cards -> the moves of its shortest win (a search back from
    the row in order: a move undoes itself)."""
    goal = tuple(range(1, n + 1))
    found, queue = {goal: 0}, deque([goal])
    while queue:
        row = queue.popleft()
        for move in moves(row):
            after = play(row, move)
            if after not in found:
                found[after] = found[row] + 1
                queue.append(after)
    return found


def name(move: tuple[int, int]) -> str:
    return f"{Card(move[0], 3)}-{Card(move[1], 3)}"


class Swaps(Designable):
    name = "swaps"
    title = "Near Swaps"
    default_rules = "6"
    check_figure = "good_first_share"
    goal = ("Swap neighbouring cards at most two ranks apart until the row runs from the Ace up, "
            "left to right.")
    notation = "3S-5S: the neighbours 3S and 5S swap places."
    page_script = "page.js"

    def variants(self) -> list[str]:
        return ["5", "6", "7"]

    def parse_rules(self, text: str) -> int:
        if not (text.isascii() and text.isdigit() and 3 <= int(text) <= 7):
            raise BadInput(f"unknown rules {text!r}: the number of cards, 3 to 7")
        return int(text)

    def format_rules(self, rules: int) -> str:
        return str(rules)

    def parse_deal(self, text: str, rules: int) -> Deal:
        cards = [Card.parse(t) for t in text.split()]
        if sorted(c.rank for c in cards) != list(range(1, rules + 1)) or \
                any(c.suit != 3 for c in cards):
            raise BadInput(f"a deal is the spades Ace to {rules} in some order")
        return tuple(c.rank for c in cards)

    def format_deal(self, deal: Deal) -> str:
        return " ".join(str(Card(r, 3)) for r in deal)

    def deal_from_seed(self, seed: int, rules: int) -> Deal:
        row = list(range(1, rules + 1))
        random.Random(seed).shuffle(row)
        return tuple(row)

    def parse_move(self, text: str) -> tuple[int, int]:
        return parse_move(text)

    def format_move(self, move: tuple[int, int]) -> str:
        return name(move)

    def replay(self, deal: Deal, rules: int, line: list) -> Replayed:
        for move in line:
            deal = play(deal, move)
        return Replayed(list(deal) == sorted(deal), sum(a == b for a, b in
                                                         zip(deal, sorted(deal))))

    def solve(self, deal: Deal, rules: int, limits: Limits) -> SolveResult:
        """A breadth-first search from the deal: ``states`` rows stored at most."""
        goal, seen, queue = tuple(sorted(deal)), {deal: None}, deque([deal])
        while queue:
            row = queue.popleft()
            if row == goal:
                line = []
                while seen[row] is not None:
                    row, move = seen[row]
                    line.append(move)
                return SolveResult(Status.SOLVED, line[::-1], len(seen), value=len(deal))
            for move in moves(row):
                after = play(row, move)
                if after not in seen:
                    if limits.states is not None and len(seen) >= limits.states:
                        return SolveResult(Status.LIMIT, nodes=len(seen))
                    seen[after] = (row, move)
                    queue.append(after)
        return SolveResult(Status.UNSOLVABLE, nodes=len(seen))

    def canonical(self, deal: Deal, rules: int) -> Deal:
        return min(deal, self.mirror(deal))

    def mirror(self, deal: Deal) -> Deal:
        """The row read right to left with each rank r as N + 1 - r: the same puzzle."""
        return tuple(len(deal) + 1 - r for r in reversed(deal))

    def symmetric_copy(self, deal: Deal, rules: int, rng: random.Random) -> Deal:
        return self.mirror(deal) if rng.random() < 0.5 else deal

    def neighbour(self, deal: Deal, rules: int, rng: random.Random) -> Deal:
        row = list(deal)
        i, j = rng.sample(range(rules), 2)
        row[i], row[j] = row[j], row[i]
        return tuple(row)

    def hardness(self, deal: Deal, rules: int, quick: bool = False,
                 repeat: int = 0) -> float | None:
        figures = self.figures(deal, rules)
        return figures.metrics["hardness"] if figures.won else None

    def figures(self, deal: Deal, rules: int) -> Figures:
        far = distances(rules)
        if deal not in far:
            return Figures(False, {"hardness": None})
        legal = moves(deal)
        good = sum(far.get(play(deal, m)) == far[deal] - 1 for m in legal)
        share = good / len(legal) if legal else 1.0
        solution = self.solve(deal, rules, Limits()).moves
        return Figures(True, {"hardness": far[deal] + 1 - share, "shortest": far[deal],
                              "good_first_share": share}, solution)

    def explain(self, level: str, percentile: float, metrics: dict, rules: int) -> str:
        if level == "unsolvable":
            return "unsolvable: a high card stands left of a card it may never pass."
        return (f"{level}: the shortest win takes {metrics['shortest']} swaps (harder than "
                f"{harder_than(percentile)} of random winnable rows).")

    def sheet(self, deal: Deal, rules: int) -> Sheet:
        return Sheet(1, rules, [Card(r, 3) for r in deal])

    def reached(self, entry: dict) -> str:
        return f"in order, {len(entry['solution'])} swaps"

    def page_puzzle(self, deal: Deal, rules: int, entry: dict) -> dict:
        return {"rows": 1, "cols": rules}


GAME = Swaps()
