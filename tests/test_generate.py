"""Generation: annealing and CP-SAT give verified, distinct, reproducible puzzles."""
from __future__ import annotations

import concurrent.futures
import json
import math
import os
import random
import signal
import subprocess
import sys
import time

import psutil
import pytest
from click.testing import CliRunner

from puzzlegen import anneal, packs
from puzzlegen.cli import cli
from puzzlegen.constraints import parse_constraints
from puzzlegen.grading import exact, grade, load
from solvers import game as games
from solvers.errors import BadInput
from solvers.stacksquared import Deal
from solvers.stacksquared.game import GAME, Grid
from solvers.stacksquared.symmetry import canonical


def generate(tmp_path, name, *args):
    out = tmp_path / name
    result = CliRunner().invoke(cli, ["stacksquared", "generate", "--rules", "3x3",
                                      "--out", str(out), *map(str, args)])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_same_seed_same_pack_any_jobs_and_valid(tmp_path):
    """The same pack in this process and on two local workers, which are gone once it is
    made (the runs still under way then are cancelled: tests/test_runs_cluster.py has the
    pack from a Dask scheduler)."""
    ours = psutil.Process()
    before = set(ours.children(recursive=True))
    one = generate(tmp_path, "a.json", "--count", "3", "--level", "hard", "--seed", "4")
    two = generate(tmp_path, "b.json", "--count", "3", "--level", "hard", "--seed", "4",
                   "--jobs", "2")
    left = [p for p in ours.children(recursive=True)   # not the resource tracker that stays
            if p not in before and "spawn_main" in " ".join(p.cmdline())]
    psutil.wait_procs(left, timeout=30)
    assert not [p for p in left if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert one == two
    assert [p["level"] for p in one["puzzles"]] == ["hard"] * 3
    forms = {canonical(Deal.parse(p["deal"], 3, 3)) for p in one["puzzles"]}
    assert len(forms) == 3
    assert packs.validate(one) == []


def test_cpsat_method_keeps_the_designer_constraints(tmp_path):
    args = ["--require", "AS KS", "--at", "r1c1=QH", "--theme", "ranks:A-Q,K",
            "--max-line-pairs", "14"]
    pack = generate(tmp_path, "c.json", "--count", "2", "--level", "expert", "--method", "cpsat",
                    *args)
    assert pack["created_with"]["method"] == "cpsat"
    constraints = parse_constraints(3, 3, "AS KS", ("r1c1=QH",), "ranks:A-Q,K", 14)
    for entry in pack["puzzles"]:
        assert constraints.violation(Deal.parse(entry["deal"], 3, 3)) is None
        assert entry["level"] == "expert"
    assert pack["created_with"]["parameters"]["constraints"]["require"] == ["AS", "KS"]
    assert packs.validate(pack) == []


def test_annealing_aims_at_the_heart_of_the_level(tmp_path):
    """Medium puzzles land near the level's target percentile, not at its edges."""
    pack = generate(tmp_path, "m.json", "--count", "3", "--level", "medium", "--seed", "2")
    percentiles = [p["percentile"] for p in pack["puzzles"]]
    assert all(abs(p - anneal.TARGET["medium"]) < 10 for p in percentiles), percentiles
    low, high = anneal.window("medium", load(GAME, Grid(3, 3)))
    assert low < pack["created_with"]["parameters"]["target_hardness"] < high
    assert all(low <= p["metrics"]["hardness"] <= high for p in pack["puzzles"])


def test_targets_interpolate_the_calibration_quantiles():
    table = {"hardness": [i / 10 for i in range(1001)], "cuts": {"master": 99.9}}
    assert anneal.target_hardness("expert", table) == pytest.approx(
        anneal.TARGET["expert"] * 1000 / 100 / 10)
    assert anneal.target_hardness("master", table) == pytest.approx(99.9 + anneal.MASTER_MARGIN)
    # Expert's band is 99-99.9 and its target 99.75: 0.15 from the nearer edge.
    assert anneal.window("expert", table, 1.0) == pytest.approx((99.6, 99.9))
    assert anneal.window("expert", table, 0.5) == pytest.approx((99.675, 99.825))
    assert anneal.window("easy", table, 1.0) == pytest.approx((0.0, 2 * anneal.TARGET["easy"]))
    assert anneal.window("master", table) == (pytest.approx(99.9 + anneal.MASTER_MARGIN), math.inf)


def test_moves_and_starts_are_steered_by_the_rough_guess():
    """Below the target a move takes the candidate the game's guess calls hardest, above it the
    easiest, and without a graded current deal the first; a run starts at the level's target
    percentile of the guesses; a game without a guess draws exactly as a plain random deal."""
    rules = Grid(4, 4)
    rough = lambda deal: GAME.rough_hardness(deal, rules)  # noqa: E731
    deal = GAME.deal_from_seed(5, rules)
    annealer = anneal.DealAnnealer(GAME, rules, deal, 3.0, False, (2.9, 3.1), None,
                                   random.Random(1))
    key = GAME.canonical(deal, rules)
    for hardness, pick in ((2.0, max), (4.0, min), (None, min), ("unknown", None)):
        if hardness == "unknown":
            annealer.memo.pop(key)
        else:
            annealer.memo[key] = (1.0, False, hardness)
        annealer.state, annealer.rng = deal, random.Random(7)
        annealer.move()
        again = random.Random(7)
        candidates = [GAME.neighbour(deal, rules, again) for _ in range(anneal.STEER)]
        expected = candidates[0] if pick is None else rough(pick(candidates, key=rough))
        assert (annealer.state if pick is None else rough(annealer.state)) == expected
    for level in ("easy", "medium", "master"):
        start = anneal.start_deal(GAME, rules, level, random.Random(3))
        again = random.Random(3)
        guesses = sorted(rough(GAME.random_deal(again, rules))
                         for _ in range(anneal.START_DRAWS))
        assert rough(start) == guesses[min(int(anneal.TARGET[level] / 100 * anneal.START_DRAWS),
                                           anneal.START_DRAWS - 1)]
    agnes = games.get("agnes")
    agnes_rules = agnes.parse_rules(agnes.default_rules)
    assert agnes.rough_hardness(agnes.random_deal(random.Random(3), agnes_rules),
                                agnes_rules) is None
    assert anneal.start_deal(agnes, agnes_rules, "hard", random.Random(3)) == \
        agnes.random_deal(random.Random(3), agnes_rules)


def test_an_annealing_run_draws_only_from_its_own_seeded_streams():
    """No draw from the ``random`` module (a Dask worker's other threads draw from it too: the
    pack would depend on them) and no SIGINT handler taken (the run engine's in the command's
    process; a worker thread may not take one): the same run gives the same deal, whatever
    happens to the module's stream meanwhile, in a thread too."""
    table = load(GAME, Grid(3, 3))
    job = ("stacksquared", "3x3", "hard", 4, 1, None, anneal.target_hardness("hard", table), None)
    handler = signal.getsignal(signal.SIGINT)
    random.seed(7)
    state = random.getstate()
    first = anneal.attempt(job)
    assert random.getstate() == state and signal.getsignal(signal.SIGINT) is handler
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(anneal.attempt, job).result() == first


def test_a_pack_keeps_a_deal_only_when_independent_estimates_confirm_its_level():
    """Both deals grade expert inside the window.  The first (seed 485) is estimated, and its
    estimate was a lucky draw: its three repeats say hard (its exact chance, past the grade's
    budget, is 1 in 408: hard), so a pack does not keep it.  The second is exact: every repeat
    gives the grade's own value, and a pack keeps it without asking."""
    rules = Grid(4, 4)
    table = load(GAME, rules)
    low, high = anneal.window("expert", table)
    lucky, sure = ("3H 7S JD JS 4S 5S JH 7H 9S 8C KD 3C AD 6H 7C 2C",
                   "4D 9C KS 8S 2C KH TC 4C 2H 6H QS JS 9H 8C 6D 8H")
    for text, kept in ((lucky, False), (sure, True)):
        deal = GAME.parse_deal(text, rules)
        graded = grade(GAME, deal, rules)
        assert graded.level == "expert" and low <= graded.metrics["hardness"] <= high
        assert exact(graded.metrics) is kept
        repeats = [GAME.hardness(deal, rules, repeat=r) for r in range(1, anneal.CONFIRM + 1)]
        assert (low <= sum(repeats) / len(repeats) <= high) is kept
        if kept:
            assert repeats == [graded.metrics["hardness"]] * anneal.CONFIRM
        assert anneal.keeps(GAME, rules, deal, "expert", graded, table) is kept


def test_bad_options_exit_2(tmp_path):
    runner = CliRunner()
    for args in (["--level", "impossible"], ["--level", "easy", "--rules", "7x7"]):
        result = runner.invoke(cli, ["stacksquared", "generate", "--count", "1",
                                     "--out", str(tmp_path / "x.json"), *args])
        assert result.exit_code == 2 and result.output.startswith("error: "), result.output


def test_attempt_cap_stops_with_the_puzzles_found(tmp_path):
    out = tmp_path / "capped.json"
    result = CliRunner().invoke(cli, ["stacksquared", "generate", "--rules", "3x3",
                                      "--count", "3", "--level", "hard", "--max-attempts", "2",
                                      "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: found ") and "of 3 hard puzzles in 2" in result.output
    found = int(result.output.split()[2])
    assert found == (len(packs.load(out)["puzzles"]) if out.exists() else 0) < 3


def test_force_replaces_an_old_pack_only_with_a_complete_one(tmp_path):
    out = tmp_path / "old.json"
    out.write_text("the old pack\n")
    result = CliRunner().invoke(cli, ["stacksquared", "generate", "--rules", "3x3",
                                      "--count", "3", "--level", "hard", "--max-attempts", "2",
                                      "--out", str(out), "--force"])
    assert result.exit_code == 2 and f"{out} is left as it was" in result.output, result.output
    assert out.read_text() == "the old pack\n"
    result = CliRunner().invoke(cli, ["stacksquared", "generate", "--rules", "3x3",
                                      "--count", "1", "--level", "easy", "--out", str(out),
                                      "--force"])
    assert result.exit_code == 0 and "wrote 1 easy puzzle to" in result.output, result.output
    assert len(packs.load(out)["puzzles"]) == 1


def test_interrupt_keeps_finished_puzzles(tmp_path):
    out = tmp_path / "int.json"
    proc = subprocess.Popen([sys.executable, "-c", "from puzzlegen.cli import main; main()",
                             "stacksquared", "generate", "--rules", "3x3",
                             "--count", "500", "--level", "easy", "--out", str(out)],
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
                            # a suite started in the background ('cmd &') ignores Ctrl-C, and
                            # a child inherits that; a user's terminal does not
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 300  # a cold numba cache on a busy machine compiles for a while
    while not out.exists() and time.time() < deadline:
        time.sleep(0.2)
    assert out.exists(), "no puzzle finished within 300 s"
    os.killpg(proc.pid, signal.SIGINT)   # Ctrl-C reaches the whole process group
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        # Where it hangs: the fault handler prints every thread's stack on SIGABRT.
        os.killpg(proc.pid, signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        pytest.fail(f"generate did not stop within 30 s of Ctrl-C; its stacks:\n{err}")
    assert proc.returncode == 130 and "interrupted; the " in err and "found are in" in err
    pack = packs.load(out)
    assert 1 <= len(pack["puzzles"]) < 500
    assert packs.validate(pack, sample=1) == []


@pytest.mark.parametrize("beyond, level, message", [
    (0, "expert", "has 100 winnable deals, too few to tell expert apart: choose one of easy, "
                  "medium, hard$"),
    (11, "hard", "cannot tell hard apart: its cut falls among the 11 deals beyond what the grade "
                 "measures: choose one of easy, medium"),
])
def test_a_level_is_generated_only_where_the_calibration_measures_it(monkeypatch, beyond, level,
                                                                     message):
    """A pack of a level needs a measured cut with enough deals above it; otherwise one error
    before any work."""
    from puzzlegen import calibration, design
    from puzzlegen.grading import read_table
    records = ([{"seed": s, "won": True, "hardness": float(s)} for s in range(100 - beyond)]
               + [{"seed": 100 + s, "won": True, "beyond": True} for s in range(beyond)])
    table = read_table(json.dumps(calibration.summarise(GAME, Grid(4, 4), 0, records)))
    monkeypatch.setattr(design, "load", lambda game, rules: table)
    with pytest.raises(BadInput, match=message):
        design.check_level(GAME, Grid(4, 4), level)
    assert design.check_level(GAME, Grid(4, 4), "medium") is table


def test_a_target_beyond_the_measure_moves_into_the_levels_measured_part():
    """7 of 100 winnable deals beyond the measure: hard's target (95th percentile) is not
    measured, so hard aims at the middle of its measured part (90th to 92.9th percentile) and
    keeps deals around it; medium's target is measured and stays."""
    from puzzlegen import calibration
    from puzzlegen.grading import read_table
    records = ([{"seed": s, "won": True, "hardness": float(s)} for s in range(93)]
               + [{"seed": 100 + s, "won": True, "beyond": True} for s in range(7)])
    table = read_table(json.dumps(calibration.summarise(GAME, Grid(4, 4), 0, records)))
    assert anneal.target_percentile("hard", table) == pytest.approx((90 + 92.9) / 2)
    assert anneal.target_percentile("medium", table) == anneal.TARGET["medium"]
    target = anneal.target_hardness("hard", table)
    low, high = anneal.window("hard", table)
    assert low < target < high < math.inf
    assert target == pytest.approx(anneal.hardness_at(91.45, table)) and 89 < target < 91


def test_scheduler_option_and_a_lost_cluster(tmp_path, monkeypatch):
    """``--scheduler`` as every run command takes it; a cluster lost mid-run ends with one
    error line that says where the puzzles found are."""
    from puzzlegen import design, runs
    out = tmp_path / "lost.json"
    args = ["stacksquared", "generate", "--rules", "3x3", "--count", "3", "--level",
            "hard", "--seed", "4", "--out", str(out)]
    empty = CliRunner().invoke(cli, [*args, "--scheduler", " "])
    assert empty.exit_code == 2 and "an empty address" in empty.output
    nowhere = CliRunner().invoke(cli, [*args, "--scheduler", "nowhere"])
    assert nowhere.exit_code == 2 and nowhere.output == (
        "error: cannot reach the Dask scheduler at nowhere: missing port number in address "
        "'nowhere'; nothing was written\n") and not out.exists()

    run = runs.run

    def lost_after_a_puzzle(fn, specs, **options):
        for result in run(fn, specs, **options):
            yield result
            if result is not None:
                raise BadInput("lost the Dask scheduler at tcp://10.0.0.5:8786: 1 annealing "
                               "runs finished")

    monkeypatch.setattr(design.runs, "run", lost_after_a_puzzle)
    lost = CliRunner().invoke(cli, args)
    assert lost.exit_code == 2 and lost.output == (
        "error: lost the Dask scheduler at tcp://10.0.0.5:8786: 1 annealing runs finished; the 1 "
        f"puzzle found are in {out}\n")
    assert len(packs.load(out)["puzzles"]) == 1


def test_expert_and_master_runs_anneal_on_the_guess_alone(tmp_path):
    """At expert and master a run's energy is minus the game's guess (no player estimate) and
    it ends harder by the guess than nearly every random deal; an annealer given an objective
    anneals on it alone, unsteered.  A 4x4 master pack made so is valid and says so in its
    parameters."""
    rules = Grid(4, 4)
    table = load(GAME, rules)
    guesses = sorted(GAME.rough_hardness(GAME.random_deal(random.Random(i), rules), rules)
                     for i in range(300))
    job = ("stacksquared", "4x4", "master", 5, 0, None, anneal.target_hardness("master", table),
           None)
    deal = anneal.attempt(job)
    assert GAME.rough_hardness(deal, rules) > guesses[-3]
    annealer = anneal.DealAnnealer(GAME, rules, deal, 3.0, True, (3.0, math.inf), None,
                                   random.Random(1), objective=lambda d: len(d.cards))
    assert annealer.energy() == -16 and not annealer.steered and not annealer.memo
    pack = generate(tmp_path, "master.json", "--rules", "4x4", "--count", "2", "--level",
                    "master", "--seed", "3")
    assert [p["level"] for p in pack["puzzles"]] == ["master"] * 2
    assert pack["created_with"]["parameters"]["schedule"]["guessed"] == ["expert", "master"]
    assert packs.validate(pack) == []
