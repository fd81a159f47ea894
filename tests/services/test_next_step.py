"""The dashboard's one next action (app/services/next_step.py): every state of the pure decision, then the
dashboard walking a real event from no players to its finished cut."""
from __future__ import annotations

import re

import pytest
from app.extensions import db
from app.models import Player
from app.services import next_step
from app.services.next_step import Facts, decide

from tests.web.views.test_rounds import pair, report_all, setup_event

BASE = Facts(active=8, requested_byes=0, latest=0, latest_published=False, unreported=0, planned_rounds=None,
             cut=None, cut_recommended=0)


def facts(**changes) -> Facts:
    return Facts(**{**BASE.__dict__, **changes})


@pytest.mark.parametrize("changes, over", [
    ({}, False),  # nothing played
    ({"latest": 3, "latest_published": True, "unreported": 1}, False),  # the last round's results still coming
    ({"latest": 3, "latest_published": False}, False),  # the last round not published
    ({"latest": 3, "latest_published": True, "planned_rounds": 4}, False),  # a planned round to go
    ({"latest": 3, "latest_published": True}, True),  # 8 players: the 3 recommended rounds are played
    ({"latest": 4, "latest_published": True, "planned_rounds": 4, "cut_recommended": 8}, True),  # cut next
    ({"latest": 2, "latest_published": True, "planned_rounds": 5, "cut": "running"}, True),  # a cut made early
])
def test_swiss_over_is_when_the_next_step_is_the_cut_or_the_end(changes, over):
    """What the event statistics wait for before going public (app/services/event_stats.py)."""
    assert next_step.swiss_over(facts(**changes)) is over


@pytest.mark.parametrize("changes, kind, label, capability", [
    ({"active": 0}, next_step.ADD_PLAYERS, "Add players", "organize"),
    ({"active": 1}, next_step.ADD_PLAYERS, "Add players", "organize"),
    ({}, next_step.PAIR, "Pair round 1", "organize"),
    ({"latest": 1}, next_step.PUBLISH, "Check and publish round 1", "organize"),
    ({"latest": 2, "latest_published": True, "unreported": 3}, next_step.RESULTS, "Enter results of round 2",
     "score"),
    ({"latest": 1, "latest_published": True}, next_step.PAIR, "Pair round 2", "organize"),
    # 8 players: log2 8 = 3 rounds recommended; planned rounds win over the recommendation
    ({"latest": 3, "latest_published": True}, next_step.FINISHED, "See the final standings", "score"),
    ({"latest": 3, "latest_published": True, "planned_rounds": 5}, next_step.PAIR, "Pair round 4", "organize"),
    ({"latest": 5, "latest_published": True, "planned_rounds": 5, "active": 40, "cut_recommended": 8},
     next_step.CUT, "Cut to the top 8", "organize"),
    ({"latest": 3, "latest_published": True, "cut": "running"}, next_step.CUT_RESULTS, "Enter top cut results",
     "score"),
    ({"latest": 3, "latest_published": True, "cut": "complete"}, next_step.FINISHED, "See the results", "score"),
    # a cut made early (rounds still planned) is still the next thing to work on
    ({"latest": 2, "latest_published": True, "planned_rounds": 5, "cut": "running"}, next_step.CUT_RESULTS,
     "Enter top cut results", "score"),
])
def test_decide_every_state(changes, kind, label, capability):
    step = decide(facts(**changes))
    assert (step.kind, step.label, step.capability) == (kind, label, capability)
    assert step.why


def test_decide_says_how_many_results_are_missing():
    assert decide(facts(latest=2, latest_published=True, unreported=1)).why == "1 table still without a result."
    assert decide(facts(latest=1, latest_published=True)).why == "Round 1 is complete; 3 swiss rounds recommended."


def _main_button(page: str) -> str:
    match = re.search(r'class="(?:button )?next-action"[^>]*>([^<]+)<', page)
    assert match, "the dashboard has no main button"
    return match.group(1)


