/* Near Swaps for the puzzle page (tests/swaps/game.py has the rules): one row of spades; click a
 * card, then its neighbour at most two ranks apart, to swap them.  Hints: a breadth-first search
 * over the rows (at most 7! of them), exact. */
(function (puzzlegen) {
  "use strict";

  const { undoHint, winningHint } = puzzlegen.hints;
  const cards = puzzlegen.cards;
  const rankOf = (c) => (c >> 2) + 1;

  function start(puzzle) {
    return { row: puzzle.deal.split(/\s+/).map(cards.parse) };
  }

  const near = (p, a, b) => Math.abs(a - b) === 1 && Math.abs(rankOf(p.row[a]) - rankOf(p.row[b])) <= 2;
  const whyNotPick = () => null;
  const check = (p, from, to) => (near(p, from, to) ? null
    : "swap a card with a neighbour at most two ranks away");

  function play(p, from, to) {
    const row = p.row.slice();
    [row[from], row[to]] = [row[to], row[from]];
    return { row: row };
  }

  const moveName = (p, from, to) => cards.name(p.row[from]) + "-" + cards.name(p.row[to]);

  function moveCells(p, name) {
    const parts = String(name).split("-");
    let cellsOf;
    try {
      cellsOf = parts.map((t) => p.row.indexOf(cards.parse(t)));
    } catch (error) {
      return { reason: error.message };
    }
    if (parts.length !== 2 || cellsOf.includes(-1) || !near(p, cellsOf[0], cellsOf[1])) {
      return { reason: "no such swap: " + String(name) };
    }
    return { from: cellsOf[0], to: cellsOf[1] };
  }

  function legalMoves(p) {
    const moves = [];
    for (let i = 0; i + 1 < p.row.length; i++) {
      if (near(p, i, i + 1)) moves.push([i, i + 1]);
    }
    return moves;
  }

  const inOrder = (p) => p.row.every((c, i) => i === 0 || rankOf(p.row[i - 1]) < rankOf(c));
  const status = (p) => (inOrder(p) ? "solved" : legalMoves(p).length ? "playing" : "stuck");
  const summary = (p) => p.row.filter((c, i) => rankOf(c) === i + 1).length + " cards in place";
  const goal = () => "Put the row in order, Ace first.";

  function cellView(p, i) {
    const c = p.row[i];
    return { card: c, rank: c >> 2, suit: c & 3, name: cards.name(c), count: 1,
             label: cards.words(c) };
  }

  /** The moves of the shortest win from `p` (null: none). */
  function shortest(p) {
    const key = (q) => q.row.join(",");
    const seen = new Map([[key(p), null]]);
    const queue = [p];
    while (queue.length) {
      const q = queue.shift();
      if (inOrder(q)) {
        const line = [];
        for (let k = key(q); seen.get(k); k = seen.get(k).from) line.unshift(seen.get(k).move);
        return line;
      }
      for (const [a, b] of legalMoves(q)) {
        const next = play(q, a, b);
        if (!seen.has(key(next))) {
          seen.set(key(next), { from: key(q), move: [a, b] });
          queue.push(next);
        }
      }
    }
    return null;
  }

  const decider = { decide: (p) => ({ verdict: shortest(p) ? "wins" : "loses" }) };

  function hint(history) {
    const p = history[history.length - 1];
    if (inOrder(p)) return { text: "Solved: nothing left to do." };
    const line = shortest(p);
    if (!line) {
      return undoHint(history, decider, "rows", "This row can no longer be put in order",
                      "This deal cannot be won.");
    }
    const [from, to] = line[0];
    return winningHint(from, to, "swap " + moveName(p, from, to), null, 0, "the row");
  }

  puzzlegen.games = puzzlegen.games || {};
  puzzlegen.games.swaps = {
    name: "Near Swaps",
    rules: "Swap neighbouring cards at most two ranks apart until the row is in order.",
    start: start, cellView: cellView, whyNotPick: whyNotPick, check: check, play: play,
    moveName: moveName, moveCells: moveCells, legalMoves: legalMoves, status: status,
    summary: summary, goal: goal, hint: hint,
  };
})(window.puzzlegen = window.puzzlegen || {});
