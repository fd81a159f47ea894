"""Self-registration from the event's public page, and a player's own entry (through their link) before round 1."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from markupsafe import Markup

from ..forms.players import EntryForm
from ...core.identities import identities
from ...core import qr as qr_codes
from ...services.players import player_links
from ...services.players import registration as service
from ...services.check_in import waitlist
from ...services.nrdb import accounts as nrdb_accounts
from .. import nrdb_oauth, player_session
from ..access import public_tournament
from ..home import render_home

bp = Blueprint("registration", __name__, url_prefix="/t/<slug>")


def _fields(t, form: EntryForm) -> dict:
    identity = (form.corp_identity.data, form.runner_identity.data) if t.fmt.netrunner else ("", "")
    return {"name": form.name.data, "corp_identity": identity[0], "runner_identity": identity[1],
            "pronouns": form.pronouns.data, "jinteki_name": form.jinteki_name.data, "discord": form.discord.data,
            "no_coverage": bool(form.no_coverage.data)}


@bp.post("/register")
def register(slug: str):
    t = public_tournament(slug)
    form = EntryForm()
    account = nrdb_oauth.signed_in_account()  # signed in with NetrunnerDB: the new entry is linked to it
    held = account is not None and nrdb_accounts.entry_in(t, account)
    if held:
        form.form_errors.append(f"Your NetrunnerDB account already holds the entry {held.name} in this event.")
    elif form.validate_on_submit():
        try:
            player = service.register(t, **_fields(t, form))
        except service.RegistrationError as e:
            _refused(form, e)
        else:
            player_session.remember(t, player)
            if account is not None:
                try:
                    nrdb_accounts.link(t, player, account)
                except nrdb_accounts.LinkError as e:
                    flash(str(e), "warning")
            place = waitlist.position(t, player)
            if place is not None:
                flash(f"The event is full: you are on the waitlist, position {place}, {player.name}. Your player "
                      "link says when a place is yours. Save it below.", "warning")
            else:
                late = " You join the next round's pairing." if service.status(t).late else ""
                flash(f"You are registered, {player.name}.{late} Save your link below.", "success")
            return redirect(url_for("registration.mine", slug=slug), 303)
    return render_home(t, form, 422)


def _refused(form: EntryForm, e: service.RegistrationError) -> None:
    """The service's refusal shown beside the field it is about (the name, the online handle), else above the form."""
    field = {service.NameTaken: form.name, service.HandleRefused: form.jinteki_name}.get(type(e))
    (field.errors if field is not None else form.form_errors).append(str(e))


@bp.route("/registration", methods=["GET", "POST"])
def mine(slug: str):
    """This device's entry: its player link with a QR code, and the edit form until round 1."""
    t = public_tournament(slug)
    player = player_session.current_player(t)
    if player is None:
        abort(403, "This phone holds no registration for this event. Open your player link on it first.")
    editable = service.may_edit(t)
    form = EntryForm(obj=player)
    status = 200
    if form.validate_on_submit():
        try:
            service.edit(t, player, **_fields(t, form))
        except service.RegistrationError as e:
            _refused(form, e)
        else:
            flash("Your entry is saved.", "success")
            return redirect(url_for("registration.mine", slug=slug), 303)
        status = 422
    link = player_links.url(player)
    qr = Markup(qr_codes.svg(link, qr_codes.ON_PAGE, title="QR code of your player link"))
    return render_template("registration/mine.html", t=t, player=player, link=link, qr=qr, form=form,
                           editable=editable, identities=identities(),
                           coverage_url=url_for("streaming.coverage", slug=slug, token=player_links.token(player))), \
        status
