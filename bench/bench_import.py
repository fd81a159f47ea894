"""Importing a big NRTM file: a 300-player, 11-round Cobra-like file checked and stored, with its times.

`python -m bench.bench_import` (`make bench-import`). The file is made here (`synthetic_file`, seed 2026): a
single-sided swiss as Cobra writes it, with the quirks real files carry (a penalty's negative score, a bye that
shares a game's table or scores other than a bye, `table: null` in round 1, unknown identities whose faction is a
display name, `twoForOne`), its standings recounted independently (points, SoS, ESoS as Cobra defines them, exact
ties in a random order the file's ranks keep) and a top 2 cut that a declining swiss #2 skipped. Each run times
`nrtm_import.check` (parse, read, the standings check) and `nrtm_import.store` (the bulk write) on SQLite (a
temporary file) and on PostgreSQL when postgresql://postgres@127.0.0.1/test answers (database
`sass_bench_import`, created and dropped here); the medians of --runs are printed as a markdown table.

`synthetic_file` is also what tests/services/event_files/test_nrtm_round_trip.py draws its property tests from.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.core import cards  # noqa: E402
from app.core.identities import faction, identities  # noqa: E402

DB_NAME = "sass_bench_import"
DISPLAY_NAMES = {"corp": ["Weyland", "Haas-Bioroid", "Jinteki", "NBN", "weyland-consortium", "haas_bioroid"],
                 "runner": ["Shaper", "Sunny Lebeau", "Anarch", "Criminal", "sunny-lebeau", "Adam"]}


def _identity(rng: random.Random, side: str, quirks: bool) -> tuple:
    """(identity, faction as the file writes it): a known identity with its v1 code, or (quirks) one the card
    data does not know, with a faction display name as the NRTM app writes it."""
    if quirks and rng.random() < 0.15:
        return f"Homebrew {side.title()} {rng.randrange(1000)}", rng.choice(DISPLAY_NAMES[side])
    name = rng.choice(identities()[side])
    return name, cards.nrtm_faction(faction(name, side))


def synthetic_file(rng: random.Random, players: int, rounds: int, double: bool = False, quirks: bool = True,
                   cut: bool = False) -> dict:
    """An NRTM file as Cobra writes one, every number consistent with its games (matchPoints, SoS, ESoS, ranks
    from an independent recount), with real files' quirks when `quirks`."""
    ids = [1000 + 7 * i for i in range(players)]
    name = {p: f"Player {i + 1}" for i, p in enumerate(ids)}
    bye_points = 6 if double else 3
    points = {p: 0 for p in ids}
    played = {p: 0 for p in ids}
    opponents = {p: [] for p in ids}
    file_rounds = []
    for n in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        pairings = []
        for k in range(0, len(order) - 1, 2):
            a, b = order[k], order[k + 1]
            pairings.append(_game(rng, a, b, double, quirks))
            opponents[a].append(b)
            opponents[b].append(a)
        if len(order) % 2:
            p = order[-1]
            worth = bye_points if not quirks or rng.random() > 0.1 else rng.choice([0, bye_points + 1])
            seat = {"id": p, "corpScore": None, "runnerScore": None, "combinedScore": worth}
            empty = {"id": None, "corpScore": None, "runnerScore": None, "combinedScore": 0}
            if not double:
                seat["role"] = empty["role"] = None
            second = quirks and rng.random() < 0.2
            pairings.append({"player1": empty if second else seat, "player2": seat if second else empty,
                             "intentionalDraw": False, "twoForOne": False, "eliminationGame": False})
        for t, pairing in enumerate(pairings, 1):
            pairing["table"] = t
            for key in ("player1", "player2"):
                seat = pairing[key]
                if seat["id"] is not None:
                    points[seat["id"]] += seat["combinedScore"]
                    played[seat["id"]] += 1
        if quirks and len(order) % 2 and len(pairings) > 1 and rng.random() < 0.3:
            pairings[-1]["table"] = rng.randrange(1, len(pairings))  # the bye shares a game's table
        if quirks and n == 1 and rng.random() < 0.3:
            for pairing in rng.sample(pairings, max(1, len(pairings) // 4)):
                pairing["table"] = None
        file_rounds.append([{"table": p.pop("table"), **p} for p in pairings])

    sos, esos = schedule_strengths(ids, points, played, opponents)
    tiebreak = {p: rng.random() for p in ids}
    standing = sorted(ids, key=lambda p: (-points[p], -sos[p], -esos[p], tiebreak[p]))
    rows = []
    for rank, p in enumerate(standing, 1):
        corp, corp_faction = _identity(rng, "corp", quirks)
        runner, runner_faction = _identity(rng, "runner", quirks)
        rows.append({"id": p, "name": name[p], "rank": rank, "corpIdentity": corp, "corpFaction": corp_faction,
                     "runnerIdentity": runner, "runnerFaction": runner_faction, "matchPoints": points[p],
                     "strengthOfSchedule": float(sos[p]), "extendedStrengthOfSchedule": float(esos[p])})
    elimination = []
    if cut and players >= 3:
        seeds = [standing[0], standing[2] if quirks and rng.random() < 0.5 else standing[1]]  # #2 may decline
        corp = rng.randrange(2)
        winner = rng.randrange(2)
        file_rounds.append([{"table": 1, "intentionalDraw": False, "twoForOne": False, "eliminationGame": True,
                             **{f"player{i + 1}": {"id": s, "role": "corp" if i == corp else "runner",
                                                   "winner": i == winner} for i, s in enumerate(seeds)}}])
        elimination = [{"id": s, "name": name[s], "rank": 1 if i == winner else 2, "seed": i + 1}
                       for i, s in enumerate(seeds)]
    return {"name": "Synthetic Championship", "date": "2026-11-27", "cutToTop": len(elimination),
            "preliminaryRounds": rounds, "tournamentOrganiser": {"nrdbId": 1, "nrdbUsername": "to"},
            "players": rows, "eliminationPlayers": elimination, "rounds": file_rounds, "uploadedFrom": "Cobra",
            "links": []}


def schedule_strengths(ids, points: dict, played: dict, opponents: dict) -> tuple[dict, dict]:
    """Each player's SoS and ESoS as Fractions, counted apart from SASS: the mean of the opponents' points per
    round played, and the mean of the opponents' SoS."""
    sos = {p: _mean(Fraction(points[o], played[o]) for o in opponents[p]) for p in ids}
    esos = {p: _mean(sos[o] for o in opponents[p]) for p in ids}
    return sos, esos


def _mean(values) -> Fraction:
    values = list(values)
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def _game(rng: random.Random, a: int, b: int, double: bool, quirks: bool) -> dict:
    """One swiss game as Cobra writes it; (quirks) now and then a penalty: a negative score."""
    penalty = [rng.choice([1, 2]) if quirks and rng.random() < 0.03 else 0 for _ in range(2)]
    if double:
        g1, g2 = rng.choice([(3, 0), (1, 1), (0, 3)]), rng.choice([(3, 0), (1, 1), (0, 3)])
        sides = [[g1[0], g2[0]], [g2[1], g1[1]]]  # (corp, runner) of each seat: seat 1 is Corp in game 1
        given = not quirks or rng.random() > 0.3  # old Cobra files give only combinedScore
        seats = []
        for (corp, runner), pen, p in zip(sides, penalty, (a, b)):
            if pen and given and 0 not in (corp, runner):
                pen = 0  # Cobra's penalty sits on a side that scored 0
            if pen and given:
                corp, runner = (corp - pen, runner) if corp == 0 else (corp, runner - pen)
            total = corp + runner - (0 if given else pen)
            seats.append({"id": p, "corpScore": corp if given else None, "runnerScore": runner if given else None,
                          "combinedScore": total})
        return {"player1": seats[0], "player2": seats[1], "intentionalDraw": False,
                "twoForOne": quirks and rng.random() < 0.05, "eliminationGame": False}
    result = rng.choice(["corp", "runner", "tie", "id"])
    scores = {"corp": (3, 0), "runner": (0, 3), "tie": (1, 1), "id": (1, 1)}[result]  # (corp, runner)
    roles = ("corp", "runner") if rng.random() < 0.5 else ("runner", "corp")
    seats = []
    for role, pen, p in zip(roles, penalty, (a, b)):
        score = scores[0 if role == "corp" else 1] - pen
        seats.append({"id": p, "role": role, "corpScore": score if role == "corp" else None,
                      "runnerScore": score if role == "runner" else None, "combinedScore": score})
    return {"player1": seats[0], "player2": seats[1], "intentionalDraw": result == "id", "twoForOne": False,
            "eliminationGame": False}


def measure(uri: str, data: bytes, runs: int) -> dict:
    import sqlalchemy as sa

    from app import create_app
    from app.extensions import db
    from app.models import Tournament, User
    from app.services.event_files import nrtm_import

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "bench", "TESTING": True})
    checks, stores, cpu, warnings = [], [], [], 0
    with app.app_context():
        db.create_all()
        owner = User(email="bench-import@example.com")
        owner.set_password("bench password")
        db.session.add(owner)
        db.session.commit()
        for _ in range(runs):
            started, used = time.perf_counter(), time.process_time()
            plan = nrtm_import.check(data)
            checks.append(time.perf_counter() - started)
            started = time.perf_counter()
            t = nrtm_import.store(plan, owner)
            stores.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
            warnings = len(plan.warnings)
            db.session.execute(sa.delete(Tournament).where(Tournament.id == t.id))  # ON DELETE CASCADE
            db.session.commit()
        backend = db.engine.dialect.name
        db.session.remove()
        db.engine.dispose()
    return {"backend": backend, "check": statistics.median(checks), "store": statistics.median(stores),
            "cpu": statistics.median(cpu), "warnings": warnings}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args(argv)
    doc = synthetic_file(random.Random(2026), args.players, args.rounds, cut=True)
    data = json.dumps(doc, indent=2).encode()
    print(f"{args.players} players x {args.rounds} rounds: {len(data) / 2**20:.2f} MB of JSON", flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append(measure(f"sqlite:///{tmp}/bench.db", data, args.runs))
    if not args.no_postgres:
        from bench.bench_web import drop_postgres, postgres_url
        url = postgres_url(DB_NAME)
        if url:
            try:
                rows.append(measure(url, data, args.runs))
            finally:
                drop_postgres(DB_NAME)
    print("| backend | check s (median) | store s (median) | total s | CPU s | warnings listed |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['backend']} | {r['check']:.3f} | {r['store']:.3f} | {r['check'] + r['store']:.3f} "
              f"| {r['cpu']:.3f} | {r['warnings']} |")


if __name__ == "__main__":
    main()
