"""Seeding by rating through the services alone: a script (or a command) that pairs an event of a series without
ever loading the web layer, nor the series package, still seeds it by the series' ratings. Run in a fresh
interpreter, so nothing another test imported can wire the rating source by accident."""
from __future__ import annotations

import pytest
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import sys
    from datetime import date

    from flask import Flask

    from app.extensions import db
    from app.models import Round, Series, SeriesEvent, SeriesLink, Tournament, User
    from app.services import ratings
    from app.services.swiss import rounds
    from tests.cut_helpers import add_players, add_round

    app = Flask("script")
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + sys.argv[1]
    db.init_app(app)
    with app.app_context():
        db.create_all()
        owner = User(email="to@example.com", password_hash="x")
        db.session.add(owner)
        db.session.flush()
        series = Series(owner_id=owner.id, name="League", slug="league1")
        first = Tournament(owner_id=owner.id, name="Week 1", date=date(2026, 1, 5), format="single")
        second = Tournament(owner_id=owner.id, name="Week 2", date=date(2026, 1, 12), format="single",
                            seed_by_rating=True)
        db.session.add_all([series, first, second])
        db.session.commit()
        old = add_players(first, ["Ann", "Ben", "Cat", "Dan"])
        # week 1: Ann beats everyone, Ben everyone but Ann, ... a clear order
        add_round(first, 1, [(old[0], old[1], "corp"), (old[2], old[3], "corp")])
        add_round(first, 2, [(old[0], old[2], "corp"), (old[1], old[3], "corp")])
        add_round(first, 3, [(old[0], old[3], "corp"), (old[1], old[2], "corp")])
        new = add_players(second, ["Ann", "Ben", "Cat", "Dan"])
        db.session.add_all([SeriesEvent(series_id=series.id, tournament_id=first.id),
                            SeriesEvent(series_id=series.id, tournament_id=second.id)])
        db.session.add_all(SeriesLink(series_id=series.id, player_id=n.id, target_player_id=o.id)
                           for n, o in zip(new, old))
        db.session.commit()
        rnd = rounds.pair_next_round(second, 1)
        web = sorted(m for m in sys.modules if m.startswith("app.web"))
        strengths = ratings.strengths_before(second)
        print("web", web)
        print("seeded", rnd.seeded_by_rating)
        print("ordered", [strengths[p.id] for p in new] == sorted((strengths[p.id] for p in new), reverse=True))
''')


@pytest.mark.slow
def test_pairing_through_the_services_alone_seeds_by_the_series_ratings(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "script.db")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert lines["web"] == "[]"  # the web layer was never loaded
    assert lines["seeded"] == "True" and lines["ordered"] == "True"
