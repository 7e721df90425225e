/* StacksSquared for the puzzle page.
 *
 * The rules are those of solvers/stacksquared/rules.py, reason for reason: a stack moves onto
 * another non-empty stack in the same row or column when their top cards share a suit or have the
 * same or adjacent ranks (Ace low, King high, no wrap).  The hint search is the exact single-stack
 * decision of solvers/stacksquared/tree.py `decide`: a memoised depth-first search over tops (sizes
 * never matter for one stack), moves most promising first, dead states (tops that split into
 * classes of the compatibility or shared-line graph) never expanded.  It stores at most
 * `SEARCH_STATES` states and then says so: it never guesses.
 */
(function (puzzlegen) {
  "use strict";

  const { parse: parseCard, name: cardName, words: cardWords } = puzzlegen.cards;
  const { tooLarge, undoHint } = puzzlegen.hints;
  const EMPTY = -1;
  const WINS = 1;
  const LOSES = 0;
  const LIMIT = -1;
  /** States one hint search may store before it answers "too large to decide here". */
  const SEARCH_STATES = 1000000;

  /** Two top cards may merge: same suit, or ranks equal or adjacent (A-K not adjacent). */
  const compatible = (a, b) => (a & 3) === (b & 3) || Math.abs((a >> 2) - (b >> 2)) <= 1;

  /* A position: `tops[i]` (card index or EMPTY) and `sizes[i]` for cell i, row-major. */
  function start(puzzle) {
    const tops = puzzle.deal.split(/\s+/).map(parseCard);
    return { rows: puzzle.rows, cols: puzzle.cols, tops: tops, sizes: tops.map(() => 1) };
  }
  const sameLine = (p, a, b) =>
    Math.floor(a / p.cols) === Math.floor(b / p.cols) || a % p.cols === b % p.cols;
  const stacks = (p) => p.tops.filter((t) => t !== EMPTY).length;
  const score = (p) => p.sizes.reduce((sum, s) => sum + s * s, 0);

  /** rules.Position.why_illegal for a move named by its top cards: null when legal. */
  function whyIllegal(p, mover, dest) {
    const a = p.tops.indexOf(mover);
    const b = p.tops.indexOf(dest);
    if (a < 0) return cardName(mover) + " is not the top of a stack";
    if (b < 0) return cardName(dest) + " is not the top of a stack";
    if (a === b) return "a stack cannot move onto itself";
    if (!sameLine(p, a, b)) return cardName(mover) + " and " + cardName(dest) + " share no row or column";
    if (!compatible(mover, dest)) {
      return cardName(mover) + " and " + cardName(dest) + " differ in suit and are not adjacent in rank";
    }
    return null;
  }

  /** Why the stack at cell `from` may not be picked up (null: it may). */
  function whyNotPick(p, from) {
    return p.tops[from] === EMPTY ? "that cell is empty: pick a stack" : null;
  }

  /** Why moving the stack at cell `from` onto cell `to` is refused (null: legal). */
  function check(p, from, to) {
    const refused = whyNotPick(p, from);
    if (refused) return refused;
    if (p.tops[to] === EMPTY) return "a stack moves onto another stack, not into an empty cell";
    return whyIllegal(p, p.tops[from], p.tops[to]);
  }

  /** The position after the legal move from cell `from` onto cell `to`. */
  function play(p, from, to) {
    const tops = p.tops.slice();
    const sizes = p.sizes.slice();
    tops[to] = tops[from];
    sizes[to] = sizes[from] + sizes[to];
    tops[from] = EMPTY;
    sizes[from] = 0;
    return { rows: p.rows, cols: p.cols, tops: tops, sizes: sizes };
  }

  const moveName = (p, from, to) => cardName(p.tops[from]) + "-" + cardName(p.tops[to]);

  /** The cells of a move in seed notation ("9H-TS"), or the reason it is illegal here. */
  function moveCells(p, name) {
    const parts = String(name).trim().split("-");
    if (parts.length !== 2) return { reason: "malformed move '" + String(name).trim() + "'" };
    let mover, dest;
    try {
      mover = parseCard(parts[0]);
      dest = parseCard(parts[1]);
    } catch (err) {
      return { reason: err.message };
    }
    const reason = whyIllegal(p, mover, dest);
    if (reason) return { reason: reason };
    return { from: p.tops.indexOf(mover), to: p.tops.indexOf(dest) };
  }

  /** Every legal move as [from, to], mover cells row-major, then destinations (rules.py order). */
  function legalMoves(p) {
    const moves = [];
    for (let a = 0; a < p.tops.length; a++) {
      if (p.tops[a] === EMPTY) continue;
      for (let b = 0; b < p.tops.length; b++) {
        if (b !== a && p.tops[b] !== EMPTY && sameLine(p, a, b) && compatible(p.tops[a], p.tops[b])) {
          moves.push([a, b]);
        }
      }
    }
    return moves;
  }

  /** Solved: the pack's maximum score is reached (one stack, for a puzzle that has one).
   *  Stuck: not solved and no legal move left.  Playing: otherwise. */
  function status(p, puzzle) {
    if (score(p) >= puzzle.max_score) return "solved";
    return legalMoves(p).length ? "playing" : "stuck";
  }

  function summary(p, puzzle) {
    const n = stacks(p);
    return n + (n === 1 ? " stack" : " stacks") + " \u00b7 score " + score(p) + " of " + puzzle.max_score;
  }

  function goal(puzzle) {
    return puzzle.single_stack
      ? "Gather all " + puzzle.rows * puzzle.cols + " cards into one stack."
      : "No single stack is possible here: reach the highest score, " + puzzle.max_score + ".";
  }

  function cellView(p, i) {
    const card = p.tops[i];
    return card === EMPTY
      ? { card: null, count: 0, label: "empty" }
      : { card: card, rank: card >> 2, suit: card & 3, name: cardName(card), count: p.sizes[i],
          label: cardWords(card) + (p.sizes[i] > 1 ? ", stack of " + p.sizes[i] : "") };
  }

  /* ---- The exact single-stack search (tree.decide, with a state limit). ---- */

  /** Exact single-stack decisions for the positions of one deal.  Each decision fills its own
   *  memo table (key: the tops -> LOSES, or the winning move as from * 64 + to), so its answer,
   *  "limit" included, depends on the position and the limit only.  Typed arrays and no
   *  allocation per state, so it runs at about a million states a second. */
  function Searcher(rows, cols, limit) {
    const n = rows * cols;
    this.n = n;
    this.limit = limit || SEARCH_STATES;
    this.memo = new Map();
    this.line = [];                          // cells sharing a row or column, per cell
    for (let a = 0; a < n; a++) {
      const cells = [];
      for (let b = 0; b < n; b++) {
        if (b !== a && (Math.floor(a / cols) === Math.floor(b / cols) || a % cols === b % cols)) cells.push(b);
      }
      this.line.push(Int32Array.from(cells));
    }
    this.compat = new Uint8Array(52 * 52);
    for (let x = 0; x < 52; x++) for (let y = 0; y < 52; y++) this.compat[x * 52 + y] = x !== y && compatible(x, y) ? 1 : 0;
    this.occupied = new Int32Array(n);
    this.partners = new Int32Array(n);
    this.seen = new Int32Array(n);
    this.stamp = 0;
    this.todo = new Int32Array(n);
    this.codes = new Array(n);
    this.moves = [];                          // per depth: packed (rank, from, to) move lists
    for (let d = 0; d <= n; d++) this.moves.push(new Float64Array(n * n));
  }

  Searcher.prototype.key = function (card) {
    for (let i = 0; i < this.n; i++) this.codes[i] = card[i] + 2;
    return String.fromCharCode.apply(null, this.codes);
  };

  /** Whether the `count` occupied cells are connected, by compatible tops (`byCards`) or by
   *  shared lines. */
  Searcher.prototype.connected = function (card, count, byCards) {
    const occ = this.occupied, seen = this.seen, todo = this.todo, compat = this.compat;
    const stamp = ++this.stamp;
    seen[occ[0]] = stamp;
    todo[0] = occ[0];
    let top = 1, reached = 1;
    while (top > 0) {
      const a = todo[--top];
      if (byCards) {
        const row = card[a] * 52;
        for (let j = 0; j < count; j++) {
          const b = occ[j];
          if (seen[b] !== stamp && compat[row + card[b]]) { seen[b] = stamp; todo[top++] = b; reached++; }
        }
      } else {
        const cells = this.line[a];
        for (let j = 0; j < cells.length; j++) {
          const b = cells[j];
          if (card[b] !== EMPTY && seen[b] !== stamp) { seen[b] = stamp; todo[top++] = b; reached++; }
        }
      }
    }
    return reached === count;
  };

  /** Write the legal moves at `depth`, most promising first as kernel.generate_moves with
   *  order_moves: a destination whose top has the fewest compatible tops left, plus a mover with
   *  the fewest occupied cells in line; ties to the mover with the most compatible tops, then
   *  row-major.  Returns how many. */
  Searcher.prototype.orderedMoves = function (card, count, depth) {
    const occ = this.occupied, partners = this.partners, compat = this.compat;
    for (let i = 0; i < count; i++) {
      const row = card[occ[i]] * 52;
      let k = 0;
      for (let j = 0; j < count; j++) k += compat[row + card[occ[j]]];
      partners[occ[i]] = k;
    }
    const list = this.moves[depth];
    let m = 0;
    for (let i = 0; i < count; i++) {
      const a = occ[i], cells = this.line[a], row = card[a] * 52;
      let inLine = 0;
      for (let j = 0; j < cells.length; j++) if (card[cells[j]] !== EMPTY) inLine++;
      const moverRank = inLine * 64 - partners[a];
      for (let j = 0; j < cells.length; j++) {
        const b = cells[j];
        if (card[b] === EMPTY || !compat[row + card[b]]) continue;
        const rank = moverRank + partners[b] * 64;
        const code = (rank + 4096) * 4096 + a * 64 + b;    // rank first, then row-major
        let k = m - 1;
        while (k >= 0 && Math.floor(list[k] / 4096) > rank + 4096) { list[k + 1] = list[k]; k--; }
        list[k + 1] = code;
        m++;
      }
    }
    return m;
  };

  Searcher.prototype.search = function (card, count, depth) {
    if (count === 1) return WINS;
    const key = this.key(card);
    const known = this.memo.get(key);
    if (known !== undefined) return known === LOSES ? LOSES : WINS;
    let k = 0;
    for (let i = 0; i < this.n; i++) if (card[i] !== EMPTY) this.occupied[k++] = i;
    if (!this.connected(card, count, true) || !this.connected(card, count, false)) {
      this.memo.set(key, LOSES);
      return LOSES;
    }
    if (this.memo.size >= this.limit) return LIMIT;
    const list = this.moves[depth];
    const moves = this.orderedMoves(card, count, depth);
    for (let i = 0; i < moves; i++) {
      const a = (list[i] % 4096) >> 6, b = list[i] % 64;
      const undo = card[b];
      card[b] = card[a];
      card[a] = EMPTY;
      const result = this.search(card, count - 1, depth + 1);
      card[a] = card[b];
      card[b] = undo;
      if (result === LIMIT) return LIMIT;
      if (result === WINS) {
        this.memo.set(key, a * 64 + b);
        return WINS;
      }
    }
    this.memo.set(key, LOSES);
    return LOSES;
  };

  /** {verdict: "wins" | "loses" | "limit", move: [from, to] on a win with more than one stack}. */
  Searcher.prototype.decide = function (p) {
    this.memo.clear();
    const card = Int8Array.from(p.tops);
    const result = this.search(card, stacks(p), 0);
    if (result === LIMIT) return { verdict: "limit" };
    if (result === LOSES) return { verdict: "loses" };
    const code = this.memo.get(this.key(card));
    return code === undefined ? { verdict: "wins" } : { verdict: "wins", move: [code >> 6, code & 63] };
  };

  function searcherFor(puzzle) {
    if (!puzzle._searcher) puzzle._searcher = new Searcher(puzzle.rows, puzzle.cols);
    return puzzle._searcher;
  }

  const topsKey = (p) => p.tops.join(",");

  /** The stored line's data for position `p`, if `p` lies on the stored solution: the index of
   *  the step and the moves that keep one stack reachable there (exact, from the Python solver). */
  function onStoredLine(p, puzzle) {
    if (!puzzle._line) {
      puzzle._line = new Map();
      let q = start(puzzle);
      puzzle.solution.forEach((name, k) => {
        puzzle._line.set(topsKey(q), k);
        const cells = moveCells(q, name);
        q = play(q, cells.from, cells.to);
      });
    }
    const k = puzzle._line.get(topsKey(p));
    return k === undefined ? null : { step: k, safe: puzzle.safe ? puzzle.safe[k] : null };
  }

  const describeMove = (p, from, to) => "move " + cardName(p.tops[from]) + " onto " + cardName(p.tops[to]);

  /** An exact hint for the last position of `history` (positions from the start). */
  function hint(history, puzzle) {
    const p = history[history.length - 1];
    const state = status(p, puzzle);
    if (state === "solved") return { text: "Solved: nothing left to do." };
    if (!puzzle.single_stack) return lineHint(history, puzzle);
    const line = onStoredLine(p, puzzle);
    if (line && line.safe) {
      const cells = moveCells(p, puzzle.solution[line.step]);
      const legal = legalMoves(p).length;
      return { from: cells.from, to: cells.to, verdict: "wins",
               text: "Still solvable: " + describeMove(p, cells.from, cells.to) + " (" +
                     line.safe.length + " of " + legal + " legal moves keep one stack reachable)." };
    }
    const searcher = searcherFor(puzzle);
    const here = searcher.decide(p);
    if (here.verdict === "limit") return tooLarge(searcher, "positions");
    if (here.verdict === "wins") {
      const [from, to] = here.move;
      return { from: from, to: to, verdict: "wins",
               text: "Still solvable: " + describeMove(p, from, to) + "." };
    }
    return undoHint(history, searcher, "positions",
                    "One stack can no longer be reached from here",
                    "This deal has no single-stack solution.");
  }

  /** For a puzzle without a single-stack solution: follow the stored line to the maximum. */
  function lineHint(history, puzzle) {
    const p = history[history.length - 1];
    const line = onStoredLine(p, puzzle);
    if (line) {
      const cells = moveCells(p, puzzle.solution[line.step]);
      return { from: cells.from, to: cells.to,
               text: "On the stored line to score " + puzzle.max_score + ": " +
                     describeMove(p, cells.from, cells.to) + "." };
    }
    for (let back = 1; back < history.length; back++) {
      if (onStoredLine(history[history.length - 1 - back], puzzle)) {
        return { undo: back, text: "Your game left the stored line to score " + puzzle.max_score +
                 ": undo " + back + (back === 1 ? " move" : " moves") + " to rejoin it." };
      }
    }
    return { text: "No stored line passes through this position." };
  }

  puzzlegen.games = puzzlegen.games || {};
  puzzlegen.games.stacksquared = {
    name: "StacksSquared",
    rules: "Move a stack onto another stack in the same row or column when their top cards " +
           "share a suit or have the same or adjacent ranks (Ace low, King high, no wrap). The " +
           "moved stack's top card stays on top; emptied cells stay empty.",
    start: start, cellView: cellView, whyNotPick: whyNotPick, check: check, play: play,
    moveName: moveName, moveCells: moveCells, legalMoves: legalMoves, status: status,
    summary: summary, goal: goal, hint: hint,
    // For scripts and tests: the rules by card names, and the exact search.
    parseCard: parseCard, cardName: cardName, whyIllegal: whyIllegal, Searcher: Searcher,
  };
})(window.puzzlegen = window.puzzlegen || {});
