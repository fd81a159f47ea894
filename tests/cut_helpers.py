"""Events built straight from the models for the cut, NRTM, backup and API tests (no pairing engine needed),
and `paired_event` (the engine's round 1) for the player-link tests."""
from __future__ import annotations

import random

from app.core import results
from app.extensions import db
from app.models import Match, Player, Round, Seat, Tournament
from app.services import cut as cut_service
from app.services.swiss import rounds as rounds_service


def add_players(t: Tournament, names) -> list[Player]:
    players = [Player(tournament_id=t.id, name=n, corp_identity=f"{n} Corp", runner_identity=f"{n} Runner")
               for n in names]
    db.session.add_all(players)
    db.session.commit()
    return players


def paired_event(owner, name: str, player_names, **fields) -> Tournament:
    """A single-sided event whose round 1 the engine paired and the TO published."""
    t = Tournament(owner=owner, name=name, format="single", **fields)
    db.session.add(t)
    db.session.flush()
    db.session.add_all(Player(tournament_id=t.id, name=n) for n in player_names)
    db.session.commit()
    rounds_service.pair_next_round(t, 1)
    rounds_service.publish_round(t, 1)
    return t


def add_round(t: Tournament, number: int, tables, published: bool = True) -> Round:
    """`tables`: (first, second, result key) per table, first = Corp in single-sided; (player, None, None) is a
    bye; a None result leaves the game unreported."""
    rnd = Round(tournament_id=t.id, number=number, published=published)
    db.session.add(rnd)
    db.session.flush()
    for table, (a, b, key) in enumerate(tables, 1):
        if b is None:
            match = Match(tournament_id=t.id, round_id=rnd.id, table=table, is_bye=True, result=results.BYE)
            db.session.add(match)
            db.session.flush()
            db.session.add(Seat(tournament_id=t.id, round_id=rnd.id, match_id=match.id, player_id=a.id,
                                position=1, points=t.fmt.scoring.bye, games_won=t.fmt.scoring.bye_game_wins))
            continue
        outcome = results.outcome(t.fmt, key) if key else None
        match = Match(tournament_id=t.id, round_id=rnd.id, table=table, result=outcome and outcome.key,
                      intentional_draw=bool(outcome and outcome.intentional_draw),
                      drawn_games=outcome.drawn_games if outcome else 0)
        db.session.add(match)
        db.session.flush()
        single = t.format == "single"
        for position, p in ((1, a), (2, b)):
            db.session.add(Seat(
                tournament_id=t.id, round_id=rnd.id, match_id=match.id, player_id=p.id, position=position,
                side=("corp" if position == 1 else "runner") if single else None,
                points=outcome.points[position - 1] if outcome else None,
                games_won=outcome.games[position - 1] if outcome else 0))
    db.session.commit()
    return rnd


def random_swiss(t: Tournament, players: list[Player], rounds: int, rng: random.Random) -> None:
    """Rounds of random pairings (a bye for the odd one out) with random results: data, not a good pairing."""
    keys = [k for k, _ in results.buttons(t.fmt)]
    for number in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        tables = [(order[i], order[i + 1], rng.choice(keys)) for i in range(0, len(order) - 1, 2)]
        if len(order) % 2:
            tables.append((order[-1], None, None))
        add_round(t, number, tables)


def play_cut(t: Tournament, pick) -> None:
    """Play the cut to the end through the service: the higher seed corps when a choice is needed;
    `pick(game)` names each winner."""
    while True:
        cut = cut_service.load(t)
        ready = cut.bracket.ready_games()
        if not ready:
            return
        game = ready[0]
        if t.fmt.netrunner and cut.sides(game) is None:
            cut_service.set_corp(t, game.id, game.higher_seed)
        cut_service.report(t, game.id, pick(game))


def fixture_event(owner, make_tournament) -> Tournament:
    """A small fixed single-sided event: 5 players, 3 swiss rounds (byes, a tie, an intentional draw), a
    double-elimination top 4 played to a grand-final reset. The NRTM fixture file is its export."""
    from datetime import date

    t = make_tournament(owner, name="Fixture Open", date=date(2026, 5, 30), format="single")
    a, b, c, d, e = add_players(t, ["Alice", "Bob", "Carol", "Dave", "Erin"])
    add_round(t, 1, [(a, b, "corp"), (c, d, "runner"), (e, None, None)])
    add_round(t, 2, [(e, a, "tie"), (d, b, "id"), (c, None, None)])
    add_round(t, 3, [(a, d, "runner"), (c, e, "corp"), (b, None, None)])
    cut_service.create(t, 4, "double")
    # upper bracket holds, then the lower-bracket player wins the first final and the upper one the reset
    play_cut(t, lambda g: g.player2 if g.section == "final" else g.higher_seed)
    return t
