/* Puzzle codes on the page (docs/codes.md).  A code in the URL is untrusted text: the page
 * compares it with its puzzles' codes, and reads the game and rules of any other only once its
 * form and check characters hold (the check of puzzlegen/codes.py).
 */
(function (puzzlegen) {
  "use strict";

  const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const MODULUS = 4093;
  const FORM = /^1([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)[.~][A-Za-z0-9_-]*$/;

  /** The two check characters of `text`: the sum of (position + 1) x character code, mod 4093. */
  function check(text) {
    let sum = 0;
    for (let i = 0; i < text.length; i++) sum = (sum + (i + 1) * text.charCodeAt(i)) % MODULUS;
    return DIGITS[Math.floor(sum / 64)] + DIGITS[sum % 64];
  }

  /** A name of a code with its `_XX` escapes undone (the escaped text if they are broken). */
  function unescaped(name) {
    try {
      return decodeURIComponent(name.replace(/_([0-9A-F]{2})/g, "%$1"));
    } catch (err) {
      return name;
    }
  }

  /** `{game, rules}` of a code of version 1 whose form and check hold; null for any other text. */
  function read(text) {
    if (typeof text !== "string" || text.length < 5 || text.length > 2000) return null;
    const body = text.slice(0, -2);
    const found = FORM.exec(body);
    if (!found || check(body) !== text.slice(-2)) return null;
    return { game: unescaped(found[1]), rules: unescaped(found[2]) };
  }

  puzzlegen.codes = { check: check, read: read };
})(window.puzzlegen = window.puzzlegen || {});
