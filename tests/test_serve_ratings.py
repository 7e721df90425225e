"""Ratings: Glicko-2 against Glickman's worked example; parameter recovery through the real
HTTP API (simulated players of known skill attempt puzzles of known difficulty, and the fitted
puzzle ratings rank the puzzles as their difficulty does); ``puzzlegen ratings`` on levels
that do and do not separate."""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

from puzzlegen import glicko2
from puzzlegen.attemptsdb import AttemptsDB, Puzzle
from served import SMALL, Server, attempt, post, puzzles
from solvers.stats import ranks, spearman


def test_glicko2_matches_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won),
    1550/100 (lost), 1700/300 (lost) with tau 0.5."""
    after = glicko2.update(glicko2.Rating(1500, 200, 0.06),
                           [(glicko2.Rating(1400, 30), 1), (glicko2.Rating(1550, 100), 0),
                            (glicko2.Rating(1700, 300), 0)], tau=0.5)
    # The paper rounds its intermediate figures: 1464.06 and 151.52 to within 0.01.
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.sigma == pytest.approx(0.05999, abs=1e-5)
    idle = glicko2.update(glicko2.Rating(1500, 200, 0.06), [])
    assert idle.rating == 1500 and idle.rd == pytest.approx(math.hypot(200, 0.06 * 173.7178))


def solves(rng: random.Random, skill: float, difficulty: float) -> bool:
    return rng.random() < 1 / (1 + math.exp(difficulty - skill))


def test_ratings_recover_the_puzzles_difficulty_through_the_api(tmp_path):
    """Each puzzle of the 3x4 pack gets a true difficulty from -2 to 2 in the order of its
    percentile; players of skill ~ N(0, 1) solve it with probability logistic(skill -
    difficulty), else abandon it after a move.  Rounds of 10 players each try every puzzle
    once, in a random order, posted over HTTP."""
    entries = puzzles()
    spread = ranks([entry["percentile"] for entry in entries])
    truth = [-2 + 4 * (r - 1) / (len(entries) - 1) for r in spread]
    rng = random.Random(2026)
    server = Server([SMALL], tmp_path / "recovery.db")
    try:
        conn = server.connection()
        posted, reached, rho = 0, None, None
        for round_ in range(6):
            tries = [(f"sim-{round_}-{i:02d}", rng.gauss(0, 1), j)
                     for i in range(10) for j in range(len(entries))]
            rng.shuffle(tries)
            for player, skill, j in tries:
                won = solves(rng, skill, truth[j])
                status, answer = post(conn, attempt(entries[j], player, "2026-03-01T10:00:00Z",
                                                    "solved" if won else "unfinished"))
                assert status == 201 and answer["counted"] == "rated"
                posted += 1
            fitted = [server.get_json(f"/api/puzzles/{e['code']}")["rating"]["rating"]
                      for e in entries]
            rho = spearman(truth, fitted)
            print(f"\nafter {posted} attempts: Spearman {rho:.3f}", end="")
            if reached is None and rho >= 0.9:
                reached = posted
        print(f"\nfirst at 0.9 or more after {reached} attempts")
    finally:
        server.stop()
    assert rho >= 0.9
    report = subprocess.run([sys.executable, "-m", "puzzlegen", "ratings", "--db",
                             str(tmp_path / "recovery.db"), "--json"], capture_output=True,
                            text=True, timeout=60)
    result = json.loads(report.stdout)
    assert result["correlation"]["percentile"] == {"puzzles": 25, "spearman": pytest.approx(rho)}
    assert [lv["level"] for lv in result["levels"]] == ["hard"] and result["adjacent"] == []


def test_the_ratings_report_tells_separated_levels(tmp_path):
    """Three levels of eight puzzles each, 40 simulated players; medium and hard far apart,
    easy and medium of one difficulty."""
    db = AttemptsDB(tmp_path / "levels.db")
    difficulty = {"easy": -1.5, "medium": -1.5, "hard": 1.5}
    infos = [Puzzle(f"code-{level}-{k}", "stacksquared", "4x4", "pack", f"{level}-{k}", level,
                    10 * i + k, None) for i, level in enumerate(difficulty) for k in range(8)]
    db.register(infos)
    rng = random.Random(7)
    for p in range(40):
        skill = rng.gauss(0, 1)
        for info in rng.sample(infos, len(infos)):
            won = solves(rng, skill, difficulty[info.level] + rng.gauss(0, 0.3))
            db.record({"code": info.code, "started": "2026-03-01T10:00:00Z", "seconds": 60.0,
                       "result": "solved" if won else "unfinished", "moves": [],
                       "moves_made": 1, "undos": 0, "restarts": 0, "hints": 0,
                       "solution_views": 0}, f"player-{p:03d}", "2026-03-01T10:01:00Z")
    db.close()
    run = subprocess.run([sys.executable, "-m", "puzzlegen", "ratings", "--db",
                          str(tmp_path / "levels.db")], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert "24 puzzles with at least 1 rated attempt" in run.stdout
    assert "easy < medium" in run.stdout and "medium < hard" in run.stdout
    lines = {line.split(":")[0]: line for line in run.stdout.splitlines()}
    assert lines["easy < medium"].endswith("do not separate")
    assert lines["medium < hard"].endswith(": separate")
