"""A player's own page (their secret link) on a 360 px phone, each screen also looked at on a 1280 px laptop: it follows
the event without a reload (the opponent's report, the round clock, a new round, the top cut and the final place),
and every result button reads from the player's side in all three formats."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from app.core import results
from app.extensions import db
from app.models import Match, Player, Round, Seat, Tournament
from app.services import cut as cut_service
from app.services.players import player_links
from app.services.results import match_results, participation
from app.services.swiss import timer
from app.services.swiss import rounds as service

from tests.browser.conftest import at_both_widths

PASS_POLLS_MS = 13_000  # past a status.json poll and a player page check (config.py: 2 s, 10 s; ±25 %)


def _context(new_context, width):
    if width < 800:
        return new_context(viewport={"width": width, "height": 780}, is_mobile=True, has_touch=True)
    return new_context(viewport={"width": width, "height": 900})


def _event(live_server, owner_id, names, fmt="single", name="Live Open") -> tuple[int, str]:
    with live_server.app_context():
        t = Tournament(owner_id=owner_id, name=name, format=fmt, planned_rounds=2)
        db.session.add(t)
        db.session.commit()
        db.session.add_all(Player(tournament_id=t.id, name=n) for n in names)
        db.session.commit()
        tid, slug = t.id, t.slug
        db.session.remove()
    return tid, slug


def _in_app(live_server, tid, work):
    """work(t) inside the live server's app, with the event loaded; returns what work returns."""
    with live_server.app_context():
        try:
            return work(db.session.get(Tournament, tid))
        finally:
            db.session.remove()


def _pair(live_server, tid, number):
    _in_app(live_server, tid, lambda t: (service.pair_next_round(t, number), service.publish_round(t, number)))


def _table_of(t, number, player_id):
    """(match id, [(player id, side)] in position order) of a player's table in round `number`."""
    match = db.session.scalars(sa.select(Match).join(Seat, Seat.match_id == Match.id)
                               .join(Round, Round.id == Match.round_id)
                               .where(Round.tournament_id == t.id, Round.number == number,
                                      Seat.player_id == player_id)).one()
    return match.id, [(s.player_id, s.side) for s in sorted(match.seats, key=lambda s: s.position)]


def _report_round(live_server, tid, number, winner_id):
    """Every table of the round gets a result; `winner_id` wins theirs (as Corp or Runner)."""
    def work(t):
        for m in service.load_round(t, number).matches:
            if m.result is not None:
                continue
            seats = {s.player_id: s.side for s in m.seats}
            key = seats.get(winner_id, "corp")
            match_results.report_result(t, m.id, results.outcome(t.fmt, key), match_results.Actor("organizer"))
    _in_app(live_server, tid, work)


def _link(live_server, tid, player_id) -> str:
    def work(t):
        return f"/t/{t.slug}/p/{player_links.token(db.session.get(Player, player_id))}"
    return _in_app(live_server, tid, work)


def _player_id(live_server, tid, name) -> int:
    return _in_app(live_server, tid, lambda t: db.session.scalar(
        sa.select(Player.id).filter_by(tournament_id=t.id, name=name)))


def test_player_page_follows_the_round_and_the_cut(new_context, live_server, organizer, roster, screenshots):
    names = [n for n, _, _ in roster[:8]]
    tid, slug = _event(live_server, organizer["id"], names, name="Live Open 360")
    me = _player_id(live_server, tid, names[0])
    _pair(live_server, tid, 1)
    page = _context(new_context, 360).new_page()
    page.clock.install()
    page.goto(_link(live_server, tid, me))
    expect(page.locator("#me-card")).to_contain_text("Round 1")
    expect(page.locator("#me-clock [data-countdown]")).to_be_hidden()  # no timer started yet

    # the opponent reports: the claim and the confirm button appear, worded from this player's side
    def opponent_reports(t):
        match_id, seats = _table_of(t, 1, me)
        other, other_side = next((p, s) for p, s in seats if p != me)
        participation.report(t, db.session.get(Player, other), match_id, other_side)  # the opponent says they won
        return other_side
    their_side = _in_app(live_server, tid, opponent_reports)
    my_side = "Runner" if their_side == "corp" else "Corp"
    page.clock.run_for(PASS_POLLS_MS)
    expect(page.locator("#me-card")).to_contain_text(f"reported: you lost as {my_side}")
    expect(page.get_by_role("button", name=f"Yes: I lost as {my_side}")).to_be_visible()

    # the TO starts the clock: it shows and counts
    _in_app(live_server, tid, lambda t: timer.act(t, 1, "start"))
    page.clock.run_for(PASS_POLLS_MS)
    countdown = page.locator("#me-clock [data-countdown]")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text("Time left in round 1")
    shown = countdown.locator(".countdown-time").text_content()
    page.clock.run_for(3_000)
    expect(countdown.locator(".countdown-time")).not_to_have_text(shown)

    def claim_and_clock(p, width):
        expect(p.get_by_role("button", name=f"Yes: I lost as {my_side}")).to_be_visible()
        expect(countdown).to_be_visible()
    at_both_widths(page, screenshots, "player_live_claim", claim_and_clock)

    # round 2 is published: the new table, without a reload
    _report_round(live_server, tid, 1, me)
    _pair(live_server, tid, 2)
    page.clock.run_for(PASS_POLLS_MS)
    expect(page.locator("#me-card")).to_contain_text("Round 2")
    expect(page.get_by_text("Drop from the event")).to_be_visible()

    # the cut: this player (2-0) is in the top 4; their game, table, side and opponent; no drop
    _report_round(live_server, tid, 2, me)
    cut = _in_app(live_server, tid, lambda t: (cut_service.create(t, 4, "single"), cut_service.load(t))[1].bracket)
    game = next(g for g in cut.games if me in g.players)
    opponent = _in_app(live_server, tid,
                       lambda t: db.session.get(Player, next(p for p in game.players if p != me)).name)
    _in_app(live_server, tid, lambda t: cut_service.set_corp(t, game.id, me))
    page.clock.run_for(PASS_POLLS_MS)
    card = page.locator("#me-card")
    expect(card).to_contain_text(f"Top 4 · game {game.id}")
    expect(card).to_contain_text(f"You play Corp against {opponent}")
    expect(page.get_by_text("Drop from the event")).to_have_count(0)
    expect(page.locator("#me-clock [data-countdown]")).to_have_count(0)
    at_both_widths(page, screenshots, "player_live_cut", lambda p, width: expect(
        p.locator("#me-tabs").get_by_role("link", name="Top cut")).to_be_visible())

    # they win the semi-final, lose the final: second place, the champion crowned
    def play_out(t):
        cut_service.report(t, game.id, me)
        for g in cut_service.load(t).bracket.ready_games():
            if g.id != game.id and me not in g.players:
                cut_service.set_corp(t, g.id, g.player1)
                cut_service.report(t, g.id, g.player1)
        final = cut_service.load(t).bracket.ready_games()[0]
        cut_service.set_corp(t, final.id, me)
        cut_service.report(t, final.id, next(p for p in final.players if p != me))
    _in_app(live_server, tid, play_out)
    page.clock.run_for(PASS_POLLS_MS)
    expect(card).to_contain_text("2nd place")
    expect(card).to_contain_text("Final standings")
    # the public pages' banner agrees: no stale table
    page.goto(f"/t/{slug}/pairings")
    expect(page.locator(".you-banner")).to_contain_text("place 2 of 8")
    page.goto(_link(live_server, tid, me))
    at_both_widths(page, screenshots, "player_live_place", lambda p, width: expect(
        p.locator("#me-card")).to_contain_text("2nd place"))


