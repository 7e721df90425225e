/* What the games' hints share: going back to a position the exact search still wins, and the
 * answer when a search reaches its limit (it never guesses).  A searcher has `decide(p)` ->
 * {verdict: "wins" | "loses" | "limit"}, a function of the position and the searcher's `limit` of
 * stored positions alone (every decision starts an empty table).
 */
(function (puzzlegen) {
  "use strict";

  /** The hint when `searcher` stopped at its limit; `unit` names what it stores. */
  function tooLarge(searcher, unit) {
    return { verdict: "limit",
             text: "This position is too large to decide in the page (more than " +
                   searcher.limit.toLocaleString("en") + " " + unit + "): undo towards the " +
                   "start, or follow the solution." };
  }

  /** The hint for a lost last position of `history`: undo to the latest earlier position
   *  the search wins (`lost` says what is lost), or `never` when none does. */
  function undoHint(history, searcher, unit, lost, never) {
    for (let back = 1; back < history.length; back++) {
      const earlier = searcher.decide(history[history.length - 1 - back]);
      if (earlier.verdict === "limit") return tooLarge(searcher, unit);
      if (earlier.verdict === "wins") {
        return { verdict: "loses", undo: back,
                 text: lost + ": undo " + back + (back === 1 ? " move." : " moves.") };
      }
    }
    return { verdict: "loses", text: never };
  }

  /** The hint for a winnable position: the move [from, to] (`described` for people), with how
   *  many of the `legal` moves keep `what` winnable (`keep` null: not counted), after an optional
   *  `note` on where the move comes from. */
  function winningHint(from, to, described, keep, legal, what, note) {
    const notes = note ? [note] : [];
    if (keep !== null) {
      const verb = legal === 1 ? " legal move keeps " : " legal moves keep ";
      notes.push(keep + " of " + legal + verb + what + " winnable");
    }
    return { from: from, to: to, verdict: "wins",
             text: "Still winnable: " + described +
                   (notes.length ? " (" + notes.join("; ") + ")" : "") + "." };
  }

  puzzlegen.hints = { tooLarge: tooLarge, undoHint: undoHint, winningHint: winningHint };
})(window.puzzlegen = window.puzzlegen || {});
