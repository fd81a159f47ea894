"""No-shows are never paired by accident (docs/domain.md 19): with a roll call running, "Pair round N" first shows
what pairing does (the no-shows it drops, the waiting players who checked in that it lets in, or those left in), and
one confirming POST does it all; a plan changed meanwhile is shown again, not done. The measure: a TO needs as many
POSTs from doors open to round 1 published with two no-shows and a waitlist as with none."""
from __future__ import annotations

import pytest
import html
import re

import sqlalchemy as sa

from app.extensions import db
from app.models import Player, Round, Seat
from app.services.players import player_links


class TO:
    """The organizer's browser: follows the buttons the pages draw, and counts the POSTs it sends."""

    def __init__(self, client):
        self.client, self.posts = client, 0

    def post(self, url, data):
        self.posts += 1
        return self.client.post(url, data=data)

    def press(self, page: str, label: str):
        """Press the button or link labelled `label` on `page`: a form posts its fields, a link is followed."""
        for form in re.finditer(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', page, re.S):
            if re.search(r"<button[^>]*>\s*" + re.escape(label) + r"\s*</button>", form.group(2)):
                fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2)))
                return self.post(html.unescape(form.group(1)), fields)
        link = re.search(r'<a class="button[^"]*" href="([^"]+)">\s*' + re.escape(label) + r"\s*</a>", page)
        assert link, f"no {label!r} on the page"
        return self.client.get(html.unescape(link.group(1)))

    def follow(self, response) -> str:
        while response.status_code in (302, 303):
            response = self.client.get(response.headers["Location"])
        return response.get_data(as_text=True)


def _event(client, login, make_user, make_tournament, names, cap):
    from app.models import User
    owner = db.session.scalar(sa.select(User).filter_by(email="to@example.com")) or make_user()
    t = make_tournament(owner, registration_open=True, registration_cap=cap)
    login()
    assert client.post(f"/tournaments/{t.id}/check-in/settings", data={"waitlist": "y", "no_shows": "drop"}
                       ).status_code == 303  # the waitlist kept, before registration opens (setup, not counted)
    public = client.application.test_client()
    for name in names:
        assert public.post(f"/t/{t.slug}/register", data={"name": name}).status_code == 303
    db.session.expire_all()
    return t, {p.name: p for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}


def _phone_check_in(app, t, player):
    assert app.test_client().post(f"/t/{t.slug}/p/{player_links.token(player)}/check-in").status_code == 303


def _doors_open_to_round_one_published(app, client, t, here) -> TO:
    """From "doors open" (check-in on, its defaults: no deadline, no-shows dropped when paired) to round 1
    published; `here`: the players who check in from their phones. The TO's steps, as the pages offer them."""
    to = TO(client)
    assert to.post(f"/tournaments/{t.id}/check-in/settings",
                   data={"enabled": "y", "waitlist": "y", "no_shows": "drop"}).status_code == 303
    for p in here:
        _phone_check_in(app, t, p)
    page = to.follow(to.press(client.get(f"/tournaments/{t.id}").get_data(as_text=True), "Pair round 1"))
    if 'id="confirm-pairing"' in page:  # the plan, shown first: its one button does it all
        label = re.search(r'id="confirm-pairing">([^<]+)</button>', page).group(1)
        page = to.follow(to.press(page, label))
    assert "Round 1 is paired" in page
    page = to.follow(to.press(page, "Publish round 1"))
    assert "Round 1 is published" in page
    return to


def _round_one(t) -> set[str]:
    return set(db.session.scalars(sa.select(Player.name).join(Seat, Seat.player_id == Player.id)
                                  .join(Round, Round.id == Seat.round_id)
                                  .where(Round.tournament_id == t.id, Round.number == 1, Round.published)))


