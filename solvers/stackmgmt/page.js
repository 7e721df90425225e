/* Code Jam 2017 Stack Management for the puzzle page.
 *
 * The rules are those of solvers/stackmgmt/rules.py: a card is a (value, suit) pair; the top
 * card of a stack is removed when a higher card of its suit is on top of another stack, and a
 * top card may move onto an empty stack; the game is won when no stack holds more than one card.
 * On the board each stack is a column, its bottom card first and its top card lowest.  A move is
 * the top card, then the stack that beats it (a removal) or an empty stack (a move).  Hints use
 * the contest analysis' criterion for any position (solvers/stackmgmt/players.py `winnable`):
 * exact and linear in the cards, so no search and no limit.
 */
(function (puzzlegen) {
  "use strict";

  const { undoHint, winningHint } = puzzlegen.hints;
  const SHIFT = 65536;                       // a card's key: suit * SHIFT + value
  const suitOf = (k) => Math.floor(k / SHIFT);
  const valueOf = (k) => k % SHIFT;
  const cardName = (k) => "(" + valueOf(k) + "," + suitOf(k) + ")";

  /* A position: `stacks[j]`, bottom to top, of card keys; `rows` cells a column on the board. */
  function start(puzzle) {
    const key = (card) => {
      const [value, suit] = card.split(",").map(Number);
      return suit * SHIFT + value;
    };
    const stacks = puzzle.deal.split("|").map((part) => part.split(/\s+/).filter(Boolean).map(key));
    return { rows: puzzle.rows, cols: stacks.length, stacks: stacks };
  }

  const columnOf = (p, i) => i % p.cols;
  const topCell = (p, j) => (p.stacks[j].length - 1) * p.cols + j;
  const cardAt = (p, i) => {
    const stack = p.stacks[i % p.cols], r = Math.floor(i / p.cols);
    return r < stack.length ? stack[r] : null;
  };

  const topOf = (s) => (s.length ? s[s.length - 1] : null);

  /** The stack, other than `except`, whose top is the highest card of `key`'s suit showing if
   *  it is higher than `key`; -1 if there is none. */
  function beater(p, key, except) {
    let best = -1;
    p.stacks.forEach((s, j) => {
      const t = topOf(s);
      if (j !== except && t !== null && suitOf(t) === suitOf(key) && t > key &&
          (best < 0 || t > topOf(p.stacks[best]))) best = j;
    });
    return best;
  }

  /** Why the card at cell `from` may not be picked up (null: it may). */
  function whyNotPick(p, from) {
    const card = cardAt(p, from);
    if (card === null) return "that cell holds no card: pick the top card of a stack";
    return topCell(p, columnOf(p, from)) === from ? null
      : cardName(card) + " is not on top of stack " + (columnOf(p, from) + 1);
  }

  /** Why the top card at `from` cannot go to the stack of cell `to`: null when it is removed
   *  there (the stack's top beats it) or moved there (the stack is empty). */
  function check(p, from, to) {
    const refused = whyNotPick(p, from);
    if (refused) return refused;
    const a = columnOf(p, from), b = columnOf(p, to);
    if (a === b) {
      return "pick another stack: one that beats " + cardName(cardAt(p, from)) + ", or an empty one";
    }
    const target = p.stacks[b];
    if (!target.length) return null;
    const card = cardAt(p, from), top = target[target.length - 1];
    if (suitOf(top) === suitOf(card) && top > card) return null;
    return "stack " + (b + 1) + " is not empty and its top " + cardName(top) +
           " is no higher card of suit " + suitOf(card);
  }

  /** The position after the legal move of `from`'s top card to the stack of cell `to`. */
  function play(p, from, to) {
    const stacks = p.stacks.map((s) => s.slice());
    const card = stacks[columnOf(p, from)].pop();
    const target = stacks[columnOf(p, to)];
    if (!p.stacks[columnOf(p, to)].length) target.push(card);
    return { rows: p.rows, cols: p.cols, stacks: stacks };
  }

  function moveName(p, from, to) {
    const a = columnOf(p, from) + 1, b = columnOf(p, to) + 1;
    return p.stacks[b - 1].length ? "remove " + cardName(cardAt(p, from)) + " from " + a
      : "move " + cardName(cardAt(p, from)) + " from " + a + " to " + b;
  }

  const MOVE = /^\s*(remove|move)\s+\(\s*(\d+)\s*,\s*(\d+)\s*\)\s+from\s+(\d+)(?:\s+to\s+(\d+))?\s*$/;

  /** The cells of a move in the pack's notation, or the rule book's reason it is illegal. */
  function moveCells(p, name) {
    const m = MOVE.exec(String(name));
    if (!m || (m[1] === "move") !== (m[5] !== undefined) || m[4] === "0" || m[5] === "0") {
      return { reason: "malformed move '" + String(name).trim() + "': expected 'remove (V,S) " +
                       "from A' or 'move (V,S) from A to B' with stacks numbered from 1" };
    }
    const card = +m[3] * SHIFT + +m[2], a = +m[4] - 1, n = p.stacks.length;
    if (a >= n) return { reason: "there is no stack " + (a + 1) + " (the case has " + n + ")" };
    const source = p.stacks[a];
    if (!source.length) return { reason: "stack " + (a + 1) + " is empty" };
    const top = source[source.length - 1];
    if (top !== card) return { reason: "the top of stack " + (a + 1) + " is " + cardName(top) };
    if (m[1] === "remove") {
      const b = beater(p, card, a);
      return b >= 0 ? { from: topCell(p, a), to: topCell(p, b) }
        : { reason: "no higher card of suit " + suitOf(card) + " is on top of another stack" };
    }
    const b = +m[5] - 1;
    if (b >= n) return { reason: "there is no stack " + (b + 1) + " (the case has " + n + ")" };
    if (p.stacks[b].length) return { reason: "stack " + (b + 1) + " is not empty" };
    return { from: topCell(p, a), to: b };
  }

  /** Every legal move as [from, to]: each beaten top to the stack beating it most, then each top
   *  to each empty stack. */
  function legalMoves(p) {
    const moves = [];
    p.stacks.forEach((s, a) => {
      if (!s.length) return;
      const b = beater(p, s[s.length - 1], a);
      if (b >= 0) moves.push([topCell(p, a), topCell(p, b)]);
    });
    p.stacks.forEach((s, a) => {
      if (!s.length) return;
      p.stacks.forEach((t, b) => { if (!t.length) moves.push([topCell(p, a), b]); });
    });
    return moves;
  }

  const won = (stacks) => stacks.every((s) => s.length <= 1);

  /** Solved: no stack holds two cards.  Stuck: no removal and no empty stack. */
  function status(p) {
    if (won(p.stacks)) return "solved";
    return legalMoves(p).length ? "playing" : "stuck";
  }

  function summary(p) {
    const cards = p.stacks.reduce((sum, s) => sum + s.length, 0);
    const over = p.stacks.filter((s) => s.length > 1).length;
    return cards + " cards left \u00b7 " + over + (over === 1 ? " stack" : " stacks") +
           " of two or more";
  }

  const goal = () => "Remove cards until no stack holds more than one.";

  function cellView(p, i) {
    const card = cardAt(p, i);
    return card === null ? { card: null, count: 0, label: "no card" }
      : { card: card, name: cardName(card), value: valueOf(card), suit: suitOf(card), count: 1,
          label: "value " + valueOf(card) + " of suit " + suitOf(card) +
                 (topCell(p, columnOf(p, i)) === i ? ", on top" : "") };
  }

  /** A card of numbers: its value, and its suit below. */
  function cardSvg(view) {
    return '<svg class="card numbered" viewBox="0 0 60 84" aria-hidden="true">' +
      '<rect class="face" x="1" y="1" width="58" height="82" rx="6"/>' +
      '<text x="30" y="46" text-anchor="middle" class="value">' + view.value + "</text>" +
      '<text x="30" y="74" text-anchor="middle" class="suit">suit ' + view.suit + "</text></svg>";
  }

  /* ---- The analysis' criterion (players.winnable), for any position. ---- */

  /** The stacks once every removable card is gone. */
  function settle(stacks) {
    const st = stacks.map((s) => s.slice());
    const high = new Map(), holder = new Map(), work = [];
    const show = (i) => {
      const k = st[i][st[i].length - 1], suit = suitOf(k), h = high.get(suit) || 0;
      if (k < h) work.push(i);
      else {
        if (h) work.push(holder.get(suit));
        high.set(suit, k);
        holder.set(suit, i);
      }
    };
    st.forEach((s, i) => { if (s.length) show(i); });
    while (work.length) {
      const i = work.pop(), s = st[i];
      if (s.length && s[s.length - 1] < high.get(suitOf(s[s.length - 1]))) {
        s.pop();
        if (s.length) show(i);
      }
    }
    return st;
  }

  /** Settled stacks, as many suits as stacks, not won, an empty stack: is there a path of aces
   *  from a source to a target (solvers/stackmgmt/checker.py)? */
  function acePath(stacks) {
    const ace = new Map(), king = new Map(), kingStack = new Map();
    for (const s of stacks) {
      for (const k of s) if (k > (ace.get(suitOf(k)) || 0)) ace.set(suitOf(k), k);
    }
    stacks.forEach((s, i) => {
      for (const k of s) {
        if (k !== ace.get(suitOf(k)) && k > (king.get(suitOf(k)) || 0)) {
          king.set(suitOf(k), k);
          kingStack.set(suitOf(k), i);
        }
      }
    });
    const n = stacks.length;
    const vertex = stacks.map((s) => s.length > 0 && s[0] === ace.get(suitOf(s[0])));
    const pred = stacks.map((s, b) => {
      const a = vertex[b] && kingStack.has(suitOf(s[0])) ? kingStack.get(suitOf(s[0])) : -1;
      return a !== b && a >= 0 && vertex[a] ? a : -1;
    });
    for (let t = 0; t < n; t++) {
      if (!vertex[t] || stacks[t].filter((k) => k === ace.get(suitOf(k))).length < 2) continue;
      const chain = [t];
      let last = t;
      while (pred[last] >= 0 && chain.length <= n) chain.push(last = pred[last]);
      if (!king.has(suitOf(stacks[last][0]))) return true;
    }
    return false;
  }

  function winnable(stacks) {
    const suits = new Set(stacks.flat().map(suitOf)).size;
    if (suits !== stacks.length) return suits < stacks.length;
    const st = settle(stacks);
    if (won(st)) return true;
    if (st.every((s) => s.length)) return false;
    return acePath(st);
  }

  const decider = { decide: (p) => ({ verdict: winnable(p.stacks) ? "wins" : "loses" }) };

  function describeMove(p, from, to) {
    const card = cardName(cardAt(p, from));
    return p.stacks[columnOf(p, to)].length
      ? "remove " + card + " from stack " + (columnOf(p, from) + 1)
      : "move " + card + " from stack " + (columnOf(p, from) + 1) + " to the empty stack " +
        (columnOf(p, to) + 1);
  }

  /** An exact hint for the last position of `history`: a removal if there is one (removals
   *  never hurt), else a move that keeps the game winnable; after a losing move, how far to
   *  undo. */
  function hint(history) {
    const p = history[history.length - 1];
    if (won(p.stacks)) return { text: "Solved: nothing left to do." };
    if (!winnable(p.stacks)) {
      return undoHint(history, decider, "positions", "This position can no longer be won",
                      "This deal cannot be won.");
    }
    const legal = legalMoves(p);
    const keep = legal.filter(([a, b]) => winnable(play(p, a, b).stacks));
    const [from, to] = keep.find(([a, b]) => p.stacks[columnOf(p, b)].length) || keep[0];
    return winningHint(from, to, describeMove(p, from, to), keep.length, legal.length,
                       "the game");
  }

  puzzlegen.games = puzzlegen.games || {};
  puzzlegen.games.stackmgmt = {
    name: "Stack Management",
    rules: "Each column is a stack, its top card lowest; a card is a value and a suit. Remove a " +
           "top card when a higher card of its suit is on top of another stack (click it, then " +
           "that stack), or move a top card onto an empty stack (click it, then the empty stack).",
    start: start, cellView: cellView, cardSvg: cardSvg, whyNotPick: whyNotPick, check: check,
    play: play, moveName: moveName, moveCells: moveCells, legalMoves: legalMoves, status: status,
    summary: summary, goal: goal, hint: hint,
    // For scripts and tests: the analysis' criterion.
    winnable: winnable,
  };
})(window.puzzlegen = window.puzzlegen || {});
