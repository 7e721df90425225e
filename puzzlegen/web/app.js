/* The puzzle page: list, board, moves by two clicks, undo, restart, hint, solution, progress,
 * the player's attempts (attempts.js) and puzzles opened by their codes (codes.js).
 *
 * Game-independent: everything about a game's rules comes from `puzzlegen.games[pack.game]`
 * (see docs/packs.md, "Adding a game"), which may draw its own cards (`cardSvg(view)`, null
 * for a playing card) and lay its board out as piles (`layout: "cascade"`).  DOM contract
 * (docs/packs.md): #board carries data-puzzle-id and data-status (playing | solved | stuck);
 * each cell is a button with data-row and data-col; buttons with data-action = undo | restart |
 * hint | solution | export.
 */
(function (puzzlegen) {
  "use strict";

  const pack = JSON.parse(document.getElementById("pack-data").textContent);
  const game = puzzlegen.games[pack.game];
  const SUIT_IDS = ["suit-C", "suit-D", "suit-H", "suit-S"];
  const RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const $ = (selector) => document.querySelector(selector);
  const board = $("#board");
  const message = $("#message");
  const attempts = puzzlegen.attempts;

  /* ---- Progress in localStorage: per puzzle, the moves played, whether the player solved it
   * and the attempts (attempts.js).  Nothing leaves the browser unless a puzzle server served
   * the page (pack.server): then each finished attempt is posted to it. ---- */
  const storageKey = "puzzlegen:" + pack.key;
  const DISPLAY_KEY = "puzzlegen:display";
  const progress = { current: null, games: {}, attempts: {} };
  /** Apply `change` to the progress stored now (another tab of the pack may have stored some
   *  since) and store the result if it differs: a tab never writes back what it read before. */
  function store(change) {
    let text = null;
    try {
      text = window.localStorage.getItem(storageKey);
      const saved = JSON.parse(text || "{}");
      if (saved && typeof saved === "object") {
        progress.current = typeof saved.current === "string" ? saved.current : null;
        progress.games = saved.games && typeof saved.games === "object" ? saved.games : {};
        progress.attempts = saved.attempts && typeof saved.attempts === "object"
          ? saved.attempts : {};
      }
    } catch (err) {
      /* storage unavailable (private mode) or not ours: play goes on from what is in memory */
    }
    change(progress);
    const next = JSON.stringify(progress);
    if (next === text) return;
    try {
      window.localStorage.setItem(storageKey, next);
    } catch (err) {
      /* storage unavailable (private mode, quota): play goes on without it */
    }
  }

  /* ---- The game in play: the puzzle, the positions from the start, the moves' names, the
   * attempt open (null when none is) and when the player last acted (attempts.js). ---- */
  const play = { puzzle: null, history: [], moves: [], selected: null, hint: null,
                 attempt: null, last: Date.now() };
  const position = () => play.history[play.history.length - 1];

  /** Replay saved move names from the start; stops at the first one that is not legal. */
  function replayNames(puzzle, names) {
    const history = [game.start(puzzle)];
    const moves = [];
    for (const name of names || []) {
      const cells = game.moveCells(history[history.length - 1], name);
      if (cells.reason) break;
      history.push(game.play(history[history.length - 1], cells.from, cells.to));
      moves.push(name);
    }
    return { history: history, moves: moves };
  }

  function select(id) {
    const puzzle = pack.puzzles.find((p) => p.id === id) || pack.puzzles[0];
    store((stored) => { stored.current = puzzle.id; });
    const saved = progress.games[puzzle.id] || {};
    const replayed = replayNames(puzzle, saved.moves);
    const latest = attempts.of(progress, puzzle.id).pop();
    Object.assign(play, { puzzle: puzzle, history: replayed.history, moves: replayed.moves,
                          selected: null, hint: null, last: Date.now(),
                          attempt: latest && latest.result === "unfinished" ? latest : null });
    $("#puzzle-title").textContent = puzzle.id;
    $("#puzzle-code").textContent = "Puzzle code: " + puzzle.code;
    $("#puzzle-level").textContent = levelText(puzzle);
    $("#puzzle-goal").textContent = game.goal(puzzle);
    say("");
    buildBoard(boardRows(position()));
    render();
    renderHistory();
  }

  /** The puzzle a URL's hash names by its id or its code, and a note when it names none. */
  function named(hash) {
    let text = hash;
    try {
      text = decodeURIComponent(hash);
    } catch (err) {
      /* not percent-encoded: taken as it is */
    }
    if (!text) return { puzzle: null, note: "" };
    const puzzle = pack.puzzles.find((p) => p.id === text) ||
                   pack.puzzles.find((p) => p.code === text);
    if (puzzle) return { puzzle: puzzle, note: "" };
    const shown = text.length > 60 ? text.slice(0, 57) + "..." : text;
    const code = puzzlegen.codes.read(text);
    if (!code) {
      return { puzzle: null, note: "\u201c" + shown + "\u201d names no puzzle of this pack and " +
                                   "is not a puzzle code (mistyped?)." };
    }
    const whose = code.game === pack.codeName ? "a " + code.rules + " puzzle"
      : "a puzzle of another game (" + code.game + ")";
    return { puzzle: null, note: "The code " + shown + " is " + whose + " that this pack does " +
                                 "not hold." };
  }

  /** Open the puzzle the hash names; say why when it names none. */
  function openHash(fallback) {
    const wanted = named(window.location.hash.slice(1));
    if (wanted.puzzle && (!play.puzzle || wanted.puzzle !== play.puzzle)) select(wanted.puzzle.id);
    else if (!wanted.puzzle && fallback) select(fallback);
    if (wanted.note) say(wanted.note, "bad");
  }

  function levelText(puzzle) {
    const level = "Level: " + puzzle.level +
      (puzzle.percentile === null ? "" : " (percentile " + puzzle.percentile + ")");
    return [level + ".", puzzle.explanation, puzzle.skill].filter(Boolean).join(" ");
  }

  function say(text, tone) {
    message.textContent = text;
    message.dataset.tone = tone || "info";
  }

  /* ---- Drawing. ---- */
  /** The board's rows: the puzzle's, or as many as the position needs (piles grow). */
  const boardRows = (p) => (game.rowsOf ? game.rowsOf(p) : play.puzzle.rows);

  function buildBoard(rows) {
    const cols = play.puzzle.cols;
    board.innerHTML = "";
    board.style.setProperty("--cols", cols);
    board.style.setProperty("--rows", rows);
    board.dataset.puzzleId = play.puzzle.id;
    board.dataset.layout = game.layout || "grid";
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.tabIndex = r === 0 && c === 0 ? 0 : -1;
        board.appendChild(cell);
      }
    }
  }

  function cardSvg(view) {
    const red = view.suit === 1 || view.suit === 2;
    // The suit beside the rank, as well as below: a covered card of a pile shows its top strip.
    return '<svg class="card ' + (red ? "red" : "black") + " suit-" + "CDHS"[view.suit] +
      '" viewBox="0 0 60 84" aria-hidden="true">' +
      '<rect class="face" x="1" y="1" width="58" height="82" rx="6"/>' +
      '<text x="7" y="22" class="rank">' + RANK_LABELS[view.rank] + "</text>" +
      '<use href="#' + SUIT_IDS[view.suit] + '" x="40" y="7" width="14" height="14"/>' +
      '<use href="#' + SUIT_IDS[view.suit] + '" x="22" y="38" width="32" height="32"/></svg>';
  }

  function render() {
    const p = position();
    if (+board.style.getPropertyValue("--rows") !== boardRows(p)) buildBoard(boardRows(p));
    const state = game.status(p, play.puzzle);
    board.dataset.status = state;
    const targets = new Set();
    if (play.selected !== null) {
      for (const [from, to] of game.legalMoves(p)) if (from === play.selected) targets.add(to);
    }
    board.querySelectorAll(".cell").forEach((cell, i) => {
      const view = game.cellView(p, i);
      const face = view.card === null ? "" : (game.cardSvg && game.cardSvg(view)) || cardSvg(view);
      cell.innerHTML = face +
        (view.count > 1 ? '<span class="count" aria-hidden="true">' + view.count + "</span>" : "");
      cell.dataset.card = view.card === null ? "" : view.name;
      cell.dataset.count = view.count;
      cell.classList.toggle("empty", view.card === null);
      cell.classList.toggle("blank", !!view.blank);
      cell.classList.toggle("pile", view.count > 1);
      cell.classList.toggle("selected", play.selected === i);
      cell.classList.toggle("target", targets.has(i));
      cell.classList.toggle("hint-from", !!play.hint && play.hint.from === i);
      cell.classList.toggle("hint-to", !!play.hint && play.hint.to === i);
      cell.setAttribute("aria-pressed", play.selected === i ? "true" : "false");
      cell.setAttribute("aria-label", "row " + (+cell.dataset.row + 1) + ", column " +
                        (+cell.dataset.col + 1) + ": " + view.label);
    });
    $("#puzzle-stats").textContent = game.summary(p, play.puzzle) + " \u00b7 " + play.moves.length +
      (play.moves.length === 1 ? " move" : " moves");
    $('[data-action="undo"]').disabled = play.moves.length === 0;
    $('[data-action="restart"]').disabled = play.moves.length === 0;
    renderList();
  }

  function renderList() {
    const list = $("#puzzle-list");
    if (!list.children.length) {
      for (const puzzle of pack.puzzles) {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.selectPuzzle = puzzle.id;
        button.innerHTML = '<span class="id"></span> <span class="level"></span> <span class="mark"></span>';
        button.querySelector(".id").textContent = puzzle.id;
        button.querySelector(".level").textContent = puzzle.level;
        button.addEventListener("click", () => {
          window.location.hash = encodeURIComponent(puzzle.id);
          select(puzzle.id);
        });
        item.appendChild(button);
        list.appendChild(item);
      }
    }
    list.querySelectorAll("button").forEach((button) => {
      const id = button.dataset.selectPuzzle;
      const solved = !!(progress.games[id] && progress.games[id].solved);
      button.querySelector(".mark").textContent = solved ? "\u2713" : "";
      button.setAttribute("aria-label", id + ", level " + button.querySelector(".level").textContent +
                          (solved ? ", solved" : ""));
      button.setAttribute("aria-current", play.puzzle && play.puzzle.id === id ? "true" : "false");
    });
  }

  function renderHistory() {
    const list = $("#attempts");
    list.textContent = "";
    const mine = attempts.of(progress, play.puzzle.id).reverse();
    for (const attempt of mine) {
      const item = document.createElement("li");
      item.textContent = attempts.describe(attempt);
      item.dataset.result = attempt.result;
      list.appendChild(item);
    }
    $("#no-attempts").hidden = mine.length > 0;
  }

  /* ---- Attempts: each action counted in the open attempt (one begins if none is). ---- */
  /** Run `action`, counted as `kind` of the attempt (a hint or a solution step on a finished
   *  board begins none), then store the attempt. */
  function logged(kind, action) {
    const finished = game.status(position(), play.puzzle) === "solved";
    if (!play.attempt && finished && (kind === "hints" || kind === "solution_views")) {
      action();
      return;
    }
    if (!play.attempt) play.attempt = attempts.begin(Date.now());
    play.attempt[kind] += 1;
    action();
    settle();
  }

  /** The open attempt after an action: its time, its line, its result once won; stored. */
  function settle() {
    const attempt = play.attempt;
    const now = Date.now();
    attempt.seconds += Math.min(now - play.last, attempts.IDLE * 1000) / 1000;
    play.last = now;
    attempt.moves = play.moves.slice();
    if (game.status(position(), play.puzzle) === "solved") {
      attempt.result = attempt.solution_views ? "shown" : "solved";
      play.attempt = null;
      if (pack.server) attempts.send(pack.server.attempts, play.puzzle, attempt);
    }
    const id = play.puzzle.id;
    const copy = Object.assign({}, attempt);
    store((stored) => { stored.attempts[id] = attempts.put(stored.attempts[id], copy); });
    renderHistory();
  }

  /** Download every attempt at the pack's puzzles as JSON (a file made in the page). */
  function exportAttempts() {
    store(() => {});
    const data = attempts.exported(pack, progress, Date.now());
    const blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = (pack.title.replace(/[^A-Za-z0-9._-]+/g, "-") || "puzzles") + "-attempts.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    const n = data.attempts.length;
    say("Exported " + n + (n === 1 ? " attempt." : " attempts."));
  }

  /* ---- Moves. ---- */
  /** Whether the open attempt took a Solution step: its win is a solution view, not a solve. */
  const helped = () => !!(play.attempt && play.attempt.solution_views);

  function record() {
    const solved = game.status(position(), play.puzzle) === "solved" && !helped();
    store((stored) => {
      const saved = stored.games[play.puzzle.id] || {};
      stored.games[play.puzzle.id] = { moves: play.moves.slice(),
                                       solved: !!saved.solved || solved };
    });
  }

  function move(from, to, note) {
    const p = position();
    const name = game.moveName(p, from, to);
    play.history.push(game.play(p, from, to));
    play.moves.push(name);
    play.selected = null;
    play.hint = null;
    record();
    const state = game.status(position(), play.puzzle);
    if (state === "solved" && helped()) {
      say("Done in " + play.moves.length + " moves with the solution's help: recorded as a " +
          "solution view, not a solve.");
    } else if (state === "solved") say("Solved in " + play.moves.length + " moves!", "good");
    else if (state === "stuck") say("No legal move left: undo or restart.", "bad");
    else say(note || "Moved " + name + ".");
    render();
  }

  function clickCell(i) {
    const p = position();
    if (play.selected === null) {
      const refused = game.whyNotPick(p, i);
      if (refused) say("Refused: " + refused + ".", "bad");
      else {
        play.selected = i;
        say("Picked " + game.cellView(p, i).name + ": now choose where it goes.");
      }
      render();
      return;
    }
    const from = play.selected;
    if (from === i) {
      play.selected = null;
      say("Put down.");
      render();
      return;
    }
    const reason = game.check(p, from, i);
    if (reason) {
      play.selected = null;
      say("Refused: " + reason + ".", "bad");
      render();
      return;
    }
    logged("moves_made", () => move(from, i));
  }

  function undo(steps) {
    const n = Math.min(steps || 1, play.moves.length);
    if (!n) return;
    play.history.length -= n;
    play.moves.length -= n;
    play.selected = null;
    play.hint = null;
    record();
    say(n === 1 ? "Undone." : "Undid " + n + " moves.");
    render();
  }

  function restart() {
    undo(play.moves.length);
    say("Back at the start.");
  }

  function hint() {
    const answer = game.hint(play.history, play.puzzle);
    play.selected = null;
    play.hint = answer;
    say("Hint: " + answer.text, answer.verdict === "loses" ? "bad" : "info");
    render();
  }

  /** One step of the stored solution: back to where the game left it, else its next move. */
  function solutionStep() {
    const solution = play.puzzle.solution;
    let k = 0;
    while (k < play.moves.length && k < solution.length && play.moves[k] === solution[k]) k++;
    if (play.moves.length > k) {
      undo(play.moves.length - k);
      say("Back to move " + k + ", where your game left the solution: press Solution again for its next move.");
      return;
    }
    if (k >= solution.length) {
      say("That was the whole solution (" + solution.length + " moves).");
      return;
    }
    const cells = game.moveCells(position(), solution[k]);
    move(cells.from, cells.to, "Solution step " + (k + 1) + " of " + solution.length + ": " + solution[k] + ".");
  }

  /* ---- Wiring: clicks, keys, the URL hash. ---- */
  board.addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (cell) clickCell(+cell.dataset.row * play.puzzle.cols + +cell.dataset.col);
  });
  board.addEventListener("keydown", (event) => {
    const cell = event.target.closest(".cell");
    if (!cell) return;
    if (event.key === "Escape") {
      play.selected = null;
      say("Put down.");
      render();
      return;
    }
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    const rows = boardRows(position()), cols = play.puzzle.cols;
    const r = Math.min(rows - 1, Math.max(0, +cell.dataset.row + step[0]));
    const c = Math.min(cols - 1, Math.max(0, +cell.dataset.col + step[1]));
    const next = board.querySelector('.cell[data-row="' + r + '"][data-col="' + c + '"]');
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  const actions = { undo: () => logged("undos", () => undo(1)),
                    restart: () => logged("restarts", restart),
                    hint: () => logged("hints", hint),
                    solution: () => logged("solution_views", solutionStep),
                    export: exportAttempts };
  document.querySelectorAll("[data-action]").forEach((button) => {
    button.addEventListener("click", () => actions[button.dataset.action]());
  });
  window.addEventListener("storage", (event) => {  // another tab of the pack stored progress
    if (event.key !== storageKey) return;
    store(() => {});
    renderList();
    renderHistory();
  });
  window.addEventListener("hashchange", () => openHash(null));
  document.addEventListener("visibilitychange", () => {  // time out of view is not on task
    if (document.visibilityState === "visible") play.last = Date.now();
  });

  $("#game-title").textContent = pack.gameTitle;
  $("#pack-title").textContent = pack.title;
  document.title = pack.gameTitle + " \u00b7 " + pack.title;
  $("#rules").textContent = game.rules;
  const fourColour = $("#four-colour");
  /** The four-colour deck: a choice of this browser's, for every pack. */
  function showColours(on) {
    document.body.classList.toggle("four-colour", on);
    fourColour.checked = on;
  }
  try {
    showColours(window.localStorage.getItem(DISPLAY_KEY) === "four-colour");
  } catch (err) {
    showColours(false);
  }
  fourColour.addEventListener("change", () => {
    showColours(fourColour.checked);
    try {
      window.localStorage.setItem(DISPLAY_KEY, fourColour.checked ? "four-colour" : "two-colour");
    } catch (err) {
      /* storage unavailable: the choice holds for this visit */
    }
  });
  if (pack.server) {  // served by a puzzle server (docs/server.md): finished attempts go there
    $("#privacy").textContent = "Your games and attempts are kept in this browser; each " +
      "finished attempt is also sent, with an anonymous player id, to the puzzle server that " +
      "served this page.";
  }
  store(() => {});  // read what is stored: a write only where it is missing or malformed
  openHash(progress.current || pack.puzzles[0].id);

  puzzlegen.app = { pack: pack, select: select, state: () => play };
})(window.puzzlegen = window.puzzlegen || {});
