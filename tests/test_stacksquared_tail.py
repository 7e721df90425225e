"""The pendant rule of the StacksSquared kernel (``kernel.pendant_dead``, proved in the kernel's
docstring) against the brute-force oracle of test_stacksquared_solver and the decision search of
``tree`` (which knows only the connectivity cut); and the deals of the max-score tail it cuts."""
import random

import numpy as np
import pytest

from solvers.cards import Card
from solvers.stacksquared import Deal, Position, kernel, replay, solve
from solvers.stacksquared.api import compat_masks, line_masks
from solvers.stacksquared.codes import DONE, PORTFOLIO
from solvers.stacksquared.difficulty import Decider, tops
from solvers.stacksquared.rules import compatible
from test_stacksquared_solver import oracle, oracle_position

#: Grids whose positions the oracle searches in a blink when they hold at most 9 stacks.
SMALL_GRIDS = ((3, 3), (3, 4), (4, 4), (2, 5))


def occupancy(card: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << i for i, c in enumerate(card.tolist()) if c >= 0))


def pendant_dead(card: np.ndarray, rows: int, cols: int) -> bool:
    occupied = occupancy(card)
    suit_cells = np.zeros(4, dtype=np.uint64)
    rank_cells = np.zeros(15, dtype=np.uint64)
    kernel.group_cells(card, occupied, suit_cells, rank_cells)
    return kernel.pendant_dead(card, occupied, line_masks(rows, cols), suit_cells, rank_cells)


def cannot_merge(card: np.ndarray, rows: int, cols: int) -> bool:
    return kernel.cannot_merge(card, occupancy(card), line_masks(rows, cols), compat_masks())


def random_position(rng: random.Random, rows: int, cols: int, stacks: int):
    """``stacks`` random tops on random cells, drawn from few ranks so that the compatibility
    graph is dense enough to be connected, with random sizes adding up to rows * cols."""
    n = rows * cols
    ranks = rng.sample(range(13), rng.randint(3, 6))
    deck = [r * 4 + s for r in ranks for s in range(4)]
    cells = rng.sample(range(n), stacks)
    card = np.full(n, -1, dtype=np.int8)
    size = np.zeros(n, dtype=np.int64)
    cuts = sorted(rng.sample(range(1, n), stacks - 1))
    for cell, c, lo, hi in zip(cells, rng.sample(deck, stacks), [0, *cuts], [*cuts, n]):
        card[cell], size[cell] = c, hi - lo
    return card, size


