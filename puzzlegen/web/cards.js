/* Cards for the puzzle page's game scripts, in the notation of solvers/cards.py.
 *
 * A card is its rank-major index: AC AD AH AS 2C ... KS = 0..51, so `c >> 2` is the rank less
 * one and `c & 3` the suit (clubs, diamonds, hearts, spades).
 */
(function (puzzlegen) {
  "use strict";

  const RANKS = "A23456789TJQK";
  const SUITS = "CDHS";
  const RANK_WORDS = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
  const SUIT_WORDS = ["clubs", "diamonds", "hearts", "spades"];

  /** The card named `text` ("QS", "10H", "th"); an Error naming it when malformed. */
  function parse(text) {
    const t = String(text).trim().toUpperCase();
    const rankPart = t.slice(0, -1);
    const rank = rankPart === "10" ? 10 : (rankPart.length === 1 ? RANKS.indexOf(rankPart) + 1 : 0);
    const suit = t.length ? SUITS.indexOf(t.slice(-1)) : -1;
    if (rank < 1 || suit < 0) {
      throw new Error("malformed card '" + String(text).trim() + "': expected a rank from " +
                      RANKS + " (or 10) and a suit from " + SUITS + ", e.g. 'TS'");
    }
    return (rank - 1) * 4 + suit;
  }

  puzzlegen.cards = {
    parse: parse,
    name: (c) => RANKS[c >> 2] + SUITS[c & 3],
    words: (c) => RANK_WORDS[c >> 2] + " of " + SUIT_WORDS[c & 3],
  };
})(window.puzzlegen = window.puzzlegen || {});
