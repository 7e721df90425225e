"""Does an Agnes grade measure the puzzle, or the number of simulated games?

    python examples/agnes_particles.py puzzles/agnes-up-suit-anyrun-nosplit.json
    python examples/agnes_particles.py PACK --player bold --against choices.json

An Agnes hardness is the bold player's log10 chance to win, estimated by multilevel splitting
(``solvers.agnes.game.chance``) over 1,000 games, then 10,000 and 100,000 while every game dies
(``game.bold_chance``, which then also splits move by move with the exact filter: not
compared here); the careful player's figure (``careful_log10``) uses 1,000 games.  When
every game dies at some step, an estimate counts that step as 0.5 in the number of games and
extrapolates the rest (times 52 / the cards home), so that figure depends on the number of
games: with ten times as many games, a step no game makes counts ten times less (the grade
never uses such a figure: a deal the bold player never wins has no measured hardness).  This
script estimates ``--player``'s chance (``bold``, the grade's, or ``careful``: see
``solvers.agnes.players``) on each puzzle of the pack (its canonical deal, the player's own
random stream) with each of ``--particles`` and reports, per puzzle and per level: the
hardness, the cards home when every game died (52: some game won), the seconds, and the
*escalated* estimate (the first count at which some game won, else the last: with the bold
player and the default counts, the grade itself).  A hardness that moves with the particle
count is not a property of the puzzle; one that stays put (up to the noise of a measured
chance) is.

``--against``: the JSON that ``examples/choices.py`` printed for the same pack; then Spearman's
correlation of each estimate (and of the pack's own grade) with that exact figure no player
enters (``-line_log10``: higher is harder), over all puzzles and over those above medium.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from puzzlegen import clitools, packs
from puzzlegen.grading import LEVELS
from solvers.agnes import players
from solvers.agnes.game import BOLD_GAMES, GAME, cards_home, chance
from solvers.errors import BadInput
from solvers.stats import spearman

PLAYERS = {"careful": players.CAREFUL, "bold": players.BOLD}


def estimates(deal, rules, player: int, particles: list[int]) -> list[dict]:
    """The player's hardness, cards home (52: won) and seconds at each particle count."""
    canon = GAME.canonical(deal, rules)
    out = []
    for count in particles:
        start = time.perf_counter()
        found = chance(canon, rules, player, count)
        out.append({"particles": count, "hardness": round(-found.log10, 3),
                    "reached": cards_home(found),
                    "seconds": round(time.perf_counter() - start, 3)})
    return out


def escalated(found: list[dict]) -> dict:
    """The first estimate in which some game won, else the last."""
    return next((e for e in found if e["reached"] == 52), found[-1])


def correlations(rows: list[dict], grades: dict[str, float], exact: dict[str, float],
                 particles: list[int]) -> dict:
    """Spearman's correlation of each estimate and of the grade with the exact figure."""
    columns = {"grade": lambda r: grades[r["id"]],
               "escalated": lambda r: escalated(r["estimates"])["hardness"],
               **{str(count): (lambda r, i=i: r["estimates"][i]["hardness"])
                  for i, count in enumerate(particles)}}
    out = {}
    for scope, chosen in (("all", rows),
                          ("above_medium", [r for r in rows
                                            if r["level"] not in ("easy", "medium")])):
        rho = {name: spearman([pick(r) for r in chosen], [exact[r["id"]] for r in chosen])
               for name, pick in columns.items()}
        out[scope] = {name: None if value is None else round(value, 3)
                      for name, value in rho.items()} if len(chosen) > 2 else None
    return out


def read_choices(path: str) -> dict[str, float]:
    """Each puzzle's ``-line_log10`` from examples/choices.py's JSON."""
    try:
        with open(path) as handle:
            return {r["id"]: -r["line_log10"] for r in json.load(handle)["puzzles"]}
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"--against: {path} is not the JSON examples/choices.py prints "
                       f"({type(exc).__name__}: {exc})") from None


def report(path: str, player: str, particles: list[int], against: str | None = None) -> dict:
    pack = packs.load(path)
    if pack["game"] != "agnes":
        raise BadInput(f"{path} is a {pack['game']} pack; this script reads Agnes packs")
    exact = read_choices(against) if against else None  # bad input stops before the work
    missing = [e["id"] for e in pack["puzzles"] if exact is not None and e["id"] not in exact]
    if missing:
        raise BadInput(f"--against has no line_log10 for puzzle {missing[0]}")
    rows = []
    for entry in pack["puzzles"]:
        rules = GAME.parse_rules(entry["rules"])
        found = estimates(GAME.parse_deal(entry["deal"], rules), rules, PLAYERS[player],
                          particles)
        rows.append({"id": entry["id"], "level": entry["level"], "estimates": found,
                     "escalated": escalated(found)})
    levels = {}
    for level in [name for name in LEVELS if any(r["level"] == name for r in rows)]:
        mine = [r["estimates"] for r in rows if r["level"] == level]
        levels[level] = {str(count): {
            "median_hardness": round(statistics.median(e[i]["hardness"] for e in mine), 2),
            "never_won": sum(e[i]["reached"] < 52 for e in mine),
            "puzzles": len(mine)} for i, count in enumerate(particles)}
        levels[level]["escalated_median"] = round(statistics.median(
            escalated(e)["hardness"] for e in mine), 2)
    out = {"pack": path, "player": player, "particles": particles, "levels": levels,
           "puzzles": rows}
    if exact is not None:
        grades = {e["id"]: e["metrics"]["hardness"] for e in pack["puzzles"]}
        out["spearman_with_choices"] = correlations(rows, grades, exact, particles)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", help="an Agnes pack file")
    ap.add_argument("--particles", default=",".join(map(str, BOLD_GAMES)),
                    help="simulated games of each estimate, comma-separated "
                         "(default: the grade's counts)")
    ap.add_argument("--player", choices=sorted(PLAYERS), default="bold",
                    help="the simulated player (default bold: the grade's)")
    ap.add_argument("--against", metavar="CHOICES_JSON",
                    help="examples/choices.py's JSON for the same pack: correlate with it")
    args = ap.parse_args()
    try:
        particles = [int(text) for text in args.particles.split(",")]
    except ValueError:
        ap.exit(2, f"error: --particles must be counts separated by commas, not "
                   f"{args.particles!r}\n")
    try:
        if min(particles) < 1:
            raise BadInput(f"--particles must be 1 or more, not {args.particles}")
        clitools.check_memory(f"--particles {max(particles):,}",
                              max(particles) * players.PARTICLE_BYTES)
        print(json.dumps(report(args.pack, args.player, particles, args.against), indent=1))
    except (BadInput, OSError) as exc:
        ap.exit(2, f"error: {exc}\n")


if __name__ == "__main__":
    main()
