"""Decklists in the database (app/services/decklists.py): submit and replace, the lock at round 1 and the TO's
unlock, the identity a list registers, settings that judge every list again, visibility, backup round trip, CSV."""
from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import pytest
import sqlalchemy as sa
from cut_helpers import add_players, add_round

from app.core import decklists as rules_core
from app.extensions import db
from app.models import Decklist, Player
from app.services.event_files import backup as backup_service
from app.services import cut as cut_service
from app.services import decklists as service
from app.services import next_step
from app.services.event_files import export
from app.services.event_files import restore as restore_service
from app.services.swiss import rounds as rounds_service

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"
CORP = (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")
RUNNER = (FIXTURES / "runner_jinteki.txt").read_text(encoding="utf-8")
BROKEN = "Identity: Haas-Bioroid: Precision Design\n3x Hedge Fnd\n3x Sure Gamble\n4x Pulse\n"


def _rows() -> dict:
    db.session.commit()
    return {t.name: [tuple(r) for r in db.session.execute(sa.select(t).order_by(*t.primary_key.columns))]
            for t in db.metadata.sorted_tables}


@pytest.fixture
def event(make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, decklists=True, date=date(2026, 11, 1))
    players = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    return owner, t, players


def test_submit_keeps_the_text_and_what_it_says(event):
    _, t, (ann, *_) = event
    deck, checked = service.submit(t, ann, "corp", CORP, "player")
    assert checked.valid and deck.valid and deck.text == CORP and deck.problems == []
    assert deck.identity == "haas_bioroid_precision_design" and sum(n for _, n in deck.cards) == 40
    broken, checked = service.submit(t, ann, "corp", BROKEN, "player")
    assert broken.id == deck.id  # replaced, not added
    assert not broken.valid and [p["kind"] for p in broken.problems] == [p.kind.value for p in checked.problems]
    assert {"unknown_card", "wrong_side", "deck_limit", "deck_size"} <= {p["kind"] for p in broken.problems}


def test_a_list_registers_its_identity_and_the_to_sees_the_change(event):
    _, t, (ann, *_) = event
    assert ann.corp_identity == "Ann Corp"  # registered by hand, no known identity
    deck, _ = service.submit(t, ann, "corp", CORP, "player")
    db.session.expire_all()
    ann = db.session.get(Player, ann.id)
    assert ann.corp_identity == "Haas-Bioroid: Precision Design" and deck.identity_was == "Ann Corp"
    assert service.review(t).changed_identities == 1
    # the same identity again: the change shown is still the one from the registration
    service.submit(t, ann, "corp", CORP.replace("2x Palisade", "2x Palisade\n"), "player")
    assert db.session.get(Decklist, deck.id).identity_was == "Ann Corp"


def test_lists_lock_when_round_1_is_paired_and_the_to_unlocks_one(event):
    _, t, (ann, ben, *_) = event
    service.submit(t, ann, "corp", CORP, "player")
    rounds_service.pair_next_round(t, 1)
    assert service.locked(t)
    before = _rows()
    with pytest.raises(service.DecklistError, match="locked: round 1 has been paired"):
        service.submit(t, ann, "corp", BROKEN, "player")
    with pytest.raises(service.DecklistError, match="locked"):
        service.submit(t, ben, "runner", RUNNER, "player")
    assert _rows() == before
    assert not service.unlock(t, ben, "runner")  # nothing to unlock
    assert service.unlock(t, ann, "corp")
    deck, _ = service.submit(t, ann, "corp", BROKEN, "player")
    assert deck.text == BROKEN and not deck.unlocked  # one change, then locked again
    with pytest.raises(service.DecklistError):
        service.submit(t, ann, "corp", CORP, "player")
    service.submit(t, ben, "runner", RUNNER, "organizer")  # the TO enters any list at any time
    assert service.lists_of(t, ben)["runner"].updated_by == "organizer"


def test_refusals_change_nothing(event):
    _, t, (ann, *_) = event
    before = _rows()
    for side, text, words in [("corp", "3x Hedge Fund\n" * 10_000, "10,000 lines"),
                              ("corp", "x" * 2_000_000, "characters"), ("corp", "  \n ", "empty"),
                              ("neither", CORP, "Corp or the Runner")]:
        with pytest.raises(service.DecklistError, match=words):
            service.submit(t, ann, side, text, "player")
    t.decklists = False
    db.session.commit()
    before = _rows()
    with pytest.raises(service.DecklistError, match="does not collect"):
        service.submit(t, ann, "corp", CORP, "player")
    assert _rows() == before


def test_new_settings_judge_every_list_again(event):
    _, t, (ann, *_) = event
    service.submit(t, ann, "runner", "Identity: Noise: Hacker Extraordinaire\n3x Account Siphon", "player")
    assert {p["kind"] for p in service.lists_of(t, ann)["runner"].problems} >= {"not_in_pool"}
    assert service.save_settings(t, True, "eternal", "", "cut") == 1
    runner = service.lists_of(t, ann)["runner"]
    assert "not_in_pool" not in {p["kind"] for p in runner.problems}
    s = service.settings(t)
    assert (s.format_id, s.restriction_id, s.restriction_chosen, s.visibility) == \
        ("eternal", rules_core.default_restriction("eternal", t.date), False, rules_core.Visibility.CUT)
    before = _rows()
    with pytest.raises(service.DecklistError):
        service.save_settings(t, True, "eternal", "standard_ban_list_25_10", "cut")
    with pytest.raises(service.DecklistError):
        service.save_settings(t, True, "vintage", "", "cut")
    with pytest.raises(service.DecklistError):
        service.save_settings(t, True, "standard", "", "sometimes")
    assert _rows() == before


def test_the_list_in_force_goes_by_the_events_date(make_user, make_tournament):
    owner = make_user()
    early = make_tournament(owner, date=date(2025, 9, 1))
    assert service.settings(early).restriction_id == "standard_ban_list_25_08"
    late = make_tournament(owner, date=date(2026, 1, 1))
    assert service.settings(late).restriction_id == "standard_ban_list_25_10"
    late.restriction = "no_such_list"  # a list the card data no longer has: the one in force
    assert service.rules(late).restriction_id == "standard_ban_list_25_10"


def test_visibility_cut_and_after(event):
    _, t, players = event
    ann, ben, cat, dan = players
    for p in players:
        service.submit(t, p, "corp", CORP, "player")
    service.save_settings(t, True, "standard", "", "cut")
    assert service.public_players(t, next_step.event_over(t)) == []
    add_round(t, 1, [(ann, ben, "corp"), (cat, dan, "corp")])
    add_round(t, 2, [(ann, cat, "corp"), (ben, dan, "runner")])
    assert service.public_players(t, next_step.event_over(t)) == []
    cut_service.create(t, 2, "single")
    seeds = list(cut_service.load(t).bracket.seeds)
    assert service.public_players(t, next_step.event_over(t)) == seeds and len(seeds) == 2
    assert [p.id for p, _ in service.public_lists(t, next_step.event_over(t))] == seeds  # in seed order
    service.save_settings(t, True, "standard", "", "after")
    assert service.public_players(t, next_step.event_over(t)) == []  # the cut is still running
    first, _second = cut_service.load(t).bracket.seeds
    cut_service.set_corp(t, 1, first)
    cut_service.report(t, 1, first)
    assert next_step.event_over(t)
    assert set(service.public_players(t, next_step.event_over(t))) == {p.id for p in players}
    service.save_settings(t, True, "standard", "", "closed")
    assert service.public_players(t, next_step.event_over(t)) == []


def test_backup_round_trip_keeps_the_lists_and_settings(event):
    owner, t, (ann, ben, *_) = event
    service.save_settings(t, True, "standard", "standard_ban_list_25_08", "after")
    service.submit(t, ann, "corp", CORP, "player")
    service.submit(t, ann, "runner", RUNNER, "player")
    service.submit(t, ben, "corp", BROKEN, "organizer")
    rounds_service.pair_next_round(t, 1)
    service.unlock(t, ben, "corp")
    first = backup_service.backup(t)
    assert first["version"] == backup_service.VERSION and len(first["decklists"]) == 3
    copy = restore_service.restore(json.dumps(first).encode(), owner)
    second = backup_service.backup(copy)
    assert second["decklists"] == first["decklists"]
    assert second["tournament"]["decklists"] == first["tournament"]["decklists"]
    old = {(d.player_id, d.side): d for d in db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id))}
    new = {d.side + db.session.get(Player, d.player_id).name: d
           for d in db.session.scalars(sa.select(Decklist).filter_by(tournament_id=copy.id))}
    for (pid, side), d in old.items():
        twin = new[side + db.session.get(Player, pid).name]
        assert (twin.identity, twin.cards, twin.valid, twin.problems, twin.unlocked) == \
            (d.identity, d.cards, d.valid, d.problems, d.unlocked)


