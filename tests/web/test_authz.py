"""Authorization walk, by introspecting app.url_map (so routes added later are covered too).

ROUTES below is the declared rule: every endpoint's capability. The role matrix tries every route with every method
as six callers (anonymous, another organizer, the event's scorekeeper, organizer and owner, the site admin) against
the victim's event; each caller is allowed exactly what ROUTES grants its role. Refused = 401/403/404 or a redirect
to the login page, with every table exactly as it was; allowed = anything else below 500. A route missing from
ROUTES fails the suite, so a new route is classified when it is written.
"""
from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from werkzeug.routing import IntegerConverter

from app.extensions import db
from app.models import (EventGroup, EventGroupMember, JudgeCall, Match, NrdbAccount, PendingStaff, Penalty, Player,
                        Round, Seat, Staff, User)
from app.web.access import ORGANIZE, OWN, SCORE

PUBLIC = "public"    # anyone, no login
ACCOUNT = "account"  # any logged-in user, acting on their own account or creating their own events
PLAYER = "player"    # a player through their secret link; no account role grants it
SLIP = "slip"        # a match slip's table code (tests/services/results/test_slip_codes.py walks it); no account role grants it
NRDB = "nrdb"        # a browser signed in with NetrunnerDB, acting on its own account; no account role grants it
SERIES = "series"          # the victim's series: its owner and its staff (the event's organizer is on it), the admin
SERIES_OWN = "series own"  # reading; the event's scorekeeper holds no role in the series
GROUP = "group"      # the event group's owner (the account that made it; the victim here); the admin reads it
AFTER_SWISS = "after swiss"  # anyone once the swiss is over; before, SCORE (and the admin reading). The victim's
                             # event is mid-swiss; test_after_swiss_routes_are_public_once_it_ends walks the rest.

