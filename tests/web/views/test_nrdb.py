"""Signing in with NetrunnerDB, linking entries, the history page, against a local stand-in of NetrunnerDB's OAuth
server (tests/nrdb_standin.py) on 127.0.0.1: the state is checked, a refused consent and a replayed code sign
nobody in, an entry linked to one account cannot be taken by another, the redirect URI is exact, no token reaches
a log, the database or the page."""
from __future__ import annotations

import html
import logging
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
import sqlalchemy as sa

from app.extensions import db
from app.models import Match, NrdbAccount, Player, Round, Seat
from app.services.event_files import backup, restore
from app.services.players import player_links
from app.web import nrdb_oauth
from nrdb_standin import PUBLIC, Standin, running

CLIENT_ID, SECRET = "sass-test-client", "s3cret-of-the-client"


@pytest.fixture
def nrdb(app):
    """The stand-in, serving; `app` configured with its address and our client."""
    standin = Standin(CLIENT_ID, SECRET, f"{PUBLIC}/nrdb/callback")
    with running(standin) as url:
        app.config.update(NRDB_URL=url, NRDB_CLIENT_ID=CLIENT_ID, NRDB_CLIENT_SECRET=SECRET, PUBLIC_URL=PUBLIC)
        yield standin


def _consent(client, path="/nrdb/sign-in?next=/") -> str:
    """Start a sign-in in `client` and pass NetrunnerDB's consent page: the callback address it sends the
    browser back to."""
    start = client.get(path)
    assert start.status_code == 302, start.get_data(as_text=True)
    answer = requests.get(start.location, allow_redirects=False, timeout=10)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def _back(client, callback: str, **kwargs):
    parts = urlsplit(callback)
    return client.get(f"{parts.path}?{parts.query}", follow_redirects=True, **kwargs)


def _sign_in(client, path="/nrdb/sign-in?next=/"):
    return _back(client, _consent(client, path))


def _event(make_user, make_tournament, names=("Ann", "Ben")):
    owner = make_user()
    t = make_tournament(owner, name="Store Champs")
    players = [Player(tournament_id=t.id, name=n) for n in names]
    db.session.add_all(players)
    db.session.commit()
    return t, players


def _link_path(t, p):
    return f"/t/{t.slug}/p/{player_links.token(p)}"


def test_sign_in_link_and_history(app, client, nrdb, make_user, make_tournament):
    t, (ann, ben) = _event(make_user, make_tournament)
    page = client.get(_link_path(t, ann)).get_data(as_text=True)
    assert "Sign in with NetrunnerDB" in page
    page = _sign_in(client, f"/nrdb/sign-in?next={_link_path(t, ann)}").get_data(as_text=True)
    assert "Signed in with NetrunnerDB as ana" in page and "Link this entry to ana" in page
    page = client.post(f"{_link_path(t, ann)}/nrdb/link", follow_redirects=True).get_data(as_text=True)
    assert "Your entry is linked" in page and "Linked to <strong>ana</strong>" in page
    account = db.session.scalar(sa.select(NrdbAccount))
    assert (account.nrdb_id, account.username, account.history_public) == (101, "ana", False)
    db.session.refresh(ann)
    assert ann.nrdb_account_id == account.id
    # the signed-in player sees their history; a stranger does not (private by default)
    history = client.get("/nrdb/players/101")
    assert history.status_code == 200 and "Store Champs" in history.get_data(as_text=True)
    stranger = app.test_client()
    assert stranger.get("/nrdb/players/101").status_code == 404
    # a device holding the linked entry's player link sees it without signing in
    phone = app.test_client()
    assert "Store Champs" in phone.get(f"{_link_path(t, ann)}/history").get_data(as_text=True)
    assert phone.get("/nrdb/players/101").status_code == 404  # the link opens the history, not the account's page
    # ... and another entry's link, not linked, shows none
    other_phone = app.test_client()
    assert other_phone.get(f"{_link_path(t, ben)}/history").status_code == 404
    # only the account itself makes it public; then anyone reads it
    assert phone.post("/nrdb/players/101/privacy", data={"public": "yes"}).status_code == 403
    assert client.post("/nrdb/players/101/privacy", data={"public": "yes"}).status_code == 303
    assert stranger.get("/nrdb/players/101").status_code == 200
    client.post("/nrdb/players/101/privacy", data={"public": "no"})
    assert stranger.get("/nrdb/players/101").status_code == 404


