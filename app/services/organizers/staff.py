"""An event's staff: accounts the owner lets in as organizer or scorekeeper (rights in app/web/access.py), and
after a move the staff whose accounts do not exist here yet (PendingStaff): they get their role when they sign up."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import PendingStaff, Staff, Tournament, User


class StaffError(ValueError):
    """A message for the form: nothing was changed."""


def members(tournament: Tournament) -> list[Staff]:
    return db.session.scalars(sa.select(Staff).filter_by(tournament_id=tournament.id)
                              .join(Staff.user).order_by(User.email)).all()


def add(tournament: Tournament, email: str, role: str) -> tuple[Staff, bool]:
    """Give the account `email` the role in this event (a member already there changes role).

    Returns (member, created). StaffError when there is no such account or it is the owner's.
    """
    user = db.session.scalar(sa.select(User).filter_by(email=email.strip().lower()))
    if user is None:
        raise StaffError(f"No account uses {email}. They sign up first; then add them here.")
    if user.id == tournament.owner_id:
        raise StaffError(f"{user.email} owns this event already.")
    member = db.session.scalar(sa.select(Staff).filter_by(tournament_id=tournament.id, user_id=user.id))
    created = member is None
    if created:
        member = Staff(tournament_id=tournament.id, user_id=user.id, role=role)
        db.session.add(member)
    else:
        member.role = role
    try:
        db.session.commit()
    except IntegrityError:  # the same account added twice at the same moment: the first one stands
        db.session.rollback()
        raise StaffError(f"{user.email} was just added by another request.") from None
    return member, created


def remove(tournament: Tournament, staff_id: int) -> str | None:
    """Take the member off the event; their next request is refused. Their e-mail, or None if not on it."""
    member = db.session.get(Staff, staff_id)
    if member is None or member.tournament_id != tournament.id:
        return None
    email = member.user.email
    db.session.delete(member)
    db.session.commit()
    return email


def pending(tournament: Tournament) -> list[PendingStaff]:
    """The moved event's staff still to sign up here, by e-mail: the TO's list of who is missing."""
    return db.session.scalars(sa.select(PendingStaff).filter_by(tournament_id=tournament.id)
                              .order_by(PendingStaff.email)).all()


def join_pending(user: User) -> list[tuple[Tournament, str]]:
    """A new account whose e-mail was on moved events' staff takes its roles there (the usual order at a venue: the
    event is moved, then the scorekeeper signs up on the spare laptop). (event, role) for each; committed."""
    rows = db.session.scalars(sa.select(PendingStaff).filter_by(email=user.email.lower())
                              .order_by(PendingStaff.tournament_id)).all()
    joined = []
    for row in rows:
        t = db.session.get(Tournament, row.tournament_id)
        if t.owner_id != user.id and db.session.scalar(
                sa.select(Staff.id).filter_by(tournament_id=t.id, user_id=user.id)) is None:
            db.session.add(Staff(tournament_id=t.id, user_id=user.id, role=row.role))
            joined.append((t, row.role))
        db.session.delete(row)
    if rows:
        try:
            db.session.commit()
        except IntegrityError:  # the owner added the account by hand at the same moment: theirs stands
            db.session.rollback()
            return []
    return joined


def forget_pending(tournament: Tournament, pending_id: int) -> str | None:
    """The owner no longer expects this e-mail on the staff: its sign-up gives no role. Its e-mail, or None."""
    row = db.session.get(PendingStaff, pending_id)
    if row is None or row.tournament_id != tournament.id:
        return None
    email = row.email
    db.session.delete(row)
    db.session.commit()
    return email