ROUTES = {
    "static": PUBLIC,
    # accounts
    "auth.login": PUBLIC, "auth.signup": PUBLIC, "auth.logout": ACCOUNT, "auth.change_password": ACCOUNT,
    "auth.profile": ACCOUNT,
    "tournaments.index": ACCOUNT, "tournaments.new": ACCOUNT, "tournaments.create": ACCOUNT,
    "event_files.restore": ACCOUNT, "event_files.import_nrtm": ACCOUNT, "event_files.import_confirm": ACCOUNT,
    # one event: the dashboard and the round pages let a scorekeeper find the tables to score
    "tournaments.show": SCORE, "rounds.index": SCORE, "rounds.show": SCORE, "rounds.report": SCORE,
    "rounds.live": SCORE,
    "cut.index": SCORE, "cut.corp": SCORE, "cut.winner": SCORE,
    "tournaments.edit": ORGANIZE, "players.index": ORGANIZE, "players.create": ORGANIZE,
    "players.edit": ORGANIZE, "players.delete": ORGANIZE, "players.drop": ORGANIZE, "players.undrop": ORGANIZE,
    "players.import_csv": ORGANIZE, "players.live": ORGANIZE, "rounds.pair": ORGANIZE, "rounds.pair_preview": ORGANIZE, "rounds.publish": ORGANIZE, "rounds.undo": ORGANIZE,
    "rounds.edit_pairings": ORGANIZE, "rounds.standings": ORGANIZE, "rounds.export_standings": ORGANIZE,
    "rounds.export_games": ORGANIZE, "rounds.after_cut": ORGANIZE, "cut.create": ORGANIZE, "cut.delete": ORGANIZE, "event_files.backup": ORGANIZE,
    "pairing_jobs.follow": ORGANIZE,
    # results to AlwaysBeRunning (app/web/views/abr.py)
    "abr.index": ORGANIZE, "abr.send": ORGANIZE, "abr.download": ORGANIZE,
    # the event's schedule (app/web/views/schedule.py): organizers plan it, everyone reads it
    "schedule.edit": ORGANIZE, "schedule.save": ORGANIZE, "schedule.standard": ORGANIZE, "schedule.clear": ORGANIZE,
    "schedule.public": PUBLIC, "api.schedule": PUBLIC,
    "tournaments.delete": OWN, "staff.index": OWN, "staff.add": OWN, "staff.remove": OWN, "staff.forget": OWN,
    # players' phones and the read-only API
    "public.landing": PUBLIC, "public.home": PUBLIC, "public.pairings": PUBLIC, "public.round": PUBLIC,
    "public.standings": PUBLIC, "public.status": PUBLIC, "event_files.nrtm": PUBLIC, "cut.public_bracket": PUBLIC,
    "api.tournament": PUBLIC, "api.rounds": PUBLIC, "api.pairings": PUBLIC, "api.standings": PUBLIC,
    "api.bracket": PUBLIC, "api.seats": PUBLIC, "public.name_key_of": PUBLIC, "public.favicon": PUBLIC,
    "public.me": PUBLIC,
    # an online event's report address: a remembered phone goes to its page, anyone else proves it with a code
    "online.report": PUBLIC, "online.prove": PUBLIC,
    # self-registration: anyone registers while it is open; a device edits the entry its player link holds
    "registration.register": PUBLIC, "registration.mine": PLAYER,
    # a player's own page and actions through their link
    "player.link": PLAYER, "player.live": PLAYER, "player.report": PLAYER, "player.drop": PLAYER,
    # push to the player's phone (app/web/views/push.py): their subscriptions and installable page through their
    # link; the service worker script is the same for everyone
    "push.subscribe": PLAYER, "push.unsubscribe": PLAYER, "push.manifest": PLAYER, "push.worker": PUBLIC,
    # a printed match slip's code: its table, its round, one report
    "slips.show": SLIP, "slips.report": SLIP,
    # the TO's side of self-report: players' links with ORGANIZE (reports arrive on the round page: rounds.live)
    "player.show_link": ORGANIZE, "player.reissue": ORGANIZE,
    # the round timer and the printouts a scorekeeper runs the floor with
    "timer.current": SCORE, "timer.show": SCORE, "timer.start": SCORE, "timer.pause": SCORE, "timer.resume": SCORE,
    "timer.adjust": SCORE, "timer.call": SCORE, "printouts.by_name": SCORE, "printouts.slips": SCORE,
    "timer.projector": PUBLIC, "printouts.qr": PUBLIC,
    # decklists: a player's own through their link; staff review and print; organizers set up, enter, unlock
    "decklists.mine": PLAYER, "decklists.public": PUBLIC,
    "decklists.review": SCORE, "decklists.sheet": SCORE, "decklists.print_all": SCORE,
    "decklists.save_settings": ORGANIZE, "decklists.enter": ORGANIZE, "decklists.unlock": ORGANIZE,
    "decklists.export_csv": ORGANIZE, "decklists.lock": ORGANIZE, "decklists.reopen": ORGANIZE,
    # decks fetched from NetrunnerDB: a player's own through their link; organizers for anyone
    "nrdb_decks.mine": PLAYER, "nrdb_decks.enter": ORGANIZE,
    # the event statistics, page and API
    "stats.show": AFTER_SWISS, "api.stats": AFTER_SWISS,
    # judge calls: a player calls through their link; the staff see, claim and resolve (app/web/views/judge_calls.py)
    "judge_calls.call": PLAYER, "judge_calls.cancel": PLAYER, "judge_calls.mine": PLAYER,
    # check-in (app/web/views/check_in.py): a player checks in through their link; the staff run the roll call;
    # organizers set it up, drop the no-shows, start the next one and let the waitlist in
    "check_in.player_check_in": PLAYER, "check_in.index": SCORE, "check_in.live": SCORE, "check_in.tick": SCORE, "check_in.undo": SCORE,
    "check_in.save_settings": ORGANIZE, "check_in.drop_no_shows": ORGANIZE, "check_in.next_roll_call": ORGANIZE,
    "check_in.admit": ORGANIZE, "check_in.leave_waitlist": PLAYER,
    "judge_calls.index": SCORE, "judge_calls.live": SCORE, "judge_calls.claim": SCORE, "judge_calls.resolve": SCORE,
    # NetrunnerDB (app/web/views/nrdb.py): anyone starts or ends a sign-in of their own browser; a player links their
    # entry through its link; the history and its privacy are the signed-in account's; organizers unlink entries
    "nrdb.sign_in": PUBLIC, "nrdb.callback": PUBLIC, "nrdb.sign_out": PUBLIC,
    "nrdb.link": PLAYER, "nrdb.unlink": PLAYER, "nrdb.history": NRDB, "nrdb.privacy": NRDB, "nrdb.entry_history": PLAYER,
    "nrdb.unlink_entry": ORGANIZE,
    # a player's own NetrunnerDB decks (app/web/views/nrdb_picker.py): their link, and signed in with the account the
    # entry is linked to (tests/web/views/test_nrdb_picker.py walks the second half)
    "nrdb_picker.decks": PLAYER, "nrdb_picker.pick": PLAYER,
    # series (app/web/views/series.py): anyone makes their own; its owner and staff manage it; only the owner deletes
    # it or changes its staff; the public reads the standings, players' pages and exports, not the suggestions
    "series.index": ACCOUNT, "series.new": ACCOUNT,
    "series.show": SERIES, "series.edit": SERIES, "series.add_event": SERIES, "series.new_event": SERIES,
    "series.set_tier": SERIES, "series.remove_event": SERIES, "series.players": SERIES, "series.confirm": SERIES,
    "series.reject": SERIES, "series.undo": SERIES, "series.decision": SERIES, "series.link_all": SERIES,
    "series.separate": SERIES, "series.set_name": SERIES,
    "series.delete": SERIES_OWN, "series.staff": SERIES_OWN, "series.add_staff": SERIES_OWN,
    "series.remove_staff": SERIES_OWN,
    "series.public": PUBLIC, "series.player": PUBLIC, "series.export_csv": PUBLIC, "series.export_json": PUBLIC,
    # penalties and deck checks, private to the staff (a disqualification takes ORGANIZE inside penalties.new)
    "penalties.index": SCORE, "penalties.new": SCORE,
    "penalties.void": SCORE,  # a disqualification's void takes ORGANIZE inside penalties.void
    "deck_checks.index": SCORE, "deck_checks.draw": SCORE, "deck_checks.check": SCORE,
    # event groups (app/web/views/groups.py): an account makes its own; only the group's owner changes it (its
    # events' staff do not); its page and each event's "your entry" answer are public
    "groups.index": ACCOUNT, "groups.create": ACCOUNT,
    "groups.manage": GROUP, "groups.update": GROUP, "groups.delete": GROUP, "groups.add": GROUP,
    "groups.remove": GROUP,
    "groups.page": PUBLIC, "groups.entry": PUBLIC,
    # streaming (app/web/views/streaming.py): the organizers set the stream and the featured table; the feed is public
    "streaming.save": ORGANIZE, "streaming.feature": ORGANIZE, "streaming.feed": PUBLIC,
    "streaming.coverage": PLAYER,  # the player's own opt-out, through their link
}

