/* Montana (Gaps) for the puzzle page: one round, the Twos fixed once in the first column.
 *
 * The rules are those of solvers/montana/rules.py, reason for reason: a card moves into a gap
 * right of its same-suit predecessor; a gap in the first column takes a Two not already in the
 * first column; nothing goes right of the highest card or of a gap.  The round is won when every
 * row holds one suit in order from its Two.  The hint search is exact: a memoised depth-first
 * search for a winning line over layouts (none recurs in a round with fixed Twos).  It stores at
 * most `SEARCH_STATES` layouts and then says so: it never guesses.
 */
(function (puzzlegen) {
  "use strict";

  const { parse: parseCard, name: cardName, words: cardWords } = puzzlegen.cards;
  const { tooLarge, undoHint, winningHint } = puzzlegen.hints;
  const ROWS = 4;
  const GAP = -1;
  const WINS = 1;
  const LOSES = 0;
  const LIMIT = -1;
  /** Layouts one hint search may store before it answers "too large to decide here". */
  const SEARCH_STATES = 1000000;
  const RANK_NAMES = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
                      "Ten", "Jack", "Queen", "King"];
  const rankOf = (c) => (c >> 2) + 1;
  const suitOf = (c) => c & 3;
  const TWO = 4;                          // the index of 2C; the Two of suit s is TWO + s

  /* A position: `cells[i]` (card index or GAP), four rows of `cols` cells, row-major. */
  function start(puzzle) {
    const cells = puzzle.deal.split(/\s+/).map(parseCard).map((c) => (rankOf(c) === 1 ? GAP : c));
    return { rows: ROWS, cols: puzzle.cols, cells: cells };
  }

  /** Cards locked in place: per row, a Two in the first column and its suit in order after it. */
  function locked(cells, cols) {
    let total = 0;
    for (let r = 0; r < ROWS; r++) {
      const first = cells[r * cols];
      let k = 0;
      while (k < cols - 1 && cells[r * cols + k] !== GAP && rankOf(cells[r * cols + k]) === k + 2 &&
             suitOf(cells[r * cols + k]) === suitOf(first)) k++;
      total += k;
    }
    return total;
  }

  /** rules.apply_move's reason (after "move X: ") for `card` into cell `to`: null when legal. */
  function whyIllegal(p, card, to) {
    const col = to % p.cols;
    if (p.cells[to] !== GAP) return "the cell holds " + cardName(p.cells[to]) + ", not a gap";
    if (col === 0) {
      if (rankOf(card) !== 2) return "only a Two goes into the first column";
      if (p.cells.indexOf(card) % p.cols === 0) return "that Two is already in the first column";
      return null;
    }
    const left = p.cells[to - 1];
    if (left === GAP || suitOf(left) !== suitOf(card) || rankOf(left) + 1 !== rankOf(card)) {
      return "the card left of the gap is " + (left === GAP ? "a gap" : cardName(left)) +
             ", not the predecessor of " + cardName(card);
    }
    return null;
  }

  /** Why the card at cell `from` may not be picked up (null: it may). */
  function whyNotPick(p, from) {
    return p.cells[from] === GAP ? "that cell is a gap: pick a card" : null;
  }

  /** Why moving the card at cell `from` into cell `to` is refused (null: legal). */
  function check(p, from, to) {
    return whyNotPick(p, from) || whyIllegal(p, p.cells[from], to);
  }

  /** The position after the legal move from cell `from` into the gap at `to`. */
  function play(p, from, to) {
    const cells = p.cells.slice();
    cells[to] = cells[from];
    cells[from] = GAP;
    return { rows: ROWS, cols: p.cols, cells: cells };
  }

  const moveName = (p, from, to) =>
    cardName(p.cells[from]) + "->r" + (Math.floor(to / p.cols) + 1) + "c" + (to % p.cols + 1);

  // Rows and columns counted from 1 ("4H->r2c4"); earlier packs counted from 0 ("4H->1,3").
  const MOVE = /^\s*(\w+)\s*->\s*r(\d{1,3})c(\d{1,3})\s*$/i;
  const MOVE_FROM_0 = /^\s*(\w+)\s*->\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/;

  /** The cells of a move in the pack's notation ("4H->r2c4"), or the reason it is illegal
   *  here. */
  function moveCells(p, name) {
    const named = MOVE.exec(String(name));
    const match = named && +named[2] >= 1 && +named[3] >= 1 ? named : MOVE_FROM_0.exec(String(name));
    if (!match) {
      return { reason: "malformed move '" + String(name).trim() + "': expected CARD->rROWcCOL " +
                       "such as '4H->r2c4' (rows and columns from 1)" };
    }
    let card;
    try {
      card = parseCard(match[1]);
    } catch (err) {
      return { reason: err.message };
    }
    const from1 = match === named ? 1 : 0;
    const row = +match[2] - from1, col = +match[3] - from1;
    if (row >= ROWS || col >= p.cols) {
      return { reason: "no such cell in a 4x" + p.cols + " layout" };
    }
    const from = p.cells.indexOf(card);
    if (from < 0) return { reason: cardName(card) + " is not in the layout" };
    const reason = whyIllegal(p, card, row * p.cols + col);
    return reason ? { reason: reason } : { from: from, to: row * p.cols + col };
  }

  /** Every legal move of `cells` as [from, to], gaps row-major (rules.legal_moves's order). */
  function movesOf(cells, cols) {
    const moves = [];
    for (let gap = 0; gap < cells.length; gap++) {
      if (cells[gap] !== GAP) continue;
      if (gap % cols === 0) {
        for (let suit = 0; suit < ROWS; suit++) {
          const from = cells.indexOf(TWO + suit);
          if (from % cols !== 0) moves.push([from, gap]);
        }
      } else {
        const left = cells[gap - 1];
        if (left !== GAP && rankOf(left) < cols) moves.push([cells.indexOf(left + 4), gap]);
      }
    }
    return moves;
  }

  const legalMoves = (p) => movesOf(p.cells, p.cols);
  const target = (cols) => ROWS * (cols - 1);

  /** Solved: every row in suit order.  Stuck: not solved and no legal move left. */
  function status(p) {
    if (locked(p.cells, p.cols) === target(p.cols)) return "solved";
    return legalMoves(p).length ? "playing" : "stuck";
  }

  function summary(p) {
    return locked(p.cells, p.cols) + " of " + target(p.cols) + " cards in place";
  }

  function goal(puzzle) {
    return "Build each row in one suit, from a Two in the first column up to the " +
           RANK_NAMES[puzzle.cols - 1] + ".";
  }

  function cellView(p, i) {
    const card = p.cells[i];
    return card === GAP
      ? { card: null, count: 0, label: "gap" }
      : { card: card, rank: card >> 2, suit: card & 3, name: cardName(card), count: 1,
          label: cardWords(card) };
  }

  /* ---- The exact search for a winning line, with a limit on the layouts it stores. ---- */

  /** Exact decisions for the layouts of one deal.  Each decision fills its own memo table (key:
   *  the cells -> LOSES, or the winning move as from * 64 + to), so its answer, "limit"
   *  included, depends on the layout and the limit only, never on the decisions before it. */
  function Searcher(cols, limit) {
    this.cols = cols;
    this.limit = limit || SEARCH_STATES;
    this.memo = new Map();
    this.codes = new Array(ROWS * cols);
  }

  Searcher.prototype.key = function (cells) {
    for (let i = 0; i < cells.length; i++) this.codes[i] = cells[i] + 2;
    return String.fromCharCode.apply(null, this.codes);
  };

  Searcher.prototype.search = function (cells) {
    if (locked(cells, this.cols) === target(this.cols)) return WINS;
    const key = this.key(cells);
    const known = this.memo.get(key);
    if (known !== undefined) return known === LOSES ? LOSES : WINS;
    if (this.memo.size >= this.limit) return LIMIT;
    for (const [from, to] of movesOf(cells, this.cols)) {
      cells[to] = cells[from];
      cells[from] = GAP;
      const result = this.search(cells);
      cells[from] = cells[to];
      cells[to] = GAP;
      if (result === LIMIT) return LIMIT;
      if (result === WINS) {
        this.memo.set(key, from * 64 + to);
        return WINS;
      }
    }
    this.memo.set(key, LOSES);
    return LOSES;
  };

  /** {verdict: "wins" | "loses" | "limit", move: [from, to] on a win not yet reached}. */
  Searcher.prototype.decide = function (p) {
    this.memo.clear();
    const cells = Int8Array.from(p.cells);
    const result = this.search(cells);
    if (result === LIMIT) return { verdict: "limit" };
    if (result === LOSES) return { verdict: "loses" };
    const code = this.memo.get(this.key(cells));
    return code === undefined ? { verdict: "wins" }
      : { verdict: "wins", move: [code >> 6, code & 63] };
  };

  function searcherFor(puzzle) {
    if (!puzzle._searcher) puzzle._searcher = new Searcher(puzzle.cols);
    return puzzle._searcher;
  }

  /** The step of the stored solution played from position `p`, if `p` lies on it. */
  function storedStep(p, puzzle) {
    if (!puzzle._line) {
      puzzle._line = new Map();
      let q = start(puzzle);
      puzzle.solution.forEach((name, k) => {
        puzzle._line.set(q.cells.join(","), k);
        const cells = moveCells(q, name);
        q = play(q, cells.from, cells.to);
      });
    }
    return puzzle._line.get(p.cells.join(","));
  }

  function describeMove(p, from, to) {
    const card = cardName(p.cells[from]);
    return to % p.cols === 0
      ? "move " + card + " to the start of row " + (Math.floor(to / p.cols) + 1)
      : "move " + card + " right of " + cardName(p.cells[to - 1]);
  }

  /** An exact hint for the last position of `history` (positions from the start). */
  function hint(history, puzzle) {
    const p = history[history.length - 1];
    if (status(p) === "solved") return { text: "Solved: nothing left to do." };
    const searcher = searcherFor(puzzle);
    const here = searcher.decide(p);
    if (here.verdict === "limit") return tooLarge(searcher, "layouts");
    if (here.verdict === "wins") {
      const step = storedStep(p, puzzle);     // on the stored line, its move; else the search's
      const stored = step === undefined ? null : moveCells(p, puzzle.solution[step]);
      const [from, to] = stored ? [stored.from, stored.to] : here.move;
      const legal = legalMoves(p);
      const keep = legal.filter(([a, b]) => searcher.decide(play(p, a, b)).verdict === "wins");
      return winningHint(from, to, describeMove(p, from, to), keep.length, legal.length,
                         "the deal");
    }
    return undoHint(history, searcher, "layouts", "This layout can no longer be won",
                    "No line of play wins this deal.");
  }

  puzzlegen.games = puzzlegen.games || {};
  puzzlegen.games.montana = {
    name: "Montana",
    rules: "Move a card into a gap whose left neighbour is the card one rank lower in the same " +
           "suit; a Two goes into a gap in the first column (a Two already there stays). Nothing " +
           "goes right of the highest card or of another gap.",
    start: start, cellView: cellView, whyNotPick: whyNotPick, check: check, play: play,
    moveName: moveName, moveCells: moveCells, legalMoves: legalMoves, status: status,
    summary: summary, goal: goal, hint: hint,
    // For scripts and tests: the rules by card and cell, and the exact search.
    parseCard: parseCard, cardName: cardName, whyIllegal: whyIllegal, Searcher: Searcher,
  };
})(window.puzzlegen = window.puzzlegen || {});