def test_the_state_is_checked(app, client, nrdb, make_user, make_tournament):
    """A callback this browser did not start (another browser's, or a forged state) signs nobody in and trades no
    code."""
    callback = _consent(client)
    victim = app.test_client()
    page = _back(victim, callback).get_data(as_text=True)
    assert "not started in this browser" in page
    forged = callback.replace("state=", "state=x")
    assert "not started in this browser" in _back(client, forged).get_data(as_text=True)
    assert not [r for r in nrdb.requests if r["path"] == "/oauth/v2/token"]
    with victim.session_transaction() as s:
        assert nrdb_oauth.SIGNED_IN not in s
    # a callback with no state at all
    code = parse_qs(urlsplit(callback).query)["code"][0]
    assert "not started in this browser" in client.get(f"/nrdb/callback?code={code}",
                                                       follow_redirects=True).get_data(as_text=True)


def test_a_refused_consent_signs_nobody_in(client, nrdb):
    nrdb.consent = None
    page = _sign_in(client).get_data(as_text=True)
    assert "You did not allow the sign-in" in page
    with client.session_transaction() as s:
        assert nrdb_oauth.SIGNED_IN not in s and nrdb_oauth.TOKEN not in s
    assert db.session.scalar(sa.select(sa.func.count()).select_from(NrdbAccount)) == 0


def test_a_replayed_code_is_refused(client, nrdb):
    callback = _consent(client)
    assert "Signed in" in _back(client, callback).get_data(as_text=True)
    # the same address again: its state was spent with the first use
    assert "not started in this browser" in _back(client, callback).get_data(as_text=True)
    # the old code under a fresh state of this browser: NetrunnerDB refuses the spent code
    fresh = urlsplit(_consent(client)).query
    old_code = parse_qs(urlsplit(callback).query)["code"][0]
    state = parse_qs(fresh)["state"][0]
    page = client.get(f"/nrdb/callback?code={old_code}&state={state}", follow_redirects=True).get_data(as_text=True)
    assert "NetrunnerDB refused the sign-in" in page
    tokens = [r for r in nrdb.requests if r["path"] == "/oauth/v2/token"]
    assert len(tokens) == 2 and len(nrdb.tokens) == 1


def test_an_entry_linked_to_one_account_cannot_be_taken_by_another(app, client, nrdb, make_user, make_tournament,
                                                                   login):
    t, (ann, ben) = _event(make_user, make_tournament)
    _sign_in(client)
    client.post(f"{_link_path(t, ann)}/nrdb/link")
    # Bo holds Ann's player link (a shared phone) and is signed in as bo: neither link nor unlink takes it
    nrdb.consent = "bo"
    bo = app.test_client()
    _sign_in(bo)
    page = bo.post(f"{_link_path(t, ann)}/nrdb/link", follow_redirects=True).get_data(as_text=True)
    assert "linked to another NetrunnerDB account" in page
    page = bo.post(f"{_link_path(t, ann)}/nrdb/unlink", follow_redirects=True).get_data(as_text=True)
    assert "linked to another NetrunnerDB account" in page
    db.session.refresh(ann)
    assert ann.nrdb_account.username == "ana"
    # one account, one entry per event: ana cannot link Ben's entry too
    page = client.post(f"{_link_path(t, ben)}/nrdb/link", follow_redirects=True).get_data(as_text=True)
    assert "already linked to the entry Ann" in page
    db.session.refresh(ben)
    assert ben.nrdb_account_id is None
    # the organizer sees who is linked, and unlinks
    login()
    assert "NRDB ana" in client.get(f"/tournaments/{t.id}/players").get_data(as_text=True)
    assert client.post(f"/tournaments/{t.id}/players/{ann.id}/nrdb/unlink").status_code == 303
    db.session.refresh(ann)
    assert ann.nrdb_account_id is None
    # now Bo may link it
    assert "Your entry is linked" in bo.post(f"{_link_path(t, ann)}/nrdb/link",
                                             follow_redirects=True).get_data(as_text=True)