# What each caller's role grants in the victim's event. The admin reads every event (GET) and changes none.
ROLES = ("anonymous", "other", "scorekeeper", "organizer", "owner", "admin")
GRANTS = {"anonymous": set(), "other": set(), "scorekeeper": {SCORE}, "organizer": {SCORE, ORGANIZE},
          "owner": {SCORE, ORGANIZE, OWN}, "admin": set()}
READ = {"GET", "HEAD"}
# GET routes the admin may not read although their capability's holders may: a player's link is the player, so
# only those who may reissue it see it (the admin sees, reports nothing).
ADMIN_MAY_NOT_READ = {"player.show_link"}
# The victim's series: the owner owns it, the event's organizer is its staff, nobody else holds a role in it.
SERIES_GRANTS = {"owner": {SERIES, SERIES_OWN}, "organizer": {SERIES}}


def expected_allowed(role: str, endpoint: str, method: str) -> bool:
    need = ROUTES[endpoint]
    if need == AFTER_SWISS:  # the victim's event is mid-swiss
        need = SCORE
    if need == PUBLIC:
        return True
    if need in (PLAYER, SLIP, NRDB):
        return False
    if role == "anonymous":
        return False
    if need == ACCOUNT:
        return True
    if need in (SERIES, SERIES_OWN):
        return need in SERIES_GRANTS.get(role, ()) or (role == "admin" and method in READ)
    if need == GROUP:
        return role == "owner" or (role == "admin" and method in READ)
    return need in GRANTS[role] or (role == "admin" and method in READ and endpoint not in ADMIN_MAY_NOT_READ)


MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
# Logging in, signing up and logging out act on the visitor's own session, not on anyone's data.
EXCLUDED = {"auth.login": "acts on the visitor's own session",
            "auth.signup": "creates the visitor's own account",
            "auth.logout": "ends the visitor's own session"}
OBJECT_ARGS = {"pid", "player_id", "mid", "match_id", "rid", "round_id", "sid", "seat_id", "staff_id", "cid",
               "pending_id", "series_event_id", "series_staff_id", "penalty_id"}
# A payload that would be a valid change if the caller were allowed to make it.
PAYLOAD = {"name": "Pwned", "date": "2026-01-01", "format": "plain", "score_factor": "3", "corp_identity": "x",
           "runner_identity": "y", "confirm": "y", "result": "corp", "number": "2", "first": "2", "second": "0",
           "drawn": "0", "text": "Mallory,,", "action": "swap", "player": "1", "other": "2", "top": "2",
           "kind": "single", "winner": "1", "corp": "1", "email": "mallory@example.com", "role": "organizer",
           "side": "corp", "decklists": "y", "card_format": "eternal", "visibility": "after",
           "reason": "Mallory says so"}


@pytest.fixture(autouse=True)
def _nrdb_client(request):
    """The NetrunnerDB routes are walked as on a server with a NetrunnerDB client at a public address (otherwise they
    all answer 404);
    nothing listens at its address, and no walk reaches it."""
    for name in ("app", "csrf_app"):
        if name in request.fixturenames:
            request.getfixturevalue(name).config.update(NRDB_URL="http://127.0.0.1:9", NRDB_CLIENT_ID="walk",
                                                        NRDB_CLIENT_SECRET="walk",
                                                        PUBLIC_URL="https://sass.example.org")


def _victim(make_user, make_tournament):
    """Another organizer's single-sided event: three players, round 1 with a game and a bye, one result in,
    a scorekeeper and an organizer on its staff, a judge call waiting."""
    victim = make_user("victim@example.com", "victim password")
    t = make_tournament(victim, name="Victim Open")
    players = [Player(tournament_id=t.id, name=n) for n in ("Ann", "Ben", "Cat")]
    db.session.add_all(players)
    db.session.flush()
    rnd = Round(tournament_id=t.id, number=1, published=True)
    db.session.add(rnd)
    db.session.flush()
    game = Match(tournament_id=t.id, round_id=rnd.id, table=1, result="corp")
    bye = Match(tournament_id=t.id, round_id=rnd.id, table=2, is_bye=True, result="bye")
    db.session.add_all([game, bye])
    db.session.flush()
    db.session.add_all([
        Seat(tournament_id=t.id, round_id=rnd.id, match_id=game.id, player_id=players[0].id, position=1,
             side="corp", points=3),
        Seat(tournament_id=t.id, round_id=rnd.id, match_id=game.id, player_id=players[1].id, position=2,
             side="runner", points=0),
        Seat(tournament_id=t.id, round_id=rnd.id, match_id=bye.id, player_id=players[2].id, position=1, points=3),
    ])
    scorekeeper = make_user("scorekeeper@example.com", "scorekeeper password")
    organizer = make_user("organizer@example.com", "organizer password")
    staff = [Staff(tournament_id=t.id, user_id=scorekeeper.id, role="scorekeeper"),
             Staff(tournament_id=t.id, user_id=organizer.id, role="organizer")]
    db.session.add_all(staff)
    call = JudgeCall(tournament_id=t.id, player_id=players[0].id, round_number=1, table=1, state="open")
    pending = PendingStaff(tournament_id=t.id, email="not-here-yet@example.com", role="organizer")
    warning = Penalty(tournament_id=t.id, player_id=players[1].id, round_number=1, infraction="slow_play",
                      kind="warning", recorded_by="Victim")
    db.session.add_all([call, pending, warning])
    account = NrdbAccount(nrdb_id=4242, username="ann_nrdb")  # Ann's entry is linked; her history is private
    db.session.add(account)
    db.session.flush()
    players[0].nrdb_account_id = account.id
    series = _victim_series(victim, organizer, t, players, make_tournament)
    group = EventGroup(owner_id=victim.id, name="Victim Weekend", slug="victim-weekend")
    db.session.add(group)
    db.session.flush()
    db.session.add(EventGroupMember(group_id=group.id, tournament_id=t.id, position=0))
    db.session.commit()
    seat = db.session.scalars(sa.select(Seat).filter_by(match_id=game.id)).first()
    return {"tid": t.id, "tournament_id": t.id, "pid": players[0].id, "player_id": players[0].id,
            "mid": game.id, "match_id": game.id, "rid": rnd.id, "round_id": rnd.id, "sid": seat.id,
            "seat_id": seat.id, "number": 1, "round_number": 1, "game": 1, "slug": t.slug, "uid": victim.id,
            "user_id": victim.id, "staff_id": staff[0].id, "side": "corp",
            "cid": call.id, "pending_id": pending.id, "nrdb_id": account.nrdb_id,
            "gid": group.id, "gslug": group.slug, "penalty_id": warning.id, **series}