def test_a_bad_decklist_in_a_backup_is_refused_whole(event):
    owner, t, (ann, *_) = event
    service.submit(t, ann, "corp", CORP, "player")
    doc = backup_service.backup(t)
    before = _rows()
    for bad in ({"player": 99}, {"side": "both"}, {"text": "x\n" * 20_000}, {"text": "a\x00b"},
                {"updated_by": "mallory"}):
        broken = {**doc, "decklists": [{**doc["decklists"][0], **bad}]}
        with pytest.raises(restore_service.FileError):
            restore_service.restore(json.dumps(broken).encode(), owner)
        assert _rows() == before


def test_decklists_csv(event):
    _, t, (ann, ben, *_) = event
    service.submit(t, ann, "corp", CORP, "player")
    service.submit(t, ben, "runner", "=HYPERLINK(1)\nIdentity: Noise", "player")
    rows = list(csv.reader(io.StringIO(export.decklists_csv(t))))
    assert rows[0][:7] == ["player", "side", "identity", "legal", "problems", "card", "count"]
    ann_rows = [r for r in rows[1:] if r[0] == "Ann"]
    assert sum(int(r[6]) for r in ann_rows) == 40 and {r[2] for r in ann_rows} == {"Haas-Bioroid: Precision Design"}
    ben_rows = [r for r in rows[1:] if r[0] == "Ben"]
    assert len(ben_rows) == 1 and ben_rows[0][3] == "no" and ben_rows[0][4]  # no cards: one line, its problems