def test_the_redirect_uri_is_exactly_the_public_one(app, nrdb):
    """With PUBLIC_URL set, both the consent request and the token request name PUBLIC_URL/nrdb/callback, whatever
    Host the request came with; NetrunnerDB (the stand-in) compares it exactly."""
    app.config["PUBLIC_URL"] = "https://sass.example.org"
    nrdb.redirect_uri = "https://sass.example.org/nrdb/callback"
    client = app.test_client()
    start = client.get("/nrdb/sign-in", headers={"Host": "evil.example.com"})
    assert parse_qs(urlsplit(start.location).query)["redirect_uri"] == ["https://sass.example.org/nrdb/callback"]
    callback = requests.get(start.location, allow_redirects=False, timeout=10).headers["Location"]
    assert callback.startswith("https://sass.example.org/nrdb/callback?")
    assert "Signed in" in _back(client, callback, headers={"Host": "evil.example.com"}).get_data(as_text=True)
    token_request = next(r for r in nrdb.requests if r["path"] == "/oauth/v2/token")
    assert parse_qs(token_request["body"])["redirect_uri"] == ["https://sass.example.org/nrdb/callback"]
    # a different registered address (a server moved without updating its client) is refused at NetrunnerDB
    nrdb.redirect_uri = "https://other.example.org/nrdb/callback"
    start = client.get("/nrdb/sign-in")
    assert requests.get(start.location, allow_redirects=False, timeout=10).status_code == 400


def test_no_token_in_logs_database_or_urls(app, client, nrdb, make_user, make_tournament, caplog):
    t, (ann, _) = _event(make_user, make_tournament)
    caplog.set_level(logging.DEBUG)
    _sign_in(client)
    client.post(f"{_link_path(t, ann)}/nrdb/link")
    client.get("/nrdb/players/101")
    [token] = nrdb.issued_tokens()
    assert token not in caplog.text and SECRET not in caplog.text
    # the token travels only in the Authorization header; the secret only in the token request's body
    for r in nrdb.requests:
        assert token not in r["query"] and SECRET not in r["query"]
    info = next(r for r in nrdb.requests if r["path"] == "/api/2.0/private/account/info")
    assert info["headers"]["Authorization"] == f"Bearer {token}"
    # nothing in the database
    for table in db.metadata.sorted_tables:
        for row in db.session.execute(sa.select(table)):
            assert token not in repr(tuple(row))
    # the session cookie holds it sealed only, and access_token() opens it for a later call to NetrunnerDB
    with client.session_transaction() as s:
        assert token not in repr(dict(s))
    with app.test_request_context():
        from flask import session
        with client.session_transaction() as s:
            session.update(s)
        assert nrdb_oauth.access_token() == token
    # signing out forgets it
    client.post("/nrdb/sign-out")
    with client.session_transaction() as s:
        assert nrdb_oauth.TOKEN not in s and nrdb_oauth.SIGNED_IN not in s


def test_offline_says_so(client, nrdb):
    """NetrunnerDB unreachable when the browser comes back: a clear message, nobody signed in."""
    callback = _consent(client)
    nrdb_url = nrdb.url
    client.application.config["NRDB_URL"] = "http://127.0.0.1:9"  # nothing listens there
    page = _back(client, callback).get_data(as_text=True)
    assert "NetrunnerDB could not be reached" in page
    client.application.config["NRDB_URL"] = nrdb_url


def test_hidden_without_a_client(app, client, make_user, make_tournament):
    t, (ann, _) = _event(make_user, make_tournament)
    assert not app.config["NRDB_CLIENT_ID"]
    assert client.get("/nrdb/sign-in").status_code == 404
    assert client.get("/nrdb/callback?code=x&state=y").status_code == 404
    assert "NetrunnerDB" not in client.get(_link_path(t, ann)).get_data(as_text=True)


def test_registration_starts_with_the_account(client, nrdb, make_user, make_tournament):
    t, _ = _event(make_user, make_tournament)
    t.registration_open = True
    db.session.commit()
    home = client.get(f"/t/{t.slug}").get_data(as_text=True)
    assert "Register with your NetrunnerDB account" in home
    _sign_in(client, f"/nrdb/sign-in?next=/t/{t.slug}")
    home = client.get(f"/t/{t.slug}").get_data(as_text=True)
    assert 'value="ana"' in home and "your entry will be linked" in home
    response = client.post(f"/t/{t.slug}/register", data={"name": "ana"})
    assert response.status_code == 303
    entry = db.session.scalar(sa.select(Player).filter_by(tournament_id=t.id, name="ana"))
    assert entry.nrdb_account.nrdb_id == 101
    # a second registration with the same account is refused: one entry per account and event
    client.get(f"/t/{t.slug}")
    client.delete_cookie(f"sass_player_{t.slug}", path=f"/t/{t.slug}")  # another device, the same account
    response = client.post(f"/t/{t.slug}/register", data={"name": "ana again"})
    assert response.status_code == 422 and "already holds the entry ana" in response.get_data(as_text=True)


