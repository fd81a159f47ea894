"""Players and NetrunnerDB: sign in and out, link an entry (through its player link), the organizers' unlink, and a
player's history across this server's events with its privacy switch.

Every route answers 404 while this server has no NetrunnerDB client, or while its PUBLIC_URL is not an address
NetrunnerDB can send players back to (app/web/nrdb_oauth.py `enabled`, app/core/nrdb_sign_in.py): a venue laptop
shows nothing of it. Who may do what: a sign-in proves an account (its own history, its privacy, unlinking
its own entry); a player link proves an entry (linking it to the signed-in account, opening its account's history);
organizers unlink any entry of their event.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_login import login_required
from markupsafe import Markup

from ...models import Player, Tournament
from ...services.nrdb import accounts, history as history_service
from .. import nrdb_oauth
from ..access import ORGANIZE, linked_player, managed_player
from ..forms.nrdb import NrdbButtonForm, PrivacyForm
from ..safe_next import safe_next

bp = Blueprint("nrdb", __name__)

NEXT = "nrdb_next"  # session key: where the sign-in goes back to


bp.before_request(nrdb_oauth.hidden_unless_enabled)


def _back(target: object) -> str:
    """`target` if it is a path on this site (app/web/safe_next.py), else the landing page."""
    return safe_next(target, url_for("public.landing"))


@bp.get("/nrdb/sign-in")
def sign_in():
    """Off to NetrunnerDB's consent page; back at `callback`, then to ?next (a path here)."""
    session[NEXT] = _back(request.args.get("next"))
    return nrdb_oauth.start()


@bp.get("/nrdb/callback")
def callback():
    back = _back(session.pop(NEXT, None))
    try:
        identity = nrdb_oauth.finish()
    except nrdb_oauth.SignInFailed as e:
        flash(str(e), "error")
        return redirect(back, 303)
    try:
        account = accounts.signed_in(identity.nrdb_id, identity.username)
    except ValueError as e:
        nrdb_oauth.sign_out()
        flash(f"{e}. Start again.", "error")
        return redirect(back, 303)
    nrdb_oauth.remember(account.id, identity)
    flash(f"Signed in with NetrunnerDB as {account.username}.", "success")
    return redirect(back, 303)


@bp.post("/nrdb/sign-out")
def sign_out():
    if not NrdbButtonForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    nrdb_oauth.sign_out()
    flash("Signed out of NetrunnerDB on this device.", "success")
    return redirect(_back(request.form.get("next")), 303)


@bp.post("/t/<slug>/p/<token>/nrdb/link")
def link(slug: str, token: str):
    return _own_entry(slug, token, "Sign in with NetrunnerDB first.", _link)


def _link(t, player, account) -> str:
    if accounts.link(t, player, account):
        return "Your entry is linked to your NetrunnerDB account."
    return "Your entry was linked already."


@bp.post("/t/<slug>/p/<token>/nrdb/unlink")
def unlink(slug: str, token: str):
    """The player unlinks their entry: they hold its link and are signed in with the account it is linked to."""
    return _own_entry(slug, token, "Sign in with the NetrunnerDB account this entry is linked to first.", _unlink)


def _unlink(t, player, account) -> str:
    accounts.unlink(t, player, account)
    return "Your entry is no longer linked to NetrunnerDB."


def _own_entry(slug: str, token: str, sign_in_first: str, act):
    """A player's change to their own entry's link, signed in with NetrunnerDB: `act` says what was done in words."""
    t, player = linked_player(slug, token)
    back = redirect(url_for("player.link", slug=slug, token=token), 303)
    if not NrdbButtonForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    account = nrdb_oauth.signed_in_account()
    if account is None:
        flash(sign_in_first, "error")
        return back
    try:
        flash(act(t, player, account), "success")
    except accounts.LinkError as e:
        flash(str(e), "error")
    return back


