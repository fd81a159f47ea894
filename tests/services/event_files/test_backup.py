"""Backup and restore: a complete copy of one event, and a restore that never touches existing data."""
from __future__ import annotations

import copy
import html
import io
import json

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import CutResult, Player, Tournament
from app.services.event_files import backup as backup_service
from app.services.event_files import restore as restore_service
from app.services import cut as cut_service
from cut_helpers import add_players, add_round, fixture_event


def _snapshot() -> dict:
    db.session.commit()
    return {table.name: [tuple(r) for r in db.session.execute(sa.select(table).order_by(*table.primary_key.columns))]
            for table in db.metadata.sorted_tables}


def _restore(client, data):
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/tournaments/restore", data={"file": (io.BytesIO(payload), "backup.json")},
                       content_type="multipart/form-data")


def _rich_event(make_user, make_tournament):
    """The fixed event plus what a backup must not lose: a dropped player, a fixed table, odd settings,
    an unpublished round, a side choice recorded for an unplayed cut game."""
    owner = make_user()
    t = make_tournament(owner, name="Rich Open", score_factor="5/2", planned_rounds=4, format="single")
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    a, b, c, d, e, f = add_players(t, names)
    f.dropped, e.fixed_table, a.first_round_bye = True, 3, True
    t.abr_id = 4321  # where its results go on AlwaysBeRunning
    db.session.commit()
    add_round(t, 1, [(b, c, "corp"), (d, e, "id"), (f, a, "runner")])
    add_round(t, 2, [(c, d, "tie"), (e, b, "runner"), (a, None, None)])
    cut_service.create(t, 4, "double")
    cut = cut_service.load(t)
    s1, s2, s3, s4 = cut.bracket.seeds
    cut_service.set_corp(t, 1, s4)
    cut_service.report(t, 1, s1)
    cut_service.set_corp(t, 2, s2)
    add_round(t, 3, [(a, b, None)], published=False)
    return owner, t


