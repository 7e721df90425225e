"""The run engine in this process: order, per-deal files, resume and its checks, progress lines,
and the win-rate summary every game shares.  (Runs on Dask workers, Ctrl-C and kills:
tests/test_runs_cluster.py.)"""
import contextlib
import gc
import itertools
import json
import signal
from functools import partial

import pytest
from click.testing import CliRunner

from puzzlegen import runs
from solvers import stats
from puzzlegen.cli import cli
from puzzlegen.clitools import Progress, rate_text
from solvers.errors import BadInput

FINGERPRINT = {"command": "test squares", "power": 2}


def square(n: int, power: int = 2) -> dict:
    return {"n": n, "value": n ** power}


def run_squares(path, specs, **kwargs):
    return list(runs.run(partial(square, power=FINGERPRINT["power"]), specs, key="n",
                         per_deal=path, fingerprint=FINGERPRINT, progress_every=None, **kwargs))


def test_records_in_order_and_the_file_has_a_header(tmp_path):
    path = tmp_path / "deals.jsonl"
    records = run_squares(path, range(5, 25))
    assert records == [square(n) for n in range(5, 25)]
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"run": FINGERPRINT, "key": "n"}
    assert [json.loads(line) for line in lines[1:]] == records
    assert list(runs.read_records(path)) == records


