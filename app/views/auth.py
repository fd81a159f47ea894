"""Organizer accounts: sign up, log in, log out (Flask-Login sessions, hashed passwords)."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy.exc import IntegrityError

from ..extensions import db, login_manager
from ..forms.auth import LoginForm, SignupForm
from ..models import User

bp = Blueprint("auth", __name__)

login_manager.login_view = "auth.login"
login_manager.login_message = "Log in to manage your tournaments."
login_manager.login_message_category = "warning"


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    try:
        return db.session.get(User, int(user_id))
    except (TypeError, ValueError):
        return None


def _safe_next(target: str | None) -> str:
    """Only a path on this site: never an absolute URL, a scheme-relative '//host' or a backslash trick."""
    if target:
        target = target.strip()
        parts = urlsplit(target)
        if (target.startswith("/") and not target.startswith("//") and "\\" not in target
                and not parts.scheme and not parts.netloc):
            return target
    return url_for("tournaments.index")


def _find_user(email: str) -> User | None:
    return db.session.execute(db.select(User).filter_by(email=email)).scalar_one_or_none()


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    if current_user.is_authenticated:
        return redirect(url_for("tournaments.index"))
    form = SignupForm()
    if form.validate_on_submit():
        email = form.email.data.strip().lower()
        if _find_user(email) is not None:
            form.email.errors.append("An account with this email already exists. Log in instead.")
        else:
            user = User(email=email)
            user.set_password(form.password.data)
            db.session.add(user)
            try:
                db.session.commit()
            except IntegrityError:  # a simultaneous sign-up with the same address
                db.session.rollback()
                form.email.errors.append("An account with this email already exists. Log in instead.")
            else:
                login_user(user)
                flash("Welcome! Create your first tournament.", "success")
                return redirect(url_for("tournaments.index"))
    return render_template("auth/signup.html", form=form), 422 if form.errors else 200


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(_safe_next(request.args.get("next")))
    form = LoginForm()
    if form.validate_on_submit():
        user = _find_user(form.email.data.strip().lower())
        if user is not None and user.check_password(form.password.data):
            login_user(user, remember=form.remember.data)
            return redirect(_safe_next(request.args.get("next")))
        form.password.errors.append("Wrong email or password.")
    return render_template("auth/login.html", form=form), 422 if form.errors else 200


@bp.post("/logout")
@login_required
def logout():
    """POST only, and CSRFProtect checks the token: a cross-site request cannot log anyone out."""
    logout_user()
    flash("You are logged out.", "success")
    return redirect(url_for("auth.login"))
