"""Organizer accounts: sign up, log in, log out, change password (Flask-Login sessions, hashed passwords).

Cookies carry the account's session token, not its id: log-out and a password change replace the token, which
ends every session and "keep me logged in" cookie of the account on every device. app/web/throttle.py limits
the attempts."""
from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from flask_login.config import COOKIE_NAME

from ...extensions import login_manager
from ..safe_next import safe_next
from ..forms.auth import LoginForm, PasswordChangeForm, ProfileForm, SignupForm
from ...models import User
from ...services.organizers import accounts, staff

bp = Blueprint("auth", __name__)

login_manager.login_view = "auth.login"
login_manager.login_message = "Log in to manage your tournaments."
login_manager.login_message_category = "warning"


@login_manager.user_loader
def load_user(token: str) -> User | None:
    return accounts.for_session(token)


def _next() -> str:
    """Where a log-in or sign-up goes: `?next=` when it is a path on this site (app/web/safe_next.py), else the
    account's events."""
    return safe_next(request.args.get("next"), url_for("tournaments.index"))


TAKEN = "An account with this email already exists. Log in instead."


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    """Says when an address is taken (docs/security.md, "Sessions": without e-mail verification nothing can hide it);
    the per-address throttle keeps trying addresses slow."""
    if current_user.is_authenticated:
        return redirect(_next())
    form = SignupForm()
    if form.validate_on_submit():
        user = accounts.sign_up(form.email.data, form.password.data)
        if user is None:
            form.email.errors.append(TAKEN)
        else:
            login_user(user)
            joined = staff.join_pending(user)
            for t, role in joined:
                flash(f"You are {role} of {t.name}, as you were before it was moved here.", "success")
            if not joined:
                flash("Welcome! Create your first tournament.", "success")
            return redirect(_next())
    return render_template("auth/signup.html", form=form), 422 if form.errors else 200


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(_next())
    form = LoginForm()
    if form.validate_on_submit():
        user = accounts.authenticate(form.email.data, form.password.data)
        if user is not None:
            login_user(user, remember=form.remember.data)
            return redirect(_next())
        form.password.errors.append("Wrong email or password.")
    return render_template("auth/login.html", form=form), 422 if form.errors else 200


@bp.post("/logout")
@login_required
def logout():
    """POST only, and CSRFProtect checks the token: a cross-site request cannot log anyone out.
    Ends the account's sessions everywhere, so a copied cookie is worthless afterwards."""
    accounts.end_sessions(current_user._get_current_object())
    logout_user()
    flash("You are logged out on every device.", "success")
    return redirect(url_for("auth.login"))


@bp.route("/account/password", methods=["GET", "POST"])
@login_required
def change_password():
    """Ends every other session; this device stays logged in with the new token (and keeps "keep me logged
    in" if it had it)."""
    form = PasswordChangeForm()
    if form.validate_on_submit():
        user = current_user._get_current_object()
        if not accounts.change_password(user, form.current.data, form.password.data):
            form.current.errors.append("That is not your current password.")
        else:
            remembered = current_app.config.get("REMEMBER_COOKIE_NAME", COOKIE_NAME) in request.cookies
            login_user(user, remember=remembered)
            flash("Password changed. Every other device is logged out.", "success")
            return redirect(url_for("tournaments.index"))
    return render_template("auth/password.html", form=form), 422 if form.errors else 200


@bp.route("/account", methods=["GET", "POST"])
@login_required
def profile():
    """The organizer's public name and NetrunnerDB username, for the NRTM export of their events."""
    user = current_user._get_current_object()
    form = ProfileForm(obj=user)
    if form.validate_on_submit():
        accounts.set_public_name(user, form.display_name.data or "", form.nrdb_username.data or "")
        flash("Account saved.", "success")
        return redirect(url_for("auth.profile"))
    return render_template("auth/profile.html", form=form), 422 if form.errors else 200