def test_round_trip_backup_restore_backup(client, make_user, make_tournament, login):
    owner, t = _rich_event(make_user, make_tournament)
    login()
    response = client.get(f"/tournaments/{t.id}/backup.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    first = json.loads(response.data)
    before = _snapshot()
    response = _restore(client, first)
    assert response.status_code in (302, 303), html.unescape(response.get_data(as_text=True))[-2000:]
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert restored.owner_id == owner.id and restored.slug != t.slug
    second = backup_service.backup(restored)
    assert second["tournament"].pop("slug") == restored.slug
    first["tournament"].pop("slug")
    assert (first["tournament"]["name"], second["tournament"]["name"]) == ("Rich Open", "Rich Open (restored)")
    second["tournament"]["name"] = first["tournament"]["name"]
    assert not set(links_of(second)) & set(links_of(first))  # a copy: new player links
    assert second == first and second["tournament"]["abr_id"] == 4321
    # the original is exactly as it was
    after = _snapshot()
    for table, rows in before.items():
        assert set(rows) <= set(after[table]), table
    assert db.session.scalar(sa.select(CutResult).filter_by(tournament_id=restored.id, game=2)).winner_id is None


def test_restore_belongs_to_the_restoring_organizer(client, make_user, make_tournament, login):
    t = fixture_event(make_user("first@example.com"), make_tournament)
    data = backup_service.backup(t)
    other = make_user("second@example.com")
    login("second@example.com")
    assert _restore(client, data).status_code in (302, 303)
    restored = db.session.scalars(sa.select(Tournament).filter_by(owner_id=other.id)).one()
    assert [p.name for p in restored.players] == [p.name for p in t.players]
    assert cut_service.load(restored).bracket.champion() is not None
    names = {p.id: p.name for p in db.session.scalars(sa.select(Player))}
    assert ([names[p] for p in cut_service.load(restored).bracket.seeds]
            == [names[p] for p in cut_service.load(t).bracket.seeds])


def _tampered(data: dict) -> list:
    cases = []

    def case(label, change):
        d = copy.deepcopy(data)
        change(d)
        cases.append((label, d))

    case("a seat names a player not in the file", lambda d: d["rounds"][0]["matches"][0]["seats"][0].update(player=99))
    case("a cut entry names a stranger", lambda d: d["cut"]["entries"][0].update(player=42))
    case("wrong type", lambda d: d["rounds"][0]["matches"][0]["seats"][0].update(points="3"))
    case("points as a bool", lambda d: d["rounds"][0]["matches"][0]["seats"][0].update(points=True))
    case("not a backup", lambda d: d.update(kind="nrtm"))
    case("future version", lambda d: d.update(version=99))
    case("two seats at one position", lambda d: d["rounds"][0]["matches"][0]["seats"][1].update(position=1))
    case("a player twice in a round",
         lambda d: d["rounds"][0]["matches"][1]["seats"][0].update(
             player=d["rounds"][0]["matches"][0]["seats"][0]["player"]))
    case("a bye with two seats", lambda d: d["rounds"][0]["matches"][0].update(is_bye=True))
    case("an impossible result", lambda d: d["rounds"][0]["matches"][0].update(result="9-9"))
    case("duplicate player names", lambda d: d["players"][1].update(name=d["players"][0]["name"]))
    case("bad format", lambda d: d["tournament"].update(format="chess"))
    case("bad score factor", lambda d: d["tournament"].update(score_factor="1/0"))
    case("a name too long", lambda d: d["players"][0].update(name="x" * 101))
    case("cut results that cannot happen", lambda d: d["cut"]["results"][0].update(game=5))
    case("a cut winner who is not in the game",
         lambda d: d["cut"]["results"][0].update(winner=d["cut"]["entries"][1]["player"]))
    case("seeds with a gap", lambda d: d["cut"]["entries"][0].update(seed=9))
    case("no players list", lambda d: d.pop("players"))
    return cases


def test_tampered_files_never_touch_existing_data(client, make_user, make_tournament, login):
    owner, t = _rich_event(make_user, make_tournament)
    data = backup_service.backup(t)
    login()
    before = _snapshot()
    failures = []
    for label, doc in _tampered(data) + [("not JSON", b"{oops"), ("empty", b""), ("a list", b"[]"),
                                         ("binary", bytes(range(256)))]:
        response = _restore(client, doc)
        text = html.unescape(response.get_data(as_text=True))
        if response.status_code != 400 or "Nothing was created" not in text:
            failures.append(f"{label}: {response.status_code}")
        if _snapshot() != before:
            failures.append(f"{label}: changed the database")
    assert not failures, failures


def test_backup_is_for_the_organizer_only(client, make_user, make_tournament, login):
    owner, t = _rich_event(make_user, make_tournament)
    assert client.get(f"/tournaments/{t.id}/backup.json").status_code in (302, 303)
    make_user("mallory@example.com", "mallory password")
    login("mallory@example.com", "mallory password")
    assert client.get(f"/tournaments/{t.id}/backup.json").status_code == 403
    assert client.get("/tournaments/restore").status_code == 200


@pytest.mark.parametrize("fmt, key", [("double", "4-1"), ("plain", "2-1-1")])
def test_other_formats_round_trip(client, make_user, make_tournament, login, fmt, key):
    owner = make_user()
    t = make_tournament(owner, format=fmt, tiebreakers="wow" if fmt == "plain" else None)
    a, b, c = add_players(t, ["Ann", "Ben", "Cat"])
    add_round(t, 1, [(a, b, key), (c, None, None)])
    data = backup_service.backup(t)
    login()
    assert _restore(client, data).status_code in (302, 303)
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    again = backup_service.backup(restored)
    again["tournament"].pop("slug"), data["tournament"].pop("slug")
    assert again["tournament"].pop("name") == data["tournament"].pop("name") + " (restored)"
    links_of(again), links_of(data)
    assert again == data


def test_restored_copy_is_marked_once_and_listed_apart(client, make_user, make_tournament, login):
    owner, t = _rich_event(make_user, make_tournament)
    login()
    assert _restore(client, backup_service.backup(t)).status_code in (302, 303)
    copy = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert copy.name == "Rich Open (restored)" and t.name == "Rich Open"
    page = client.get("/tournaments").get_data(as_text=True)
    assert ">Rich Open<" in page and ">Rich Open (restored)<" in page
    # restoring the copy's backup does not stack marks; a long name stays within the column
    assert _restore(client, backup_service.backup(copy)).status_code in (302, 303)
    names = sorted(db.session.scalars(sa.select(Tournament.name)))
    assert names == ["Rich Open", "Rich Open (restored)", "Rich Open (restored)"]
    assert restore_service.restored_name("x" * 120) == "x" * 109 + " (restored)"


def links_of(doc: dict) -> list[str]:
    """The players' link hashes, taken out of the file (a restored copy has links of its own)."""
    return [p.pop("link") for p in doc["players"]]


@pytest.mark.parametrize("where", ["name", "key"])
def test_a_lone_surrogate_is_a_clear_400(client, make_user, make_tournament, login, where):
    """The audit's `\\ud800`: JSON may escape half of a UTF-16 pair, which is no character at all; a backup
    holding one in a player's name (or a key) answered 500 when it was written. Now a 400 naming the problem, for
    the restore and the NRTM import alike, and nothing written."""
    owner, t = _rich_event(make_user, make_tournament)
    login()
    text = json.dumps(backup_service.backup(t))
    broken = text.replace('"Ann"', '"An\\ud800n"') if where == "name" else text.replace('"name"', '"na\\udc00me"', 1)
    assert broken != text
    before = _snapshot()
    response = _restore(client, broken.encode())
    assert response.status_code == 400
    assert "broken character" in html.unescape(response.get_data(as_text=True))
    nrtm = client.get(f"/t/{t.slug}.json").get_data(as_text=True).replace('"Ann"', '"An\\ud800n"')
    response = client.post("/tournaments/import", data={"file": (io.BytesIO(nrtm.encode()), "event.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "broken character" in html.unescape(response.get_data(as_text=True))
    assert _snapshot() == before
    pair = text.replace('"Ann"', '"An\\ud83d\\ude00n"')  # a whole pair (an emoji) is a character like any other
    assert _restore(client, pair.encode()).status_code == 302


def test_whether_ratings_seeded_a_round_survives_backup_and_restore(client, make_user, make_tournament, login):
    owner, t = _rich_event(make_user, make_tournament)
    rounds = sorted(t.rounds, key=lambda r: r.number)
    rounds[1].seeded_by_rating = True
    db.session.commit()
    login()
    first = json.loads(client.get(f"/tournaments/{t.id}/backup.json").data)
    assert [r["seeded_by_rating"] for r in first["rounds"]] == [False, True, False]
    assert _restore(client, first).status_code in (302, 303)
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    assert [r.seeded_by_rating for r in sorted(restored.rounds, key=lambda r: r.number)] == [False, True, False]
    assert [r["seeded_by_rating"] for r in backup_service.backup(restored)["rounds"]] == [False, True, False]
    # a file from before the flag: no round seeded; a flag that is not true or false: refused, nothing written
    older = copy.deepcopy(first)
    for r in older["rounds"]:
        del r["seeded_by_rating"]
    assert _restore(client, older).status_code in (302, 303)
    newest = db.session.scalars(sa.select(Tournament).order_by(Tournament.id.desc())).first()
    assert newest.id not in (t.id, restored.id) and not any(r.seeded_by_rating for r in newest.rounds)
    bad = copy.deepcopy(first)
    bad["rounds"][1]["seeded_by_rating"] = "yes"
    before = _snapshot()
    response = _restore(client, bad)
    assert response.status_code == 400 and "Round 2 seeded_by_rating should be true or false. Nothing was created" in \
        html.unescape(response.get_data(as_text=True))
    assert _snapshot() == before
