"""The files in benchmarks/ and examples/ parse, and each script answers ``--help`` with its usage.

They are not imported by the package, so nothing else would notice one that no longer runs.
"""
from __future__ import annotations

import json
import py_compile
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("benchmarks/*.py"), *ROOT.glob("examples/*.py")])
SCRIPTS = [path for path in FILES if 'if __name__ == "__main__":' in path.read_text()]
WITH_JOBS = [path for path in SCRIPTS
             if re.search(r'(add_argument|option)\("--jobs"', path.read_text())]


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) >= 20


@pytest.mark.parametrize("path", FILES, ids=name)
def test_a_file_compiles(path, tmp_path):
    py_compile.compile(str(path), cfile=str(tmp_path / "file.pyc"), doraise=True)


@pytest.mark.parametrize("script", SCRIPTS, ids=name)
def test_a_script_prints_its_usage(script):
    proc = subprocess.run([sys.executable, str(script), "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lower().startswith("usage:"), proc.stdout[:200]


@pytest.mark.parametrize("script", WITH_JOBS, ids=name)
def test_a_script_refuses_a_worker_count_of_zero(script):
    """A bad --jobs stops a script at once, as it stops puzzlegen (not a run on one process)."""
    command = ["generate"] if script.name == "design_bench.py" else []  # its --jobs is there
    proc = subprocess.run([sys.executable, str(script), *command, "--jobs", "0"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "0 is not a worker count" in proc.stderr, proc.stderr


def test_montana_players_times_the_bound_on_the_same_deals_and_refuses_other_rules():
    """The benchmark behind benchmarks/montana.md's bound table: on 8-rank deals the bound
    stores fewer layouts (its chances checked equal inside); reshuffles are refused."""
    script = str(ROOT / "benchmarks/montana_players.py")
    proc = subprocess.run([sys.executable, script, "--rules", "8", "--deals", "30"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["limit"] == 0 and figures["layouts_ratio"] > 1.5
    assert figures["median_layouts"] < figures["median_layouts_all"]
    proc = subprocess.run([sys.executable, script, "--rules", "13-redeals2"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("error:"), proc.stderr


def test_montana_players_against_a_revision_checks_the_figures_agree():
    """``--rev``: the grade's figures by a revision's copy of the code and by this one, deal by
    deal (equal, or the script fails); a name that is no commit is refused in one line.  (A
    checkout without its git history has no revision to compare with.)"""
    script = str(ROOT / "benchmarks/montana_players.py")
    proc = subprocess.run([sys.executable, script, "--rev", "no-such-revision"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("error: --rev"), proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip("not a git checkout")
    proc = subprocess.run([sys.executable, script, "--rules", "6", "--deals", "3", "--rev",
                           "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["deals"] == 3 and figures["seconds_ratio"] > 0


def test_montana_cycles_finds_layouts_that_recur_with_movable_twos():
    proc = subprocess.run([sys.executable, str(ROOT / "examples/montana_cycles.py"), "--ranks",
                           "4", "--seeds", "1..4", "--max-layouts", "100000"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["seed"] for r in rows] == [1, 2, 3, 4]
    assert all(r["cyclic"] <= r["layouts"] and sum(r["largest"]) <= r["layouts"] for r in rows)
    assert max(r["largest"][0] for r in rows) > 100 and min(r["cyclic"] for r in rows) == 0


@pytest.mark.parametrize("pack_name", ["agnes-up-suit-anyrun-nosplit", "montana-8"])
def test_choices_decides_every_choice_along_the_stored_solutions(pack_name, tmp_path):
    """examples/choices.py: the stored solution's own move wins at each of its positions, so
    every choice has a winning move: shares above 0, a finite log10 chance, forced choices among
    the choices; a hard puzzle has a losing choice somewhere."""
    pack = json.loads((ROOT / f"puzzles/{pack_name}.json").read_text())
    pack["puzzles"] = [pack["puzzles"][0], pack["puzzles"][-1]]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(pack))
    proc = subprocess.run([sys.executable, str(ROOT / "examples/choices.py"), str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    for row in report["puzzles"]:
        assert row["choices"] > 5 and row["limit"] == 0
        assert 0 < row["mean_share"] <= 1 and 0 <= row["forced"] <= row["choices"]
        assert -row["choices"] * 2 < row["line_log10"] <= 0
    assert report["puzzles"][-1]["line_log10"] < 0
    levels = f"{pack['puzzles'][0]['level']}<{pack['puzzles'][-1]['level']}"
    assert set(report["figures"]["forced"]["easier_is_easier"]) == {levels}


def test_choices_refuses_a_game_it_does_not_count(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "examples/choices.py"),
                           str(ROOT / "puzzles/stackmgmt-8x4-k4.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ")
    assert "Stack Management pack: its solver cannot start mid-game" in proc.stderr


def test_agnes_particles_reproduces_the_grade_and_says_which_games_all_died(tmp_path):
    """examples/agnes_particles.py: the bold player's escalated estimate (first counts of the
    grade's) is the pack's hardness; the careful player's at 1,000 games is its
    ``careful_log10``, and a puzzle whose careful games all died is counted as never won."""
    pack = json.loads((ROOT / "puzzles/agnes-up-suit-anyrun-nosplit.json").read_text())
    pack["puzzles"] = [pack["puzzles"][0], next(p for p in pack["puzzles"]
                                               if p["metrics"]["careful_reached"] < 52)]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(pack))
    script = [sys.executable, str(ROOT / "examples/agnes_particles.py"), str(path)]
    reports = [subprocess.run(script + extra, cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
               for extra in (["--particles", "1000,10000"],
                             ["--player", "careful", "--particles", "1000,2000"])]
    assert [proc.returncode for proc in reports] == [0, 0], [p.stderr for p in reports]
    bold, careful = (json.loads(proc.stdout) for proc in reports)
    for row, other, entry in zip(bold["puzzles"], careful["puzzles"], pack["puzzles"]):
        assert row["escalated"]["hardness"] == round(entry["metrics"]["hardness"], 3)
        assert row["escalated"]["particles"] == entry["metrics"]["bold_games"]
        assert other["estimates"][0]["hardness"] == round(-entry["metrics"]["careful_log10"], 3)
        assert other["estimates"][0]["reached"] == entry["metrics"]["careful_reached"]
    easy, hard = (careful["levels"][p["level"]]["1000"] for p in pack["puzzles"])
    assert (easy["never_won"], hard["never_won"]) == (0, 1)


def test_agnes_particles_correlates_a_player_with_the_exact_choices(tmp_path):
    """``--player bold --against``: the bold player's estimates, the escalated one among them,
    and their Spearman correlations with choices.py's figure; a file that is not choices.py's
    JSON is one error line."""
    pack = json.loads((ROOT / "puzzles/agnes-up-suit-anyrun-nosplit.json").read_text())
    pack["puzzles"] = pack["puzzles"][::2]  # every level, more than 2 above medium
    path, against = tmp_path / "half.json", tmp_path / "choices.json"
    path.write_text(json.dumps(pack))
    against.write_text(json.dumps({"puzzles": [
        {"id": p["id"], "line_log10": -p["metrics"]["hardness"]} for p in pack["puzzles"]]}))
    script = [sys.executable, str(ROOT / "examples/agnes_particles.py"), str(path),
              "--player", "bold", "--particles", "300,600"]
    proc = subprocess.run([*script, "--against", str(against)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["player"] == "bold" and len(report["puzzles"]) == len(pack["puzzles"])
    for row in report["puzzles"]:
        won = [e for e in row["estimates"] if e["reached"] == 52]
        assert row["escalated"] == (won[0] if won else row["estimates"][-1])
    grade = report["spearman_with_choices"]["all"]["grade"]
    assert grade == 1.0  # the made-up figure ranks the puzzles as the grades do
    assert set(report["spearman_with_choices"]["above_medium"]) == {"grade", "escalated",
                                                                    "300", "600"}
    against.write_text("[1, 2]")
    proc = subprocess.run([*script, "--against", str(against)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2 and proc.stderr.startswith("error: --against: ")
    assert len(proc.stderr.splitlines()) == 1


def test_agnes_particles_refuses_another_game_and_a_bad_count():
    montana = str(ROOT / "puzzles/montana-8.json")
    agnes = montana.replace("montana-8", "agnes-up-suit-anyrun-nosplit")
    for args in ([montana], [agnes, "--particles", "1000,x"], [agnes, "--particles", "0"],
                 [agnes, "--particles", "1000,10000000000"]):  # far more memory than exists
        proc = subprocess.run([sys.executable, str(ROOT / "examples/agnes_particles.py"), *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and proc.stderr.startswith("error: "), proc.stderr


def test_agnes_beyond_refuses_bad_rules_and_a_count_beyond_memory():
    for args in (["--rules", "Nonsense"], ["--rules", "Up-Suit-None"],
                 ["--games", "10000000000"],  # far more memory than exists
                 ["--check-nodes", "-1"], ["--seeds", "16,x"], ["--seeds", "-3"]):
        proc = subprocess.run([sys.executable, str(ROOT / "examples/agnes_beyond.py"), *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and proc.stderr.startswith("error: "), proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


def test_agnes_beyond_on_chosen_deals_reproduces_the_grades_checked_estimate():
    """``--seeds 7029`` with the grade's checked games (1,000, 1,000 positions a check) gives
    the hardness the NoSplit calibration records for deal 7029, the grade's own figure."""
    records = {r["seed"]: r for r in map(json.loads, (
        ROOT / "solvers/agnes/calibration-agnes-Up-Suit-AnyRun-NoSplit.jsonl").open())}
    proc = subprocess.run([sys.executable, str(ROOT / "examples/agnes_beyond.py"), "--seeds",
                           "7029", "--games", "1000", "--check-nodes", "1000"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    deal, summary = map(json.loads, proc.stdout.splitlines())
    assert deal["seed"] == 7029 and deal["reached"] == 52
    assert deal["hardness"] == round(records[7029]["hardness"], 3)
    assert (summary["sampled"], summary["measured"]) == (1, 1)



def test_the_research_data_set_is_rebuilt_the_same_and_resumes(tmp_path):
    """examples/stacksquared_dataset.py on 12 3x3 deals: the documented columns, exact figures
    (every 3x3 figure is), empty difficulty columns without a single stack, and a run resumed
    from a per-deal file cut short writes the same data set; ``--structure-only`` writes the
    same rows without the difficulty figures."""
    import csv
    import gzip
    script = ROOT / "examples/stacksquared_dataset.py"

    def build(per_deal: Path, out: Path, *extra: str) -> list[dict]:
        proc = subprocess.run([sys.executable, str(script), "--rules", "3x3", "--deals", "12",
                               "--per-deal", str(per_deal), "--out", str(out), *extra],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return list(csv.DictReader(gzip.open(out, "rt")))

    rows = build(tmp_path / "a.jsonl", tmp_path / "a.csv.gz")
    table = "\n".join(line.split("|")[1] for line in
                      (ROOT / "docs/research.md").read_text().splitlines()
                      if line.startswith("| `"))
    named = set(re.findall(r"`(\w+)`", table))
    assert len(rows) == 12 and named <= set(rows[0])
    assert all(c in named or c.endswith("_exact") for c in rows[0]), set(rows[0]) - named
    for row in rows:
        assert (row["solvable"] == "True") == (row["max_score"] == "81")
        if row["solvable"] == "True":
            assert all(row[f"{name}_exact"] == "True"
                       for name in ("random", "careful", "look2", "look3", "halfway"))
            assert float(row["random"]) <= float(row["look3"]) <= 1
        else:
            assert row["look3"] == row["hardness"] == ""
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    (tmp_path / "b.jsonl").write_text("\n".join(lines[:6]) + "\n")
    again = build(tmp_path / "b.jsonl", tmp_path / "b.csv.gz", "--resume")
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in rows]
    bare = build(tmp_path / "c.jsonl", tmp_path / "c.csv.gz", "--structure-only")
    for full, plain in zip(rows, bare):
        assert plain["hardness"] == plain["look3"] == "" and plain["compat_edges"] != ""
        assert all(v == full[k] for k, v in plain.items() if v != "" and k != "seconds")


def test_unsolvable_grids_are_counted_by_their_proof_and_modelled():
    """examples/stacksquared_unsolvable.py on the shipped 3x3 data set: every deal without a
    single stack is counted once among the proofs; a disconnected compatibility graph is a
    partition at the start, so the connected-graph rule never calls a solvable deal unsolvable;
    the held-out tree does better than calling every deal solvable."""
    import csv
    import gzip
    data = ROOT / "data/stacksquared-3x3.csv.gz"
    rows = list(csv.DictReader(gzip.open(data, "rt")))
    proc = subprocess.run([sys.executable, str(ROOT / "examples/stacksquared_unsolvable.py"),
                           str(data)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)
    unsolvable = [r for r in rows if r["solvable"] == "False"]
    assert report["unsolvable"] == len(unsolvable) == sum(report["proof_at_start"].values())
    assert report["proof_at_start"]["partition"] >= sum(r["flocks"] != "1" for r in unsolvable)
    assert report["proof_at_start"]["search"] > 0
    assert report["connected_graph"]["false_unsolvable"] == 0
    assert report["tree"]["accuracy"] > report["always_solvable"]["accuracy"]
    assert report["tree_rules"] and report["by_min_degree"]["0"]["unsolvable"] == \
        report["by_min_degree"]["0"]["deals"]


def test_attributes_of_hard_deals_are_ranked_and_combined():
    """examples/stacksquared_attributes.py: on the shipped 3x4 set (exact hardness) and on the
    4x4 set with the 4x4 calibration's hardness, the compatible pairs matter most, every
    objective ranks held-out deals by hardness, the top 5% holds no more expert and master deals
    than there are, and a column constant among winnable deals (flocks) is left out."""
    script = [sys.executable, str(ROOT / "examples/stacksquared_attributes.py")]
    runs = [subprocess.run([*script, str(ROOT / "data/stacksquared-3x4.csv.gz")], cwd=ROOT,
                           capture_output=True, text=True, timeout=300),
            subprocess.run([*script, str(ROOT / "data/stacksquared-4x4.csv.gz"), "--hardness",
                            str(ROOT / "solvers/stacksquared/calibration-4x4.jsonl")],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)]
    assert [proc.returncode for proc in runs] == [0, 0], [proc.stderr for proc in runs]
    calibration = [json.loads(line) for line in
                   (ROOT / "solvers/stacksquared/calibration-4x4.jsonl").read_text().splitlines()]
    [three], [four] = (json.loads(proc.stdout) for proc in runs)
    assert four["deals"] == sum(1 for r in calibration if r.get("won"))
    for report in (three, four):
        assert report["ranked"][0] == "compat_edges" and "flocks" not in report["importance"]
        assert 0.3 < report["model"]["r2"] < 1
        for objective in report["objectives"].values():
            assert objective["spearman"] > 0.5
            assert objective["top1"] <= objective["top5"] <= report["held_out_expert_master"]
    proc = subprocess.run([*script, str(ROOT / "data/stacksquared-4x4.csv.gz")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and "--hardness" in \
        proc.stderr


def test_search_orders_and_cuts_are_measured_on_a_data_set():
    """examples/stacksquared_search.py on the shipped 3x3 set: every dead deal and 20 with a
    single stack, searched in each order with each set of cuts; no search stops at the cap,
    and the cuts never add nodes in the same order."""
    proc = subprocess.run([sys.executable, str(ROOT / "examples/stacksquared_search.py"),
                           str(ROOT / "data/stacksquared-3x3.csv.gz"), "--solvable", "20"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)
    dead = report["groups"]["without a single stack"]
    assert dead["deals"] == 3813 and report["groups"]["with a single stack"]["deals"] == 20
    for group in report["groups"].values():
        found = group["searches"]
        assert len(found) == 12 and all(f["at_cap"] == 0 for f in found.values())
        for order in ("row-major", "fewest partners", "portfolio"):
            assert found[f"{order}, both"]["nodes"] <= found[f"{order}, partition"]["nodes"] \
                <= found[f"{order}, none"]["nodes"]
    assert dead["searches"]["row-major, both"]["saved"] > 0.5
