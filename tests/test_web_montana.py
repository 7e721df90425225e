"""The Montana puzzle page, in a real headless Chromium: its rules agree with
``solvers.montana.rules`` reason for reason, its exact search with the Python solver, and the
page plays, refuses, hints and keeps progress.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from puzzlegen.web import browser
from solvers.errors import BadInput
from solvers.montana import rules as R
from solvers.montana.game import GAME, Variant
from solvers.result import Limits, Status

import pages

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "puzzles/montana-8.json"


def why(cells, rules: R.Rules, a: int, b: int) -> str | None:
    """The rule book's verdict on moving cell a's card into cell b (the page's wording for a
    gap picked up): ``apply_move``'s reason after its "move X: "."""
    if cells[a] is None:
        return "that cell is a gap: pick a card"
    move = R.Move(cells[a], divmod(b, rules.ranks))
    try:
        R.apply_move(cells, move, rules)
    except BadInput as exc:
        return str(exc).removeprefix(f"move {move}: ")
    return None


def random_play(rng: random.Random, ranks: int, steps: int) -> tuple[R.Rules, tuple]:
    rules = R.Rules(ranks)
    cells = R.deal_from_seed(rng.randrange(2 ** 31), ranks)
    for _ in range(steps):
        legal = R.legal_moves(cells, rules)
        if not legal:
            break
        cells = R.apply_move(cells, rng.choice(legal), rules)
    return rules, cells


CHECK = """(cases) => {
  const g = window.puzzlegen.games.montana;
  return cases.map(([deal, cols, pairs]) => {
    const p = g.start({deal, cols});
    return {verdicts: pairs.map(([a, b]) => g.check(p, a, b)),
            legal: g.legalMoves(p), names: g.legalMoves(p).map(([a, b]) => g.moveName(p, a, b)),
            status: g.status(p)};
  });
}"""


def test_cell_moves_get_the_rule_books_verdicts_and_legal_moves(game):
    """Layouts of random play (5 to 13 ranks); every pair of cells of each is judged."""
    rng = random.Random(2026)
    cases, expected = [], []
    for _ in range(60):
        rules, cells = random_play(rng, rng.choice([5, 8, 13]), rng.randrange(0, 60))
        size = len(cells)
        pairs = [[a, b] for a in range(size) for b in range(size) if a != b and
                 (cells[b] is None or rng.random() < 0.05)]
        legal = R.legal_moves(cells, rules)
        locked = R.locked_count(cells, rules.ranks)
        cases.append([R.format_deal(cells), rules.ranks, pairs])
        expected.append({
            "verdicts": [why(cells, rules, a, b) for a, b in pairs],
            "legal": [[cells.index(m.card), m.to[0] * rules.ranks + m.to[1]] for m in legal],
            "names": [str(m) for m in legal],
            "status": "solved" if locked == rules.target else "playing" if legal else "stuck"})
    answers = game.evaluate(CHECK, cases)
    assert answers == expected
    verdicts = [v for e in expected for v in e["verdicts"]]
    assert sum(v is None for v in verdicts) > 50     # legal moves among them
    for reason in ("only a Two goes into the first column", "not the predecessor of",
                   "that Two is already in the first column", "not a gap",
                   "that cell is a gap: pick a card"):
        assert any(v and reason in v for v in verdicts), reason


REPLAY_BY_NAMES = """(cases) => {
  const g = window.puzzlegen.games.montana;
  return cases.map(([deal, cols, names]) => {
    let p = g.start({deal, cols});
    for (let i = 0; i < names.length; i++) {
      const cells = g.moveCells(p, names[i]);
      if (cells.reason) return {illegal: i, reason: cells.reason};
      p = g.play(p, cells.from, cells.to);
    }
    return {illegal: null, deal: p.cells.map((c) => c < 0 ? null : g.cardName(c))};
  });
}"""


def test_move_names_replay_as_the_rule_book_does(game):
    """Random lines with one bad name at the end: a card not in the layout, a wrong cell, a
    malformed name or an illegal move; the reason is the rule book's."""
    rng = random.Random(5)
    cases, expected = [], []
    bad = ["AC->0,1", "2H->4,0", "2H->0,13", "7X->1,1", "2H to 0,0", "redeal", "AC->r1c2",
           "2H->r5c1", "2H->r1c14", "2H->r0c1", "7X->r2c2"]
    for _ in range(120):
        rules = R.Rules(rng.choice([6, 8, 13]))
        start = cells = R.deal_from_seed(rng.randrange(2 ** 31), rules.ranks)
        names = []
        for _ in range(rng.randrange(0, 40)):
            legal = R.legal_moves(cells, rules)
            if not legal:
                break
            move = rng.choice(legal)
            names.append(str(move))
            cells = R.apply_move(cells, move, rules)
        card = rng.choice([c for c in cells if c])
        last = rng.choice(bad + [f"{card}->{r},{c}" for r in range(4) for c in (0, 1, 5)]
                          + [f"{card}->r{r}c{c}" for r in range(1, 5) for c in (1, 2, 6)])
        names.append(last)
        try:
            move = R.parse_move(last)
            if isinstance(move, R.Redeal):
                raise BadInput(f"malformed move {last!r}: expected CARD->rROWcCOL such as "
                               f"'4H->r2c4' (rows and columns from 1)")  # the page: one round
            cells = R.apply_move(cells, move, rules)
            expected.append({"illegal": None, "deal": [None if c is None else str(c)
                                                       for c in cells]})
        except BadInput as exc:
            try:   # the rule book names a move in today's notation, whichever it was given in
                shown = str(R.parse_move(last))
            except BadInput:
                shown = last
            reason = str(exc).removeprefix(f"move {shown}: ").removesuffix(", or 'redeal'")
            expected.append({"illegal": len(names) - 1, "reason": reason})
        cases.append([R.format_deal(start), rules.ranks, names])
    assert game.evaluate(REPLAY_BY_NAMES, cases) == expected
    assert sum(e["illegal"] is not None for e in expected) > 60


