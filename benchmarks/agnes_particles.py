"""Does an Agnes grade measure the puzzle, or the number of simulated games?

    python benchmarks/agnes_particles.py puzzles/agnes-up-suit-anyrun-nosplit.json
    python benchmarks/agnes_particles.py PACK --particles 1000,10000,100000

An Agnes hardness is the careful player's log10 chance to win, estimated by multilevel splitting
over ``game.PARTICLES`` (1,000) games (``solvers.agnes.game.chance``).  When every game dies at
some step, the estimate counts that step as 0.5 in the number of games and extrapolates the rest
(times 52 / the cards home), so that figure depends on the number of games: with ten times as
many games, a step no game makes counts ten times less.  This script estimates the careful
player's chance on each puzzle of the pack (its canonical deal, the grade's own random stream)
with each of ``--particles`` and reports, per puzzle and per level: the hardness, the cards home
when every game died (52: some game won), and the seconds.  A hardness that moves with the
particle count is not a property of the puzzle; one that stays put (up to the noise of a
measured chance) is.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from puzzlegen import packs
from puzzlegen.grading import LEVELS
from solvers import game as games
from solvers.agnes.game import GAME, PARTICLES, chance
from solvers.errors import BadInput


def estimates(deal, rules, particles: list[int]) -> list[dict]:
    """The careful player's hardness, cards home (52: won) and seconds at each particle count."""
    canon = GAME.canonical(deal, rules)
    out = []
    for count in particles:
        start = time.perf_counter()
        log_p, reached = chance(canon, rules, 0, count)
        out.append({"particles": count, "hardness": round(-log_p, 3), "reached": reached,
                    "seconds": round(time.perf_counter() - start, 3)})
    return out


def report(path: str, particles: list[int]) -> dict:
    pack = packs.load(path)
    if pack["game"] != "agnes":
        raise BadInput(f"{path} is a {pack['game']} pack; this script reads Agnes packs")
    game = games.get("agnes")
    rows = []
    for entry in pack["puzzles"]:
        rules = game.parse_rules(entry["rules"])
        rows.append({"id": entry["id"], "level": entry["level"],
                     "estimates": estimates(game.parse_deal(entry["deal"], rules), rules,
                                            particles)})
    levels = {}
    for level in [name for name in LEVELS if any(r["level"] == name for r in rows)]:
        mine = [r["estimates"] for r in rows if r["level"] == level]
        levels[level] = {str(count): {
            "median_hardness": round(statistics.median(e[i]["hardness"] for e in mine), 2),
            "never_won": sum(e[i]["reached"] < 52 for e in mine),
            "puzzles": len(mine)} for i, count in enumerate(particles)}
    return {"pack": path, "particles": particles, "levels": levels, "puzzles": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", help="an Agnes pack file")
    ap.add_argument("--particles", default=f"{PARTICLES},{10 * PARTICLES},{100 * PARTICLES}",
                    help="simulated games of each estimate, comma-separated "
                         "(default: the grade's count, 10 and 100 times it)")
    args = ap.parse_args()
    try:
        particles = [int(text) for text in args.particles.split(",")]
    except ValueError:
        ap.exit(2, f"error: --particles must be counts separated by commas, not "
                   f"{args.particles!r}\n")
    if min(particles) < 1 or max(particles) > 10_000_000:
        ap.exit(2, f"error: --particles must be 1..10,000,000, not {args.particles}\n")
    try:
        print(json.dumps(report(args.pack, particles), indent=1))
    except (BadInput, OSError) as exc:
        ap.exit(2, f"error: {exc}\n")


if __name__ == "__main__":
    main()
