"""Penalties and deck checks in the database (docs/domain.md 17): recording an infraction and its penalty, a game
loss applied through the one result writer (app/services/results/match_results.py), a disqualification's drop, the
staff's penalty log (`record`); random deck checks drawn from a stored seed and marked checked (`deck_checks`);
both carried by the event's backup under a key of their own (`carried`). The rules are app/core/penalties.py and
app/core/deck_checks.py."""