DECIDE = """(cases) => {
  const g = window.puzzlegen.games.montana;
  return cases.map(([deal, cols]) => new g.Searcher(cols).decide(g.start({deal, cols})));
}"""


def winnable(cells, rules: R.Rules) -> bool:
    result = GAME.solve(cells, Variant(rules), Limits(states=4_000_000))
    assert result.status is not Status.LIMIT
    return result.status is Status.SOLVED


def test_page_search_agrees_with_the_python_solver(game):
    """Positions of random play on random 6- and 8-rank deals and on the shipped puzzles."""
    rng = random.Random(17)
    positions = [random_play(rng, rng.choice([6, 8]), rng.randrange(0, 30)) for _ in range(60)]
    rules = R.Rules(8)
    for entry in json.loads(PACK.read_text())["puzzles"][::3]:
        cells = R.parse_deal(entry["deal"], 8)
        for move in entry["solution"][:rng.randrange(len(entry["solution"]))]:
            cells = R.apply_move(cells, R.parse_move(move), rules)
        positions.append((rules, cells))
    answers = game.evaluate(DECIDE, [[R.format_deal(c), r.ranks] for r, c in positions])
    verdicts = {"wins": 0, "loses": 0}
    for (rules, cells), answer in zip(positions, answers):
        wins = winnable(cells, rules)
        assert answer["verdict"] == ("wins" if wins else "loses"), R.format_deal(cells)
        verdicts[answer["verdict"]] += 1
        if wins and R.locked_count(cells, rules.ranks) < rules.target:
            a, b = answer["move"]
            assert winnable(R.apply_move(cells, R.Move(cells[a], divmod(b, rules.ranks)), rules),
                            rules)
    assert verdicts["wins"] > 15 and verdicts["loses"] > 15, verdicts


STARTS = """(cases) => cases.map(([deal, cols]) =>
  window.puzzlegen.games.montana.start({deal, cols}))"""


def test_a_decision_does_not_depend_on_the_ones_before(game):
    """With a limit that stops some searches, one searcher deciding many layouts in either order
    answers each as a new one would, "limit" included (it once kept its table between hints)."""
    rng = random.Random(23)
    cases = [random_play(rng, 8, rng.randrange(0, 12)) for _ in range(40)]
    positions = game.evaluate(STARTS, [[R.format_deal(c), r.ranks] for r, c in cases])
    verdicts = pages.decisions_alone_and_after_others(game, "montana", [8, 300], positions)
    assert {"wins", "loses", "limit"} <= set(verdicts), verdicts


START_MOVES = """() => {
  const g = window.puzzlegen.games.montana;
  return window.puzzlegen.app.pack.puzzles.map((puzzle) => {
    const p = g.start(puzzle);
    const searcher = new g.Searcher(puzzle.cols);
    const legal = g.legalMoves(p);
    return [legal.length,
            legal.filter(([a, b]) => searcher.decide(g.play(p, a, b)).verdict === "wins").length];
  });
}"""


def test_winning_first_moves_of_every_shipped_puzzle_are_the_packs(game):
    """The page's search and the grading's exact analysis (``players.evaluate``, which the pack's
    metrics come from) count the same winning first moves."""
    metrics = [e["metrics"] for e in json.loads(PACK.read_text())["puzzles"]]
    assert game.evaluate(START_MOVES) == [[m["first_moves"], m["winning_first_moves"]]
                                          for m in metrics]
    assert any(m["winning_first_moves"] < m["first_moves"] for m in metrics)


def cell(page, i: int, cols: int = 8):
    return page.locator(f'#board .cell[data-row="{i // cols}"][data-col="{i % cols}"]')


def board_cells(page) -> list[str | None]:
    return [c or None for c in page.eval_on_selector_all(
        "#board .cell", "(cells) => cells.map((c) => c.dataset.card)")]


