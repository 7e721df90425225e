"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
deviation (RD) and its volatility, updated after a rating period's games.

The puzzle server rates each counted attempt as one rating period of one game for each side
(docs/server.md).  Written here rather than taken from PyPI: the algorithm is forty lines, and
the packages there are one-person ports without recent releases.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

#: Glicko-2's scale factor between the Glicko scale (1500 +- 350) and its own (0 +- 2.01).
SCALE = 173.7178
#: The system constant: how much the volatility may change (Glickman: 0.3 to 1.2).
TAU = 0.5
#: The convergence tolerance of the volatility's iteration (Glickman's example).
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: ``rating``, deviation ``rd``, volatility ``sigma``."""
    rating: float = 1500.0
    rd: float = 350.0
    sigma: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def update(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after a rating period of ``games`` (opponent, score: 1 win, 0 loss, or in
    between); with no games only the deviation grows (Glickman's step 6)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.sigma
    if not games:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    v_inv, delta_sum = 0.0, 0.0
    for opponent, score in games:
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.rd / SCALE
        g = _g(phi_j)
        e = 1 / (1 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inv
    delta = v * delta_sum
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + v_inv)
    mu += phi * phi * delta_sum
    return Rating(1500 + SCALE * mu, SCALE * phi, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - d) / (2 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = c, f_c
    return math.exp(big_a / 2)
