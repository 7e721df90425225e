"""The calculator: degrees of freedom by formula, and small searches where no formula applies.

With ``n`` empty stacks and nothing else on the board to build on, a descending run of ``k``
units can be moved

* off its stack (the units end in the empty stacks) when ``k <= 2**n - 1`` (the DoF);
* onto a non-empty destination when ``k <= 2**n``;
* into an empty destination when ``k <= 2**(n-1)``, ``n`` counting the destination, or when
  ``k <= 2**n - 1`` if the units are the whole source stack (it empties and helps);

and two runs of ``a`` and ``b`` units trade places when ``a + b <= 2**n`` (when both are whole
stacks, when ``max(a, b) <= 2**n - 1``).
The benchmark and tests check each of these against the exact oracle.

A board is *pure* for a question when, after dropping the stacks that no card can ever move to
or from, only the question's own stacks and the empty stacks are left, and no card can be
placed on another except as the question intends.  Pure boards are answered by formula; other
boards by a breadth-first search over the reduced board that treats the stacks outside the
question as interchangeable.
"""
from __future__ import annotations

from solvers.result import Limits, SolveResult, Status
from solvers.spider.question import (Question, allowed_fn, goal_fn, group_start, lifts,
                                     with_empties)
from solvers.spider.rules import (FACE_DOWN, Board, Move, empty_count, follows, is_reversible,
                                  movable_start)
from solvers.spider.search import bfs, most_empty

Spot = tuple[int, int]  # (stack, index)


def dof(n: int) -> int:
    """Degrees of freedom of ``n`` empty stacks: 2**n - 1."""
    return 2 ** n - 1


def capacity(kind: str, n: int, whole: bool = False) -> int:
    """Most units a pure ``off`` / ``onto`` / ``into`` question moves with ``n`` empty stacks
    (for ``into`` counting the destination).  ``whole``: the units are the whole source stack,
    which then empties before the last units arrive and serves as one more empty stack."""
    if kind == "off":
        return 2 ** n - 1
    if kind == "onto":
        return 2 ** n
    if whole:
        return 2 ** n - 1
    return 2 ** (n - 1) if n >= 1 else 0


def exchange_needed(a: int, b: int, whole: bool = False) -> int:
    """Fewest empty stacks to exchange runs of ``a`` and ``b`` units on a pure board: as many
    as moving ``a + b`` units onto a non-empty stack, the least ``n`` with a + b <= 2**n.
    ``whole``: both runs are whole stacks; then the least ``n`` with max(a, b) <= 2**n - 1."""
    return max(a, b).bit_length() if whole else (a + b - 1).bit_length()


def needed(board: Board, q: Question) -> int:
    """Fewest empty stacks a pure question needs (an empty destination counts as one)."""
    whole = group_start(board[q.src], q.units, q.src + 1) == 0
    if q.kind == "exchange":
        return exchange_needed(q.units, q.units2,
                               whole and group_start(board[q.dst], q.units2, q.dst + 1) == 0)
    n = 0
    while capacity(q.kind, n, whole) < q.units:
        n += 1
    return n


def _regions(board: Board, lift_at: dict[int, int]) -> list[tuple[list[int], list[int]]]:
    """Per stack: indices of cards that may ever move, and of cards that may ever be on top."""
    out = []
    for i, stack in enumerate(board):
        low = movable_start(stack)
        if i in lift_at:  # the group may leave, and then its base's own run may move
            low = min(low, movable_start(stack[:lift_at[i]]))
        moving = list(range(low, len(stack)))
        under = [low - 1] if low > 0 and stack[low - 1] != FACE_DOWN else []
        out.append((moving, under + moving))
    return out


def interactions(board: Board, lift_at: dict[int, int]) -> set[tuple[Spot, Spot]]:
    """Pairs (card, card it could be placed on) across the board, other than where it lies."""
    regions = _regions(board, lift_at)
    pairs = set()
    for i, (moving, _) in enumerate(regions):
        for x in moving:
            for j, (_, showing) in enumerate(regions):
                for y in showing:
                    if follows(board[i][x], board[j][y]) and not (i == j and y == x - 1):
                        pairs.add(((i, x), (j, y)))
    return pairs


def _designed(board: Board, q: Question) -> set[tuple[Spot, Spot]]:
    a = group_start(board[q.src], q.units, q.src + 1)
    if q.kind == "onto":
        return {((q.src, a), (q.dst, len(board[q.dst]) - 1))}
    if q.kind != "exchange":
        return set()
    b = group_start(board[q.dst], q.units2, q.dst + 1)
    out = set()
    if b > 0:
        out.add(((q.src, a), (q.dst, b - 1)))
    if a > 0:
        out.add(((q.dst, b), (q.src, a - 1)))
    return out


def _keep(board: Board, pairs: set[tuple[Spot, Spot]], roles: tuple[int, ...]) -> list[int]:
    """Stacks worth searching: roles, empty stacks, and stacks taking part in some pair."""
    busy = {p[0][0] for p in pairs} | {p[1][0] for p in pairs} | set(roles)
    return [i for i, s in enumerate(board) if not s or i in busy]


def _key(roles: tuple[int, ...]):
    def key(board: Board):
        return tuple(board[r] for r in roles) + tuple(
            sorted(s for i, s in enumerate(board) if i not in roles))
    return key


