"""Run quagnes 1.1.0 (the peer) on deal K of seed S under a rule variant, for the agreement
tests (tests/test_agnes_quagnes.py; benchmarks/agnes_vs_quagnes.py plays quagnes the same way)."""
from __future__ import annotations

import random
import time

import quagnes

from solvers.agnes.rules import Rules

_EMPTY = {"None": "none", "Any1": "any 1", "AnyRun": "any run", "High1": "high 1",
          "HighRun": "high run"}
RESULT = {1: "won", 2: "lost", 3: "limit"}


def quagnes_game(rules: Rules, seed: int, index: int, max_states: int = 0) -> "quagnes.Agnes":
    """quagnes's game for deal ``index`` of ``seed`` (random.seed, then index+1 Agnes())."""
    random.seed(seed)
    kwargs = dict(move_to_empty_pile=_EMPTY[rules.empty], move_same_suit=rules.same_suit,
                  split_runs=rules.split, face_up=rules.face_up, max_states=max_states)
    for _ in range(index):
        quagnes.Agnes(**kwargs)
    return quagnes.Agnes(**kwargs)


def quagnes_solve(rules: Rules, seed: int, index: int, max_states: int = 0) -> tuple[str, int, float]:
    """(result, states checked, CPU seconds) of quagnes on one deal."""
    game = quagnes_game(rules, seed, index, max_states)
    t = time.process_time()
    rc = game.play()
    return RESULT[rc], game.n_states_checked, time.process_time() - t
