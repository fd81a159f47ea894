"""Penalties through the routes: a judge records a game loss and the table's result changes through the result
writer (logged with its reason); a second record of the same loss is refused; a disqualification drops the
player and takes an organizer; the log filters by player and round and stays off public and player pages."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, Penalty, Player, ResultChange, Seat, Staff
from app.services.players import player_links
from cut_helpers import paired_event


@pytest.fixture
def event(app, make_user):
    owner = make_user("to@example.com", "correct horse")
    keeper = make_user("sam@example.com", "correct horse")
    keeper.display_name = "Sam the judge"
    t = paired_event(owner, "Penalty Open", ["Ann", "Ben", "Cat", "Dan"])
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    return t


def _seat(t, name):
    """(player, their seat, their match) in round 1."""
    db.session.expire_all()
    player = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id, name=name)).one()
    seat = db.session.scalars(sa.select(Seat).filter_by(player_id=player.id)).one()
    return player, seat, db.session.get(Match, seat.match_id)


def _post(client, t, **data):
    data.setdefault("round", "1")
    data.setdefault("infraction", "tardiness")
    data.setdefault("kind", "game_loss")
    return client.post(f"/tournaments/{t.id}/penalties/new", data=data)


def test_a_game_loss_changes_the_result_through_the_logged_path(event, login):
    t = event
    keeper = login("sam@example.com", "correct horse")
    ann, seat, match = _seat(t, "Ann")
    assert match.result is None
    r = _post(keeper, t, player=str(ann.id), notes="Ten minutes late.\nNo call.")
    assert r.status_code == 303, r.get_data(as_text=True)
    _, seat, match = _seat(t, "Ann")
    expected = "runner" if seat.side == "corp" else "corp"  # the opponent wins the round's one game
    assert match.result == expected and seat.points == 0
    other = db.session.scalars(sa.select(Seat).filter(Seat.match_id == match.id, Seat.id != seat.id)).one()
    assert other.points == 3
    (change,) = db.session.scalars(sa.select(ResultChange)).all()
    assert (change.actor, change.old_result, change.new_result) == ("staff", None, expected)
    assert change.reason == "Game loss for Ann (tardiness)"
    (penalty,) = db.session.scalars(sa.select(Penalty)).all()
    assert (penalty.kind, penalty.round_number, penalty.recorded_by, penalty.result_after) == \
        ("game_loss", 1, "Sam the judge", expected)
    assert penalty.notes == "Ten minutes late.\nNo call."
    page = keeper.get(r.headers["Location"]).get_data(as_text=True)
    assert "Game loss" in page and "Tardiness" in page and "Sam the judge" in page
    round_page = keeper.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    assert "Game loss for Ann (tardiness)" in round_page and "Record a penalty" in round_page

    # the same game loss again (a second tap, another judge): refused, nothing changes
    r = _post(keeper, t, player=str(ann.id))
    assert r.status_code == 409 and "recorded already" in r.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 1
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 1


def test_a_warning_changes_nothing_but_the_log_and_the_log_filters(event, login):
    t = event
    keeper = login("sam@example.com", "correct horse")
    ann, _, match = _seat(t, "Ann")
    ben, *_ = _seat(t, "Ben")
    assert _post(keeper, t, player=str(ann.id), kind="warning", infraction="slow_play").status_code == 303
    assert _post(keeper, t, player=str(ben.id), kind="warning", infraction="missed_trigger",
                 round="").status_code == 303
    assert _seat(t, "Ann")[2].result is None
    everyone = keeper.get(f"/tournaments/{t.id}/penalties").get_data(as_text=True)
    assert "Slow play" in everyone and "Missed trigger" in everyone
    only_ann = keeper.get(f"/tournaments/{t.id}/penalties?player={ann.id}").get_data(as_text=True)
    assert "Slow play" in only_ann and "Missed trigger" not in only_ann
    round_one = keeper.get(f"/tournaments/{t.id}/penalties?round=1").get_data(as_text=True)
    assert "Slow play" in round_one and "Missed trigger" not in round_one


def test_a_disqualification_drops_the_player_and_takes_an_organizer(event, login, app):
    t = event
    ann, *_ = _seat(t, "Ann")
    keeper = login("sam@example.com", "correct horse")
    r = _post(keeper, t, player=str(ann.id), kind="disqualification", infraction="cheating")
    assert r.status_code == 403 and "only an organizer" in r.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 0
    to = login("to@example.com", "correct horse", c=app.test_client())
    r = _post(to, t, player=str(ann.id), kind="disqualification", infraction="cheating")
    assert r.status_code == 303
    ann, seat, match = _seat(t, "Ann")
    # the open game is over: Ann's loss, through the logged result path
    assert ann.dropped and ann.drop_reason == "disqualified"
    assert match.result is not None and seat.points == 0
    change = db.session.scalars(sa.select(ResultChange).filter_by(match_id=match.id)).one()
    assert "Disqualification" in change.reason
    players = to.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert players.count(">disqualified</a>") == 1
    # a second disqualification is refused and stores nothing
    r = _post(to, t, player=str(ann.id), kind="disqualification", infraction="cheating")
    assert r.status_code == 409 and "disqualified already" in r.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 1


def test_refusals_change_nothing(event, login):
    t = event
    keeper = login("sam@example.com", "correct horse")
    ann, *_ = _seat(t, "Ann")
    for data, status in [({"player": "999999"}, 400), ({"player": str(ann.id), "round": "7"}, 400),
                         ({"player": str(ann.id), "round": ""}, 409),
                         ({"player": str(ann.id), "infraction": "nope"}, 400),
                         ({"player": str(ann.id), "notes": "bad\x00"}, 400)]:
        r = _post(keeper, t, **data)
        assert r.status_code == status, (data, r.status_code)
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 0
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id))) == 0


def test_the_log_stays_off_public_and_player_pages(event, login, app):
    t = event
    keeper = login("sam@example.com", "correct horse")
    ann, *_ = _seat(t, "Ann")
    assert _post(keeper, t, player=str(ann.id), kind="warning", infraction="slow_play",
                 notes="SECRET-NOTE").status_code == 303
    anyone = app.test_client()
    for url in (f"/t/{t.slug}", f"/t/{t.slug}/pairings", f"/t/{t.slug}/standings",
                f"/t/{t.slug}/p/{player_links.token(ann)}", f"/api/t/{t.slug}/pairings"):
        body = anyone.get(url).get_data(as_text=True)
        assert "SECRET-NOTE" not in body and "Slow play" not in body, url
    assert anyone.get(f"/tournaments/{t.id}/penalties").status_code in (302, 401)


def test_double_sided_game_loss_takes_the_chosen_game(app, make_user, make_tournament, login):
    from cut_helpers import add_players, add_round

    owner = make_user("to@example.com", "correct horse")
    t = make_tournament(owner, name="Classic", format="double")
    ann, ben, cat, dan = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(ann, ben, "3-0/3-0"), (cat, dan, None)])
    to = login()
    form = to.get(f"/tournaments/{t.id}/penalties/new").get_data(as_text=True)
    assert "game 2" in form and "The other game" in form
    # which game is required for a double-sided game loss
    assert _post(to, t, player=str(ann.id), game="0").status_code == 400
    assert _post(to, t, player=str(ann.id), game="2").status_code == 303
    _, seat, match = _seat(t, "Ann")
    assert match.result == "3-0/0-3" and seat.points == 3
    # before the result is in, the other game is asked for
    r = _post(to, t, player=str(dan.id), game="1")
    assert r.status_code == 409 and "other game" in r.get_data(as_text=True)
    assert _post(to, t, player=str(dan.id), game="1", other_game="tie").status_code == 303
    _, seat, match = _seat(t, "Dan")
    assert match.result == "3-0/1-1" and seat.points == 1
    # a match loss on top of a game loss in the same round is the same loss again: refused
    assert _post(to, t, player=str(ann.id), kind="match_loss").status_code == 409


def test_the_nrtm_file_carries_the_loss_as_its_result_and_nothing_else(event, login, app):
    t = event
    keeper = login("sam@example.com", "correct horse")
    ann, seat, _ = _seat(t, "Ann")
    assert _post(keeper, t, player=str(ann.id), notes="SECRET-NOTE").status_code == 303
    body = app.test_client().get(f"/t/{t.slug}.json")
    assert body.status_code == 200
    text = body.get_data(as_text=True)
    assert "SECRET-NOTE" not in text and "tardiness" not in text.lower()
    data = body.get_json()
    number = next(p["id"] for p in data["players"] if p["name"] == "Ann")
    (pairing,) = [p for p in data["rounds"][0] if number in (p["player1"]["id"], p["player2"]["id"])]
    mine = pairing["player1"] if pairing["player1"]["id"] == number else pairing["player2"]
    theirs = pairing["player2"] if mine is pairing["player1"] else pairing["player1"]
    assert (mine["combinedScore"], theirs["combinedScore"]) == (0, 3)  # the lost game; no points taken off


def test_a_finished_round_takes_the_judges_confirmation_and_the_cut_refuses(app, make_user, make_tournament, login):
    from cut_helpers import add_players, add_round

    owner = make_user("to@example.com", "correct horse")
    t = make_tournament(owner, name="Later")
    ann, ben, cat, dan = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(ann, ben, "corp"), (cat, dan, "corp")])
    add_round(t, 2, [(ann, cat, None), (ben, dan, None)])
    to = login()
    r = _post(to, t, player=str(ann.id), infraction="deck_error")
    assert r.status_code == 409 and "Round 1 is over" in r.get_data(as_text=True)
    assert _seat_in(t, ann, 1).points == 3
    assert _post(to, t, player=str(ann.id), infraction="deck_error", past="y").status_code == 303
    assert _seat_in(t, ann, 1).points == 0
    t.cut_kind = "double"
    db.session.commit()
    r = _post(to, t, player=str(cat.id), round="2", infraction="slow_play")
    assert r.status_code == 409 and "top cut exists" in r.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 1


def _seat_in(t, player, number):
    from app.models import Round

    db.session.expire_all()
    return db.session.scalars(sa.select(Seat).join(Round, Round.id == Seat.round_id)
                              .where(Seat.player_id == player.id, Round.number == number)).one()


def test_the_forms_player_list_says_each_players_state_as_the_rule_words_it(event, login):
    """A waiting player is on the waitlist, not "dropped"; everyone the judge might need is listed, each with the
    staff's words for their state."""
    from app.models import WaitlistEntry
    t = event
    eve = Player(tournament_id=t.id, name="Eve", dropped=True)  # the waitlist's mechanism: out of pairings
    db.session.add(eve)
    db.session.flush()
    db.session.add(WaitlistEntry(tournament_id=t.id, player_id=eve.id, position=1))
    db.session.execute(sa.update(Player).where(Player.name == "Ben").values(dropped=True, drop_reason="player"))
    db.session.commit()
    to = login("to@example.com", "correct horse")
    ann, *_ = _seat(t, "Ann")
    assert _post(to, t, player=str(ann.id), kind="disqualification", infraction="cheating").status_code == 303
    page = to.get(f"/tournaments/{t.id}/penalties/new").get_data(as_text=True)
    options = {name: line for name in ("Ann", "Ben", "Cat", "Dan", "Eve")
               for line in page.split("<option")[1:] if f">{name} " in line or f">{name}<" in line}
    assert set(options) == {"Ann", "Ben", "Cat", "Dan", "Eve"}
    assert "waitlist position 1" in options["Eve"] and "dropped" not in options["Eve"]
    assert "dropped (by the player)" in options["Ben"]
    assert "disqualified" in options["Ann"]
    assert "registered" in options["Cat"] and "dropped" not in options["Cat"]
    # those still in the event first, then the waitlist, then those out
    assert page.index(">Cat ") < page.index(">Eve ") < page.index(">Ann ")


def test_a_table_a_disqualification_ended_takes_no_penalty_loss_for_the_opponent(event, login, app):
    """Both players losing is no result: once a disqualification has ended the table as the disqualified player's
    loss, a game loss for their opponent in that round is refused and changes nothing."""
    t = event
    ann, _, match = _seat(t, "Ann")
    other = db.session.scalars(sa.select(Seat).where(Seat.match_id == match.id, Seat.player_id != ann.id)).one()
    to = login("to@example.com", "correct horse", c=app.test_client())
    assert _post(to, t, player=str(ann.id), kind="disqualification", infraction="cheating").status_code == 303
    _, _, match = _seat(t, "Ann")
    result = match.result
    r = _post(to, t, player=str(other.player_id), kind="game_loss", infraction="tardiness")
    assert r.status_code == 409 and "disqualification ended this table" in r.get_data(as_text=True)
    _, _, match = _seat(t, "Ann")
    assert match.result == result
    assert db.session.scalar(sa.select(sa.func.count(Penalty.id))) == 1
    assert db.session.scalar(sa.select(sa.func.count(ResultChange.id)).filter_by(match_id=match.id)) == 1
