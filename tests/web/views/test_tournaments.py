"""Tournaments: create, edit, delete, the organizer's list and the TO dashboard."""
from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.web.forms.tournaments import default_score_factor, parse_score_factor
from app.models import Match, Player, Round, Seat, Tournament

VALID = {"name": "Store Championship", "date": "2026-03-14", "format": "single", "score_factor": "2",
         "planned_rounds": "", "tiebreakers": "magic"}


@pytest.fixture
def organizer(make_user, login):
    user = make_user()
    login()
    return user


def _tournaments() -> list[Tournament]:
    db.session.commit()
    return db.session.scalars(sa.select(Tournament).order_by(Tournament.id)).all()


def test_create_single_sided(client, organizer):
    response = client.post("/tournaments/new", data={**VALID, "score_factor": "2.5", "planned_rounds": "6",
                                                     "power_pairing": "y", "tiebreakers": "wow"})
    (t,) = _tournaments()
    assert response.status_code == 302 and response.location == f"/tournaments/{t.id}"
    assert (t.name, t.date, t.format, t.planned_rounds, t.owner_id) == (
        "Store Championship", date(2026, 3, 14), "single", 6, organizer.id)
    assert t.score_factor == "5/2" and t.score_factor_value == Fraction(5, 2)
    assert t.tiebreakers is None and t.power_pairing is False  # plain swiss settings do not apply
    assert len(t.slug) >= 6


def test_create_plain_swiss_keeps_its_settings(client, organizer):
    client.post("/tournaments/new", data={**VALID, "format": "plain", "tiebreakers": "wow", "power_pairing": "y"})
    (t,) = _tournaments()
    assert (t.format, t.tiebreakers, t.power_pairing) == ("plain", "wow", True)


def test_new_form_shows_the_default_score_factor(client, organizer):
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert f'value="{default_score_factor()}"' in page
    assert "Single-sided swiss" in page and "Double-sided swiss" in page and "Plain swiss" in page


@pytest.mark.parametrize("text, value", [("2", Fraction(2)), ("2.5", Fraction(5, 2)), ("5/2", Fraction(5, 2)),
                                         (" 3 ", Fraction(3)), ("0.1", Fraction(1, 10)), ("100", Fraction(100))])
def test_parse_score_factor(text, value):
    assert parse_score_factor(text) == value


@pytest.mark.parametrize("text", ["", "0", "-1", "abc", "1/0", "nan", "inf", "101", "1/3333333333333333"])
def test_parse_score_factor_refuses(text):
    with pytest.raises(ValueError):
        parse_score_factor(text)


def test_score_factor_is_validated_only_for_single_sided(client, organizer):
    response = client.post("/tournaments/new", data={**VALID, "score_factor": "two"})
    assert response.status_code == 422 and "such as 2, 2.5 or 5/2" in response.get_data(as_text=True)
    assert _tournaments() == []
    response = client.post("/tournaments/new", data={**VALID, "format": "double", "score_factor": "two"})
    assert response.status_code == 302
    assert _tournaments()[0].score_factor == default_score_factor()


def test_a_format_that_is_none_is_refused_before_any_setting_asks_it(client, organizer):
    response = client.post("/tournaments/new", data={**VALID, "format": "swiss", "score_factor": "two",
                                                     "tiebreakers": "coin"})
    assert response.status_code == 422 and "Not a valid choice" in response.get_data(as_text=True)
    assert len(_tournaments()) == 0


def test_each_format_only_box_carries_the_formats_its_trait_names(client, organizer):
    page = client.get("/tournaments/new").get_data(as_text=True)
    assert 'data-formats="plain"' in page and 'data-formats="single"' in page


def test_edit(client, organizer, make_tournament):
    t = make_tournament(organizer)
    page = client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)
    assert 'value="Store Championship"' in page and "Delete tournament" in page
    response = client.post(f"/tournaments/{t.id}/edit", data={**VALID, "name": "Regionals", "score_factor": "5/2",
                                                               "planned_rounds": "7"})
    assert response.status_code == 302
    (t,) = _tournaments()
    assert (t.name, t.score_factor, t.planned_rounds) == ("Regionals", "5/2", 7)


def test_format_is_fixed_once_round_one_exists(client, organizer, make_tournament):
    t = make_tournament(organizer)
    assert client.post(f"/tournaments/{t.id}/edit", data={**VALID, "format": "double"}).status_code == 302
    assert _tournaments()[0].format == "double"
    db.session.add(Round(tournament_id=t.id, number=1))
    db.session.commit()
    page = client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)
    assert "fixed once round 1 exists" in page
    response = client.post(f"/tournaments/{t.id}/edit", data={**VALID, "format": "single"})
    assert response.status_code == 422
    assert _tournaments()[0].format == "double"
    response = client.post(f"/tournaments/{t.id}/edit", data={**VALID, "format": "double", "name": "Renamed"})
    assert response.status_code == 302 and _tournaments()[0].name == "Renamed"