def _renumber(moves: list[Move], keep: list[int]) -> list[Move]:
    return [Move(keep[m.src], keep[m.dst], m.cards) for m in moves]


def reduce(board: Board, q: Question) -> tuple[Board, Question, list[int], bool]:
    """The board without stacks that cannot matter, the renumbered question, the kept stack
    numbers, and whether the reduced board is pure."""
    lift_at = dict(lifts(board, q))
    pairs = interactions(board, lift_at)
    keep = _keep(board, pairs, q.roles)
    new = {old: i for i, old in enumerate(keep)}
    small = tuple(board[i] for i in keep)
    rq = Question(q.kind, new[q.src], q.units, None if q.dst is None else new[q.dst], q.units2)
    others = any(board[i] and i not in q.roles for i in keep)
    return small, rq, keep, not others and not (pairs - _designed(board, q))


def _sub_board(board: Board, roles: tuple[int, ...]) -> tuple[Board, list[int]]:
    """Only the given stacks and the empty ones, with their old numbers."""
    keep = [i for i, s in enumerate(board) if not s or i in roles]
    return tuple(board[i] for i in keep), keep


def _renumbered(q: Question, keep: list[int]) -> Question:
    new = {old: i for i, old in enumerate(keep)}
    return Question(q.kind, new[q.src], q.units, None if q.dst is None else new[q.dst], q.units2)


def answer(board: Board, q: Question, limits: Limits = Limits(),
           plan: bool = False) -> SolveResult:
    """Is the question answered yes on this board?  ``details["method"]`` says how it was
    decided.  When the formula's empty stacks are there, the answer is yes whatever else lies
    on the board; with ``plan`` a search over the question's stacks and the empty ones then
    finds the moves.  Otherwise a pure board is a no, and other boards are searched."""
    if goal_fn(board, q)(board):  # an exchange of two identical runs
        return SolveResult(Status.SOLVED, details={"method": "already there"})
    small, rq, keep, pure = reduce(board, q)
    method = "search"
    if needed(small, rq) <= empty_count(small):
        if not plan:
            return SolveResult(Status.SOLVED, details={"method": "formula"})
        small, keep = _sub_board(board, q.roles)
        rq, method = _renumbered(q, keep), "formula"
    elif pure:
        return SolveResult(Status.UNSOLVABLE, details={"method": "formula"})
    result = bfs(small, allowed_fn(small, rq), goal_fn(small, rq), _key(rq.roles), limits)
    if method == "formula" and result.status is Status.LIMIT:  # yes, but no plan in time
        return SolveResult(Status.SOLVED, nodes=result.nodes, seconds=result.seconds,
                           details={"method": method, "plan": "search limit"})
    result.moves = _renumber(result.moves, keep)
    result.details["method"] = method
    return result


def needed_empty_stacks(board: Board, q: Question, limits: Limits = Limits()) -> SolveResult:
    """``value``: the fewest empty stacks with which the question is answered yes, the other
    stacks unchanged.  The pure formula is an upper bound (the stacks outside the question can
    only help) and more empty stacks never hurt, so searches try one fewer at a time below it
    until one fails."""
    if goal_fn(board, q)(board):
        return SolveResult(Status.SOLVED, value=0, details={"method": "already there"})
    small, rq, keep, pure = reduce(board, q)
    best = needed(small, rq)
    if pure:
        return SolveResult(Status.SOLVED, value=best, details={"method": "formula"})
    nodes, seconds = 0, 0.0
    for n in range(best - 1, 0 if q.kind == "into" else -1, -1):
        b, qn = with_empties(small, rq, n)
        result = bfs(b, allowed_fn(b, qn), goal_fn(b, qn), _key(qn.roles),
                     limits.after(seconds_used=seconds))
        nodes, seconds = nodes + result.nodes, seconds + result.seconds
        if result.status is Status.LIMIT:
            return SolveResult(Status.LIMIT, nodes=nodes, seconds=seconds,
                               details={"method": "search"})
        if not result.solved:
            break
        best = n
    return SolveResult(Status.SOLVED, nodes=nodes, seconds=seconds, value=best,
                       details={"method": "search"})


def max_empty_stacks(board: Board, limits: Limits = Limits()) -> SolveResult:
    """``value``: the most empty stacks reachable by reversible moves.

    Set aside the stacks that take part in no interaction.  A stack can be emptied only if it
    is one descending run from the bottom whose bottom card fits somewhere; every other stack
    keeps a card for good.  When the empty stacks already reach that ceiling (or nothing
    interacts) the answer is the current count; otherwise a search stops at the ceiling."""
    keep = _keep(board, interactions(board, {}), ())
    small = tuple(board[i] for i in keep)
    pairs = interactions(small, {})
    ceiling = sum(1 for i, s in enumerate(small)
                  if not s or (movable_start(s) == 0 and any(p[0] == (i, 0) for p in pairs)))
    if ceiling == empty_count(board):
        return SolveResult(Status.SOLVED, value=empty_count(board), details={"method": "formula"})
    result = most_empty(small, is_reversible, _key(()), limits, ceiling)
    result.moves = _renumber(result.moves, keep)
    result.details["method"] = "search"
    return result
