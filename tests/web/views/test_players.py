"""Players: add, edit, remove before round 1, drop/undrop, late entry, CSV import, identity suggestions."""
from __future__ import annotations

import io

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.core.identities import identities
from app.models import Player, Round
from app.services import state
from app.services.players.player_import import MAX_ROWS, UnreadableFile, decode, parse_players


@pytest.fixture
def tournament(make_user, make_tournament, login):
    t = make_tournament(make_user())
    login()
    return t


def _players(t) -> list[Player]:
    db.session.commit()
    return db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id).order_by(Player.id)).all()


def _add(t, *names) -> list[Player]:
    players = [Player(tournament_id=t.id, name=n) for n in names]
    db.session.add_all(players)
    db.session.commit()
    return players


def _start(t) -> None:
    db.session.add(Round(tournament_id=t.id, number=1))
    db.session.commit()


def test_add_player_with_everything(client, tournament):
    response = client.post(f"/tournaments/{tournament.id}/players", data={
        "name": "  Ada  ", "corp_identity": "Jinteki: Personal Evolution",
        "runner_identity": "Noise: Hacker Extraordinaire", "first_round_bye": "y", "fixed_table": "4"})
    assert response.status_code == 302 and response.location == f"/tournaments/{tournament.id}/players"
    (p,) = _players(tournament)
    assert (p.name, p.corp_identity, p.runner_identity, p.first_round_bye, p.fixed_table, p.dropped) == (
        "Ada", "Jinteki: Personal Evolution", "Noise: Hacker Extraordinaire", True, 4, False)
    (entrant,) = state.entrants(tournament)
    assert (entrant.first_round_bye, entrant.fixed_table) == (True, 4)


def test_add_player_minimal(client, tournament):
    assert client.post(f"/tournaments/{tournament.id}/players", data={"name": "Bo"}).status_code == 302
    (p,) = _players(tournament)
    assert (p.corp_identity, p.runner_identity, p.first_round_bye, p.fixed_table) == ("", "", False, None)


def test_duplicate_name_ignores_case(client, tournament):
    _add(tournament, "Ada")
    response = client.post(f"/tournaments/{tournament.id}/players", data={"name": "ADA"})
    assert response.status_code == 422 and "already in this tournament" in response.get_data(as_text=True)
    assert len(_players(tournament)) == 1


def test_fixed_table_belongs_to_one_active_player(client, tournament):
    ada, = _add(tournament, "Ada")
    ada.fixed_table = 3
    db.session.commit()
    response = client.post(f"/tournaments/{tournament.id}/players", data={"name": "Bo", "fixed_table": "3"})
    assert response.status_code == 422 and "Table 3 is already held by Ada" in response.get_data(as_text=True)
    ada.dropped = True
    db.session.commit()
    assert client.post(f"/tournaments/{tournament.id}/players",
                       data={"name": "Bo", "fixed_table": "3"}).status_code == 302


def test_list_page(client, tournament):
    page = client.get(f"/tournaments/{tournament.id}/players").get_data(as_text=True)
    assert "No players yet" in page
    _add(tournament, "Ada", "Bo")
    page = client.get(f"/tournaments/{tournament.id}/players").get_data(as_text=True)
    assert "Ada" in page and "Bo" in page and "2 active" in page
    assert 'list="corp-identities"' in page and 'list="runner-identities"' in page
    assert '<option value="Noise: Hacker Extraordinaire">' in page
    assert '<option value="Jinteki: Personal Evolution">' in page


def test_shipped_identities():
    ids = identities()
    assert len(ids["corp"]) >= 30 and len(ids["runner"]) >= 30
    assert "Haas-Bioroid: Engineering the Future" in ids["corp"]
    assert "Kate \"Mac\" McCaffrey: Digital Tinker" in ids["runner"]
    assert not set(ids["corp"]) & set(ids["runner"])
    assert all(0 < len(name) <= 100 for side in ids.values() for name in side)


