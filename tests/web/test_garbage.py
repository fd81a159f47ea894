"""Garbage into every form of accounts, tournaments and players: a form error or a 4xx, never a 500, never a change."""
from __future__ import annotations

import io

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player, Round, Tournament

LONG = "x" * 10_000
HUGE = "9" * 30
NUL = "Ann\x00ie"

REQUIRED_TEXT = ["", "   ", LONG, NUL, "tab\there"]
OPTIONAL_TEXT = [LONG, NUL]
NUMBER = ["abc", "1.5", "-1", "0", HUGE, LONG, "½"]


def _rows() -> dict:
    db.session.commit()
    return {t.name: db.session.execute(sa.select(t).order_by(*t.primary_key.columns)).all()
            for t in db.metadata.sorted_tables}


def _try_all(client, url, valid: dict, cases: dict) -> list[str]:
    """Post `valid` with one field replaced by each garbage value; every answer must be a 4xx and change nothing."""
    failures = []
    for field, values in cases.items():
        for value in values:
            before = _rows()
            response = client.post(url, data={**valid, field: value})
            if not 400 <= response.status_code < 500:
                failures.append(f"{field}={value[:20]!r}: {response.status_code}")
            if _rows() != before:
                failures.append(f"{field}={value[:20]!r}: changed the database")
    return failures


@pytest.fixture
def organizer(make_user, login):
    user = make_user()
    login()
    return user


def test_signup_garbage(client):
    valid = {"email": "new@example.com", "password": "long enough", "confirm": "long enough"}
    failures = _try_all(client, "/signup", valid, {
        "email": REQUIRED_TEXT + ["not-an-email", "a@b", "a@@b.co"],
        "password": ["", "short", LONG],
        "confirm": ["", "different!", LONG],
    })
    assert not failures, failures


def test_login_garbage(client, make_user):
    make_user()
    failures = _try_all(client, "/login", {"email": "to@example.com", "password": "correct horse"}, {
        "email": REQUIRED_TEXT + ["nobody@example.com"],
        "password": ["", LONG, NUL, "wrong password"],
    })
    assert not failures, failures


TOURNAMENT = {"name": "Regional", "date": "2026-05-01", "format": "single", "score_factor": "2",
              "planned_rounds": "5", "tiebreakers": "magic"}
TOURNAMENT_CASES = {
    "name": REQUIRED_TEXT,
    "date": ["", "abc", "2026-13-45", "01/05/2026", LONG],
    "format": ["", "triple", LONG],
    "score_factor": ["", "abc", "0", "-2", "1/0", "nan", "inf", "1e400", HUGE, LONG, "2 1/2"],
    "planned_rounds": NUMBER + ["51"],
}


@pytest.mark.slow
def test_create_tournament_garbage(client, organizer):
    failures = _try_all(client, "/tournaments/new", TOURNAMENT, TOURNAMENT_CASES)
    failures += _try_all(client, "/tournaments/new", {**TOURNAMENT, "format": "plain"},
                         {"tiebreakers": ["", "cobra", LONG]})
    assert not failures, failures


@pytest.mark.slow
def test_edit_tournament_garbage(client, organizer, make_tournament):
    t = make_tournament(organizer)
    failures = _try_all(client, f"/tournaments/{t.id}/edit", TOURNAMENT, TOURNAMENT_CASES)
    assert not failures, failures


PLAYER = {"name": "Ann", "corp_identity": "Jinteki: Personal Evolution",
          "runner_identity": "Noise: Hacker Extraordinaire", "fixed_table": ""}
PLAYER_CASES = {"name": REQUIRED_TEXT, "corp_identity": OPTIONAL_TEXT, "runner_identity": OPTIONAL_TEXT,
                "fixed_table": NUMBER}


def test_add_player_garbage(client, organizer, make_tournament):
    t = make_tournament(organizer)
    failures = _try_all(client, f"/tournaments/{t.id}/players", PLAYER, PLAYER_CASES)
    assert not failures, failures


def test_edit_player_garbage(client, organizer, make_tournament):
    t = make_tournament(organizer)
    p = Player(tournament_id=t.id, name="Ann")
    db.session.add(p)
    db.session.commit()
    failures = _try_all(client, f"/tournaments/{t.id}/players/{p.id}/edit", PLAYER, PLAYER_CASES)
    assert not failures, failures