def test_review_of_a_big_event_shows_those_needing_attention(event, monkeypatch):
    _, t, (ann, ben, _cat, _dan) = event
    ann.corp_identity, ann.runner_identity = "Haas-Bioroid: Precision Design", "Tāo Salonga: Telepresence Magician"
    db.session.commit()
    service.submit(t, ann, "corp", CORP, "player")
    service.submit(t, ann, "runner", RUNNER, "player")  # complete, legal, identities as registered
    service.submit(t, ben, "corp", CORP, "player")
    service.submit(t, ben, "runner", RUNNER, "player")  # legal, but the identities changed
    everyone = service.review(t)
    assert [r.player.name for r in everyone.rows] == ["Ann", "Ben", "Cat", "Dan"] and not everyone.attention_only
    monkeypatch.setattr(service, "REVIEW_ALL_UP_TO", 3)
    big = service.review(t)
    assert big.attention_only and [r.player.name for r in big.rows] == ["Ben", "Cat", "Dan"]
    assert (big.players, big.missing, big.invalid, big.changed_identities) == (4, 2, 0, 2)
    assert len(service.review(t, show_all=True).rows) == 4


def test_lists_public_after_the_event_wait_for_the_cut(event):
    """The audit's leak: "public after the event" showed every list between the end of the swiss and the cut (a
    small field's swiss end looked like the end). Today's event: nothing public after the swiss, nor while its
    cut is played; everything once the cut is decided."""
    _, t, players = event
    ann, ben, cat, dan = players
    t.date = date.today()
    for p in players:
        service.submit(t, p, "corp", CORP, "player")
    service.save_settings(t, True, "standard", "", "after")
    add_round(t, 1, [(ann, ben, "corp"), (cat, dan, "corp")])
    add_round(t, 2, [(ann, cat, "corp"), (ben, dan, "runner")])
    assert not next_step.event_over(t) and service.public_players(t, next_step.event_over(t)) == []  # the swiss is over, the cut to come
    cut_service.create(t, 2, "single")
    assert service.public_players(t, next_step.event_over(t)) == []
    first, _second = cut_service.load(t).bracket.seeds
    cut_service.set_corp(t, 1, first)
    cut_service.report(t, 1, first)
    assert set(service.public_players(t, next_step.event_over(t))) == {p.id for p in players}


def test_lists_public_after_an_event_without_a_cut_the_day_after(event):
    _, t, (ann, ben, cat, dan) = event
    t.date = date(2026, 11, 27)
    add_round(t, 1, [(ann, ben, "corp"), (cat, dan, "corp")])
    assert not next_step.event_over(t, today=date(2026, 11, 28))  # the swiss is not complete
    add_round(t, 2, [(ann, cat, "corp"), (ben, dan, "runner")])
    assert not next_step.event_over(t, today=date(2026, 11, 27))  # its day: a cut may still come
    assert next_step.event_over(t, today=date(2026, 11, 28))