def test_edit_player(client, tournament):
    ada, bo = _add(tournament, "Ada", "Bo")
    url = f"/tournaments/{tournament.id}/players/{ada.id}/edit"
    assert 'value="Ada"' in client.get(url).get_data(as_text=True)
    response = client.post(url, data={"name": "Ada L.", "corp_identity": "NBN: Making News", "fixed_table": "2"})
    assert response.status_code == 302
    ada = _players(tournament)[0]
    assert (ada.name, ada.corp_identity, ada.fixed_table) == ("Ada L.", "NBN: Making News", 2)
    assert client.post(url, data={"name": "ada l."}).status_code == 302  # a player may keep their own name
    response = client.post(url, data={"name": "bo"})
    assert response.status_code == 422 and "already in this tournament" in response.get_data(as_text=True)


def test_remove_only_before_round_one(client, tournament):
    ada, bo = _add(tournament, "Ada", "Bo")
    assert client.post(f"/tournaments/{tournament.id}/players/{ada.id}/delete").status_code == 302
    assert [p.name for p in _players(tournament)] == ["Bo"]
    _start(tournament)
    response = client.post(f"/tournaments/{tournament.id}/players/{bo.id}/delete", follow_redirects=True)
    assert "cannot be removed once round 1 exists" in response.get_data(as_text=True)
    assert "Drop them instead" in response.get_data(as_text=True)
    assert [p.name for p in _players(tournament)] == ["Bo"]
    page = client.get(f"/tournaments/{tournament.id}/players").get_data(as_text=True)
    assert f"/players/{bo.id}/delete" not in page and f"/players/{bo.id}/drop" in page


def test_drop_and_undrop(client, tournament):
    ada, = _add(tournament, "Ada")
    _start(tournament)
    assert client.post(f"/tournaments/{tournament.id}/players/{ada.id}/drop").status_code == 302
    assert _players(tournament)[0].dropped and state.entrants(tournament)[0].dropped
    page = client.get(f"/tournaments/{tournament.id}/players").get_data(as_text=True)
    assert "dropped" in page and f"/players/{ada.id}/undrop" in page
    assert client.post(f"/tournaments/{tournament.id}/players/{ada.id}/undrop").status_code == 302
    assert not _players(tournament)[0].dropped
    assert client.get(f"/tournaments/{tournament.id}/players/{ada.id}/drop").status_code == 405


def test_late_entry(client, tournament):
    _add(tournament, "Ada", "Bo")
    _start(tournament)
    response = client.post(f"/tournaments/{tournament.id}/players", data={"name": "Late Larry"},
                           follow_redirects=True)
    assert "They join the next pairing" in response.get_data(as_text=True)
    assert [e.name for e in state.entrants(tournament)] == ["Ada", "Bo", "Late Larry"]


# ---- CSV import --------------------------------------------------------------------------------------------

def _import(client, t, text=None, upload: bytes | None = None):
    data = {"text": text or ""}
    if upload is not None:
        data["file"] = (io.BytesIO(upload), "players.csv")
    return client.post(f"/tournaments/{t.id}/players/import", data=data, content_type="multipart/form-data")


def test_import_pasted_list_with_header(client, tournament):
    text = ("name,corp identity,runner identity\n"
            "Ada,Haas-Bioroid: Engineering the Future,Noise: Hacker Extraordinaire\n"
            '"Smith, Jo",,"Kate ""Mac"" McCaffrey: Digital Tinker"\n'
            "\n"
            "Cy\n")
    response = _import(client, tournament, text)
    assert response.status_code == 302
    rows = [(p.name, p.corp_identity, p.runner_identity) for p in _players(tournament)]
    assert rows == [("Ada", "Haas-Bioroid: Engineering the Future", "Noise: Hacker Extraordinaire"),
                    ("Smith, Jo", "", 'Kate "Mac" McCaffrey: Digital Tinker'), ("Cy", "", "")]


def test_import_uploaded_file_without_header_with_bom(client, tournament):
    data = "\ufeffAda,NBN: Making News,Whizzard: Master Gamer\r\nBo,,\r\n".encode("utf-8")
    assert _import(client, tournament, upload=data).status_code == 302
    assert [(p.name, p.corp_identity) for p in _players(tournament)] == [("Ada", "NBN: Making News"), ("Bo", "")]