def test_import_garbage(client, organizer, make_tournament):
    t = make_tournament(organizer)
    url = f"/tournaments/{t.id}/players/import"
    failures = _try_all(client, url, {}, {"text": ["", "\n\n", f"{LONG},a,b", "Ann,a,b\nann,c,d", "a,b,c,d,e",
                                                   "Ann\x00,a,b", f"Ann,{LONG},b", ",a,b"]})
    for content in (b"\xff\xfe\x00garbage", b"Ann,\xe9,b", LONG.encode() * 50, b"\x00\x01\x02"):
        before = _rows()
        response = client.post(url, data={"file": (io.BytesIO(content), "players.csv")},
                               content_type="multipart/form-data")
        if response.status_code != 422 or _rows() != before:
            failures.append(f"upload {content[:10]!r}: {response.status_code}")
    assert not failures, failures


def test_upload_over_the_size_limit_is_413(client, organizer, make_tournament):
    t = make_tournament(organizer)
    response = client.post(f"/tournaments/{t.id}/players/import",
                           data={"file": (io.BytesIO(b"a,b,c\n" * 500_000), "big.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 413
    assert db.session.scalar(sa.select(sa.func.count(Player.id))) == 0


FOREIGN_AND_NONSENSE = [
    "/tournaments/{other}", "/tournaments/{other}/edit", "/tournaments/{other}/players",
    "/tournaments/{other}/players/import", "/tournaments/{other}/delete",
    "/tournaments/{other}/players/{other_pid}/edit", "/tournaments/{own}/players/{other_pid}/edit",
    "/tournaments/{own}/players/{other_pid}/delete", "/tournaments/{own}/players/{other_pid}/drop",
    "/tournaments/{own}/players/{other_pid}/undrop", "/tournaments/{own}/players/999999/edit",
    "/tournaments/{own}/players/abc/edit", "/tournaments/-1", "/tournaments/abc", "/tournaments/" + HUGE,
    "/tournaments/2147483648", "/tournaments/{own}/players/2147483648/edit", "/tournaments/{own}/players/-5/edit",
    "/tournaments/{own}/players/import/../../edit",
]


def test_foreign_and_nonsense_ids_in_urls(client, organizer, make_user, make_tournament):
    """Another tournament's ids, ids of the wrong type, negative or beyond the database's integers: 4xx only."""
    own = make_tournament(organizer)
    other = make_tournament(make_user("other@example.com"), name="Other")
    p = Player(tournament_id=other.id, name="Zed")
    db.session.add(p)
    db.session.commit()
    before = _rows()
    failures = []
    for path in FOREIGN_AND_NONSENSE:
        url = path.format(own=own.id, other=other.id, other_pid=p.id)
        for method in ("GET", "POST"):
            status = client.open(url, method=method, data={**PLAYER, "confirm": "y"}).status_code
            if not 400 <= status < 500:
                failures.append(f"{method} {url}: {status}")
    assert not failures, failures
    assert _rows() == before


def test_format_change_after_round_one_is_a_form_error(client, organizer, make_tournament):
    t = make_tournament(organizer)
    db.session.add(Round(tournament_id=t.id, number=1))
    db.session.commit()
    response = client.post(f"/tournaments/{t.id}/edit", data={**TOURNAMENT, "format": "double"})
    assert response.status_code == 422
    assert "cannot change once round 1 exists" in response.get_data(as_text=True)
    assert db.session.get(Tournament, t.id).format == "single"


def test_ids_beyond_the_database_integers_on_every_route(app, client, organizer):
    """Every route with a numeric argument answers 2**31 and 2**64 with a 4xx: no row has such an id, and
    SQLite's driver raises on the second."""
    failures = []
    for rule in app.url_map.iter_rules():
        numeric = [a for a in rule.arguments if rule._converters[a].regex == r"\d+"]
        if not numeric:
            continue
        for big in (2**31, 2**64):
            args = {a: big if a in numeric else "x" for a in rule.arguments}
            url = rule.build(args, append_unknown=False)[1]
            for method in sorted(rule.methods & {"GET", "POST"}):
                try:
                    status = client.open(url, method=method).status_code
                except Exception as e:  # TESTING propagates what would be a 500
                    status = type(e).__name__
                    db.session.rollback()
                if not (isinstance(status, int) and 400 <= status < 500):
                    failures.append(f"{method} {url}: {status}")
    assert not failures, "\n".join(failures)
