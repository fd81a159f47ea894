"""An event's entries written by the services (app/services/players/entries.py): the TO's form and the player's own
registration store an entry's fields through one function, so both store the same; a refusal writes nothing."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player
from app.services.players import entries, registration

FIELDS = ("name", "corp_identity", "runner_identity", "pronouns", "no_coverage", "jinteki_name", "discord")


def _stored(player_id: int) -> dict:
    """The entry's fields but its name and username (unique in the event: never equal for two players)."""
    db.session.expire_all()
    player = db.session.get(Player, player_id)
    return {f: getattr(player, f) for f in FIELDS if f not in ("name", "jinteki_name")}


@pytest.mark.parametrize("online", [False, True])
def test_the_organizers_form_and_self_registration_store_the_same_fields(make_user, make_tournament, online):
    t = make_tournament(make_user(), registration_open=True, online=online)
    details = {"corp_identity": "Haas-Bioroid: Precision Design", "runner_identity": "Zahya Sadeghi: Versatile Smuggler",
               "pronouns": "she/her", "no_coverage": True, "jinteki_name": "ana", "discord": "ana#1"}
    by_player = registration.register(t, "Ana Silva", **details)
    by_organizer = entries.add(t, entries.Details(name="Ben Ode", **{**details, "jinteki_name": "ben"}))
    assert _stored(by_player.id) == _stored(by_organizer.id)
    # an event that is not online keeps no handle from either form (neither shows the fields)
    assert (by_player.jinteki_name, by_organizer.discord) == (("ana", "ana#1") if online else ("", ""))
    # the player's own edit and the TO's edit write through the same function too
    registration.edit(t, by_player, "Ana Silva", pronouns="they/them", jinteki_name="ana")
    entries.change(t, by_organizer, entries.Details(name="Ben Ode", pronouns="they/them", jinteki_name="ben"))
    assert _stored(by_player.id) == _stored(by_organizer.id)
    assert (by_player.pronouns, by_player.no_coverage) == ("they/them", False)


def test_a_refused_edit_writes_nothing_and_names_each_field(make_user, make_tournament):
    t = make_tournament(make_user())
    ana = entries.add(t, entries.Details(name="Ana"), fixed_table=3)
    ben = entries.add(t, entries.Details(name="Ben", pronouns="he/him"))
    with pytest.raises(entries.Refused) as refused:
        entries.change(t, ben, entries.Details(name="ANA", pronouns="they/them"), fixed_table=3)
    assert set(refused.value.problems) == {"name", "fixed_table"}
    assert "Ana" in refused.value.problems["name"] and "held by Ana" in refused.value.problems["fixed_table"]
    db.session.expire_all()
    assert (ben.name, ben.pronouns, ben.fixed_table) == ("Ben", "he/him", None)
    assert ana.fixed_table == 3


def test_a_csv_import_with_one_bad_row_adds_nobody(make_user, make_tournament):
    t = make_tournament(make_user())
    entries.add(t, entries.Details(name="Ana"))
    with pytest.raises(entries.ImportRefused) as refused:
        entries.import_players(t, "Cid\nana\n")
    assert refused.value.errors == ["Row 2: “ana” is already a player in this tournament."]
    assert db.session.scalars(sa.select(Player.name).filter_by(tournament_id=t.id)).all() == ["Ana"]
    assert entries.import_players(t, "Cid\nDee\n") == 2