def _victim_series(victim, organizer, t, players, make_tournament) -> dict:
    """The victim's series: their event and a second one where "ben" is suggested as the first event's Ben (a
    private suggestion), the event's organizer on its staff, a confirmed match to undo, a declined invitation."""
    from app.models import Series, SeriesEvent, SeriesLink, SeriesPlayer, SeriesStaff

    series = Series(owner_id=victim.id, name="Victim League", slug="victimlg", invite_top=2)
    db.session.add(series)
    db.session.flush()
    second = make_tournament(victim, name="Victim League 2")
    again = [Player(tournament_id=second.id, name=n) for n in ("ben", "Cat")]
    db.session.add_all(again)
    db.session.flush()
    row = SeriesEvent(series_id=series.id, tournament_id=t.id)
    member = SeriesStaff(series_id=series.id, user_id=organizer.id)
    db.session.add_all([row, SeriesEvent(series_id=series.id, tournament_id=second.id), member,
                        SeriesLink(series_id=series.id, player_id=again[1].id, target_player_id=players[2].id),
                        SeriesPlayer(series_id=series.id, key=f"e{players[1].id}", declined=True, note="busy")])
    db.session.flush()
    return {"series_id": series.id, "series_slug": series.slug, "series_event_id": row.id,
            "series_staff_id": member.id, "key": f"e{players[1].id}"}


def _url_args(rule, ids: dict) -> dict:
    """Values for a rule's arguments: the victim's ids by name; unknown names get a plausible 1 or 'x'."""
    args = {}
    for name in rule.arguments:
        if name in ids:
            args[name] = ids[name]
        else:
            converter = rule._converters.get(name)
            args[name] = 1 if isinstance(converter, IntegerConverter) else "x"
    return args


def _url(rule, ids: dict) -> str:
    return rule.build(_url_args(rule, ids), append_unknown=False)[1]


def _snapshot() -> dict:
    """Every row of every table, in primary-key order."""
    db.session.commit()
    snap = {}
    for table in db.metadata.sorted_tables:
        snap[table.name] = [tuple(row) for row in db.session.execute(
            sa.select(table).order_by(*table.primary_key.columns))]
    return snap


def _restore(snap: dict) -> None:
    """Put every table back as `snap` holds it (after an allowed request changed something)."""
    db.session.rollback()
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(table.delete())
    for table in db.metadata.sorted_tables:
        if snap[table.name]:
            keys = table.columns.keys()
            db.session.execute(table.insert(), [dict(zip(keys, row)) for row in snap[table.name]])
    db.session.commit()
    db.session.expire_all()


_READS = {"SELECT", "PRAGMA", "SHOW", "SET", "BEGIN", "SAVEPOINT", "RELEASE", "ROLLBACK", "COMMIT"}