def test_dashboard_walks_an_event(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=0, planned_rounds=2)
    url = f"/tournaments/{t.id}"
    page = client.get(url).get_data(as_text=True)
    assert _main_button(page) == "Add players" and f'href="/tournaments/{t.id}/players"' in page

    db.session.add_all(Player(tournament_id=t.id, name=n) for n in ("Ann", "Ben", "Cat", "Dee"))
    db.session.commit()
    page = client.get(url).get_data(as_text=True)
    assert _main_button(page) == "Pair round 1"
    assert f'action="/tournaments/{t.id}/rounds/pair"' in page and 'name="number" value="1"' in page
    assert "data-confirm" not in page  # an even field, no requested bye: nothing to warn about

    assert pair(client, t, 1).status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert _main_button(page) == "Check and publish round 1"
    assert f'href="/tournaments/{t.id}/rounds/1"' in page

    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    assert _main_button(client.get(url).get_data(as_text=True)) == "Enter results of round 1"
    report_all(client, t, 1)
    assert _main_button(client.get(url).get_data(as_text=True)) == "Pair round 2"
    pair(client, t, 2)
    client.post(f"/tournaments/{t.id}/rounds/2/publish")
    report_all(client, t, 2)
    page = client.get(url).get_data(as_text=True)
    assert _main_button(page) == "See the final standings"  # 4 players: no cut recommended
    assert f'href="/tournaments/{t.id}/standings"' in page

    assert client.post(f"/tournaments/{t.id}/cut", data={"kind": "single", "size": "4"}).status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert _main_button(page) == "Enter top cut results" and f'href="/tournaments/{t.id}/cut"' in page


def test_dashboard_warns_before_pairing_round_one_with_an_unasked_bye(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=8)
    players[0].first_round_bye = True
    db.session.commit()
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert _main_button(page) == "Pair round 1"
    assert "1 requested bye with 8 active players leaves 7 to pair" in page
    assert 'data-confirm="1 requested bye with 8 active players' in page
    pair(client, t, 1)
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert _main_button(page) == "Check and publish round 1" and "bye-note" not in page


def test_scorekeeper_sees_the_organizers_step_without_a_button(make_user, make_tournament, login, client):
    from app.models import Staff

    owner = make_user("owner@example.com")
    t = make_tournament(owner)
    db.session.add_all(Player(tournament_id=t.id, name=n) for n in ("Ann", "Ben"))
    keeper = make_user("keeper@example.com")
    db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    login("keeper@example.com")
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert "next-action" not in page and "Pair round 1" in page and "the organizers' move" in page


def test_decide_offers_one_more_round_after_the_planned_swiss_and_nothing_to_pair_after_the_cut():
    done = facts(latest=5, latest_published=True, planned_rounds=5, active=40, cut_recommended=8)
    assert [(s.kind, s.label, s.round) for s in decide(done).others] == [
        (next_step.PAIR, "Pair one more round (6)", 6)]
    no_cut = decide(facts(latest=3, latest_published=True))
    assert no_cut.kind == next_step.FINISHED and [s.round for s in no_cut.others] == [4]
    for cut in ("running", "complete"):
        step = decide(facts(latest=5, latest_published=True, planned_rounds=5, cut=cut, cut_recommended=8))
        assert next_step.PAIR not in [s.kind for s in (step, *step.others)]
    mid = decide(facts(latest=2, latest_published=True, planned_rounds=5))
    assert mid.kind == next_step.PAIR and not mid.others


def _buttons(page: str) -> list[tuple[str, str]]:
    """(class, text) of the next-step buttons and links on a page, in order."""
    return [(cls, text.strip()) for cls, text in
            re.findall(r'class="(?:button )?(next-action|secondary)"[^>]*>([^<]+)<', page)
            if "round" in text.lower() or "cut" in text.lower() or "standings" in text.lower()]


def test_three_pages_say_the_same_next_step(make_user, make_tournament, login):
    """Dashboard, rounds page and the latest round's page: the same main button mid-event, the cut with one more
    round as the TO's choice after the planned rounds, and no pairing button once the cut exists."""
    client, t, _ = setup_event(make_user, make_tournament, login, n=12, planned_rounds=2)
    db.session.add_all(Player(tournament_id=t.id, name=f"Extra {i}") for i in range(6))  # 18: a top 4 advised
    db.session.commit()
    pages = (f"/tournaments/{t.id}", f"/tournaments/{t.id}/rounds", f"/tournaments/{t.id}/rounds/1")

    def mains(*urls):
        return [next((text for cls, text in _buttons(client.get(u).get_data(as_text=True)) if cls == "next-action"),
                     None) for u in urls]

    pair(client, t, 1)
    client.post(f"/tournaments/{t.id}/rounds/1/publish")
    report_all(client, t, 1)
    assert mains(*pages) == ["Pair round 2"] * 3

    pair(client, t, 2)
    client.post(f"/tournaments/{t.id}/rounds/2/publish")
    report_all(client, t, 2)
    after = (pages[0], pages[1], f"/tournaments/{t.id}/rounds/2")
    assert mains(*after) == ["Cut to the top 4"] * 3
    for url in after:
        page = client.get(url).get_data(as_text=True)
        assert ("secondary", "Pair one more round (3)") in _buttons(page), url
        assert "Pair round 3" not in page
    # one more round is a real choice: it pairs
    r = client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 3})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/tournaments/{t.id}/rounds/3")
    client.post(f"/tournaments/{t.id}/rounds/3/undo")

    assert client.post(f"/tournaments/{t.id}/cut", data={"kind": "double", "size": "4"}).status_code == 302
    for url in after:
        page = client.get(url).get_data(as_text=True)
        assert "rounds/pair" not in page and "Pair " not in page, url
        assert mains(url) == ["Enter top cut results"], url


