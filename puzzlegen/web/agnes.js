/* Agnes Sorel for the puzzle page (face-up rules).
 *
 * The rules are those of solvers/agnes/rules.py: the base card starts its foundation, and every
 * foundation builds up by suit from the base rank, King to Ace when it wraps; a card goes onto
 * the last card of a pile one rank higher of the same colour; a run (the last cards of a pile in
 * sequence, all one suit or one colour as the rules say) moves together, whole only under
 * NoSplit; an empty pile takes what the rules allow; the stock is dealt 7, 7, 7 and 2 cards
 * when the player chooses.  On the board row 0 holds the four foundations and the stock, and
 * each pile is a column below it, its last card lowest.  The page has no Agnes solver: its hints
 * follow the stored solution, and say so.
 */
(function (puzzlegen) {
  "use strict";

  const { parse: parseCard, name: cardName } = puzzlegen.cards;
  const PILES = 7;
  const STOCK = 6;                           // the stock's cell in row 0; 0..3 the foundations
  const HIGHEST = 12;
  const EMPTY_WORDS = { None: "nothing", Any1: "any single card", AnyRun: "any run",
                        High1: "a single card of the highest rank",
                        HighRun: "a run headed by a card of the highest rank" };
  const isRed = (c) => (c & 3) === 1 || (c & 3) === 2;

  /* A position: the deck (base card first), `piles` of cards (last = playable), `found[s]` the
   * relative rank on top of suit s's foundation (-1: none yet), `dealt` cards dealt so far, and
   * the rules as the page data gives them (web/agnes.py `page_rules`). */
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
    const same = p.rules.sameSuit ? (card & 3) === (onto & 3) : isRed(card) === isRed(onto);
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
            ? rel(p, last) === rel(p, head) + 1 && isRed(last) === isRed(head)
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
      : "an empty pile takes " + EMPTY_WORDS[p.rules.empty] + " here" };
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

  /** Hints follow the stored solution: its next move on it, else how far to undo to rejoin it. */
  function hint(history, puzzle) {
    const p = history[history.length - 1];
    if (status(p) === "solved") return { text: "Solved: nothing left to do." };
    const line = storedLine(puzzle);
    const at = (q) => line.get(JSON.stringify([q.piles, q.found, q.dealt]));
    const step = at(p);
    if (step !== undefined) {
      const cells = moveCells(p, puzzle.solution[step]);
      return { from: cells.from, to: cells.to,
               text: "On the stored solution: " + puzzle.solution[step] + " (the page has no " +
                     "Agnes solver, so its hints follow that solution)." };
    }
    for (let back = 1; back < history.length; back++) {
      if (at(history[history.length - 1 - back]) !== undefined) {
        return { undo: back, text: "Your game left the stored solution: undo " + back +
                 (back === 1 ? " move" : " moves") + " to rejoin it (the page has no Agnes " +
                 "solver to say whether this position can still be won)." };
      }
    }
    return { text: "No stored solution passes through this position." };
  }

  function storedLine(puzzle) {
    if (!puzzle._line) {
      puzzle._line = new Map();
      let q = start(puzzle);
      puzzle.solution.forEach((text, k) => {
        puzzle._line.set(JSON.stringify([q.piles, q.found, q.dealt]), k);
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
    // For scripts and tests: the rule book's moves by name.
    moveNames: (p) => moves(p).map(name),
  };
})(window.puzzlegen = window.puzzlegen || {});
