/* Agnes Sorel for the puzzle page (face-up rules).
 *
 * The rules are those of solvers/agnes/rules.py: the base card starts its foundation, and every
 * foundation builds up by suit from the base rank, King to Ace when it wraps; a card goes onto
 * the last card of a pile one rank higher of the same colour; a run (the last cards of a pile in
 * sequence, all one suit or one colour as the rules say) moves together, whole only under
 * NoSplit; an empty pile takes what the rules allow; the stock is dealt 7, 7, 7 and 2 cards
 * when the player chooses.  On the board row 0 holds the four foundations and the stock, and
 * each pile is a column below it, its last card lowest.  Hints are exact: the kernel's search,
 * ported below, decides any position, and stops at a limit of stored states rather than guess.
 */
(function (puzzlegen) {
  "use strict";

  const { parse: parseCard, name: cardName } = puzzlegen.cards;
  const { tooLarge, undoHint, winningHint } = puzzlegen.hints;
  const PILES = 7;
  const STOCK = 6;                           // the stock's cell in row 0; 0..3 the foundations
  const HIGHEST = 12;
  /** States one hint search may store before it answers "too large to decide here". */
  const SEARCH_STATES = 500000;
  /** States each legal move's search may store when a hint counts the moves that keep a win. */
  const COUNT_STATES = 50000;
  const isRed = (c) => (c & 3) === 1 || (c & 3) === 2;
  const sameColour = (a, b) => isRed(a) === isRed(b);

  /* A position: the deck (base card first), `piles` of cards (last = playable), `found[s]` the
   * relative rank on top of suit s's foundation (-1: none yet), `dealt` cards dealt so far, and
   * the rules as the page data gives them (solvers/agnes/game.py `page_rules`). */
  function start(puzzle) {
    const deck = puzzle.deal.split(/\s+/).map(parseCard);
    const piles = [[], [], [], [], [], [], []];
    let dealt = 1;
    for (let row = 0; row < PILES; row++) {
      for (let j = row; j < PILES; j++) piles[j].push(deck[dealt++]);
    }
    const found = [-1, -1, -1, -1];
    found[deck[0] & 3] = 0;
    return { cols: PILES, deck: deck, piles: piles, found: found, dealt: dealt,
             rules: puzzle.rules };
  }

  const rel = (p, c) => ((c >> 2) - (p.deck[0] >> 2) + 13) % 13;
  const stock = (p) => 52 - p.dealt;
  const home = (p) => p.found.reduce((sum, f) => sum + f + 1, 0);

  /** Whether `card` continues a movable run under `onto` (rules.Board._joins). */
  function joins(p, card, onto) {
    const same = p.rules.sameSuit ? (card & 3) === (onto & 3) : sameColour(card, onto);
    return same && rel(p, onto) === rel(p, card) + 1;
  }

  /** How many last cards of pile `j` may move together (rules.Board.run_lengths). */
  function runLengths(p, j) {
    const pile = p.piles[j], out = [];
    for (let k = 1; k <= pile.length; k++) {
      const goesOn = k < pile.length && joins(p, pile[pile.length - k], pile[pile.length - k - 1]);
      if (p.rules.split || !goesOn) out.push(k);
      if (!goesOn) break;
    }
    return out;
  }

  function fitsEmpty(p, head, count) {
    const high = rel(p, head) === HIGHEST;
    return { None: false, Any1: count === 1, AnyRun: true, High1: count === 1 && high,
             HighRun: high }[p.rules.empty];
  }

  /** Every legal move in rules.Board.legal_moves's order: foundation moves, tableau moves, the
   *  deal.  A move is {kind, src, dst, count, card} with piles numbered from 1. */
  function moves(p) {
    const out = [];
    p.piles.forEach((pile, j) => {
      const last = pile[pile.length - 1];
      if (pile.length && rel(p, last) === p.found[last & 3] + 1) {
        out.push({ kind: "found", src: j + 1, card: last });
      }
    });
    p.piles.forEach((pile, j) => {
      if (!pile.length) return;
      for (const k of runLengths(p, j)) {
        const head = pile[pile.length - k];
        p.piles.forEach((target, t) => {
          if (t === j) return;
          const last = target[target.length - 1];
          const ok = target.length
            ? rel(p, last) === rel(p, head) + 1 && sameColour(last, head)
            : fitsEmpty(p, head, k);
          if (ok) out.push({ kind: "tableau", src: j + 1, dst: t + 1, count: k, card: head });
        });
      }
    });
    if (stock(p)) out.push({ kind: "deal" });
    return out;
  }

  function name(m) {
    if (m.kind === "deal") return "deal";
    if (m.kind === "found") return cardName(m.card) + " from pile " + m.src + " to foundation";
    const what = m.count === 1 ? cardName(m.card) : m.count + " cards from " + cardName(m.card);
    return what + " from pile " + m.src + " to pile " + m.dst;
  }

  function apply(p, m) {
    const q = { cols: p.cols, deck: p.deck, piles: p.piles.map((s) => s.slice()),
                found: p.found.slice(), dealt: p.dealt, rules: p.rules };
    if (m.kind === "deal") {
      for (let j = 0; j < (stock(q) > 2 ? PILES : 2); j++) q.piles[j].push(q.deck[q.dealt++]);
      return q;
    }
    const src = q.piles[m.src - 1];
    if (m.kind === "found") q.found[src.pop() & 3] += 1;
    else q.piles[m.dst - 1].push(...src.splice(src.length - m.count));
    return q;
  }

  /* ---- Cells: row 0 is the foundations (0..3, by suit) and the stock (6); row r >= 1 of
   * column j is card r - 1 of pile j. ---- */
  const cellOf = (row, col) => row * PILES + col;
  const pileCell = (j, index) => cellOf(index + 1, j);

  /** The move a click on cell `from` and then on cell `to` makes, or the reason there is none. */
  function moveOf(p, from, to) {
    const legal = moves(p);
    const fromRow = Math.floor(from / PILES), fromCol = from % PILES;
    const toRow = Math.floor(to / PILES), toCol = to % PILES;
    if (fromRow === 0) {
      if (fromCol !== STOCK) return { reason: "a card on a foundation stays there" };
      return stock(p) ? { move: { kind: "deal" } } : { reason: "the stock is empty" };
    }
    const pile = p.piles[fromCol], index = fromRow - 1;
    const count = pile.length - index, head = pile[index];
    if (toRow === 0) {
      if (count !== 1) return { reason: "only the last card of a pile goes to a foundation" };
      const m = legal.find((x) => x.kind === "found" && x.src === fromCol + 1);
      return m ? { move: m }
        : { reason: cardName(head) + " is not the next card of its foundation" };
    }
    if (toCol === fromCol) return { reason: "pick another pile" };
    if (!runLengths(p, fromCol).includes(count)) return { reason: unmovable(p, fromCol, index) };
    const m = legal.find((x) => x.kind === "tableau" && x.src === fromCol + 1 &&
                                x.dst === toCol + 1 && x.count === count);
    if (m) return { move: m };
    const target = p.piles[toCol];
    return { reason: target.length
      ? cardName(head) + " does not go onto " + cardName(target[target.length - 1]) +
        " (a card goes onto one rank higher of the same colour)"
      : "an empty pile takes " + p.rules.emptyTakes + " here" };
  }

  function whyNotPick(p, from) {
    const row = Math.floor(from / PILES), col = from % PILES;
    if (row === 0) {
      if (col === STOCK) return stock(p) ? null : "the stock is empty";
      return col < 4 && p.found[col] >= 0 ? "a card on a foundation stays there"
        : "no card there: pick a card of a pile";
    }
    const pile = p.piles[col], index = row - 1;
    if (index >= pile.length) return "no card there: pick a card of a pile";
    if (index === pile.length - 1) return null;       // a last card may at least go home
    return runLengths(p, col).includes(pile.length - index) ? null : unmovable(p, col, index);
  }

  function unmovable(p, col, index) {
    const pile = p.piles[col];
    return index === pile.length - 1
      ? cardName(pile[index]) + " moves to another pile only with the whole run it ends"
      : "the cards from " + cardName(pile[index]) + " down do not move together";
  }

  function check(p, from, to) {
    return whyNotPick(p, from) || moveOf(p, from, to).reason || null;
  }

  const play = (p, from, to) => apply(p, moveOf(p, from, to).move);
  const moveName = (p, from, to) => name(moveOf(p, from, to).move);

  /** The cells of a move: the card or the stock, then its foundation, pile or any pile. */
  function cellsOf(p, m) {
    if (m.kind === "deal") return { from: cellOf(0, STOCK), to: cellOf(1, 0) };
    const pile = p.piles[m.src - 1];
    const count = m.kind === "found" ? 1 : m.count;
    return { from: pileCell(m.src - 1, pile.length - count),
             to: m.kind === "found" ? cellOf(0, m.card & 3) : cellOf(1, m.dst - 1) };
  }

  /** The cells of a move named as the pack names it, or why it is not legal here. */
  function moveCells(p, text) {
    const m = moves(p).find((x) => name(x) === String(text).trim());
    return m ? cellsOf(p, m) : { reason: "illegal move: " + String(text).trim() };
  }

  const legalMoves = (p) => moves(p).map((m) => {
    const cells = cellsOf(p, m);
    return [cells.from, cells.to];
  });

  function status(p) {
    if (home(p) === 52) return "solved";
    return moves(p).length ? "playing" : "stuck";
  }

  /** Rows for the foundations, the longest pile and room below it for its last card. */
  const rowsOf = (p) => 1 + Math.max(...p.piles.map((s) => s.length)) + 3;

  const summary = (p) => home(p) + " of 52 cards home \u00b7 stock " + stock(p);

  function goal(puzzle) {
    return "Build the four foundations up by suit from the base card, " +
           puzzle.deal.split(/\s+/)[0] + ", King to Ace when they wrap.";
  }

  function cellView(p, i) {
    const row = Math.floor(i / PILES), col = i % PILES;
    let card = null;
    if (row === 0 && col < 4 && p.found[col] >= 0) {
      card = (((p.deck[0] >> 2) + p.found[col]) % 13) * 4 + col;
    } else if (row === 0 && col === STOCK && stock(p)) {
      return { card: -1, stock: stock(p), count: 0, name: "stock", label: "stock, " + stock(p) +
               " cards" };
    } else if (row > 0) {
      card = p.piles[col][row - 1];
      if (card === undefined) card = null;
    }
    if (card === null) {
      return { card: null, count: 0, label: row === 0 ? "empty" : "no card",
               blank: row > 1 || (row === 0 && col >= 4) };
    }
    const pileWords = row > 0 ? ", pile " + (col + 1) : ", foundation";
    return { card: card, rank: card >> 2, suit: card & 3, name: cardName(card), count: 1,
             label: cardName(card) + pileWords };
  }

  /** The stock as a card back with its count; other cells drawn as playing cards (null). */
  function cardSvg(view) {
    if (!view.stock) return null;
    return '<svg class="card back" viewBox="0 0 60 84" aria-hidden="true">' +
      '<rect class="face" x="1" y="1" width="58" height="82" rx="6"/>' +
      '<text x="30" y="50" text-anchor="middle" class="value">' + view.stock + "</text></svg>";
  }

  /* ---- The exact search: solvers/agnes/kernel.py for face-up deals, from any position. ----
   * Cards are coded rel * 4 + suit as in the kernel, and moves too: kind (bits 0-1: 0 deal,
   * 1 foundation, 2 tableau), source pile (2-4), target pile (5-7), card count (8 on).  The same
   * prunings keep the same verdicts: a foundation move no card could ever need undone is forced;
   * of several empty piles no deal reaches only the first is a target, and a whole pile never
   * moves from one of them to another; under "None" a deal that leaves highest-rank cards
   * blocking their suits in a cycle is lost; piles no deal reaches are interchangeable.  It is a
   * depth-first search that enters each state at most once (a state seen before is on the line
   * or lost), so a position is won exactly when the search meets a win; it stores at most
   * `limit` states and then says so. */
  const KIND_DEAL = 0, KIND_FOUND = 1, KIND_TABLEAU = 2;

  /** The kernel's view of position `p`: deck, piles, pile lengths, foundations, stock. */
  function coded(p) {
    const code = (c) => rel(p, c) * 4 + (c & 3);
    const piles = p.piles.map((pile) => {
      const cards = new Int8Array(64);
      pile.forEach((c, i) => { cards[i] = code(c); });
      return cards;
    });
    return { deck: p.deck.map(code), piles: piles, ln: p.piles.map((pile) => pile.length),
             found: p.found.slice(), stock: stock(p), rules: p.rules };
  }

  /** The moves of state `s` into `buf` from `at` (kernel._gen: tried last to first); how many. */
  function generate(s, buf, at) {
    const { piles, ln, found, stock: left, rules } = s;
    for (let j = 0; j < PILES; j++) {
      if (!ln[j]) continue;
      const c = piles[j][ln[j] - 1], r = c >> 2, suit = c & 3;
      if (r === found[suit] + 1 && found[3 - suit] >= r - 2) {
        buf[at] = KIND_FOUND | (j << 2);
        return 1;
      }
    }
    let n = 0;
    if (left > 0) buf[at + n++] = KIND_DEAL;
    for (let j = 0; j < PILES; j++) {
      const L = ln[j], pile = piles[j];
      for (let k = 1; k <= L; k++) {
        const head = pile[L - k], hr = head >> 2;
        let goesOn = false;
        if (k < L) {
          const above = pile[L - k - 1];
          goesOn = (above >> 2) === hr + 1 &&
            (rules.sameSuit ? (above & 3) === (head & 3) : sameColour(above, head));
        }
        if (rules.split || !goesOn) {
          let emptySeen = false;
          for (let t = 0; t < PILES; t++) {
            if (t === j) continue;
            if (ln[t] > 0) {
              const tc = piles[t][ln[t] - 1];
              if ((tc >> 2) !== hr + 1 || !sameColour(tc, head)) continue;
            } else {
              const rule = rules.empty;
              if (rule === "None" || (rule === "Any1" && k !== 1) ||
                  (rule === "High1" && (k !== 1 || hr !== HIGHEST)) ||
                  (rule === "HighRun" && hr !== HIGHEST)) continue;
              if (t >= left) {
                if (emptySeen || (k === L && j >= left)) { emptySeen = true; continue; }
                emptySeen = true;
              }
            }
            buf[at + n++] = KIND_TABLEAU | (j << 2) | (t << 5) | (k << 8);
          }
        }
        if (!goesOn) break;
      }
      if (L > 0 && (pile[L - 1] >> 2) === found[pile[L - 1] & 3] + 1) {
        buf[at + n++] = KIND_FOUND | (j << 2);
      }
    }
    return n;
  }

  /** Play move `m` on `s`; returns what `undo` needs (the card a foundation move took). */
  function playCode(s, m) {
    const { piles, ln } = s, src = (m >> 2) & 7;
    if ((m & 3) === KIND_DEAL) {
      const count = s.stock > 2 ? PILES : 2;
      for (let j = 0; j < count; j++) piles[j][ln[j]++] = s.deck[52 - s.stock--];
      return -1;
    }
    if ((m & 3) === KIND_FOUND) {
      const c = piles[src][--ln[src]];
      s.found[c & 3] += 1;
      return c;
    }
    shiftRun(s, src, (m >> 5) & 7, m >> 8);
    return -1;
  }

  function undoCode(s, m, info) {
    const { piles, ln } = s, src = (m >> 2) & 7;
    if ((m & 3) === KIND_DEAL) {
      for (let j = (s.stock === 0 ? 2 : PILES) - 1; j >= 0; j--) { ln[j]--; s.stock++; }
    } else if ((m & 3) === KIND_FOUND) {
      piles[src][ln[src]++] = info;
      s.found[info & 3] -= 1;
    } else {
      shiftRun(s, (m >> 5) & 7, src, m >> 8);
    }
  }

  function shiftRun(s, from, to, k) {
    const { piles, ln } = s;
    for (let i = 0; i < k; i++) piles[to][ln[to] + i] = piles[from][ln[from] - k + i];
    ln[to] += k;
    ln[from] -= k;
  }

  /** The state's exact key: the stock, then the piles in canonical order (piles a deal still
   *  reaches in place; the others, interchangeable, empty first and then by first card). */
  function stateKey(s) {
    const order = [0, 1, 2, 3, 4, 5, 6];
    const rank = (j) => (j < s.stock ? j : s.ln[j] === 0 ? 7 : 8 + s.piles[j][0]);
    order.sort((a, b) => rank(a) - rank(b) || a - b);
    const codes = [s.stock];
    for (const j of order) {
      for (let i = 0; i < s.ln[j]; i++) codes.push(s.piles[j][i] + 1);
      codes.push(0);
    }
    return String.fromCharCode.apply(null, codes);
  }

  /** kernel._dead: highest-rank cards block their own suit or each other in a cycle. */
  function dead(s) {
    const g = [0, 0, 0, 0];
    for (let j = 0; j < PILES; j++) {
      let highs = 0;
      for (let i = s.ln[j] - 1; i >= 0; i--) {
        const c = s.piles[j][i];
        if ((c >> 2) === HIGHEST) highs |= 1 << (c & 3);
        for (let k = 0; k < 4; k++) {
          if ((highs >> k) & 1 && ((c >> 2) < HIGHEST || (c & 3) !== k)) g[k] |= 1 << (c & 3);
        }
      }
    }
    const reach = g.slice();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) if ((reach[i] >> j) & 1) reach[i] |= g[j];
      }
    }
    return reach.some((r, i) => (r >> i) & 1);
  }

  /** Exact decisions for positions of face-up deals; each decision fills its own table, so an
   *  answer, "limit" included, depends on the position and `limit` alone. */
  function Searcher(limit) {
    this.limit = limit || SEARCH_STATES;
  }

  /** {verdict: "wins" | "loses" | "limit"; on a win not yet reached its `line` of moves and the
   *  first, `move`}. */
  Searcher.prototype.decide = function (p) {
    const s = coded(p);
    const home = () => s.found[0] + s.found[1] + s.found[2] + s.found[3] + 4;
    if (home() === 52) return { verdict: "wins" };
    const useDead = s.rules.empty === "None";
    const seen = new Set([stateKey(s)]);
    if (useDead && dead(s)) return { verdict: "loses" };
    let buf = new Int32Array(1 << 12);
    const start = [0], count = [generate(s, buf, 0)], next = [0], played = [], undo = [];
    let d = 0;
    for (;;) {
      if (next[d] === count[d]) {
        if (d === 0) return { verdict: "loses" };
        d -= 1;
        undoCode(s, played[d], undo[d]);
        continue;
      }
      const m = buf[start[d] + count[d] - 1 - next[d]];
      next[d] += 1;
      const info = playCode(s, m);
      played[d] = m;
      if (home() === 52) return winning(p, played.slice(0, d + 1));
      const key = stateKey(s);
      if (seen.has(key) || (useDead && (m & 3) === KIND_DEAL && dead(s))) {
        undoCode(s, m, info);
        continue;
      }
      if (seen.size >= this.limit) return { verdict: "limit" };
      seen.add(key);
      undo[d] = info;
      d += 1;
      start[d] = start[d - 1] + count[d - 1];
      if (start[d] + 400 > buf.length) {
        const grown = new Int32Array(2 * buf.length);
        grown.set(buf);
        buf = grown;
      }
      count[d] = generate(s, buf, start[d]);
      next[d] = 0;
    }
  };

  /** The verdict for a win by the kernel moves `codes` from position `p`: its first move, and
   *  the whole line as the page's moves. */
  function winning(p, codes) {
    const line = [];
    let q = p;
    for (const m of codes) {
      line.push(moveOfCode(q, m));
      q = apply(q, line[line.length - 1]);
    }
    return { verdict: "wins", move: line[0], line: line };
  }

  /** The page's move for kernel move `m` played from position `p`. */
  function moveOfCode(p, m) {
    const src = (m >> 2) & 7, pile = p.piles[src];
    if ((m & 3) === KIND_DEAL) return { kind: "deal" };
    if ((m & 3) === KIND_FOUND) return { kind: "found", src: src + 1, card: pile[pile.length - 1] };
    const count = m >> 8;
    return { kind: "tableau", src: src + 1, dst: ((m >> 5) & 7) + 1, count: count,
             card: pile[pile.length - count] };
  }

  /** An exact hint for the last position of `history`: on the stored solution its next move
   *  (the solution wins from there), elsewhere the search's verdict: a winning move, how far to
   *  undo after a losing one, or that the position is too large to decide. */
  function hint(history, puzzle) {
    const p = history[history.length - 1];
    if (status(p) === "solved") return { text: "Solved: nothing left to do." };
    const step = storedLine(puzzle).get(lineKey(p));
    let move;
    if (step !== undefined) {
      move = moves(p).find((m) => name(m) === puzzle.solution[step]);
    } else {
      const searcher = new Searcher();
      const here = searcher.decide(p);
      if (here.verdict === "limit") return tooLarge(searcher, "states");
      if (here.verdict === "loses") {
        return undoHint(history, searcher, "states", "This position can no longer be won",
                        "No line of play wins this deal.");
      }
      move = here.move;
    }
    const cells = cellsOf(p, move);
    return winningHint(cells.from, cells.to, name(move), winningMoves(p), moves(p).length,
                       "the deal", step === undefined ? null : "the stored solution's next move");
  }

  /** How many legal moves of `p` keep the deal winnable, each decided within `COUNT_STATES`;
   *  null when one of them is too large to decide so (the hint then leaves the count out). */
  function winningMoves(p) {
    const counter = new Searcher(COUNT_STATES);
    let keep = 0;
    for (const m of moves(p)) {
      const verdict = counter.decide(apply(p, m)).verdict;
      if (verdict === "limit") return null;
      keep += verdict === "wins";
    }
    return keep;
  }

  const lineKey = (q) => JSON.stringify([q.piles, q.found, q.dealt]);

  function storedLine(puzzle) {
    if (!puzzle._line) {
      puzzle._line = new Map();
      let q = start(puzzle);
      puzzle.solution.forEach((text, k) => {
        puzzle._line.set(lineKey(q), k);
        q = apply(q, moves(q).find((m) => name(m) === text));
      });
    }
    return puzzle._line;
  }

  puzzlegen.games = puzzlegen.games || {};
  puzzlegen.games.agnes = {
    name: "Agnes Sorel",
    layout: "cascade",
    rules: "Click the card of a pile that heads the run you move (or its last card), then a " +
           "foundation or another pile; to deal, click the stock, then any pile. A card goes " +
           "onto one rank higher of the same colour; a run moves together; an empty pile takes " +
           "what the puzzle's rules allow (shown with its level).",
    rowsOf: rowsOf, start: start, cellView: cellView, cardSvg: cardSvg, whyNotPick: whyNotPick, check: check,
    play: play, moveName: moveName, moveCells: moveCells, legalMoves: legalMoves,
    status: status, summary: summary, goal: goal, hint: hint,
    // For scripts and tests: the rule book's moves by name, and the exact search.
    moveNames: (p) => moves(p).map(name), nameOf: name, Searcher: Searcher,
  };
})(window.puzzlegen = window.puzzlegen || {});