def cluster_position(rng: random.Random, rows: int, cols: int, stacks: int, pair: bool):
    """A random position of ``stacks`` stacks where the rule's premises hold: a top v, a
    cluster C of one card or (``pair``) two compatible cards, on cells no two of which share a
    line, no other top compatible with C, and a single other top z compatible with v."""
    n = rows * cols
    while True:
        cells = rng.sample(range(n), stacks)
        picked = cells[:3 if pair else 2]
        if not any(a != b and (a // cols == b // cols or a % cols == b % cols)
                   for a in picked for b in picked):
            break
    cards = [Card.from_index(i) for i in range(52)]
    while True:
        chosen = rng.sample(cards, stacks)
        v, cluster, z, rest = chosen[0], chosen[1:len(picked)], chosen[len(picked)], \
            chosen[len(picked) + 1:]
        if (all(compatible(x, y) for x in cluster for y in cluster if x != y)
                and any(compatible(v, x) for x in cluster) and compatible(v, z)
                and not any(compatible(x, y) for x in cluster for y in [z, *rest])
                and not any(compatible(v, y) for y in rest)):
            break
    card = np.full(n, -1, dtype=np.int8)
    size = np.zeros(n, dtype=np.int64)
    cuts = sorted(rng.sample(range(1, n), stacks - 1))
    for cell, c, lo, hi in zip(cells, chosen, [0, *cuts], [*cuts, n]):
        card[cell], size[cell] = c.index, hi - lo
    return card, size


def oracle_of(card: np.ndarray, size: np.ndarray, cols: int) -> tuple[bool, int]:
    cards = tuple(None if c < 0 else Card.from_index(c) for c in card.tolist())
    return oracle_position(cards, tuple(size.tolist()), cols)


def kernel_answers(card: np.ndarray, size: np.ndarray, rows: int, cols: int):
    """What ``api.solve`` asks the kernel, from any position: (single stack?, max score)."""
    n = rows * cols
    line = line_masks(rows, cols)
    start = int((size * size).sum())
    outcome, best, *_ = kernel.solve_search(card, size, line, False, n * n - 1, n * n, -1, -1,
                                            -1.0, PORTFOLIO)
    assert outcome == DONE
    if best == n * n:
        return True, n * n
    outcome, top, *_ = kernel.solve_search(card, size, line, True, start, (n - 1) ** 2 + 1, -1,
                                           -1, -1.0, PORTFOLIO)
    assert outcome == DONE
    return False, top


@pytest.mark.parametrize("rows,cols", SMALL_GRIDS)
def test_the_rule_cuts_no_position_with_a_single_stack(rows, cols):
    """Wherever the rule says dead, the oracle finds no single stack; the rule does fire, also
    where the stacks are connected."""
    rng = random.Random(rows * 100 + cols)
    fired = connected = 0
    for _ in range(3000):
        card, size = random_position(rng, rows, cols, rng.randint(3, min(9, rows * cols)))
        if pendant_dead(card, rows, cols):
            assert not oracle_of(card, size, cols)[0], card
            fired += 1
            connected += not cannot_merge(card, rows, cols)
    assert fired > 200 and connected > 50, (fired, connected)


@pytest.mark.parametrize("rows,cols,pair", [(3, 3, False), (3, 3, True), (3, 4, False),
                                            (3, 4, True), (4, 4, False), (4, 4, True),
                                            (2, 5, False)])
def test_the_rule_on_positions_with_its_premises(rows, cols, pair):
    """Positions with a pendant card or a two-card cluster: the rule cuts only where the
    oracle finds no single stack.  A pendant card does not always cut (the cells matter); a
    two-card cluster always does."""
    rng = random.Random(rows * 10 + cols + pair)
    fired = 0
    for _ in range(80):
        card, size = cluster_position(rng, rows, cols, rng.randint(4, min(8, rows * cols)), pair)
        dead = pendant_dead(card, rows, cols)
        one = oracle_of(card, size, cols)[0]
        assert not (dead and one), card
        fired += dead
    assert fired == 80 if pair else 20 < fired < 80, fired


@pytest.mark.parametrize("rows,cols", SMALL_GRIDS)
def test_the_solver_agrees_with_brute_force_from_positions(rows, cols):
    """The kernel (rule in) answers both questions as the oracle does, from positions of a few
    stacks, many of them ones the rule cuts or has to look at."""
    rng = random.Random(rows * 1000 + cols)
    for _ in range(100):
        card, size = random_position(rng, rows, cols, rng.randint(3, min(8, rows * cols)))
        assert kernel_answers(card, size, rows, cols) == oracle_of(card, size, cols), card


@pytest.mark.parametrize("rows,cols,seeds", [(3, 3, range(150)), (2, 5, range(15)),
                                             (2, 4, range(200))])
def test_the_solver_agrees_with_brute_force_on_deals(rows, cols, seeds):
    for seed in seeds:
        deal = Deal.from_seed(seed, rows, cols)
        single, top = oracle(deal)
        result = solve(deal)
        assert (result.details["single_stack"], result.details["max_score"]) == (single, top), seed


@pytest.mark.parametrize("rows,cols,seeds", [(4, 4, range(40)), (3, 4, range(40)),
                                             (4, 5, range(10))])
def test_the_rule_agrees_with_the_plain_decision_search(rows, cols, seeds):
    """Along random games of real deals, every position the rule cuts is one that ``tree``'s
    decision search, which knows only the connectivity cut, finds no single stack from."""
    fired = 0
    for seed in seeds:
        deal = Deal.from_seed(seed, rows, cols)
        decider = Decider(deal)
        rng = random.Random(seed)
        for _game in range(10):
            position = Position.start(deal)
            while True:
                moves = list(position.legal_moves())
                if not moves:
                    break
                position = position.play(rng.choice(moves))
                card = tops(position)
                if pendant_dead(card, rows, cols):
                    fired += 1
                    assert not decider.decide(card)[0], (seed, position)
    assert fired > 20


#: 4x4 seeds of the max-score tail: (seed, nodes of the solver before the rule, max score).
#: Both figures are what `puzzlegen stacksquared solve --seed N --json` printed at commit 9ff8c18
#: (the kernel without the pendant rule); the max scores do not change.
TAIL = [(360528, 40_797_914, 226), (731678, 38_273_142, 226), (171146, 8_729_726, 226),
        (63135, 4_131_512, 226), (68943, 3_880_790, 226)]


@pytest.mark.parametrize("seed,before,max_score", TAIL)
def test_the_tail_deals_take_few_nodes(seed, before, max_score):
    deal = Deal.from_seed(seed)
    result = solve(deal)
    assert result.details["single_stack"] is False
    assert result.details["max_score"] == max_score == replay(deal, result.moves).score()
    assert result.nodes < 100_000 < before


def test_the_rule_cuts_the_root_of_seed_360528():
    """A pendant card: its whole single-stack search is the root, cut."""
    deal = Deal.from_seed(360528)
    card = tops(Position.start(deal))
    assert pendant_dead(card, 4, 4) and not cannot_merge(card, 4, 4)
    assert solve(deal, max_score=False).nodes == 0
