"""Organizer accounts: who a login form names, the one rule for checking a password, signing up, ending an
account's sessions, changing its password, their public name."""
from __future__ import annotations

import secrets
from functools import cache

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from ...extensions import db
from ...models import Tournament, User, touch


def find(email: str) -> User | None:
    return db.session.execute(db.select(User).filter_by(email=email.strip().lower())).scalar_one_or_none()


@cache
def _dummy_hash() -> str:
    """A hash made like a real one, so an unknown address costs the same hashing time as a known one."""
    return generate_password_hash(secrets.token_hex(16))


def authenticate(email: str, password: str) -> User | None:
    """The account if the password is right; the same work (one hash check) whether the address exists or not,
    so the answer's timing does not tell which addresses have accounts."""
    user = find(email)
    if user is None:
        check_password_hash(_dummy_hash(), password)
        return None
    return user if user.check_password(password) else None


def for_session(token: str) -> User | None:
    """The account a session or remember cookie names; None once its sessions were ended."""
    if not token:
        return None
    return db.session.execute(db.select(User).filter_by(session_token=token)).scalar_one_or_none()


def sign_up(email: str, password: str) -> User | None:
    """The new account, committed; None when the address has one already (before, or by a simultaneous sign-up
    that the unique address in the database refused)."""
    email = email.strip().lower()
    if find(email) is not None:
        return None
    user = User(email=email)
    user.set_password(password)
    db.session.add(user)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return None
    return user


def end_sessions(user: User) -> None:
    """Log the account out everywhere: every cookie that names it stops working."""
    user.end_sessions()
    db.session.commit()


def change_password(user: User, current: str, new: str) -> bool:
    """The new password, which ends every session of the account; False (nothing changed) when `current` is not
    its password."""
    if not user.check_password(current):
        return False
    user.set_password(new)
    db.session.commit()
    return True


def set_public_name(user: User, display_name: str, nrdb_username: str) -> None:
    """The organizer's public name and NetrunnerDB username; their events' NRTM files (built once per event
    version) name them from now on."""
    user.display_name, user.nrdb_username = display_name, nrdb_username
    touch(db.session, [tid for (tid,) in db.session.execute(sa.select(Tournament.id).filter_by(owner_id=user.id))])
    db.session.commit()