def test_decide_puts_a_running_roll_call_before_pairing_its_round():
    from datetime import datetime, timezone

    at = datetime(2026, 11, 28, 9, 45, tzinfo=timezone.utc)
    running = dict(roll_call_round=1, checked_in=5, not_checked_in=3, deadline=at)
    step = decide(facts(**running))
    assert (step.kind, step.label, step.capability, step.round) == (
        next_step.ROLL_CALL, "Roll call: 5 of 8 checked in", "score", 1)
    assert step.why == "3 players not checked in yet; phones check in until 09:45 UTC."
    assert [(s.kind, s.label) for s in step.others] == [(next_step.PAIR, "Pair round 1")]
    assert decide(facts(**{**running, "deadline": None})).why.endswith("until round 1 is paired.")
    # past the deadline: what pairing does to the no-shows, as the TO chose
    dropping = decide(facts(**running, deadline_passed=True, drops_no_shows=True, plan_drops=3))
    assert dropping.why == ("3 players not checked in by 09:45 UTC: pairing round 1 drops them. "
                            "Tick late arrivals first.")
    assert dropping.others[0].why.endswith("Pairing drops the 3 players not checked in: you see who first.")
    assert dropping.others[0].preview  # the pair button shows the plan first
    left = decide(facts(**running, deadline_passed=True, plan_left_in=3))
    assert "pair them in" in left.why and left.others[0].preview and "left in" in left.others[0].why
    # the defaults of the day: no deadline, no-shows dropped when paired: pairing says it drops them, and shows who
    no_deadline = decide(facts(**{**running, "deadline": None}, drops_no_shows=True, plan_drops=3, plan_let_in=2))
    assert no_deadline.why.endswith("Pairing round 1 drops whoever is not checked in then.")
    assert no_deadline.others[0].preview and "lets in 2 from the waitlist" in no_deadline.others[0].why
    # everyone in and present waiting players for the places: pairing is the step, and shows its plan first
    filling = decide(facts(**{**running, "checked_in": 8, "not_checked_in": 0}, plan_let_in=1))
    assert filling.kind == next_step.PAIR and filling.preview
    # with the lists still to review, the roll call still comes first, the review and pairing anyway after it
    lists = decide(facts(**running, collects_lists=True, lists_missing=2))
    assert [s.kind for s in (lists, *lists.others)] == [next_step.ROLL_CALL, next_step.REVIEW_LISTS,
                                                         next_step.PAIR, next_step.LOCK_LISTS]
    # everyone in, or the roll call for another round (a second day): the usual step
    assert decide(facts(**{**running, "checked_in": 8, "not_checked_in": 0})).kind == next_step.PAIR
    assert not decide(facts(**{**running, "checked_in": 8, "not_checked_in": 0})).preview  # one click as ever
    day2 = facts(latest=3, latest_published=True, planned_rounds=6, roll_call_round=4, checked_in=1, not_checked_in=1)
    assert decide(day2).kind == next_step.ROLL_CALL and decide(day2).label == "Roll call: 1 of 2 checked in"
    assert decide(facts(**{**day2.__dict__, "unreported": 2})).kind == next_step.RESULTS


def test_the_dashboard_points_to_the_roll_call_with_its_counts(make_user, make_tournament, login):
    client, t, players = setup_event(make_user, make_tournament, login, n=4)
    assert client.post(f"/tournaments/{t.id}/check-in/settings",
                       data={"enabled": "y", "no_shows": "drop", "closes_in": "30"}).status_code == 303
    client.post(f"/tournaments/{t.id}/check-in/{players[0].id}")
    page = client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    assert _main_button(page) == "Roll call: 1 of 4 checked in"
    assert f'class="button next-action" href="/tournaments/{t.id}/check-in"' in page
    assert re.search(r"3 players not checked in yet; phones check in until \d\d:\d\d UTC\.", page)
    assert ("secondary", "Pair round 1") in _buttons(page)
    for p in players[1:]:
        client.post(f"/tournaments/{t.id}/check-in/{p.id}")
    assert _main_button(client.get(f"/tournaments/{t.id}").get_data(as_text=True)) == "Pair round 1"
