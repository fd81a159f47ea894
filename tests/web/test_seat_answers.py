"""A round's seats answers made by the status that first names it (app/web/seat_answers.py), before the hall asks."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.core.seat_lookup import BUCKETS, bucket
from app.extensions import db
from app.models import Player, Tournament
from app.services.swiss import seat_lookup
from app.web import page_cache, seat_answers
from tests.services.swiss.test_seat_lookup import NAMES, _event, _truth
from tests.web.views.test_rounds import report_all


@pytest.fixture(autouse=True)
def nothing_made_ahead(monkeypatch):
    seat_answers.forget()
    monkeypatch.setattr(seat_answers, "AHEAD_SEATS", 1)  # these five players' round is made ahead as a hall's
    yield
    seat_answers.forget()


def _files(t) -> list[bool]:
    """Whether each bucket's answer of round 1, at the event's version now, is in the shared folder."""
    db.session.expire_all()
    t = db.session.get(Tournament, t.id)
    return [(page_cache.folder() / f"{page_cache.key_of(t, f'api-seats-1-{b}')[1]}.page").exists()
            for b in range(BUCKETS)]


def _served(app, t) -> dict:
    """player id -> (table, side, opponent) as the phones read it from their buckets' answers (None: a 404)."""
    out = {}
    for pid in db.session.scalars(sa.select(Player.id).where(Player.tournament_id == t.id)):
        r = app.test_client().get(f"/api/tournaments/{t.slug}/rounds/1/seats/{bucket(pid)}")
        seat = r.get_json()["seats"].get(str(pid)) if r.status_code == 200 else None
        out[pid] = seat and (seat["table"], seat["side"], seat["opponent"])
    return out


def _no_round_read(monkeypatch):
    """From here a read of the round fails the test: the answers must come from what was made."""
    page_cache.clear_memory()
    seat_lookup._ROUNDS.clear()

    def read(*_args, **_kwargs):
        raise AssertionError("the round was read again")
    monkeypatch.setattr(seat_lookup, "seated", read)


def test_the_status_naming_a_published_round_makes_its_answers_before_any_phone_asks(app, make_user,
                                                                                       make_tournament, login,
                                                                                       monkeypatch):
    client, t = _event(make_user, make_tournament, login)
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    assert not any(_files(t))  # the publish itself does no more than before
    assert app.test_client().get(f"/t/{t.slug}/status.json").get_json()["round"] == 1
    assert all(_files(t))  # every bucket's, empty ones too (a phone may ask for one: its player dropped)
    truth = _truth(t)
    _no_round_read(monkeypatch)  # another worker: only the shared folder
    assert _served(app, t) == truth
    assert app.test_client().get(f"/t/{t.slug}/status.json").status_code == 200  # made once a round: no read


def test_a_result_a_withdrawal_and_new_pairings_never_serve_the_answers_made_before(app, make_user,
                                                                                    make_tournament, login):
    client, t = _event(make_user, make_tournament, login)
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    app.test_client().get(f"/t/{t.slug}/status.json")
    first = _truth(t)
    report_all(client, t, 1)  # the event's version moves: the answers made are not the current ones any more
    assert not any(_files(t))
    assert _served(app, t) == first  # made again on the ask, the same seats
    assert client.post(f"/tournaments/{t.id}/rounds/1/undo").status_code == 303
    assert app.test_client().get(f"/t/{t.slug}/status.json").get_json()["round"] is None
    assert set(_served(app, t).values()) == {None}  # every bucket a 404: no round 1 any more
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1}).status_code == 303
    assert set(_served(app, t).values()) == {None}  # paired, not published: nobody may read it
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    app.test_client().get(f"/t/{t.slug}/status.json")
    assert all(_files(t))
    assert _served(app, t) == _truth(t)  # the new pairings' tables


def test_a_status_whose_answers_cannot_be_made_still_answers(app, make_user, make_tournament, login, monkeypatch):
    client, t = _event(make_user, make_tournament, login)
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303

    def broken(*_args):
        raise OSError("disk full")
    monkeypatch.setattr(seat_answers, "make_all", broken)
    r = app.test_client().get(f"/t/{t.slug}/status.json")
    assert r.status_code == 200 and r.get_json()["round"] == 1
    monkeypatch.undo()
    assert _served(app, t) == _truth(t)  # made on the phones' asks, as before


def test_a_small_round_is_left_to_its_phones_asks(app, make_user, make_tournament, login, monkeypatch):
    monkeypatch.setattr(seat_answers, "AHEAD_SEATS", len(NAMES) + 1)  # 64 files an event would crowd the folder
    client, t = _event(make_user, make_tournament, login)
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    assert app.test_client().get(f"/t/{t.slug}/status.json").get_json()["round"] == 1
    assert not any(_files(t))
    assert _served(app, t) == _truth(t)