def test_resume_after_a_kill_mid_line_equals_an_uninterrupted_run(tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    expected = run_squares(whole, range(40))
    text = whole.read_text()
    lines = text.splitlines(keepends=True)
    cut.write_text("".join(lines[:13]) + lines[13][:7])   # header, 12 deals, a line cut short
    solved = []
    resumed = list(runs.run(partial(_logged, solved), range(40), key="n", per_deal=cut,
                            resume=True, fingerprint=FINGERPRINT, progress_every=None))
    assert resumed == expected
    assert solved == list(range(12, 40))                   # only the missing deals
    assert cut.read_text() == text
    # A finished run resumed again solves nothing and gives the same records.
    assert run_squares(cut, range(40), resume=True) == expected


def _logged(log: list, n: int) -> dict:
    log.append(n)
    return square(n)


def test_a_longer_run_reuses_a_shorter_runs_file(tmp_path):
    path = tmp_path / "deals.jsonl"
    run_squares(path, range(10))
    assert run_squares(path, range(30), resume=True) == [square(n) for n in range(30)]
    assert [r["n"] for r in runs.read_records(path)] == list(range(30))


@pytest.mark.parametrize("first_line,message", [
    (json.dumps({"run": {**FINGERPRINT, "power": 3}, "key": "n"}),
     "belongs to another run: power 3 there, 2 here"),
    (json.dumps({"n": 1, "value": 1}), "is not the per-deal file of a run"),
    ("{cut", "is not the per-deal file of a run"),
])
def test_resume_refuses_another_runs_file(tmp_path, first_line, message):
    path = tmp_path / "deals.jsonl"
    path.write_text(first_line + "\n")
    with pytest.raises(BadInput, match=message):
        run_squares(path, range(3), resume=True)
    assert path.read_text() == first_line + "\n"


def test_resume_refuses_deals_outside_the_run_and_broken_lines(tmp_path):
    path = tmp_path / "deals.jsonl"
    run_squares(path, range(10))
    with pytest.raises(BadInput, match=r"line 8: n 6 is not one of this run's deals"):
        run_squares(path, range(6), resume=True)
    with open(path, "a") as fh:
        fh.write("not json\n")
    with pytest.raises(BadInput, match="line 12: not a record of this run"):
        run_squares(path, range(10), resume=True)


def check_square(n: int, record: dict) -> None:
    runs.check_fields(record, {"n": int, "value": range(10_000)})
    if record["value"] != n * n:
        raise ValueError(f"{n} squared is not {record['value']}")


@pytest.mark.parametrize("line,message", [
    ('{"n": 3}', "line 12: not a record of this run \\(field value is missing\\)"),
    ('{"n": 3, "value": 9, "x": 1}', "field x is unknown"),
    ('{"n": 3, "value": true}', "field value holds true"),
    ('{"n": 3, "value": 10}', "3 squared is not 10"),
    ('{"n": 3, "value": ' + "9" * 5000 + "}", "line 12: not a record of this run$"),
    ('[3]', "line 12: not a record of this run$"),
])
def test_every_resumed_record_is_checked(tmp_path, line, message):
    path = tmp_path / "deals.jsonl"
    run_squares(path, range(10))
    with open(path, "a") as fh:
        fh.write(line + "\n")
    before = path.read_text()
    with pytest.raises(BadInput, match=message):
        run_squares(path, range(10), resume=True, check=check_square)
    assert path.read_text() == before
    assert run_squares(tmp_path / "fresh.jsonl", range(3), check=check_square) == \
        [square(n) for n in range(3)]


def test_an_empty_file_is_resumed_as_a_new_run(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text("")
    assert run_squares(path, range(4), resume=True) == [square(n) for n in range(4)]
    assert list(runs.read_records(path)) == [square(n) for n in range(4)]


def test_a_file_being_written_is_refused_and_left_alone(tmp_path):
    """Two runs on one file: the second stops at once with one line; the first runs on."""
    path = tmp_path / "deals.jsonl"
    first = runs.run(partial(square, power=2), range(20), key="n", per_deal=path,
                     fingerprint=FINGERPRINT, progress_every=None)
    got = [next(first) for _ in range(5)]
    for resume in (True, False):
        with pytest.raises(BadInput, match="is being written by another run"):
            run_squares(path, range(20), resume=resume)
    assert got + list(first) == [square(n) for n in range(20)]
    assert list(runs.read_records(path)) == [square(n) for n in range(20)]
    assert run_squares(path, range(20), resume=True) == [square(n) for n in range(20)]


def test_a_run_that_cannot_start_leaves_no_file(tmp_path):
    path = tmp_path / "deals.jsonl"
    with pytest.raises(BadInput, match="cannot reach the Dask scheduler"):
        run_squares(path, range(3), scheduler="tcp://127.0.0.1:9")
    assert not path.exists()


def test_an_existing_file_is_never_overwritten(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_text("precious\n")
    with pytest.raises(BadInput, match="exists: give --resume"):
        run_squares(path, range(3))
    assert path.read_text() == "precious\n"


def test_progress_lines_when_stderr_is_not_a_terminal(capsys):
    records = list(runs.run(square, range(3), desc="squares", progress_every=0.0))
    assert len(records) == 3
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("squares: 1/3 (33.3%), ") and lines[0].endswith(" left")
    assert lines[-1].startswith("squares: 3/3 (100.0%), ")
    bar = Progress(None, desc="items", every=0.0)
    bar.update(5)
    assert capsys.readouterr().err.startswith("items: 5, ")
    assert rate_text(1.6) == "1.6/s" and rate_text(3 / 1800) == "6.0/h"


def test_run_options_through_the_command_line(tmp_path):
    result = CliRunner().invoke(cli, ["montana", "winrate", "--deals", "2", "--rules",
                                      "4-redeals2", "--resume"])
    assert result.exit_code == 2 and result.output == \
        "error: --resume needs --per-deal FILE (the file of the run to continue)\n"
    path = tmp_path / "deals.jsonl"
    args = ["montana", "winrate", "--deals", "3", "--per-deal", str(path), "--json"]
    first = CliRunner().invoke(cli, [*args, "--rules", "4-redeals2"])
    again = CliRunner().invoke(cli, [*args, "--rules", "4-redeals2"])
    assert again.exit_code == 2 and "exists: give --resume" in again.output
    other = CliRunner().invoke(cli, [*args, "--rules", "4-redeals1", "--resume"])
    assert other.exit_code == 2 and \
        "belongs to another run: rules \"4-redeals2\" there, \"4-redeals1\" here" in other.output
    bad = CliRunner().invoke(cli, [*args[:-3], "--scheduler", "nowhere"])
    assert bad.exit_code == 2 and bad.output == "error: cannot reach the Dask scheduler at " \
        "nowhere: missing port number in address 'nowhere'\n"
    # No half-made Client is left for a later collection to close inside another Client's
    # start, where its close waits on the same lock (a 300 s hang in CI).
    from distributed import Client
    assert not any(isinstance(o, Client) for o in gc.get_objects())
    resumed = CliRunner().invoke(cli, [*args, "--rules", "4-redeals2", "--resume"])
    assert _untimed(json.loads(resumed.output)) == _untimed(json.loads(first.output))


def _untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "wall_seconds")}


def test_win_summary_counts_rate_of_decided_and_the_band():
    s = stats.win_summary(won=30, lost=60, limit=10)
    assert (s["deals"], s["won"], s["lost"], s["limit"]) == (100, 30, 60, 10)
    assert s["win_rate"]["deals"] == 90 and s["win_rate"]["rate"] == pytest.approx(1 / 3)
    lo, hi = s["win_rate"]["wilson95"]
    assert lo < 1 / 3 < hi
    assert s["limits_lost_won"]["rate"] == [0.30, 0.40]
    blo, bhi = s["limits_lost_won"]["wilson95"]
    assert blo == stats.wilson_interval(30, 100)[0] and bhi == stats.wilson_interval(40, 100)[1]
    assert stats.win_summary(0, 0, 4)["win_rate"]["rate"] is None


@pytest.mark.parametrize("game, rules", [
    ("stacksquared", "3x4"), ("agnes", "Up-Suit-None"), ("montana", "5-redeals2"),
    ("stackmgmt", "6x4-k3"), ("spider", "3x4")])
def test_every_game_has_one_winrate_shape(game, rules):
    shared = {"rules", "seed", "start", "max_nodes", "max_states", "max_seconds", "deals", "won",
              "lost", "limit", "win_rate", "limits_lost_won", "seconds", "wall_seconds"}
    result = CliRunner().invoke(cli, [game, "winrate", "--rules", rules, "--deals", "4",
                                      "--max-seconds", "20", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert shared <= set(summary) and summary["rules"] == rules
    assert summary["won"] + summary["lost"] + summary["limit"] == summary["deals"] == 4
    expected = stats.win_summary(summary["won"], summary["lost"], summary["limit"])
    assert {k: summary[k] for k in expected} == expected


def interrupt_at(stop: int, n: int) -> dict:
    """A deal that Ctrl-C interrupts when it is ``stop``."""
    if n == stop:
        raise KeyboardInterrupt
    return square(n)


@pytest.mark.parametrize("options, told", [
    ({"unit": "puzzles"}, "interrupted: 2 of 5 puzzles finished"),
    ({"key": "n"}, "interrupted: 2 of 5 deals finished; none kept (--per-deal FILE keeps them)")])
def test_an_interrupted_run_names_what_it_runs_and_offers_per_deal_only_with_a_key(options,
                                                                                   told):
    with pytest.raises(runs.Interrupted) as caught:
        list(runs.run(partial(interrupt_at, 2), range(5), progress_every=None, **options))
    assert str(caught.value) == told


def test_a_survey_checks_the_records_it_resumes(tmp_path):
    """A 3x4 deal's line in a 4x4 survey's file: its moves do not replay on the 4x4 deal."""
    path, other = tmp_path / "4x4.jsonl", tmp_path / "3x4.jsonl"
    run = ["stacksquared", "winrate", "--deals", "5", "--per-deal"]
    assert CliRunner().invoke(cli, [*run, str(path), "--rules", "4x4"]).exit_code == 0
    assert CliRunner().invoke(cli, [*run, str(other), "--rules", "3x4"]).exit_code == 0
    with open(path, "a") as fh:
        fh.write(other.read_text().splitlines()[3] + "\n")
    result = CliRunner().invoke(cli, [*run, str(path), "--rules", "4x4", "--deals", "8",
                                      "--resume"])
    assert result.exit_code == 2, result.output
    assert "line 7: not a record of this run (" in result.output


def test_a_stream_is_read_only_as_records_are_taken_and_closing_it_ends_the_run():
    """An iterator of specs in this process: one spec read per record taken, in order; a
    consumer that stops early closes the run (nothing more read), and a stream may be endless
    but has no per-deal file."""
    read = []

    def specs():
        for n in itertools.count():
            read.append(n)
            yield n

    with contextlib.closing(runs.run(square, specs(), progress_every=None)) as records:
        assert [next(records) for _ in range(3)] == [square(n) for n in range(3)]
        assert read == [0, 1, 2]
    assert read == [0, 1, 2]
    assert list(runs.run(square, iter(range(4)), progress_every=None)) == \
        [square(n) for n in range(4)]
    assert list(runs.run(square, iter([]), progress_every=None)) == []
    with pytest.raises(ValueError, match="a per-deal file needs a sequence of specs"):
        run_squares("never.jsonl", iter(range(3)))
    with pytest.raises(runs.Interrupted, match="^interrupted: 2 puzzles finished$"):
        list(runs.run(partial(interrupt_at, 2), iter(range(5)), unit="puzzles",
                      progress_every=None))


def stopped_by_ctrl_c(n: int) -> dict:
    """At deal 2, a Ctrl-C while solving (the run's handler, as the signal would call it): the
    deal ends at once, as a long solve that polls ``runs.stopping()`` does."""
    if n == 2:
        assert not runs.stopping()
        runs._stoppers[-1]._handle(signal.SIGINT, None)
        if runs.stopping():
            raise KeyboardInterrupt
    return square(n)


def test_a_deal_ends_at_once_on_ctrl_c_when_it_polls_stopping():
    taken = []
    with pytest.raises(runs.Interrupted, match="^interrupted: 2 of 5 deals finished$"):
        for record in runs.run(stopped_by_ctrl_c, range(5), progress_every=None):
            taken.append(record)
    assert taken == [square(0), square(1)]
    assert not runs.stopping()