def test_delete_needs_the_confirmation_box(client, organizer, make_tournament):
    t = make_tournament(organizer)
    p = Player(tournament_id=t.id, name="Ann")
    db.session.add(p)
    db.session.flush()
    rnd = Round(tournament_id=t.id, number=1)
    db.session.add(rnd)
    db.session.flush()
    match = Match(tournament_id=t.id, round_id=rnd.id, table=1, is_bye=True)
    db.session.add(match)
    db.session.flush()
    db.session.add(Seat(tournament_id=t.id, round_id=rnd.id, match_id=match.id, player_id=p.id, position=1))
    db.session.commit()
    response = client.post(f"/tournaments/{t.id}/delete")
    assert response.status_code == 302 and response.location.endswith("/edit")
    assert len(_tournaments()) == 1
    response = client.post(f"/tournaments/{t.id}/delete", data={"confirm": "y"})
    assert response.status_code == 302 and response.location == "/tournaments"
    assert _tournaments() == []
    for model in (Player, Round, Match, Seat):
        assert db.session.scalar(sa.select(sa.func.count()).select_from(model)) == 0
    assert client.get(f"/tournaments/{t.id}").status_code == 404


def test_index_lists_only_mine(client, organizer, make_user, make_tournament):
    make_tournament(organizer, name="Mine")
    make_tournament(make_user("other@example.com"), name="Theirs")
    page = client.get("/tournaments").get_data(as_text=True)
    assert "Mine" in page and "Theirs" not in page


def test_index_empty_state(client, organizer):
    page = client.get("/tournaments").get_data(as_text=True)
    assert "No tournaments yet" in page and "/tournaments/new" in page


def test_dashboard(client, organizer, make_tournament):
    t = make_tournament(organizer, planned_rounds=5)
    db.session.add_all([Player(tournament_id=t.id, name=f"P{i}", dropped=i == 0) for i in range(9)])
    db.session.commit()
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "Store Championship" in page and "Single-sided swiss" in page
    assert f"/t/{t.slug}" in page
    assert f"/tournaments/{t.id}/players" in page
    assert "1 dropped" in page and ">8<" in page  # active players
    assert "not started" in page
    assert ">3<" in page  # recommended rounds for 8 active players: ceil(log2 8)


def test_dashboard_links_to_the_other_areas_that_exist(app, client, organizer, make_tournament):
    t = make_tournament(organizer)
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    for endpoint, url in (("rounds.index", f"/tournaments/{t.id}/rounds"),
                          ("rounds.standings", f"/tournaments/{t.id}/standings"),
                          ("rounds.export_standings", f"/tournaments/{t.id}/standings.csv"),
                          ("rounds.export_games", f"/tournaments/{t.id}/games.csv"),
                          ("cut.index", f"/tournaments/{t.id}/cut")):
        assert (url in page) == (endpoint in app.view_functions), endpoint


def test_dashboard_shows_round_status(client, organizer, make_tournament):
    t = make_tournament(organizer)
    db.session.add(Round(tournament_id=t.id, number=1, published=False))
    db.session.commit()
    assert "round 1 not yet published" in client.get(f"/tournaments/{t.id}").get_data(as_text=True)


def test_another_organizer_gets_403(client, make_user, make_tournament, login):
    t = make_tournament(make_user("owner@example.com"))
    make_user()
    login()
    for url in (f"/tournaments/{t.id}", f"/tournaments/{t.id}/edit"):
        assert client.get(url).status_code == 403
    assert client.post(f"/tournaments/{t.id}/edit", data={**VALID, "name": "Mine now"}).status_code == 403
    assert client.post(f"/tournaments/{t.id}/delete", data={"confirm": "y"}).status_code == 403
    assert _tournaments()[0].name == "Store Championship"


def test_admin_sees_every_tournament_and_changes_none(client, make_user, make_tournament, login):
    """The site admin reads and exports every event (docs/security.md, "Who may do what"), changes only their own."""
    owner = make_user("owner@example.com")
    t = make_tournament(owner)
    make_user("admin@example.com", is_admin=True)
    login("admin@example.com")
    assert client.get("/tournaments").get_data(as_text=True).count(t.name) == 1
    page = client.get(f"/tournaments/{t.id}")
    assert page.status_code == 200 and "Read-only" in page.get_data(as_text=True)
    assert client.get(f"/tournaments/{t.id}/standings.csv").status_code == 200
    assert client.post(f"/tournaments/{t.id}/edit", data={**VALID, "name": "Fixed by admin"}).status_code == 403
    assert client.post(f"/tournaments/{t.id}/delete", data={"confirm": "y"}).status_code == 403
    assert _tournaments()[0].name == "Store Championship"


