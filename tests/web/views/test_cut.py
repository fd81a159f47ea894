"""The top cut through its pages: seeding, sides, results, corrections, the grand-final reset, standings."""
from __future__ import annotations

import re

import html
import random

import pytest
import sqlalchemy as sa

from app.core.bracket_games import SIZES
from app.extensions import db
from app.models import CutEntry, CutResult, Player, Round
from app.services import cut as cut_service
from cut_helpers import add_players, add_round, random_swiss


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def _says(response, message: str) -> bool:
    return message.lower() in _text(response).lower()


def _event(make_user, make_tournament, n=8, fmt="single", rounds=3, seed=1):
    owner = make_user()
    t = make_tournament(owner, format=fmt)
    players = add_players(t, [f"P{i:02d}" for i in range(1, n + 1)])
    random_swiss(t, players, rounds, random.Random(seed))
    return t, players


def _post_cut(client, t, size, kind="double", exclude=()):
    return client.post(f"/tournaments/{t.id}/cut", data={"size": size, "kind": kind, "exclude": list(exclude)})


def _game(client, t, game, action, player):
    return client.post(f"/tournaments/{t.id}/cut/games/{game}/{action}", data={"player": player})


def _play(client, t, game, winner):
    """Report a winner, the higher seed taking Corp first when the sides are still open."""
    cut = cut_service.load(t)
    g = cut.bracket.game(game)
    if cut.sides(g) is None:
        assert _game(client, t, game, "corp", g.higher_seed).status_code in (302, 303)
    response = _game(client, t, game, "winner", winner)
    assert response.status_code in (302, 303), _text(response)[:3000]


@pytest.mark.slow
@pytest.mark.parametrize("kind, size", [(k, n) for k in ("double", "single") for n in SIZES[k]])
def test_every_bracket_played_through_the_pages(client, make_user, make_tournament, login, kind, size):
    """Random winners for every game: every game gets played, nobody plays after going out, and the final
    standings are the cut (by elimination round, then seed) followed by the rest in swiss order."""
    t, _ = _event(make_user, make_tournament, n=size + 3, rounds=2, seed=size)
    login()
    assert _post_cut(client, t, size, kind).status_code in (302, 303)
    rng = random.Random(size * 7 + len(kind))
    losses: dict = {}
    played = 0
    while True:
        cut = cut_service.load(t)
        ready = cut.bracket.ready_games()
        if not ready:
            break
        game = rng.choice(ready)
        for p in game.players:
            assert losses.get(p, 0) < cut.bracket.losses_to_go_out, f"{p} plays after going out"
        if cut.sides(game) is None:
            assert _game(client, t, game.id, "corp", rng.choice(game.players)).status_code in (302, 303)
        winner = rng.choice(game.players)
        response = _game(client, t, game.id, "winner", winner)
        assert response.status_code in (302, 303), _text(response)[:2000]
        loser = game.player2 if winner == game.player1 else game.player1
        losses[loser] = losses.get(loser, 0) + 1
        played += 1
    cut = cut_service.load(t)
    assert cut.bracket.is_complete() and all(g.reported for g in cut.bracket.games)
    expected_games = {"single": size - 1, "double": 2 * size - 2}[kind]
    assert played in (expected_games, expected_games + 1)  # + the grand-final reset
    standings = cut.final_standings()
    assert sorted(r["player"] for r in standings[:size]) == sorted(cut.bracket.seeds)
    assert standings[0]["player"] == cut.bracket.champion()
    swiss_rest = [s.player for s in cut.swiss if s.player not in cut.bracket.seeds]
    assert [r["player"] for r in standings[size:]] == swiss_rest
    out = [r["out_in_round"] for r in standings[1:size]]
    assert out == sorted(out, reverse=True)
    page = client.get(f"/tournaments/{t.id}/cut")
    assert page.status_code == 200 and "Champion" in _text(page)


def test_seeds_skip_dropped_and_declined_players(client, make_user, make_tournament, login):
    t, players = _event(make_user, make_tournament, n=8)
    standings = cut_service.swiss_standings(t)
    first, second, third = (db.session.get(Player, s.player) for s in standings[:3])
    first.dropped = True
    db.session.commit()
    login()
    page = client.get(f"/tournaments/{t.id}/cut")
    assert page.status_code == 200 and second.name in _text(page) and "Create the cut" in _text(page)
    assert _post_cut(client, t, 4, exclude=[second.id]).status_code in (302, 303)
    seeds = db.session.scalars(sa.select(CutEntry.player_id).filter_by(tournament_id=t.id)
                               .order_by(CutEntry.seed)).all()
    ranked = [s.player for s in cut_service.swiss_standings(t) if s.player not in (first.id, second.id)]
    assert seeds == ranked[:4] and seeds[0] == third.id
    assert t.cut_kind == "double"


