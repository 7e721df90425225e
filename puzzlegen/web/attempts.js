/* The attempts a player makes at a puzzle, kept in this browser (docs/packs.md, "Attempts").
 *
 * An attempt begins with the first move, undo, restart, hint or solution step on a puzzle with
 * no attempt open, and ends when the puzzle is won: `solved`, or `shown` when a Solution step
 * was taken on the way (a solution view, not a solve); until then it is `unfinished`.  Its time
 * on task adds the gaps between its actions (the first from the puzzle's opening or the page's
 * return to view), each counted up to IDLE seconds.
 */
(function (puzzlegen) {
  "use strict";

  const IDLE = 300;
  const COUNTS = ["moves_made", "undos", "restarts", "hints", "solution_views"];
  const RESULTS = ["unfinished", "solved", "shown"];
  /** Attempts kept a puzzle (the oldest go first). */
  const KEEP = 200;

  function begin(now) {
    const attempt = { started: new Date(now).toISOString(), seconds: 0, result: "unfinished",
                      moves: [] };
    for (const name of COUNTS) attempt[name] = 0;
    return attempt;
  }

  const count = (value) => (Number.isSafeInteger(value) && value >= 0 ? value : 0);

  /** A stored attempt as the export shows it: known fields of the right types, else null. */
  function clean(stored) {
    if (!stored || typeof stored !== "object" || typeof stored.started !== "string" ||
        Number.isNaN(Date.parse(stored.started))) return null;
    const attempt = { started: stored.started,
                      seconds: Number.isFinite(stored.seconds) && stored.seconds >= 0
                        ? Math.round(stored.seconds * 10) / 10 : 0,
                      result: RESULTS.includes(stored.result) ? stored.result : "unfinished",
                      moves: Array.isArray(stored.moves)
                        ? stored.moves.filter((m) => typeof m === "string") : [] };
    for (const name of COUNTS) attempt[name] = count(stored[name]);
    return attempt;
  }

  /** The attempts stored for one puzzle, cleaned, oldest first. */
  function of(stored, id) {
    const list = stored && stored.attempts && stored.attempts[id];
    return Array.isArray(list) ? list.map(clean).filter(Boolean) : [];
  }

  /** `list` with `attempt` in place of the stored one begun at the same time, or added. */
  function put(list, attempt) {
    const out = (Array.isArray(list) ? list : [])
      .filter((a) => a && typeof a === "object" && a.started !== attempt.started);
    out.push(attempt);
    out.sort((a, b) => String(a.started).localeCompare(String(b.started)));
    return out.slice(-KEEP);
  }

  const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

  function duration(seconds) {
    const s = Math.round(seconds);
    return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + (s % 60) + " s";
  }

  /** One attempt for people. */
  function describe(attempt) {
    const when = new Date(attempt.started);
    const result = { solved: "solved", shown: "solution shown", unfinished: "unfinished" };
    return [when.toLocaleString(), result[attempt.result],
            plural(attempt.moves.length, "move") + " on the board",
            plural(attempt.moves_made, "move") + " made", plural(attempt.undos, "undo"),
            plural(attempt.restarts, "restart"), plural(attempt.hints, "hint"),
            plural(attempt.solution_views, "solution step"),
            duration(attempt.seconds) + " on task"].join(" \u00b7 ");
  }

  /** Every attempt at the pack's puzzles, as the exported JSON. */
  function exported(pack, stored, now) {
    const attempts = [];
    for (const puzzle of pack.puzzles) {
      for (const attempt of of(stored, puzzle.id)) {
        attempts.push(Object.assign({ puzzle: puzzle.id, code: puzzle.code }, attempt));
      }
    }
    attempts.sort((a, b) => a.started.localeCompare(b.started));
    return { format: "puzzlegen-attempts", version: 1, game: pack.game, pack: pack.title,
             exported: new Date(now).toISOString(), attempts: attempts };
  }

  let playerId = null;
  /** The anonymous id this browser's attempts are posted under, kept in localStorage. */
  function player() {
    const key = "puzzlegen:player";
    try {
      playerId = playerId || window.localStorage.getItem(key);
    } catch (err) {
      /* storage unavailable: one id for this page's life */
    }
    if (!/^[0-9a-f]{32}$/.test(playerId || "")) {
      const bytes = window.crypto.getRandomValues(new Uint8Array(16));
      playerId = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      try {
        window.localStorage.setItem(key, playerId);
      } catch (err) {
        /* kept in memory only */
      }
    }
    return playerId;
  }

  /** Post a finished attempt to the puzzle server that served the page (docs/server.md):
   *  the export's fields and the player's id.  Resolves to whether the server took it. */
  function send(url, puzzle, attempt) {
    const body = Object.assign({ puzzle: puzzle.id, code: puzzle.code }, clean(attempt),
                               { player: player() });
    return window.fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                               body: JSON.stringify(body), credentials: "omit",
                               keepalive: true })
      .then((response) => response.ok, () => false);
  }

  puzzlegen.attempts = { IDLE: IDLE, begin: begin, of: of, put: put, describe: describe,
                         exported: exported, send: send };
})(window.puzzlegen = window.puzzlegen || {});