def test_the_stored_solution_played_by_clicks_wins_and_survives_a_reload(pack_page,
                                                                         browser_page):
    entry = json.loads(PACK.read_text())["puzzles"][-1]
    page = pages.fresh(browser_page, pack_page, entry["id"])
    cells, rules = R.parse_deal(entry["deal"], 8), R.Rules(8)
    for name in entry["solution"]:
        move = R.parse_move(name)
        target = move.to[0] * 8 + move.to[1]
        cell(page, cells.index(move.card)).click()
        cell(page, target).click()
        cells = R.apply_move(cells, move, rules)
        assert page.locator("#board").get_attribute("data-status") in ("playing", "solved")
    assert board_cells(page) == [None if c is None else str(c) for c in cells]
    assert page.locator("#board").get_attribute("data-status") == "solved"
    assert page.locator("#puzzle-stats").text_content().startswith("28 of 28 cards in place")
    stored = pages.saved(page)["games"][entry["id"]]
    assert stored == {"moves": entry["solution"], "solved": True}
    pages.reloaded(page)
    assert page.locator("#board").get_attribute("data-status") == "solved"
    assert "\u2713" in page.locator(f'[data-select-puzzle="{entry["id"]}"]').text_content()


def test_a_refused_move_says_the_rule_books_reason(pack_page, browser_page):
    entry = json.loads(PACK.read_text())["puzzles"][0]
    page = pages.fresh(browser_page, pack_page, entry["id"])
    cells, rules = R.parse_deal(entry["deal"], 8), R.Rules(8)
    gap = cells.index(None)
    card = next(i for i, c in enumerate(cells)
                if c and why(cells, rules, i, gap) not in (None, "that cell is a gap: pick a card"))
    cell(page, card).click()
    cell(page, gap).click()
    message = page.locator("#message").text_content()
    assert message == f"Refused: {why(cells, rules, card, gap)}."
    assert board_cells(page) == [None if c is None else str(c) for c in cells]
    cell(page, gap).click()
    assert page.locator("#message").text_content() == "Refused: that cell is a gap: pick a card."


def hinted(page) -> tuple[int, int]:
    def at(selector):
        found = page.locator(f"#board {selector}")
        return int(found.get_attribute("data-row")) * 8 + int(found.get_attribute("data-col"))
    return at(".hint-from"), at(".hint-to")


def test_hints_are_exact_and_a_lost_layout_is_told_to_undo(pack_page, browser_page):
    """On the stored line the hint is its move; off it a winning move; after a losing move it
    says how far to undo."""
    entry = json.loads(PACK.read_text())["puzzles"][12]
    page = pages.fresh(browser_page, pack_page, entry["id"])
    cells, rules = R.parse_deal(entry["deal"], 8), R.Rules(8)
    page.click('[data-action="hint"]')
    first = R.parse_move(entry["solution"][0])
    assert hinted(page) == (cells.index(first.card), first.to[0] * 8 + first.to[1])
    legal = R.legal_moves(cells, rules)
    keep = [m for m in legal if winnable(R.apply_move(cells, m, rules), rules)]
    assert f"({len(keep)} of {len(legal)} legal moves keep the deal winnable)" in \
        page.locator("#message").text_content()
    losing = [m for m in legal if m not in keep]
    off_line = [m for m in keep if m != first]
    if off_line:
        move = off_line[0]
        cell(page, cells.index(move.card)).click()
        cell(page, move.to[0] * 8 + move.to[1]).click()
        after = R.apply_move(cells, move, rules)
        page.click('[data-action="hint"]')
        a, b = hinted(page)
        assert winnable(R.apply_move(after, R.Move(after[a], divmod(b, 8)), rules), rules)
        page.click('[data-action="undo"]')
    assert losing, "the puzzle needs a first move that loses"
    move = losing[0]
    cell(page, cells.index(move.card)).click()
    cell(page, move.to[0] * 8 + move.to[1]).click()
    page.click('[data-action="hint"]')
    assert page.locator("#message").text_content() == \
        "Hint: This layout can no longer be won: undo 1 move."


def test_a_pack_the_page_cannot_play_is_one_error_line(tmp_path):
    assert pages.refusal(PACK, tmp_path, "8-movable-twos") == \
        "the page plays one round with fixed Twos, not the rules 8-movable-twos\n"


HINTS_OFF_THE_LINE = browser.hints_off_the_line('g.hint(history, puzzle).verdict || "none"')


def test_page_hints_at_the_start_and_after_each_first_move_off_the_line(game):
    """The page's hint (the one ``benchmarks/page_hints.py`` times) at the start of each puzzle
    and after each first move off its stored solution: as many hints as the pack's
    ``first_moves``, and as many of them losing as first moves lose by the grading's analysis."""
    hints = game.evaluate(HINTS_OFF_THE_LINE)
    metrics = [e["metrics"] for e in json.loads(PACK.read_text())["puzzles"]]
    assert [len(verdicts) for verdicts in hints] == [m["first_moves"] for m in metrics]
    every = [verdict for verdicts in hints for verdict in verdicts]
    assert {verdict: every.count(verdict) for verdict in set(every)} == {
        "loses": sum(m["first_moves"] - m["winning_first_moves"] for m in metrics),
        "wins": sum(m["winning_first_moves"] for m in metrics)}   # the start's, and the others
