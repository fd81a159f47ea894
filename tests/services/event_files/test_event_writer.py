"""The player row every event file shares (app/services/event_files/event_writer.py PLAYER_KEYS): the backup
writes it, restore reads it back and the writer inserts it, so a player comes back as they left."""
from __future__ import annotations

import json

from app.extensions import db
from app.models import Player
from app.services.event_files import backup, event_writer, restore


def test_every_player_column_is_carried_or_named_as_not():
    """A new Player column is carried by the one schema, or said here not to be: it cannot be forgotten by one of
    the three places that once listed the keys each for itself."""
    not_as_is = {"id", "tournament_id", "name_key", "link_key", "moved_link", "nrdb_account_id", "created_at",
                 "no_coverage", "self_registered", "drop_reason"}
    columns = set(Player.__table__.c.keys())
    assert set(event_writer.PLAYER_KEYS) | not_as_is == columns
    assert not set(event_writer.PLAYER_KEYS) & not_as_is


def test_a_player_comes_back_from_a_backup_as_they_left(app, make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, online=True)
    left = Player(tournament=t, name="Ána Silva", corp_identity="A Homebrew Corp", runner_identity="Az McCaffrey",
                  pronouns="she/her", jinteki_name="ana_s", discord="ana#1", dropped=True, first_round_bye=True,
                  fixed_table=7, file_rank=3)
    db.session.add(left)
    db.session.flush()
    left.corp_faction = "haas_bioroid"  # a file's faction of an identity the card data does not know
    db.session.commit()

    doc = backup.backup(t)
    assert set(event_writer.PLAYER_KEYS) <= set(doc["players"][0])
    copy = restore.restore(json.dumps(doc).encode(), owner)

    (back,) = copy.players
    assert event_writer.player_values(back) == event_writer.player_values(left)
    assert event_writer.player_values(back)["corp_faction"] == "haas_bioroid"
