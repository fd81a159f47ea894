"""A published round's seats by bucket (app/services/swiss/seat_lookup.py, app/core/seat_lookup.py), and the shared
answer phones read their new table from at a publish (api.seats)."""
from __future__ import annotations

import sqlalchemy as sa

from app.core.seat_lookup import BUCKETS, bucket
from app.extensions import db
from app.models import Match, Player, Round, Seat
from app.services.players import player_links
from app.services.swiss import seat_lookup

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def _event(make_user, make_tournament, login):
    t = make_tournament(make_user())
    db.session.add_all(Player(tournament_id=t.id, name=n) for n in NAMES)
    db.session.commit()
    client = login()
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": 1}).status_code == 303
    return client, t


def _truth(t) -> dict:
    """player id -> (table or None, side or None, opponent name or None), from the rows themselves."""
    rows = db.session.execute(sa.select(Seat.player_id, Seat.side, Seat.match_id, Match.table, Match.is_bye)
                              .join(Match, Match.id == Seat.match_id).join(Round, Round.id == Seat.round_id)
                              .where(Round.tournament_id == t.id, Round.number == 1)).all()
    names = dict(db.session.execute(sa.select(Player.id, Player.name)).all())
    by_match: dict = {}
    for pid, side, mid, table, bye in rows:
        by_match.setdefault(mid, []).append((pid, side, table, bye))
    out = {}
    for seats in by_match.values():
        for pid, side, table, bye in seats:
            other = next((o for o, *_ in seats if o != pid), None)
            out[pid] = (None if bye else table, side.title() if side else None, names.get(other))
    return out


def test_each_player_is_in_exactly_their_bucket_with_their_table(app, make_user, make_tournament, login):
    client, t = _event(make_user, make_tournament, login)
    assert seat_lookup.answer(t, 1, 0) is None  # not published yet: nobody may read it
    assert seat_lookup.seat_count(t, 1) == 0
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    assert seat_lookup.seat_count(t, 1) == len(NAMES) and seat_lookup.seat_count(t, 2) == 0  # a bye is one seat
    truth, seen = _truth(t), {}
    for b in range(BUCKETS):
        for pid, seat in seat_lookup.answer(t, 1, b)["seats"].items():
            assert bucket(int(pid)) == b and int(pid) not in seen
            seen[int(pid)] = (seat["table"], seat["side"], seat["opponent"])
    assert seen == truth
    assert seat_lookup.answer(t, 1, BUCKETS) is None and seat_lookup.answer(t, 2, 0) is None


def test_the_shared_answer_is_the_players_table_and_a_proxy_may_keep_it(app, make_user, make_tournament, login):
    client, t = _event(make_user, make_tournament, login)
    player = db.session.scalars(sa.select(Player).where(Player.tournament_id == t.id)).first()
    address = f"/api/tournaments/{t.slug}/rounds/1/seats/{bucket(player.id)}"
    assert app.test_client().get(address).status_code == 404
    assert client.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    phone = app.test_client()
    answer = phone.get(address)
    assert answer.status_code == 200 and answer.headers["Cache-Control"].startswith("public")
    assert "Set-Cookie" not in answer.headers
    seat = answer.get_json()["seats"][str(player.id)]
    table, side, opponent = _truth(t)[player.id]
    assert seat == {"table": table, "side": side, "opponent": opponent}
    if opponent is not None:  # the player's own page, asked in full, says the same table, and where to look
        page = phone.get(f"/t/{t.slug}/p/{player_links.token(player)}").get_data(as_text=True)
        assert f"Table {table}" in page and f'data-seats="/api/tournaments/{t.slug}/rounds/{{round}}/seats/' in page
        assert 'id="seat-preview"' in page  # the card the page fills from the answer