class Rows:
    """Every table's rows, looked at again only when a statement that can write ran since the last look (counted
    on every connection of the app's engine, threads' included): a walk of hundreds of requests, most of which
    write nothing, reads every table after the few that did, not after each."""

    def __init__(self):
        self.state = self.before = _snapshot()
        self._writes = 0

    def _count(self, conn, cursor, statement, *args) -> None:
        if statement.lstrip().split(None, 1)[0].upper() not in _READS:
            self._writes += 1

    def __enter__(self) -> "Rows":
        sa.event.listen(db.engine, "before_cursor_execute", self._count)
        return self

    def __exit__(self, *exc) -> None:
        sa.event.remove(db.engine, "before_cursor_execute", self._count)

    def changed(self) -> bool:
        """Whether the rows differ from the last look (which becomes this one)."""
        if not self._writes:
            return False
        self._writes = 0
        self.before, self.state = self.state, _snapshot()
        return self.state != self.before

    def put_back(self) -> None:
        """The rows as they were before the last change seen."""
        _restore(self.before)
        self.state, self._writes = self.before, 0


def _mutating_rules(app):
    return sorted((r for r in app.url_map.iter_rules() if r.methods & MUTATING and r.endpoint not in EXCLUDED),
                  key=lambda r: r.rule)


def _refused(response) -> bool:
    if response.status_code in (401, 403, 404):
        return True
    return response.status_code in (301, 302, 303, 307, 308) and "/login" in (response.location or "")


def _walk(app, client, rules, ids) -> list[str]:
    failures = []
    with Rows() as rows:
        for rule in rules:
            url = _url(rule, ids)
            for method in sorted(rule.methods & MUTATING):
                response = client.open(url, method=method, data=PAYLOAD)
                if not _refused(response):
                    failures.append(f"{method} {url} ({rule.endpoint}) answered {response.status_code}")
                if rows.changed():
                    failures.append(f"{method} {url} ({rule.endpoint}) changed the database")
    return failures


def test_every_route_is_classified(app):
    """A new route fails here until ROUTES says who may use it; a removed route must leave ROUTES too."""
    endpoints = {r.endpoint for r in app.url_map.iter_rules()}
    assert sorted(endpoints - ROUTES.keys()) == [], "classify these routes in ROUTES"
    assert sorted(ROUTES.keys() - endpoints) == [], "these ROUTES entries name no route"


PASSWORDS = {"other": ("mallory@example.com", "mallory password"),
             "scorekeeper": ("scorekeeper@example.com", "scorekeeper password"),
             "organizer": ("organizer@example.com", "organizer password"),
             "owner": ("victim@example.com", "victim password"),
             "admin": ("admin@example.com", "admin password")}


def _all_rules(app):
    """Every rule but the static files; logging out last, since it ends the caller's session."""
    rules = [r for r in app.url_map.iter_rules() if r.endpoint != "static"]
    return sorted(rules, key=lambda r: (r.endpoint == "auth.logout", r.rule))


