"""A player picks one of their own NetrunnerDB decks as a list: through their player link, on a device signed in with
the NetrunnerDB account their entry is linked to. The list of decks and the pick are app/services/nrdb/picker.py;
the token is app/web/nrdb_oauth.py's `access_token()`, handed to the service and never to the page.

Every route answers 404 while players cannot sign in with NetrunnerDB here (no client, or an address NetrunnerDB
cannot send them back to), and 403 unless this device is signed in with
the very account the entry is linked to (a player link alone, or another account, picks nothing)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup

from ...core.decklists import Side
from ...models import Player, Tournament
from ...services import decklists
from ...services.nrdb import decks as fetching
from ...services.nrdb import picker as service
from .. import nrdb_oauth
from ..access import linked_player
from ..forms.nrdb_picker import PickDeckForm

bp = Blueprint("nrdb_picker", __name__)

SHOWN = 60  # decks listed per side, newest first: a phone scrolls no further; older ones go by their address

NOT_YOURS = ("Only the NetrunnerDB account this entry is linked to, signed in on this device, picks from its decks: "
             "sign in with it and link the entry on your player page.")


bp.before_request(nrdb_oauth.hidden_unless_enabled)


def _own_entry(slug: str, token: str) -> tuple[Tournament, Player]:
    """The entry its link names, if this device is signed in with the account it is linked to; 403 otherwise."""
    t, player = linked_player(slug, token)
    if not _offered(player):
        abort(403, NOT_YOURS)
    return t, player


def _offered(player: Player) -> bool:
    account = nrdb_oauth.signed_in_account()
    return account is not None and player.nrdb_account_id == account


def _sign_in_again(slug: str, token: str, side: str) -> str:
    return url_for("nrdb.sign_in", next=url_for("nrdb_picker.decks", slug=slug, token=token, side=side))


@bp.get("/t/<slug>/p/<token>/decklists/nrdb/mine")
def decks(slug: str, token: str):
    """This side's decks of the player's, newest first, each with its button; or why not, in words."""
    t, player = _own_entry(slug, token)
    side = request.args.get("side", Side.CORP.value)
    if side not in {s.value for s in Side}:
        abort(404)
    back = url_for("decklists.mine", slug=slug, token=token) + f"#{side}"
    try:
        fetching.player_may_submit(t, player, side)
    except decklists.DecklistError as e:
        flash(str(e), "error")
        return redirect(back, 303)
    listed, problem, expired = None, None, False
    access = nrdb_oauth.access_token()
    if access is None:
        expired = True
    else:
        try:
            listed = service.own_decks(access)
        except fetching.SignInExpired:
            nrdb_oauth.forget_token()
            expired = True
        except fetching.FetchError as e:
            problem = str(e)
    mine = [d for d in listed.decks if d.side == side] if listed else []
    return render_template(
        "nrdb_picker/decks.html", t=t, player=player, token=token, side=Side(side), back=back,
        decks=mine[:SHOWN], older=max(0, len(mine) - SHOWN), problem=problem, expired=expired,
        sign_in=_sign_in_again(slug, token, side), form=PickDeckForm(),
        other_side=sum(d.side not in (None, side) for d in listed.decks) if listed else 0,
        unknown=(sum(d.side is None for d in listed.decks) + listed.unreadable) if listed else 0)


@bp.post("/t/<slug>/p/<token>/decklists/nrdb/mine")
def pick(slug: str, token: str):
    """Store the picked deck as that side's list; back to the decklists page either way, the outcome flashed."""
    t, player = _own_entry(slug, token)
    form = PickDeckForm()
    side = form.side.data if form.side.data in {s.value for s in Side} else Side.CORP.value
    back = url_for("decklists.mine", slug=slug, token=token) + f"#{side}"
    if not form.validate():
        errors = " ".join(e for field in form.errors.values() for e in field) or "The form expired. Try again."
        flash(f"{errors} Nothing was saved.", "error")
        return redirect(back, 303)
    access = nrdb_oauth.access_token()
    try:
        if access is None:
            raise fetching.SignInExpired("Your NetrunnerDB sign-in has expired (it lasts an hour): sign in with "
                                         "NetrunnerDB again.")
        _, checked, fetched = service.submit(t, player, side, form.deck.data, access)
    except (fetching.FetchError, decklists.DecklistError) as e:
        if isinstance(e, fetching.SignInExpired):
            nrdb_oauth.forget_token()  # the decklists page's offer now signs in again first
        flash(f"{e} Nothing was saved.", "error")
        return redirect(back, 303)
    label, name = Side(side).label, f" “{fetched.name}”" if fetched.name else ""
    if checked.valid:
        flash(f"Your {label} list is your NetrunnerDB deck{name}, and legal.", "success")
    else:
        n = len(checked.problems)
        flash(f"Your {label} list is your NetrunnerDB deck{name}, with {n} problem{'s' * (n != 1)} shown below.",
              "warning")
    return redirect(back, 303)


# ---------------------------------------------------------------- part of the decklists page

@bp.app_template_global("nrdb_picker_offer")
def nrdb_picker_offer(t: Tournament, player: Player, token: str, side: str) -> Markup:
    """The decklists page's offer, only to a device signed in with the entry's own account; when its token has
    expired it signs in again first, then lands on the picker."""
    if not nrdb_oauth.enabled() or not _offered(player):
        return Markup("")
    href = url_for("nrdb_picker.decks", slug=t.slug, token=token, side=side)
    expired = nrdb_oauth.access_token() is None
    return Markup(render_template("nrdb_picker/_offer.html", side=Side(side), expired=expired,
                                  href=_sign_in_again(t.slug, token, side) if expired else href))
