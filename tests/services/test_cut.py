"""A swiss result changed once the cut exists (docs/domain.md 8): only the organizer, only after seeing what it
changes; the cut keeps its seeds, and every page and export lists the cut's players in seed order, as the
bracket does."""
from __future__ import annotations

import csv
import html
import io
import json
import random

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import CutEntry, Match, Round, Seat, Staff
from app.services import cut as cut_service
from app.services import state
from cut_helpers import add_players, play_cut, random_swiss
from tests.web.test_authz import _snapshot

PASSWORD = "correct horse"


@pytest.fixture
def event(app, make_user, make_tournament, login):
    """16 players, 5 random swiss rounds, a top-8 double-elimination cut played to its champion, a scorekeeper;
    the round-5 table that a seeded player won, whose flip moves that player down the swiss."""
    owner = make_user()
    t = make_tournament(owner, name="Cut Open")
    players = add_players(t, [f"P{i:02d}" for i in range(1, 17)])
    random_swiss(t, players, 5, random.Random(7))
    cut_service.create(t, 8, "double")
    play_cut(t, lambda g: g.higher_seed)
    scorekeeper = make_user("sk@example.com", PASSWORD)
    db.session.add(Staff(tournament_id=t.id, user_id=scorekeeper.id, role="scorekeeper"))
    db.session.commit()
    seeds = _seeds(t)
    for seed, pid in enumerate(seeds, 1):
        if seed < 4:
            continue
        row = db.session.execute(
            sa.select(Match.id, Seat.position).join(Seat, Seat.match_id == Match.id)
            .join(Round, Round.id == Match.round_id)
            .where(Round.tournament_id == t.id, Round.number == 5, Seat.player_id == pid,
                   Match.result == sa.case((Seat.position == 1, "corp"), else_="runner"))).first()
        if row:
            return t, row[0], "runner" if row[1] == 1 else "corp", pid
    pytest.fail("no seeded player won in round 5")


def _seeds(t) -> list[int]:
    return list(db.session.scalars(sa.select(CutEntry.player_id).filter_by(tournament_id=t.id)
                                   .order_by(CutEntry.seed)))


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


@pytest.mark.slow
def test_scorekeepers_and_stray_taps_change_nothing(event, app, login):
    t, mid, flip, _ = event
    url = f"/tournaments/{t.id}/matches/{mid}/result"
    before = _snapshot()
    sk = login("sk@example.com", PASSWORD, c=app.test_client())
    for data in ({"result": flip}, {"result": flip, "past": "1"}, {"result": flip, "after_cut": "1"}):
        assert sk.post(url, data=data).status_code == 403
        assert sk.post(url, data=data, headers={"Accept": "application/json"}).status_code == 403
    assert sk.get(f"/tournaments/{t.id}/matches/{mid}/after-cut").status_code == 403
    assert sk.post(f"/tournaments/{t.id}/matches/{mid}/after-cut", data={"result": flip}).status_code == 403
    to = login(c=app.test_client())
    for data in ({"result": flip}, {"result": flip, "past": "1"}):
        answer = to.post(url, data=data, headers={"Accept": "application/json"})
        assert answer.status_code == 409 and "Change after the cut" in answer.get_json()["error"]
        assert to.post(url, data=data).status_code == 409
    assert _snapshot() == before


@pytest.mark.slow
def test_the_organizer_sees_what_changes_then_confirms(event, app, login):
    t, mid, flip, moved = event
    to = login(c=app.test_client())
    seeds = _seeds(t)
    round_page = _text(to.get(f"/tournaments/{t.id}/rounds/5"))
    assert "The top cut exists" in round_page and f"/matches/{mid}/after-cut" in round_page
    assert 'name="result"' not in round_page  # no one-tap result buttons on a swiss round once the cut exists
    assert "Change after the cut" not in _text(login("sk@example.com", PASSWORD, c=app.test_client())
                                               .get(f"/tournaments/{t.id}/rounds/5"))
    assert to.get(f"/tournaments/{t.id}/matches/{mid}/after-cut").status_code == 200
    before = _snapshot()
    preview = to.post(f"/tournaments/{t.id}/matches/{mid}/after-cut", data={"result": flip})
    assert preview.status_code == 200 and _snapshot() == before  # the preview changes nothing
    old = {s.player: s for s in state.swiss_standings(t)}
    name = old[moved].name
    row = _text(preview).split(f"<tr><td>{name}</td>", 1)[1].split("</tr>", 1)[0]
    assert f"{old[moved].rank} → " in row and f"{old[moved].points} → " in row
    assert "the cut keeps its 8 seeds" in _text(preview) and 'name="after_cut" value="1"' in _text(preview)

    done = to.post(f"/tournaments/{t.id}/matches/{mid}/result", data={"result": flip, "after_cut": "1"})
    assert done.status_code == 303
    db.session.expire_all()
    assert db.session.get(Match, mid).result == flip
    assert _seeds(t) == seeds  # the cut keeps the seeds it was drawn with
    new = {s.player: s for s in state.swiss_standings(t)}
    assert new[moved].points < old[moved].points

    # the NRTM file ranks the swiss as its games now stand (the results site's placings); its cut keeps the seeds
    nrtm = json.loads(app.test_client().get(f"/t/{t.slug}.json").data)
    names = {p["id"]: p["name"] for p in nrtm["players"]}
    assert [(names[p["id"]], p["rank"]) for p in nrtm["players"]] == \
        [(r.name, r.rank) for r in state.swiss_standings(t)]
    assert sorted(e["seed"] for e in nrtm["eliminationPlayers"]) == list(range(1, 9))
    # every page and the CSV say what the bracket says: seed i is listed i-th
    by_seed = [names[e["id"]] for e in sorted(nrtm["eliminationPlayers"], key=lambda e: e["seed"])]
    rows = list(csv.reader(io.StringIO(to.get(f"/tournaments/{t.id}/standings.csv").get_data(as_text=True))))
    header = rows[0]
    ranked = sorted(rows[1:], key=lambda r: int(r[header.index("rank")]))
    assert [r[header.index("name")] for r in ranked[:8]] == by_seed
    public = _text(app.test_client().get(f"/t/{t.slug}/standings"))
    at = [public.index(f"data-names=\"{n.lower()}\"") for n in by_seed]
    assert at == sorted(at)
    assert by_seed[seeds.index(moved)] == name
