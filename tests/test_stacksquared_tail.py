"""The pendant rule of the StacksSquared kernel (proved in the kernel's docstring), with the
clusters that ``kernel.pendant_dead`` and ``kernel.bridge_dead`` find, against the brute-force
oracle of test_stacksquared_solver and the decision search of ``tree`` (which knows only the
connectivity cut); and the deals of the max-score tail it cuts."""
import random

import numpy as np
import pytest

from solvers.cards import Card
from solvers.stacksquared import Deal, Position, kernel, replay, solve
from solvers.stacksquared.api import compat_masks, line_masks
from solvers.stacksquared.codes import ALL_CUTS, DONE, PORTFOLIO
from solvers.stacksquared.difficulty import Decider, tops
from solvers.stacksquared.rules import Move, compatible
from test_stacksquared_solver import oracle, oracle_position

#: Grids whose positions the oracle searches in a blink when they hold at most 9 stacks.
SMALL_GRIDS = ((3, 3), (3, 4), (4, 4), (2, 5))


def occupancy(card: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << i for i, c in enumerate(card.tolist()) if c >= 0))


def dead(finder, card: np.ndarray, rows: int, cols: int) -> bool:
    """The rule's verdict on a position, for the clusters ``finder`` finds."""
    occupied = occupancy(card)
    suit_cells = np.zeros(4, dtype=np.uint64)
    rank_cells = np.zeros(15, dtype=np.uint64)
    kernel.group_cells(card, occupied, suit_cells, rank_cells)
    return finder(card, occupied, line_masks(rows, cols), suit_cells, rank_cells,
                  np.empty(kernel.PLAYS, dtype=np.uint64),
                  np.zeros(3 * kernel.GAMES, dtype=np.uint64))


def pendant_dead(card: np.ndarray, rows: int, cols: int) -> bool:
    return dead(kernel.pendant_dead, card, rows, cols)


def bridge_dead(card: np.ndarray, rows: int, cols: int) -> bool:
    """The rule for every cluster of at most ``kernel.CLUSTER`` tops: it cuts wherever
    ``pendant_dead`` does."""
    verdict = dead(kernel.bridge_dead, card, rows, cols)
    assert verdict or not pendant_dead(card, rows, cols), card
    return verdict


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


def apart(cells: list, cols: int) -> bool:
    """No two of the cells share a line."""
    return not any(a != b and (a // cols == b // cols or a % cols == b % cols)
                   for a in cells for b in cells)


def cluster_position(rng: random.Random, rows: int, cols: int, stacks: int, pair: bool,
                     spread: bool, extra: int = 0):
    """A random position of ``stacks`` stacks where the rule's premises hold: a top v, a
    cluster C of one card or (``pair``) two compatible cards, and ``extra`` more cards each
    compatible with one of those, no other top compatible with C, and a single other top z
    compatible with v; with ``spread`` no two of the cells of v and C share a line, without it
    at least two do."""
    n = rows * cols
    size = (2 if pair else 1) + extra
    while True:
        cells = rng.sample(range(n), stacks)
        picked = cells[:1 + size]
        if apart(picked, cols) == spread:
            break
    cards = [Card.from_index(i) for i in range(52)]

    def draw(chosen: list, fits) -> Card:
        pool = [c for c in cards if c not in chosen and fits(c)]
        if not pool:
            raise LookupError
        return rng.choice(pool)

    def tops() -> list:
        v = rng.choice(cards)
        cluster = [draw([v], lambda c: compatible(c, v))]
        for i in range(1, size):
            meets = all if i < size - extra else any
            cluster.append(draw([v, *cluster],
                                lambda c: meets(compatible(c, x) for x in cluster)))
        apart_from_c = lambda c: not any(compatible(c, x) for x in cluster)  # noqa: E731
        chosen = [v, *cluster, draw([v, *cluster], lambda c: compatible(c, v) and apart_from_c(c))]
        while len(chosen) < stacks:
            chosen.append(draw(chosen, lambda c: apart_from_c(c) and not compatible(c, v)))
        return chosen

    while True:
        try:
            chosen = tops()
            break
        except LookupError:
            pass
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
                                            -1.0, PORTFOLIO, ALL_CUTS)
    assert outcome == DONE
    if best == n * n:
        return True, n * n
    outcome, top, *_ = kernel.solve_search(card, size, line, True, start, (n - 1) ** 2 + 1, -1,
                                           -1, -1.0, PORTFOLIO, ALL_CUTS)
    assert outcome == DONE
    return False, top


@pytest.mark.parametrize("rows,cols", SMALL_GRIDS)
def test_the_rule_cuts_no_position_with_a_single_stack(rows, cols):
    """Wherever the rule says dead, the oracle finds no single stack; the rule does fire, also
    where the stacks are connected."""
    rng = random.Random(rows * 100 + cols)
    fired = connected = wider = 0
    for _ in range(3000):
        card, size = random_position(rng, rows, cols, rng.randint(3, min(9, rows * cols)))
        if bridge_dead(card, rows, cols):
            assert not oracle_of(card, size, cols)[0], card
            fired += 1
            connected += not cannot_merge(card, rows, cols)
            wider += not pendant_dead(card, rows, cols)
    assert fired > 200 and connected > 50 and wider > 5, (fired, connected, wider)