@pytest.mark.slow
def test_my_tournaments_say_who_won_a_finished_event(client, make_user, make_tournament, login):
    from app.models import CutResult
    from cut_helpers import fixture_event

    owner = make_user()
    t = fixture_event(owner, make_tournament)
    other = fixture_event(owner, make_tournament)
    login()
    text = " ".join(client.get("/tournaments").get_data(as_text=True).split())
    assert text.count("finished, won by Dave") == 2 and "· round 3" not in text
    # the last cut game undone: the cut is under way again, no winner claimed
    last = db.session.scalars(sa.select(CutResult).filter_by(tournament_id=other.id)
                              .order_by(CutResult.game.desc())).first()
    db.session.delete(last)
    db.session.commit()
    text = " ".join(client.get("/tournaments").get_data(as_text=True).split())
    assert text.count("finished, won by Dave") == 1 and "top cut in progress" in text
    # no cut at all: the swiss round as before
    t.cut_kind = None
    other.cut_kind = None
    db.session.commit()
    text = " ".join(client.get("/tournaments").get_data(as_text=True).split())
    assert "won by" not in text and text.count("· round 3 <") == 2


def test_the_rounds_advice_shows_what_the_rounds_buy(make_user, make_tournament, login):
    """A single-sided event of more than 8 players shows, beside the recommended rounds, how many of the 8
    strongest players the simulated events put in the top 8 (app/core/round_advice.py), and on the settings page
    what the planned rounds buy; a double-sided event, a plain one or a field of 8 shows none."""
    from app.core import round_advice
    from app.core.pairing import Format
    from cut_helpers import add_players

    owner = make_user()
    client = login()
    t = make_tournament(owner, planned_rounds=9)
    add_players(t, [f"P{i}" for i in range(20)])
    recall = round_advice.top8_recall(Format.SINGLE_SIDED, 20, 5)
    planned = round_advice.top8_recall(Format.SINGLE_SIDED, 20, 9)
    dashboard = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert f"best 8 in top 8: ≈{recall.expected:.1f}" in dashboard.split('id="recommended-rounds"')[1]
    form = client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True).split('id="top8-recall"')[1]
    assert f"After 5 rounds, about <strong>{recall.expected:.1f}</strong>" in form
    assert f"after the planned 9, about <strong>{planned.expected:.1f}</strong>" in form
    assert f"Simulated {recall.players}-player" in form
    for fmt, n in (("double", 20), ("plain", 20), ("single", 8)):
        other = make_tournament(owner, name=f"{fmt} {n}", format=fmt)
        add_players(other, [f"Q{i}" for i in range(n)])
        assert 'id="top8-recall"' not in client.get(f"/tournaments/{other.id}").get_data(as_text=True)
        assert 'id="top8-recall"' not in client.get(f"/tournaments/{other.id}/edit").get_data(as_text=True)


def test_the_waitlist_switch_sits_beside_the_cap_and_is_the_check_in_pages_setting(client, organizer,
                                                                                   make_tournament):
    """One setting (CheckInSettings.waitlist) written by either form: the registration settings beside the cap, and
    the check-in page; the edit form shows what the check-in page saved, and the check-in page what it saved."""
    from app.models import CheckInSettings
    t = make_tournament(organizer, registration_open=True, registration_cap=8)
    page = client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True)
    assert 'name="waitlist"' in page and "Keep a waitlist" in page
    assert page.index('name="registration_cap"') < page.index('name="waitlist"') < page.index('name="late_registration"')
    edit = {**VALID, "registration_open": "y", "registration_cap": "8"}
    assert client.post(f"/tournaments/{t.id}/edit", data={**edit, "waitlist": "y"}).status_code == 302
    db.session.expire_all()
    row = db.session.get(CheckInSettings, t.id)
    assert row.waitlist and not row.enabled  # the waitlist alone: check-in stays off
    assert "checked" in _checkbox(client.get(f"/tournaments/{t.id}/check-in").get_data(as_text=True), "waitlist")
    # the check-in page turns it off: the edit form shows it off
    client.post(f"/tournaments/{t.id}/check-in/settings", data={"no_shows": "drop"})
    db.session.expire_all()
    assert not db.session.get(CheckInSettings, t.id).waitlist
    assert "checked" not in _checkbox(client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True), "waitlist")
    client.post(f"/tournaments/{t.id}/check-in/settings", data={"no_shows": "drop", "waitlist": "y"})
    assert "checked" in _checkbox(client.get(f"/tournaments/{t.id}/edit").get_data(as_text=True), "waitlist")
    # unticked in the edit form: off again
    client.post(f"/tournaments/{t.id}/edit", data=edit)
    db.session.expire_all()
    assert not db.session.get(CheckInSettings, t.id).waitlist


def test_a_new_event_may_keep_a_waitlist_from_the_start(client, organizer):
    from app.models import CheckInSettings
    client.post("/tournaments/new", data={**VALID, "registration_open": "y", "registration_cap": "4",
                                          "waitlist": "y"})
    client.post("/tournaments/new", data={**VALID, "name": "No line"})
    with_line, without = _tournaments()
    assert db.session.get(CheckInSettings, with_line.id).waitlist
    assert db.session.get(CheckInSettings, without.id) is None  # off: no row written at all


def _checkbox(page: str, name: str) -> str:
    at = page.index(f'name="{name}"')
    return page[page.rindex("<input", 0, at):page.index(">", at)]