@pytest.mark.slow
def test_two_no_shows_and_a_waitlist_cost_the_to_no_more_posts_than_none(app, client, login, make_user,
                                                                         make_tournament):
    everyone = ["Ana", "Ben", "Cy", "Dee"]
    calm, p = _event(client, login, make_user, make_tournament, everyone, cap=4)
    calm_to = _doors_open_to_round_one_published(app, client, calm, [p[n] for n in everyone])
    assert _round_one(calm) == set(everyone)

    names = ["Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"]  # cap 4: Ivy, Jo, Kim wait, in that order
    busy, p = _event(client, login, make_user, make_tournament, names, cap=4)
    here = [p[n] for n in ("Eve", "Fay", "Jo", "Kim")]  # Gus and Hal never come; Ivy (first in line) neither
    busy_to = _doors_open_to_round_one_published(app, client, busy, here)
    assert _round_one(busy) == {"Eve", "Fay", "Jo", "Kim"}  # no no-show paired; the first waiting who are here
    assert busy_to.posts == calm_to.posts == 3  # doors open, pair (confirmed), publish: no undo
    db.session.expire_all()
    ivy = db.session.scalars(sa.select(Player).filter_by(tournament_id=busy.id, name="Ivy")).one()
    assert "Waitlist position 1" in app.test_client().get(
        f"/t/{busy.slug}/p/{player_links.token(ivy)}").get_data(as_text=True)


def _roll_call(client, t, no_shows="drop"):
    assert client.post(f"/tournaments/{t.id}/check-in/settings",
                       data={"enabled": "y", "waitlist": "y", "no_shows": no_shows}).status_code == 303


def test_the_pair_buttons_show_the_plan_first_and_the_confirmation_does_it(app, client, login, make_user,
                                                                           make_tournament):
    t, p = _event(client, login, make_user, make_tournament, ["Ana", "Ben", "Cy", "Dee", "Eve"], cap=4)
    _roll_call(client, t)
    for n in ("Ana", "Ben", "Eve"):
        _phone_check_in(app, t, p[n])
    dash = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    preview_url = f"/tournaments/{t.id}/rounds/1/pair"
    assert f'href="{preview_url}">Pair round 1</a>' in dash  # a link to the plan: nothing posts from here
    assert "2 players not checked in yet; phones check in until round 1 is paired. Pairing round 1 drops whoever " \
        "is not checked in then." in dash  # the defaults: no deadline, yet pairing drops them
    page = client.get(preview_url).get_data(as_text=True)
    assert "Drops 2 not checked in:</strong> Cy, Dee" in page and "Lets in 1 from the waitlist:</strong> Eve" in page
    assert "Drop 2, let in 1 and pair round 1" in page
    assert client.get(f"/tournaments/{t.id}/check-in").get_data(as_text=True).count("Pairing round 1 now:") == 1
    digest = re.search(r'name="plan" value="([0-9a-f]{16})"', page).group(1)
    r = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1, "plan": digest})
    assert r.status_code == 303 and r.headers["Location"].endswith("/rounds/1")
    assert _round_one_unpublished(t) == {"Ana", "Ben", "Eve"}


def _round_one_unpublished(t) -> set[str]:
    return set(db.session.scalars(sa.select(Player.name).join(Seat, Seat.player_id == Player.id)
                                  .where(Seat.tournament_id == t.id)))