def test_import_reports_every_bad_row_and_imports_nothing(client, tournament):
    _add(tournament, "Existing")
    text = "\n".join(["Ada,a,b", ",corp only,", "x" * 101, "ada,c,d", "existing", "Eve,a,b,they/them,extra", "Fine"])
    response = _import(client, tournament, text)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Nothing was imported" in page
    for message in ("Row 2: the name is empty.", "Row 3: the name is longer than 100 characters.",
                    "Row 4: “ada” is also on row 1.", "Row 5: “existing” is already a player in this tournament.",
                    "Row 6: the row has 5 fields; expected at most 4 (name, corp identity, runner identity, "
                    "pronouns): a name or identity holding a comma must be in double quotes."):
        assert message in page
    assert "Row 1:" not in page and "Row 7:" not in page
    assert [p.name for p in _players(tournament)] == ["Existing"]


def test_import_reads_pronouns_as_a_fourth_column(client, tournament):
    text = "name,corp identity,runner identity,pronouns\nAda,,,she/her\nBo,NBN: Making News\nCy,,,\nDi,,," + "x" * 41
    response = _import(client, tournament, text)
    assert response.status_code == 422 and "Row 5: the pronouns are longer than 40 characters (if an identity holds" \
        in response.get_data(as_text=True)
    assert _import(client, tournament, text.rsplit("\n", 1)[0]).status_code == 302
    assert [(p.name, p.pronouns) for p in _players(tournament)] == [("Ada", "she/her"), ("Bo", ""), ("Cy", "")]


def test_import_refuses_non_utf8(client, tournament):
    response = _import(client, tournament, upload="Zoë,Jinteki,Noise\n".encode("latin-1"))
    assert response.status_code == 422
    assert "not UTF-8" in response.get_data(as_text=True)
    assert _players(tournament) == []


def test_import_page_and_empty_submit(client, tournament):
    page = client.get(f"/tournaments/{tournament.id}/players/import").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page and "nothing is imported" in page
    response = _import(client, tournament, "")
    assert response.status_code == 422 and "The list is empty" in response.get_data(as_text=True)


def test_import_after_round_one_is_late_entry(client, tournament):
    _add(tournament, "Ada")
    _start(tournament)
    assert _import(client, tournament, "Bo\nCy").status_code == 302
    assert [p.name for p in _players(tournament)] == ["Ada", "Bo", "Cy"]


# The parser on its own: no Flask, no database.

def test_parse_header_is_optional_and_only_on_the_first_row():
    assert [r.name for r in parse_players("Name,Corp,Runner\nAda").rows] == ["Ada"]
    assert [r.name for r in parse_players("Ada\nname").rows] == ["Ada", "name"]


def test_parse_trailing_empty_columns_and_spaces():
    (row,) = parse_players("  Ada , HB ,  Noise ,,,\n").rows
    assert (row.line, row.name, row.corp_identity, row.runner_identity) == (1, "Ada", "HB", "Noise")


def test_parse_errors_clear_rows():
    result = parse_players("Ada\nBo\nada")
    assert result.rows == [] and result.errors == ["Row 3: “ada” is also on row 1."]


def test_parse_control_characters_and_limits():
    assert parse_players('"A\nda",x,y').errors == ["Row 1: the name contains control characters."]
    assert parse_players("\n".join(f"P{i}" for i in range(MAX_ROWS + 1))).errors[0].startswith("At most")
    assert len(parse_players("\n".join(f"P{i}" for i in range(MAX_ROWS))).rows) == MAX_ROWS


def test_parse_refuses_nul_and_decode_refuses_latin1():
    with pytest.raises(UnreadableFile):
        parse_players("Ada\x00,x,y")
    with pytest.raises(UnreadableFile):
        decode("Zoë".encode("latin-1"))
    assert decode("\ufeffZoë".encode("utf-8")) == "Zoë"