@pytest.mark.parametrize("form, message", [
    ({"size": 5, "kind": "double"}, "Not a valid choice"),
    ({"size": 2, "kind": "double"}, "double elimination cut has 3, 4, 8, 16 players, not 2"),
    ({"size": 16, "kind": "double"}, "needs 16 eligible players"),
    ({"size": "x" * 10000, "kind": "double"}, "Invalid Choice"),
    ({"size": 4, "kind": "triple"}, "Not a valid choice"),
])
def test_bad_cut_requests_change_nothing(client, make_user, make_tournament, login, form, message):
    t, _ = _event(make_user, make_tournament, n=8)
    login()
    response = client.post(f"/tournaments/{t.id}/cut", data=form)
    assert response.status_code == 400 and _says(response, message)
    assert db.session.scalar(sa.select(sa.func.count(CutEntry.id))) == 0 and t.cut_kind is None


def test_cut_waits_for_swiss_results_and_is_made_once(client, make_user, make_tournament, login):
    t, players = _event(make_user, make_tournament, n=6, rounds=1)
    add_round(t, 2, [(players[0], players[1], None), (players[2], players[3], "corp"),
                     (players[4], players[5], "runner")])
    login()
    response = _post_cut(client, t, 4)
    assert response.status_code == 400 and "1 swiss table still without a result" in _text(response)
    match = t.rounds[1].matches[0]
    match.result = "corp"
    for seat, points in zip(match.seats, (3, 0)):
        seat.points = points
    db.session.commit()
    assert _post_cut(client, t, 4).status_code in (302, 303)
    with pytest.raises(cut_service.CutError, match="already has a cut"):
        cut_service.create(t, 4, "double")


def test_plain_swiss_cuts_to_single_elimination_without_sides(client, make_user, make_tournament, login):
    t, _ = _event(make_user, make_tournament, n=9, fmt="plain")
    login()
    assert _post_cut(client, t, 8, "double").status_code == 400
    assert _post_cut(client, t, 8, "single").status_code in (302, 303)
    cut = cut_service.load(t)
    game = cut.bracket.ready_games()[0]
    assert cut.sides(game) is None
    assert _game(client, t, game.id, "corp", game.player1).status_code == 400
    assert _game(client, t, game.id, "winner", game.player2).status_code in (302, 303)
    assert cut_service.load(t).bracket.game(game.id).winner == game.player2


def _balanced_four(make_user, make_tournament):
    """Four players who each played Corp once and Runner once in the swiss."""
    t = make_tournament(make_user())
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, "corp"), (c, d, "corp")])
    add_round(t, 2, [(b, a, "runner"), (d, c, "runner")])
    return t