@pytest.mark.parametrize("rows,cols,pair", [(3, 3, False), (3, 3, True), (3, 4, False),
                                            (3, 4, True), (4, 4, False), (4, 4, True),
                                            (2, 5, False)])
def test_the_rule_on_positions_with_its_premises(rows, cols, pair):
    """Positions with a pendant card or a two-card cluster, no two of the cells of v and C in
    line: the rule cuts only where the oracle finds no single stack.  A pendant card does not
    always cut (the cells matter); a two-card cluster always does."""
    rng = random.Random(rows * 10 + cols + pair)
    fired = 0
    for _ in range(80):
        card, size = cluster_position(rng, rows, cols, rng.randint(4, min(8, rows * cols)), pair,
                                      True)
        cut = pendant_dead(card, rows, cols)
        assert not (bridge_dead(card, rows, cols) and oracle_of(card, size, cols)[0]), card
        fired += cut
    assert fired == 80 if pair else 20 < fired < 80, fired


@pytest.mark.parametrize("rows,cols,pair", [(3, 3, False), (3, 3, True), (3, 4, True),
                                            (4, 4, True), (2, 5, True)])
def test_the_rule_where_cells_of_the_cluster_share_lines(rows, cols, pair):
    """The same with two of the cells of v and C in line, where the game of v's and C's stacks
    (``kernel.landings``) decides: the rule cuts only where the oracle finds no single stack,
    and it cuts most of those."""
    rng = random.Random(rows * 10 + cols + pair + 100)
    cuts_soundly_and_mostly(rows, cols, 150, lambda: cluster_position(
        rng, rows, cols, rng.randint(4, min(8, rows * cols)), pair, False))


def cuts_soundly_and_mostly(rows: int, cols: int, tries: int, position) -> None:
    """Over ``tries`` positions drawn by ``position()``: ``bridge_dead`` never cuts one where the
    oracle finds a single stack, and it cuts more than half of those where it finds none."""
    fired = stuck = 0
    for _ in range(tries):
        card, size = position()
        cut = bridge_dead(card, rows, cols)
        one = oracle_of(card, size, cols)[0]
        assert not (cut and one), card
        fired += cut
        stuck += not one
    assert stuck / 2 < fired, (fired, stuck)


@pytest.mark.parametrize("rows,cols,extra", [(3, 3, 1), (3, 4, 1), (3, 4, 2), (4, 4, 2),
                                             (2, 5, 1)])
def test_the_rule_on_clusters_of_three_and_four(rows, cols, extra):
    """Clusters of ``extra`` more cards than a pair, which only ``bridge_dead`` finds: the rule
    cuts only where the oracle finds no single stack, and it cuts most of those."""
    rng = random.Random(rows * 10 + cols + extra + 200)
    cuts_soundly_and_mostly(rows, cols, 60, lambda: cluster_position(
        rng, rows, cols, rng.randint(4 + extra, min(9, rows * cols)), True, False, extra))


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
                if bridge_dead(card, rows, cols):
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


def test_the_rule_decides_seed_618979_where_its_cluster_shares_a_line():
    """{KS, QS, KD} joins the rest only through KD-TD, and KS and KD share column 0.  The
    cluster's game leaves one cell for TD to gather the other 12 stacks on, r0c2, held by 7H: the
    root lives, and once 7H's stack leaves r0c2 the position is dead.  The single-stack search
    took 10,446,570 nodes without the cluster's game."""
    deal = Deal.from_seed(618979)
    position = Position.start(deal)
    assert not pendant_dead(tops(position), 4, 4)
    position = position.play(Move(Card.parse("7H"), Card.parse("6H")))
    assert pendant_dead(tops(position), 4, 4) and not cannot_merge(tops(position), 4, 4)
    assert solve(deal, max_score=False).nodes < 1_000_000


def test_the_wider_clusters_decide_seeds_669008_and_889777():
    """669008 (its 16 cards in two halves joined by TD-9S) proves no single stack with the
    clusters of up to four cards, found past ``kernel.WIDEN`` nodes, in far fewer nodes than
    the 4,074,366 of the clusters of one or two alone; 889777's root is dead with {JS, QS, KS, AS},
    joined to the rest through JS-TH."""
    assert kernel.WIDEN < solve(Deal.from_seed(669008), max_score=False).nodes < 2_000_000
    card = tops(Position.start(Deal.from_seed(889777)))
    assert bridge_dead(card, 4, 4) and not pendant_dead(card, 4, 4)
    assert solve(Deal.from_seed(889777), max_score=False).nodes == 0


def test_the_rule_cuts_the_root_of_seed_360528():
    """A pendant card: its whole single-stack search is the root, cut."""
    deal = Deal.from_seed(360528)
    card = tops(Position.start(deal))
    assert pendant_dead(card, 4, 4) and not cannot_merge(card, 4, 4)
    assert solve(deal, max_score=False).nodes == 0