@pytest.mark.slow
@pytest.mark.parametrize("role", ROLES)
def test_role_matrix(app, make_user, make_tournament, login, role):
    """Each caller gets exactly what its role grants on every route and method; a refusal changes nothing."""
    ids = _victim(make_user, make_tournament)
    make_user(*PASSWORDS["other"])
    make_user(*PASSWORDS["admin"], is_admin=True)
    client = app.test_client() if role == "anonymous" else login(*PASSWORDS[role], c=app.test_client())
    failures, allowed, refused = [], 0, 0
    calls = [(rule, method) for rule in _all_rules(app) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    # The reads first, the database compared once after all of them (a read changes nothing; when one did, the
    # reads are opened again, comparing after each, to name it); then every other method, compared after each.
    reads = [(rule, method) for rule, method in calls if method == "GET" and rule.endpoint != "auth.logout"]
    with Rows() as rows:
        answers = [(rule, method, client.open(_url(rule, ids), method=method)) for rule, method in reads]
        if rows.changed():
            rows.put_back()
            answers = []
            for rule, method in reads:
                answers.append((rule, method, client.open(_url(rule, ids), method=method)))
                if rows.changed():
                    failures.append(f"{role}: GET {_url(rule, ids)} ({rule.endpoint}) changed the database")
                    rows.put_back()
        for rule, method in [c for c in calls if c not in reads]:
            response = client.open(_url(rule, ids), method=method, data=PAYLOAD if method in MUTATING else None)
            answers.append((rule, method, response))
            if rows.changed():
                if not expected_allowed(role, rule.endpoint, method):
                    failures.append(f"{role}: {method} {_url(rule, ids)} ({rule.endpoint}) was refused and "
                                    "changed the database")
                rows.put_back()
            if rule.endpoint == "auth.logout" and not _refused(client.get("/tournaments")):
                failures.append(f"{role}: {method} {_url(rule, ids)} still logged in")
    for rule, method, response in answers:
        where = f"{role}: {method} {_url(rule, ids)} ({rule.endpoint}) answered {response.status_code}"
        if response.status_code >= 500:
            failures.append(where)
        elif expected_allowed(role, rule.endpoint, method):
            allowed += 1
            if rule.endpoint != "auth.logout" and _refused(response):
                failures.append(f"{where}, refused; {ROUTES[rule.endpoint]} grants it")
        else:
            refused += 1
            if not _refused(response):
                failures.append(f"{where}, not refused; {ROUTES[rule.endpoint]} does not grant it")
    assert not failures, "\n".join(failures)
    # Not vacuous: every caller is allowed something (public pages at least), and all but the owner are refused
    # something.
    assert allowed and (refused or role == "owner")


@pytest.mark.parametrize("role", ROLES)
def test_after_swiss_routes_are_public_once_it_ends(app, make_user, make_tournament, login, role):
    """Once the swiss is over (the victim planned one round, and it is published and complete), every caller
    reads the AFTER_SWISS routes; before it, test_role_matrix refuses all but the staff and the admin."""
    from app.models import Tournament

    ids = _victim(make_user, make_tournament)
    make_user(*PASSWORDS["other"])
    make_user(*PASSWORDS["admin"], is_admin=True)
    db.session.get(Tournament, ids["tid"]).planned_rounds = 1
    db.session.commit()
    client = app.test_client() if role == "anonymous" else login(*PASSWORDS[role], c=app.test_client())
    rules = [r for r in _all_rules(app) if ROUTES[r.endpoint] == AFTER_SWISS]
    assert rules
    state = _snapshot()
    for rule in rules:
        response = client.get(_url(rule, ids))
        assert response.status_code == 200, f"{role}: {rule.endpoint} answered {response.status_code}"
    assert _snapshot() == state


def test_own_tournament_id_with_victims_object_ids(app, make_user, make_tournament, login):
    """Mixing the attacker's own tournament id with the victim's player/match/round ids is refused too."""
    ids = _victim(make_user, make_tournament)
    mallory = make_user("mallory@example.com", "mallory password")
    own = make_tournament(mallory, name="Mallory Cup")
    attacker = login("mallory@example.com", "mallory password")
    rules = [r for r in _mutating_rules(app) if "tid" in r.arguments and r.arguments & OBJECT_ARGS]
    assert rules
    failures = _walk(app, attacker, rules, {**ids, "tid": own.id, "tournament_id": own.id})
    assert not failures, "\n".join(failures)


def test_the_walk_detects_a_real_change(app, make_user, make_tournament, login):
    """Control: the owner's identical request does change the data, so an unchanged snapshot means a refusal."""
    ids = _victim(make_user, make_tournament)
    owner = login("victim@example.com", "victim password")
    before = _snapshot()
    response = owner.post(f"/tournaments/{ids['tid']}/players/{ids['pid']}/drop", data=PAYLOAD)
    assert response.status_code in (302, 303)
    assert _snapshot() != before
    before = _snapshot()
    response = owner.post(f"/tournaments/{ids['tid']}/edit", data={**PAYLOAD, "format": "single"})
    assert response.status_code in (302, 303), response.get_data(as_text=True)
    assert _snapshot() != before


def _get_rules(app):
    return [r for r in app.url_map.iter_rules() if "GET" in r.methods and r.endpoint != "static"]


@pytest.mark.slow
def test_no_get_route_changes_anything(app, make_user, make_tournament, login):
    """Every GET page, opened by the owner (the one most able to change things), leaves the database as it was."""
    ids = _victim(make_user, make_tournament)
    owner = login("victim@example.com", "victim password")
    changed = []
    with Rows() as rows:
        for rule in _get_rules(app):
            url = _url(rule, ids)
            response = owner.get(url)
            assert response.status_code < 500, url
            if rows.changed():
                changed.append(url)
    assert not changed, changed


def _session_login(client, user: User) -> None:
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()
        session["_fresh"] = True


def test_post_without_csrf_token_is_refused(csrf_app, make_user, make_tournament):
    """With CSRF on, the owner's own POST without a token is a 400 on every mutating route, and changes nothing."""
    ids = _victim(make_user, make_tournament)
    owner = db.session.scalars(sa.select(User).filter_by(email="victim@example.com")).one()
    client = csrf_app.test_client()
    _session_login(client, owner)
    failures = []
    with Rows() as rows:
        for rule in sorted(csrf_app.url_map.iter_rules(), key=lambda r: r.rule):
            if not rule.methods & MUTATING:
                continue
            url = _url(rule, ids)
            for method in sorted(rule.methods & MUTATING):
                response = client.open(url, method=method, data=PAYLOAD)
                # Token-authenticated API routes may be exempt from CSRF; without a token they must still refuse.
                if response.status_code not in (400, 401, 403):
                    failures.append(f"{method} {url} answered {response.status_code}")
                if rows.changed():
                    failures.append(f"{method} {url} changed the database")
    assert not failures, "\n".join(failures)

    # Control: the same request with the page's token goes through.
    page = client.get(f"/tournaments/{ids['tid']}/players").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"', page)
    before = _snapshot()
    response = client.post(f"/tournaments/{ids['tid']}/players/{ids['pid']}/drop",
                           data={"csrf_token": token.group(1) or token.group(2)})
    assert response.status_code in (302, 303)
    assert _snapshot() != before


@pytest.mark.own_app
def test_the_walk_catches_an_unguarded_route(app, make_user, make_tournament):
    """An unprotected route, added the way another blueprint would add one, is reported by the walk."""
    from app.models import Tournament

    def rename(tid):
        db.session.get(Tournament, tid).name = "Renamed"
        db.session.commit()
        return "ok"

    app.add_url_rule("/tournaments/<int:tid>/rename-unguarded", "unguarded", rename, methods=["POST"])
    ids = _victim(make_user, make_tournament)
    rules = [r for r in _mutating_rules(app) if r.endpoint == "unguarded"]
    failures = _walk(app, app.test_client(), rules, ids)
    assert len(failures) == 2 and "answered 200" in failures[0] and "changed the database" in failures[1]


def test_own_series_with_the_victims_events_and_rows(app, make_user, make_tournament, login):
    """Another organizer's own series cannot take in the victim's event, nor reach the victim's series' rows
    (its events, staff, entries) by their ids: refused or 404, nothing changed."""
    from app.models import Series

    ids = _victim(make_user, make_tournament)
    mallory = make_user("mallory@example.com", "mallory password")
    own = Series(owner_id=mallory.id, name="Mallory League", slug="mallorys")
    db.session.add(own)
    db.session.commit()
    attacker = login("mallory@example.com", "mallory password")
    before = _snapshot()
    sid = own.id
    answers = [
        attacker.post(f"/series/{sid}/events", data={"event": ids["tid"]}).status_code,
        attacker.post(f"/series/{sid}/events/{ids['series_event_id']}/tier", data={"tier": ""}).status_code,
        attacker.post(f"/series/{sid}/events/{ids['series_event_id']}/remove").status_code,
        attacker.post(f"/series/{sid}/staff/{ids['series_staff_id']}/delete").status_code,
        attacker.post(f"/series/{sid}/players/undo", data={"player": ids["pid"]}).status_code,
        attacker.post(f"/series/{sid}/players/{ids['key']}/decision", data={"declined": "y"}).status_code,
    ]
    assert answers[0] == 422 and answers[1:4] == [404, 404, 404], answers
    assert _snapshot() == before