def test_sides_higher_seed_chooses_then_the_corp_player_runs(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    login()
    _post_cut(client, t, 4)
    s1, s2, s3, s4 = cut_service.load(t).bracket.seeds
    # game 1 (seed 1 v 4): no sides until the higher seed has chosen
    response = _game(client, t, 1, "winner", s1)
    assert response.status_code == 400 and _says(response, "record who plays Corp in game 1 first")
    assert "higher seed" in _text(response)
    assert _game(client, t, 1, "corp", s1).status_code in (302, 303)
    assert _game(client, t, 2, "corp", s3).status_code in (302, 303)  # seed 2 chose to run
    # the TO swaps game 2: seed 2 corps after all, then swaps back
    assert _game(client, t, 2, "corp", s2).status_code in (302, 303)
    assert cut_service.load(t).sides(cut_service.load(t).bracket.game(2)) == (s2, s3)
    assert _game(client, t, 2, "corp", s3).status_code in (302, 303)
    assert _game(client, t, 1, "winner", s1).status_code in (302, 303)
    assert _game(client, t, 2, "winner", s2).status_code in (302, 303)
    cut = cut_service.load(t)
    # game 3: seed 1 corped in game 1 (Corp +1), seed 2 ran in game 2 (Runner +1): seed 1 runs
    assert cut.sides(cut.bracket.game(3)) == (s2, s1)
    # game 4: seed 4 ran, seed 3 corped: seed 3 runs
    assert cut.sides(cut.bracket.game(4)) == (s4, s3)
    page = _text(client.get(f"/tournaments/{t.id}/cut"))
    assert "(swap)" in page and "won</button>" in page
    # a wrong player, a game that does not exist yet or at all, garbage: refused with a message, no change
    before = db.session.scalars(sa.select(CutResult.game)).all()
    assert _game(client, t, 3, "winner", s3).status_code == 400
    assert "no players yet" in _text(_game(client, t, 5, "winner", s1))
    assert "no game 99" in _text(_game(client, t, 99, "winner", s1))
    assert _game(client, t, 3, "winner", "abc").status_code == 400
    assert _game(client, t, 3, "winner", "9" * 30).status_code == 400
    assert db.session.scalars(sa.select(CutResult.game)).all() == before


def test_corrections_until_dependent_games_are_reported(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    login()
    _post_cut(client, t, 4)
    s1, s2, s3, s4 = cut_service.load(t).bracket.seeds
    for game, corp, winner in ((1, s1, s1), (2, s2, s2)):
        _game(client, t, game, "corp", corp)
        _game(client, t, game, "winner", winner)
    # game 1 corrected while games 3 and 4 wait: seed 4 now plays game 3
    assert _game(client, t, 1, "winner", s4).status_code in (302, 303)
    assert set(cut_service.load(t).bracket.game(3).players) == {s4, s2}
    assert _game(client, t, 1, "winner", s1).status_code in (302, 303)
    _play(client, t, 3, s1)
    response = _game(client, t, 1, "winner", s4)
    assert response.status_code == 400
    assert _says(response, "game 1 cannot be corrected: game 3")
    names = {p.id: p.name for p in db.session.scalars(sa.select(Player))}
    assert f"{names[s1]} v {names[s2]}" in _text(response)
    assert cut_service.load(t).bracket.game(1).winner == s1
    # re-saving the same winner is not a change, so it is allowed
    assert _game(client, t, 1, "winner", s1).status_code in (302, 303)


def test_grand_final_reset_only_when_the_lower_bracket_player_wins(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    login()
    _post_cut(client, t, 4)
    s1, s2, s3, s4 = cut_service.load(t).bracket.seeds
    for game, winner in ((1, s1), (2, s2), (3, s1), (4, s3), (5, s2)):
        _play(client, t, game, winner)
    _play(client, t, 6, s1)  # the upper-bracket player wins: no reset
    cut = cut_service.load(t)
    assert cut.bracket.is_complete() and [g.id for g in cut.bracket.games][-1] == 6
    assert cut.bracket.champion() == s1
    # corrected: the lower-bracket player won the final -> the reset appears and decides
    assert _game(client, t, 6, "winner", s2).status_code in (302, 303)
    cut = cut_service.load(t)
    assert not cut.bracket.is_complete() and cut.bracket.game(7).ready
    _play(client, t, 7, s2)
    cut = cut_service.load(t)
    assert cut.bracket.champion() == s2
    assert [r["player"] for r in cut.final_standings()] == [s2, s1, s3, s4]
    assert _says(_game(client, t, 6, "winner", s1), "cannot be corrected: game 7")


def test_stale_side_choice_goes_when_a_correction_changes_the_players(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    login()
    _post_cut(client, t, 4)
    s1, s2, s3, s4 = cut_service.load(t).bracket.seeds
    _game(client, t, 1, "corp", s1)
    _game(client, t, 1, "winner", s1)
    _game(client, t, 2, "corp", s2)
    _game(client, t, 2, "winner", s2)
    _game(client, t, 3, "corp", s1)  # recorded choice for game 3 (sides would be computed, TO overrides)
    _game(client, t, 1, "winner", s4)
    assert db.session.scalar(sa.select(CutResult).filter_by(tournament_id=t.id, game=3)) is None


def test_delete_the_cut(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    login()
    _post_cut(client, t, 4)
    assert client.post(f"/tournaments/{t.id}/cut/delete").status_code in (302, 303)
    assert t.cut_kind is None and db.session.scalar(sa.select(sa.func.count(CutEntry.id))) == 0
    assert "Create the cut" in _text(client.get(f"/tournaments/{t.id}/cut"))


def test_public_bracket_page(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    page = client.get(f"/t/{t.slug}/bracket")
    assert page.status_code == 200 and "No top cut yet" in _text(page)
    login()
    _post_cut(client, t, 4)
    s1 = cut_service.load(t).bracket.seeds[0]
    _game(client, t, 1, "corp", s1)
    _game(client, t, 1, "winner", s1)
    client.post("/logout")
    page = _text(client.get(f"/t/{t.slug}/bracket"))
    assert 'name="viewport"' in page and "Upper bracket" in page and "Lower bracket" in page
    assert "Winner of game 2" in page and "Loser of game 2" in page and "won" in page and "<form" not in page.split("<main>")[1]
    assert client.get("/t/nosuch/bracket").status_code == 404


def test_only_the_organizer_runs_the_cut(client, make_user, make_tournament, login):
    t = _balanced_four(make_user, make_tournament)
    assert client.get(f"/tournaments/{t.id}/cut").status_code in (302, 303)  # to the login page
    make_user("mallory@example.com", "mallory password")
    login("mallory@example.com", "mallory password")
    assert client.get(f"/tournaments/{t.id}/cut").status_code == 403
    assert _post_cut(client, t, 4).status_code == 403
    assert client.get("/tournaments/999999/cut").status_code == 404
    assert t.cut_kind is None


def test_no_swiss_round_is_paired_once_the_cut_exists(client, make_user, make_tournament, login):
    t, players = _event(make_user, make_tournament, n=6, rounds=2)
    login()
    assert _post_cut(client, t, 4).status_code in (302, 303)
    response = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 3}, follow_redirects=True)
    assert "The top cut has started" in _text(response)
    assert db.session.scalar(sa.select(sa.func.count(Round.id)).where(Round.tournament_id == t.id)) == 2


def test_event_home_follows_the_cut_to_the_champion(client, make_user, make_tournament, login):
    """After the cut the home stops sending players to swiss pairings: it shows the cut's round, then the champion."""
    t = _balanced_four(make_user, make_tournament)
    before = _text(client.get(f"/t/{t.slug}"))
    assert "Find my table" in before and "cut" not in before.lower()
    login()
    _post_cut(client, t, 4, "single")
    home = _text(client.get(f"/t/{t.slug}"))
    assert "Top 4 cut: round 1 of the bracket is being played." in home
    assert f'href="/t/{t.slug}/bracket"' in home and "Find my table" not in home and "is up." not in home
    cut = cut_service.load(t)
    for g in cut.bracket.ready_games():
        _play(client, t, g.id, g.higher_seed)
    assert "Top 4 cut: round 2 of the bracket" in _text(client.get(f"/t/{t.slug}"))
    final = cut_service.load(t).bracket.ready_games()[0]
    _play(client, t, final.id, final.player2)
    champion = cut_service.load(t).name(final.player2)
    home = _text(client.get(f"/t/{t.slug}"))
    assert f"Champion: <strong>{champion}</strong>" in home and "Final bracket" in home
    assert "being played" not in home and "Find my table" not in home


@pytest.mark.parametrize("n, size", [(20, 4), (40, 8)])
def test_cut_page_recommends_warns_and_previews(client, make_user, make_tournament, login, n, size):
    t, players = _event(make_user, make_tournament, n=n, rounds=3)
    t.planned_rounds = 5
    players[0].dropped = True
    db.session.commit()
    login()
    page = _text(client.get(f"/tournaments/{t.id}/cut"))
    assert f'<option selected value="{size}">{size}</option>' in page
    assert "Only 3 of the 5 planned swiss rounds are played" in page
    eligible = [s.name for s in cut_service.swiss_standings(t) if not s.dropped]
    preview = page.split('<ol class="cut-preview">', 1)[1].split("</ol>", 1)[0]
    items = re.findall(r'<li data-player="\d+"( hidden)?>([^<(]+) \(', preview)
    # every eligible player is listed for the script that follows the size; the first `size` are shown
    assert [name for _, name in items] == eligible[:len(items)] and len(items) >= size
    assert [name for hidden, name in items if not hidden] == eligible[:size]
    assert players[0].name not in preview
    # the plan is advice: creating the top `size` seeds exactly the previewed players
    assert _post_cut(client, t, size).status_code == 302
    seeds = db.session.scalars(sa.select(CutEntry).filter_by(tournament_id=t.id).order_by(CutEntry.seed)).all()
    assert [db.session.get(Player, e.player_id).name for e in seeds] == eligible[:size]


def test_small_field_gets_no_cut_advice_and_no_early_warning(client, make_user, make_tournament, login):
    t, _ = _event(make_user, make_tournament, n=8, rounds=3)
    t.planned_rounds = 3
    db.session.commit()
    login()
    page = _text(client.get(f"/tournaments/{t.id}/cut"))
    assert "fewer than 16 players usually play no cut" in page
    assert "planned swiss rounds" not in page
    assert len(re.findall(r'<li data-player="\d+">P', page)) == cut_service.DEFAULT_SIZE  # a top 4 previewed


def test_single_elimination_top3_through_the_form_is_cobras(client, make_user, make_tournament, login):
    """The cut form offers single elimination top 2 and top 3; a top 3 opens with seeds 2 v 3 while seed 1
    waits for the winner in the final."""
    t, _ = _event(make_user, make_tournament, n=6)
    login()
    page = _text(client.get(f"/tournaments/{t.id}/cut"))
    assert '<option value="2">2</option>' in page and '<option value="3">3</option>' in page
    assert _post_cut(client, t, 3, "single").status_code in (302, 303)
    cut = cut_service.load(t)
    seeds = cut.bracket.seeds
    assert [(g.id, g.round, g.section, g.players) for g in cut.bracket.games] == [
        (1, 1, "upper", (seeds[1], seeds[2])), (2, 2, "final", (seeds[0], None))]
    _play(client, t, 1, seeds[2])
    _play(client, t, 2, seeds[2])
    cut = cut_service.load(t)
    assert cut.bracket.champion() == seeds[2]
    assert [r["player"] for r in cut.final_standings()[:3]] == [seeds[2], seeds[0], seeds[1]]
