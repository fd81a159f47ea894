"""Decklists before round 1 (issue: "invalid or missing lists are not flagged before round 1; pairing silently
locks them"): the next step shows missing and invalid lists and lets the TO wait or pair anyway, and locking the
lists is a step of its own (app/services/next_step.py, app/services/decklists.py)."""
from __future__ import annotations

import html
from datetime import date
from pathlib import Path

import pytest
from cut_helpers import add_players

from app.extensions import db
from app.models import Tournament
from app.services import decklists as service
from app.services import next_step
from app.services.players import player_links
from app.services.swiss.rounds import latest_number

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"
CORP = (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")
RUNNER = (FIXTURES / "runner_jinteki.txt").read_text(encoding="utf-8")
BAD_RUNNER = "Identity: Tao Salonga\n3x Hedge Fund\n"


@pytest.fixture
def event(make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, decklists=True, date=date(2026, 11, 1))
    players = add_players(t, ["Ann", "Ben", "Cat"])
    return t, players


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def _submit(client, t, player, side, text):
    return client.post(f"/t/{t.slug}/p/{player_links.token(player)}/decklists", data={"side": side, "text": text})


def _facts(**kw) -> next_step.Facts:
    base = dict(active=4, requested_byes=0, latest=0, latest_published=False, unreported=0, planned_rounds=None,
                cut=None, cut_recommended=0)
    return next_step.Facts(**{**base, **kw})


# ---------------------------------------------------------------- the rule, without a database

def test_an_event_without_lists_pairs_as_before():
    step = next_step.decide(_facts())
    assert (step.kind, step.label, step.others) == (next_step.PAIR, "Pair round 1", ())


def test_missing_or_invalid_lists_make_waiting_the_advice_and_pairing_a_choice():
    step = next_step.decide(_facts(collects_lists=True, lists_missing=2, lists_invalid=1))
    assert step.kind == next_step.REVIEW_LISTS
    assert "2 players still missing a list and 1 invalid list" in step.why
    assert [(s.kind, s.label) for s in step.others] == [(next_step.PAIR, "Pair round 1 anyway"),
                                                        (next_step.LOCK_LISTS, "Lock the lists now")]
    assert step.others[0].round == 1
    locked = next_step.decide(_facts(collects_lists=True, lists_invalid=1, lists_locked=True))
    assert [s.kind for s in locked.others] == [next_step.PAIR]  # nothing left to lock
    assert "The lists are locked: enter or unlock them from the review" in locked.why


def test_complete_lists_pair_with_locking_on_offer():
    step = next_step.decide(_facts(collects_lists=True))
    assert step.kind == next_step.PAIR and "lists are in and legal" in step.why
    assert [s.kind for s in step.others] == [next_step.LOCK_LISTS]
    assert next_step.decide(_facts(collects_lists=True, lists_locked=True)).others == ()


# ---------------------------------------------------------------- the pages

def test_the_dashboard_shows_the_gaps_and_both_choices(client, login, event):
    t, (ann, ben, cat) = event
    _submit(client, t, ann, "corp", CORP)
    _submit(client, t, ann, "runner", BAD_RUNNER)  # invalid; Ben and Cat have none
    review = service.review(t)
    assert service.gaps(t) == service.Gaps(missing=2, invalid=1) == service.Gaps(review.missing, review.invalid)
    login()
    page = _text(client.get(f"/tournaments/{t.id}"))
    assert "Review the decklists" in page and "2 players still missing a list and 1 invalid list" in page
    assert f'action="/tournaments/{t.id}/rounds/pair"' in page and "Pair round 1 anyway" in page
    assert f'action="/tournaments/{t.id}/decklists/lock"' in page
    # The rounds page gives the same step (one rule).
    assert "Pair round 1 anyway" in _text(client.get(f"/tournaments/{t.id}/rounds"))


def test_waiting_then_pairing_once_the_lists_are_in(client, login, event):
    t, players = event
    for p in players:
        _submit(client, t, p, "corp", CORP)
        _submit(client, t, p, "runner", RUNNER)
    login()
    page = _text(client.get(f"/tournaments/{t.id}"))
    assert "Review the decklists" not in page and "lists are in and legal" in page
    assert "Pair round 1 anyway" not in page


def test_pair_anyway_pairs_and_locks(client, login, event):
    t, (ann, ben, cat) = event
    login()
    r = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1})
    assert r.status_code in (302, 303) and latest_number(t) == 1
    refused = _submit(client, t, ann, "corp", CORP)
    assert refused.status_code == 422 and "round 1 has been paired" in _text(refused)
    # After round 1 the lists cannot be reopened.
    r = client.post(f"/tournaments/{t.id}/decklists/reopen", follow_redirects=True)
    assert "the lists stay locked" in _text(r)
    assert service.locked(db.session.get(Tournament, t.id))


def test_lock_now_is_its_own_step(client, login, event):
    t, (ann, ben, cat) = event
    _submit(client, t, ann, "corp", CORP)
    login()
    r = client.post(f"/tournaments/{t.id}/decklists/lock")
    assert r.status_code == 303 and r.location.endswith(f"/tournaments/{t.id}")
    t = db.session.get(Tournament, t.id)
    assert t.lists_locked and latest_number(t) == 0  # locked, nothing paired
    refused = _submit(client, t, ben, "corp", CORP)
    assert refused.status_code == 422 and "locked by the organizer" in _text(refused)
    assert "Locked by the organizer" in _text(client.get(f"/t/{t.slug}/p/{player_links.token(ben)}/decklists"))
    page = _text(client.get(f"/tournaments/{t.id}"))
    assert "Lock the lists now" not in page and "Pair round 1 anyway" in page
    assert "locked by the organizer" in _text(client.get(f"/tournaments/{t.id}/decklists"))
    again = client.post(f"/tournaments/{t.id}/decklists/lock", follow_redirects=True)
    assert "were locked already" in _text(again)
    # The TO's unlock of one list still lets that player change it once.
    assert client.post(f"/tournaments/{t.id}/decklists/{ann.id}/corp/unlock").status_code == 303
    assert _submit(client, t, ann, "corp", CORP).status_code == 303
    assert _submit(client, t, ann, "corp", CORP).status_code == 422
    # Reopened before round 1: players submit again; pairing still locks them.
    r = client.post(f"/tournaments/{t.id}/decklists/reopen", follow_redirects=True)
    assert "open again" in _text(r)
    assert _submit(client, t, ben, "corp", CORP).status_code == 303
    client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1})
    assert _submit(client, t, cat, "corp", CORP).status_code == 422


def test_the_review_page_locks_and_returns_there(client, login, event):
    t, _ = event
    login()
    page = _text(client.get(f"/tournaments/{t.id}/decklists"))
    assert "Lock the lists now" in page
    r = client.post(f"/tournaments/{t.id}/decklists/lock", data={"next": "review"})
    assert r.location.endswith(f"/tournaments/{t.id}/decklists")
    assert "Reopen the lists" in _text(client.get(r.location))


def test_a_scorekeeper_cannot_lock(app, make_user, login, event):
    from app.models import Staff
    t, _ = event
    keeper = make_user("keeper@example.com")
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    c = login("keeper@example.com", c=app.test_client())
    assert c.post(f"/tournaments/{t.id}/decklists/lock").status_code == 403
    assert not db.session.get(Tournament, t.id).lists_locked