def _played(t, a, b):
    """Round 1 published: a (Corp) beat b."""
    rnd = Round(tournament_id=t.id, number=1, published=True)
    db.session.add(rnd)
    db.session.flush()
    m = Match(tournament_id=t.id, round_id=rnd.id, table=1, result="corp")
    db.session.add(m)
    db.session.flush()
    db.session.add_all([Seat(tournament_id=t.id, round_id=rnd.id, match_id=m.id, player_id=a.id, position=1,
                             side="corp", points=3),
                        Seat(tournament_id=t.id, round_id=rnd.id, match_id=m.id, player_id=b.id, position=2,
                             side="runner", points=0)])
    db.session.commit()


def test_history_shows_games_and_the_backup_keeps_links(app, client, nrdb, make_user, make_tournament):
    t, (ann, ben) = _event(make_user, make_tournament)
    _sign_in(client)
    client.post(f"{_link_path(t, ann)}/nrdb/link")
    bo = app.test_client()
    nrdb.consent = "bo"
    _sign_in(bo)
    bo.post(f"{_link_path(t, ben)}/nrdb/link")
    assert "I lost" not in client.get("/nrdb/players/101").get_data(as_text=True)  # its line is kept now...
    _played(t, ben, ann)  # Ben (Corp) beat Ann
    page = client.get("/nrdb/players/101").get_data(as_text=True)  # ... and the event's change replaces it
    assert "Ben" in page and "(bo)" in page and "I lost as Runner" in page and "record 0-1-0" in page
    assert "I won as Corp" in bo.get("/nrdb/players/202").get_data(as_text=True)
    # CSV standings name the accounts
    from app.services.event_files import export
    csv = export.standings_csv(t)
    assert csv.splitlines()[0].endswith("nrdb username") and "ana" in csv and "bo" in csv
    # a backup carries the links, and a restore (here as a new event) keeps them
    doc = backup.backup(t)
    assert [p.get("nrdb") for p in doc["players"]] == [{"id": 101, "username": "ana"},
                                                       {"id": 202, "username": "bo"}]
    copy = restore.restore(backup.packed(doc), t.owner)
    restored = {p.name: p.nrdb_account.nrdb_id for p in copy.players}
    assert restored == {"Ann": 101, "Ben": 202}
    assert backup.backup(copy)["players"][0]["nrdb"] == doc["players"][0]["nrdb"]
    # two players on one account is refused
    doc["players"][1]["nrdb"] = {"id": 101, "username": "ana"}
    with pytest.raises(restore.FileError, match="same NetrunnerDB account"):
        restore.read(doc)


def test_history_has_the_cut_and_the_final_place(app, client, nrdb, make_user, make_tournament):
    from app.services import cut as cut_service
    from app.services.nrdb import history

    t, (ann, ben, cat, dan) = _event(make_user, make_tournament, ("Ann", "Ben", "Cat", "Dan"))
    _sign_in(client)
    client.post(f"{_link_path(t, ann)}/nrdb/link")
    _played(t, ann, ben)
    rnd = db.session.scalar(sa.select(Round).filter_by(tournament_id=t.id))
    m = Match(tournament_id=t.id, round_id=rnd.id, table=2, result="runner")
    db.session.add(m)
    db.session.flush()
    db.session.add_all([Seat(tournament_id=t.id, round_id=rnd.id, match_id=m.id, player_id=cat.id, position=1,
                             side="corp", points=0),
                        Seat(tournament_id=t.id, round_id=rnd.id, match_id=m.id, player_id=dan.id, position=2,
                             side="runner", points=3)])
    db.session.commit()
    cut_service.create(t, 4, "single")
    while (game := next((g for g in cut_service.bracket(t).games if g.ready and not g.reported), None)):
        if cut_service.load(t).sides(game) is None:
            cut_service.set_corp(t, game.id, game.players[0])
        cut_service.report(t, game.id, ann.id if ann.id in game.players else game.players[0])
    [line] = history.history(db.session.get(NrdbAccount, ann.nrdb_account_id))
    assert (line.place, line.of, line.champion, line.record) == (1, 4, True, "1-0-0")
    assert [g.stage for g in line.games] == ["1", "Cut 1", "Cut 2"]
    assert all(g.won for g in line.games) and line.games[1].result.startswith("I won")
    page = client.get(f"/nrdb/players/{nrdb.users['ana']}").get_data(as_text=True)
    assert "Champion" in page and "Cut 2" in page