FORMATS = {
    "single": ["I won as Runner", "I lost as Runner", "We tied", "We agreed an intentional draw"],
    "double": ["I won 6-0", "I lost 0-6", "We drew 3-3: each won as Corp", "We drew 3-3: each won as Runner"],
    "plain": ["I won 2-0", "I won 2-1", "I lost 1-2", "I lost 0-2", "We drew 1-1"],
}


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_result_buttons_read_from_the_players_side(new_context, live_server, organizer, screenshots, fmt):
    """The second seat (Runner in single-sided swiss) sees its own wins first; the first seat's claim reaches it
    as "you lost ..." with a one-tap confirmation."""
    tid, _ = _event(live_server, organizer["id"], ["Ana Silva", "Bo Berg", "Cy Dahl", "Di Ek"], fmt=fmt,
                    name=f"Worded {fmt} 360")
    _pair(live_server, tid, 1)
    first, second = _in_app(live_server, tid, lambda t: [
        p for p, _ in sorted(_table_of(t, 1, db.session.scalar(sa.select(Player.id).filter_by(
            tournament_id=t.id, name="Ana Silva")))[1], key=lambda s: s[1] != "corp")])
    page = _context(new_context, 360).new_page()
    page.goto(_link(live_server, tid, second))
    buttons = page.locator("form.me-buttons button")
    expect(buttons).to_have_text(FORMATS[fmt])
    at_both_widths(page, screenshots, f"player_worded_{fmt}", lambda p, width: expect(buttons).to_have_text(
        FORMATS[fmt]))

    def first_claims_a_win(t):
        match_id, _ = _table_of(t, 1, first)
        key = results.buttons(t.fmt)[0][0]  # the first seat's win (Corp win, 6-0, 2-0)
        participation.report(t, db.session.get(Player, first), match_id, key)
    _in_app(live_server, tid, first_claims_a_win)
    page.reload()
    lost = FORMATS[fmt][1] if fmt != "plain" else "I lost 0-2"
    expect(page.locator(".me-status")).to_contain_text(f"reported: you{lost[1:]}")
    confirm = page.get_by_role("button", name=f"Yes: {lost}")
    expect(confirm).to_be_visible()
    confirm.click()
    expect(page.locator(".me-result")).to_contain_text(lost)


def test_at_a_big_event_the_page_checks_less_often_and_still_follows_a_publish(new_context, live_server, organizer,
                                                                               roster):
    """Past PLAYER_CHECKS_PER_SECOND the page checks less often and, told of a publish by its status poll, asks
    at a moment within its spread instead of at once (app/core/polling.py): the new round still shows, within
    the status poll and the spread."""
    live_server.app.config["PLAYER_CHECKS_PER_SECOND"] = 1  # 8 players: every 8 s, a publish spread over 2 s
    try:
        names = [n for n, _, _ in roster[:8]]
        tid, _ = _event(live_server, organizer["id"], names, name="Spread Open")
        me = _player_id(live_server, tid, names[0])
        _pair(live_server, tid, 1)
        page = _context(new_context, 360).new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.clock.install()
        page.goto(_link(live_server, tid, me))
        live = page.locator("#me-live")
        expect(live).to_have_attribute("data-check-ms", "8000")
        expect(live).to_have_attribute("data-spread-ms", "2000")
        expect(page.locator("#me-card")).to_contain_text("Round 1")
        page.clock.run_for(10_000)  # the first status poll and check are past
        _report_round(live_server, tid, 1, me)
        _pair(live_server, tid, 2)
        page.clock.run_for(2_600 + 2_000)  # the next status poll (2 s, ±25 %) and then the spread
        expect(page.locator("#me-card")).to_contain_text("Round 2")
        assert not errors
    finally:
        live_server.app.config["PLAYER_CHECKS_PER_SECOND"] = 250
