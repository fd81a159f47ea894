"""The engine's one entry point: the next round of any format from the entrants and the games so far."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping, Sequence

from .costs import DEFAULT_SCORE_FACTOR
from .formats import Format
from .history import History, gc_paused
from .types import Entrant, Game, PlayerId, RoundPlan


def pair_round(
    fmt: Format,
    entrants: Sequence[Entrant],
    games: Sequence[Game],
    *,
    round_number: int | None = None,
    seed=0,
    score_factor=DEFAULT_SCORE_FACTOR,
    cost_model: str = "sass",
    power_pairing: bool = False,
    solver: str = "auto",
    work_budget: int | None = None,
    strengths: Mapping[PlayerId, int | Fraction] | None = None,
) -> RoundPlan:
    """Pair the next round. Raises PairingError (naming the players) when no legal pairing exists.

    `entrants` are all players, dropped ones included (never paired); `games` the completed history.
    Same input and seed, same output. Single-sided: each Pairing's `player` plays Corp.
    `work_budget` (sided swiss): the fast solver's budget in counted work units (default work.WORK_BUDGET);
    past it the round is the best pairing found, `certified_optimal` False and `gap` its proven distance
    from the optimum.
    `strengths` (optional: a rating, a rank; exact ints or Fractions, higher is stronger) only choose among
    pairings of equal cost, inside each cell (strength.py): the cost is never changed by them.
    """
    fmt = Format(fmt)
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("two entrants share an id")
    games = list(games)
    if round_number is None:
        round_number = max((g.round for g in games), default=0) + 1
    with gc_paused():
        if fmt.counts_games:
            from .plain import pair_plain  # written beside this module; imported when first needed

            return pair_plain(entrants, games, round_number, seed, power_pairing, solver, strengths)
        if power_pairing:
            raise ValueError("power pairing is a plain-swiss option")
        from .swiss import pair_sided

        history = History(fmt, games, ids)
        return pair_sided(fmt, entrants, history, round_number, seed, score_factor, cost_model, solver,
                          work_budget, strengths)