@pytest.mark.parametrize("public_url, why", [
    ("", "PUBLIC_URL is not set"),
    ("http://192.168.1.20:5000", "a private range"),  # `make venue`
    ("http://127.0.0.1:5000", "this computer only"),
    ("http://localhost:5000", "this computer only"),
    ("http://169.254.7.7:5000", "link-local"),
    ("http://sass-laptop.local:5000", "only the local network knows"),
    ("http://8.8.8.8", "a bare IP address"),
])
def test_no_sign_in_where_netrunnerdb_cannot_send_players_back(app, client, login, nrdb, make_user, make_tournament,
                                                               public_url, why):
    """With a client but an address NetrunnerDB was never given (a venue's LAN, this laptop), every sign-in button and
    route is off, the player sees no dead button, and the TO's dashboard says why and what to do."""
    t, (ann, _) = _event(make_user, make_tournament)
    t.registration_open = True
    db.session.commit()
    app.config["PUBLIC_URL"] = public_url
    for path in ("/nrdb/sign-in?next=/", "/nrdb/callback?code=x&state=y", "/nrdb/players/101",
                 f"{_link_path(t, ann)}/history", f"{_link_path(t, ann)}/decklists/nrdb/mine"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "Signing in with NetrunnerDB is not offered at this address" in answer.get_data(as_text=True), path
    assert client.post(f"{_link_path(t, ann)}/nrdb/link").status_code == 404
    for page in (_link_path(t, ann), f"/t/{t.slug}", f"{_link_path(t, ann)}/decklists"):
        text = client.get(page).get_data(as_text=True)
        assert "/nrdb/sign-in" not in text and "Sign in with NetrunnerDB" not in text, page
    assert nrdb.requests == []  # NetrunnerDB was never asked
    login("to@example.com", "correct horse")
    dashboard = " ".join(html.unescape(client.get(f"/tournaments/{t.id}").get_data(as_text=True)).split())
    assert "Players cannot sign in with NetrunnerDB on this server" in dashboard and why in dashboard
    assert "set PUBLIC_URL to it, and ask NetrunnerDB's admins to register your client with the redirect address " \
           "PUBLIC_URL + /nrdb/callback" in dashboard


def test_the_sign_in_is_on_at_a_public_address(app, client, login, nrdb, make_user, make_tournament):
    t, (ann, _) = _event(make_user, make_tournament)
    assert app.config["PUBLIC_URL"] == PUBLIC
    assert "Sign in with NetrunnerDB" in client.get(_link_path(t, ann)).get_data(as_text=True)
    start = client.get("/nrdb/sign-in?next=/")
    assert start.status_code == 302 and start.location.startswith(f"{nrdb.url}/oauth/v2/auth?")
    login("to@example.com", "correct horse")
    assert "Players cannot sign in with NetrunnerDB" not in client.get(f"/tournaments/{t.id}").get_data(as_text=True)
    # without a client nothing of it shows, not even the organizers' sentence
    app.config.update(NRDB_CLIENT_ID="", PUBLIC_URL="http://192.168.1.20:5000")
    assert "Players cannot sign in with NetrunnerDB" not in client.get(f"/tournaments/{t.id}").get_data(as_text=True)


def test_netrunnerdb_strands_a_player_sent_from_an_unregistered_address(app, nrdb):
    """What the sign-in being off spares players: NetrunnerDB (its OAuth library compares the redirect address with the
    registered one by prefix) answers a venue's address on its own site, with no way back."""
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    with app.test_request_context():
        consent = requests.get(f"{nrdb.url}/oauth/v2/auth", params={
            "client_id": CLIENT_ID, "response_type": "code", "state": "s",
            "redirect_uri": "http://192.168.1.20:5000/nrdb/callback"}, allow_redirects=False, timeout=10)
    assert consent.status_code == 400 and consent.json()["error"] == "redirect_uri_mismatch"
    assert "Location" not in consent.headers
    # by prefix, case-insensitively: a longer address under the registered one is let through, a climb is not
    for given, status in ((f"{PUBLIC.upper()}/nrdb/callback?x=1", 302), (f"{PUBLIC}/nrdb/callback/../../evil", 400),
                          ("https://sass.example.org.evil.example/nrdb/callback", 400)):
        answer = requests.get(f"{nrdb.url}/oauth/v2/auth", params={
            "client_id": CLIENT_ID, "response_type": "code", "redirect_uri": given}, allow_redirects=False,
            timeout=10)
        assert answer.status_code == status, given