def test_a_stale_preview_is_shown_again_with_the_new_plan_and_nothing_done(app, client, login, make_user,
                                                                          make_tournament):
    t, p = _event(client, login, make_user, make_tournament, ["Ana", "Ben", "Cy", "Dee"], cap=4)
    _roll_call(client, t)
    for n in ("Ana", "Ben"):
        _phone_check_in(app, t, p[n])
    page = client.get(f"/tournaments/{t.id}/rounds/1/pair").get_data(as_text=True)
    digest = re.search(r'name="plan" value="([0-9a-f]{16})"', page).group(1)
    _phone_check_in(app, t, p["Cy"])  # Cy checks in while the TO reads
    r = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1, "plan": digest})
    again = r.get_data(as_text=True)
    assert r.status_code == 409 and "The roll call changed since you looked" in again
    assert "Drops 1 not checked in:</strong> Dee" in again  # the new plan, Cy no longer in it
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    assert not any(pl.dropped for pl in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id)))
    # a one-click pair (no plan seen) while pairing would change the field: the plan is shown, nothing done
    r = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1})
    assert r.status_code == 409 and "changes the field first" in r.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count(Round.id))) == 0
    # a made-up plan is refused with a message, nothing done
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1, "plan": "<x>"}).status_code == 400
    new = re.search(r'name="plan" value="([0-9a-f]{16})"', again).group(1)
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1, "plan": new}).status_code == 303
    assert _round_one_unpublished(t) == {"Ana", "Ben", "Cy"}


def test_left_in_the_plan_says_they_are_paired_and_offers_to_drop_them(app, client, login, make_user,
                                                                     make_tournament):
    t, p = _event(client, login, make_user, make_tournament, ["Ana", "Ben", "Cy", "Dee"], cap=4)
    _roll_call(client, t, no_shows="decide")
    for n in ("Ana", "Ben"):
        _phone_check_in(app, t, p[n])
    page = client.get(f"/tournaments/{t.id}/rounds/1/pair").get_data(as_text=True)
    assert "Leaves in 2 not checked in:</strong> Cy, Dee" in page and "they are paired" in page
    assert "Drop the 2 not checked in now" in page
    r = client.post(f"/tournaments/{t.id}/check-in/no-shows", data={"back": "pair"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/tournaments/{t.id}/rounds/1/pair")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Nothing changes first" in page


def test_with_everyone_checked_in_pairing_is_one_click(app, client, login, make_user, make_tournament):
    t, p = _event(client, login, make_user, make_tournament, ["Ana", "Ben"], cap=4)
    _roll_call(client, t)
    for pl in p.values():
        _phone_check_in(app, t, pl)
    dash = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert f'action="/tournaments/{t.id}/rounds/pair"' in dash and "rounds/1/pair" not in dash
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1}).status_code == 303
    assert _round_one_unpublished(t) == {"Ana", "Ben"}


def test_the_roll_call_rows_keep_undo_apart_and_a_second_day_shows_no_waitlist(app, client, login, make_user,
                                                                               make_tournament):
    t, p = _event(client, login, make_user, make_tournament, ["Ana", "Ben", "Cy"], cap=2)
    _roll_call(client, t)
    client.post(f"/tournaments/{t.id}/check-in/{p['Ana'].id}")
    client.post(f"/tournaments/{t.id}/check-in/{p['Cy'].id}")  # Cy, waiting, ticked by the staff
    page = client.get(f"/tournaments/{t.id}/check-in").get_data(as_text=True)
    ana = re.search(r'<li id="p%d".*?</li>' % p["Ana"].id, page, re.S).group(0)
    # the checked-in row is no button itself: its only form is the undo
    assert "checked in ✓" in ana and ana.count("<form") == 1 and "/undo" in ana and "roll-call-tick" not in ana
    ben = re.search(r'<li id="p%d".*?</li>' % p["Ben"].id, page, re.S).group(0)
    assert "tap to check in" in ben and "/undo" not in ben
    assert re.search(r'<li id="w%d".*?checked in ✓.*?/undo' % p["Cy"].id, page, re.S)
    client.post(f"/tournaments/{t.id}/check-in/{p['Ben'].id}")
    client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1})
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    from app.models import Match
    for m in db.session.scalars(sa.select(Match).filter_by(tournament_id=t.id, is_bye=False)):
        client.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"})
    assert client.post(f"/tournaments/{t.id}/check-in/next").status_code == 303
    day2 = client.get(f"/tournaments/{t.id}/check-in").get_data(as_text=True)
    assert "before round 2" in day2 and 'id="waitlist-line"' not in day2 and "Cy" not in day2