@bp.post("/tournaments/<int:tid>/players/<int:pid>/nrdb/unlink")
@login_required
def unlink_entry(tid: int, pid: int):
    """The organizers unlink an entry (linked by mistake, or on a shared phone)."""
    t, player = managed_player(tid, pid, ORGANIZE)
    if not NrdbButtonForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    if accounts.unlink(t, player):
        flash(f"{player.name}'s entry is no longer linked to NetrunnerDB.", "success")
    return redirect(url_for("players.edit", tid=tid, pid=pid), 303)


def _may_see(account) -> bool:
    """The history is the account's: shown when it is public, or to the account signed in here (a device holding
    one of its entries' player links opens it through `entry_history`)."""
    return account.history_public or nrdb_oauth.signed_in_account() == account.id


def _history_page(account):
    own = nrdb_oauth.signed_in_account() == account.id
    form = PrivacyForm(public="yes" if account.history_public else "no") if own else None
    return render_template("nrdb/history.html", account=account, lines=history_service.history(account),
                           own=own, form=form)


@bp.get("/nrdb/players/<int:nrdb_id>")
def history(nrdb_id: int):
    account = accounts.by_nrdb_id(nrdb_id)
    if account is None or not _may_see(account):
        abort(404, "No history to show here: it is private to its player (sign in with NetrunnerDB, or open it "
                   "from your player page).")
    return _history_page(account)


@bp.get("/t/<slug>/p/<token>/history")
def entry_history(slug: str, token: str):
    """The history of the account a player link's entry is linked to: the link proves the entry, and with it the
    account, without a sign-in (the phone that holds the link may never have signed in)."""
    _, player = linked_player(slug, token)
    if player.nrdb_account is None:
        abort(404, "This entry is not linked to a NetrunnerDB account.")
    return _history_page(player.nrdb_account)


@bp.post("/nrdb/players/<int:nrdb_id>/privacy")
def privacy(nrdb_id: int):
    """Only the account itself, signed in here, makes its history public or private again."""
    account = accounts.by_nrdb_id(nrdb_id)
    if account is None or nrdb_oauth.signed_in_account() != account.id:
        abort(403, "Only the player, signed in with this NetrunnerDB account, changes who sees this history.")
    form = PrivacyForm()
    if not form.validate():
        abort(400, "Choose who sees your history.")
    accounts.set_public(account.id, form.public.data == "yes")
    flash("Your history is public now: anyone with its address sees it." if form.public.data == "yes"
          else "Your history is private: only you see it.", "success")
    return redirect(url_for("nrdb.history", nrdb_id=nrdb_id), 303)


# ---------------------------------------------------------------- parts of other pages

@bp.app_template_global("nrdb_player_box")
def nrdb_player_box(t: Tournament, player: Player, token: str) -> Markup:
    """The player page's part: the entry's NetrunnerDB link and history, or the sign-in and link buttons."""
    if not nrdb_oauth.enabled():
        return Markup("")
    return Markup(render_template("nrdb/_player_box.html", t=t, player=player, token=token,
                                  who=nrdb_oauth.signed_in(), form=NrdbButtonForm()))


@bp.app_template_global("nrdb_register_box")
def nrdb_register_box(t: Tournament) -> Markup:
    """The registration form's part: register with the signed-in account, or sign in first."""
    if not nrdb_oauth.enabled():
        return Markup("")
    return Markup(render_template("nrdb/_register_box.html", t=t, who=nrdb_oauth.signed_in(),
                                  form=NrdbButtonForm()))


@bp.app_template_global("nrdb_sign_in_on")
def nrdb_sign_in_on() -> bool:
    """The templates' flag: whether a page may offer anything that needs a NetrunnerDB sign-in."""
    return nrdb_oauth.enabled()


@bp.app_template_global("nrdb_sign_in_off")
def nrdb_sign_in_off() -> str | None:
    """For the organizers' dashboard: why the sign-in is off although a client is set, and what to do."""
    return nrdb_oauth.off_reason()


@bp.app_template_global("nrdb_usernames")
def nrdb_usernames(t: Tournament) -> dict:
    """Player id -> NetrunnerDB username of the event's linked entries (the players list shows them)."""
    return accounts.usernames(t.id)
