"""A series, its staff and its events: created, changed and deleted in one transaction per action."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import contains_eager

from ...core.series import PointsError, Rules, parse_table, parse_tiers
from ...core.series.tie_breaks import UnknownTieBreak, named
from ...extensions import db
from ...models import Series, SeriesEvent, SeriesKind, SeriesStaff, Staff, Tournament, User, max_length, new_slug


PARTICIPATION_MAX = max_length(Series.participation)


class SeriesError(ValueError):
    """A message for the form: nothing was changed."""


class StoredRulesError(SeriesError):
    """The series' stored rules name a tie-break SASS does not know (written by another version, or by hand): its
    standings are refused in words rather than worked out without it."""


@dataclass(frozen=True)
class Settings:
    """What the TO sets on a series' form; `check` reads it through the core before anything is stored."""

    name: str
    kind: str
    points_table: str
    participation: str = "0"
    best_n: Optional[int] = None
    field_reference: Optional[int] = None
    tiers: str = ""
    tie_breaks: tuple[str, ...] = ("countback",)
    invite_top: int = 0
    invite_winners: bool = False
    link_identical: bool = False  # entries of identical names are one player without confirmation (14.4)


def check(settings: Settings) -> None:
    """PointsError (in words) for anything the core cannot read."""
    SeriesKind(settings.kind)
    parse_table(settings.points_table)
    parse_tiers(settings.tiers)
    try:
        participation = Fraction(settings.participation.strip() or "0")
    except (ValueError, ZeroDivisionError):
        raise PointsError(f"The participation point {settings.participation!r} is not a number.") from None
    if not 0 <= participation <= 1000:
        raise PointsError("The participation point runs from 0 to 1000.")
    if len(str(participation)) > PARTICIPATION_MAX:
        raise PointsError("Use a simpler participation point, such as 1, 0.5 or 1/3.")
    named(settings.tie_breaks)


def stored_tie_breaks(series: Series) -> tuple[str, ...]:
    """The tie-breaks' names as the series stores them (comma-separated, in the TO's order), unchecked."""
    return tuple(t for t in series.tie_breaks.split(",") if t)


def rules(series: Series) -> Rules:
    """The series' scoring as the core reads it; StoredRulesError when a stored tie-break is not one SASS knows."""
    names = stored_tie_breaks(series)
    try:
        named(names)
    except UnknownTieBreak as e:
        raise StoredRulesError(f"The standings of {series.name} cannot be worked out from its stored rules: {e} "
                               "Its organizers can choose its tie-breaks again in its settings.") from None
    return Rules(parse_table(series.points_table), Fraction(series.participation), series.best_n,
                 series.field_reference, names)


def tiers(series: Series) -> dict[str, Fraction]:
    return parse_tiers(series.tiers)


def _apply(series: Series, settings: Settings) -> None:
    series.name = settings.name.strip()
    series.kind = settings.kind
    series.points_table = settings.points_table.strip()
    series.participation = str(Fraction(settings.participation.strip() or "0"))
    series.best_n = settings.best_n
    series.field_reference = settings.field_reference
    series.tiers = settings.tiers.strip()
    series.tie_breaks = ",".join(settings.tie_breaks)
    series.invite_top = settings.invite_top
    series.invite_winners = settings.invite_winners
    series.link_identical = settings.link_identical


def create(owner: User, settings: Settings) -> Series:
    check(settings)
    series = Series(owner_id=owner.id, slug=new_slug())
    _apply(series, settings)
    db.session.add(series)
    db.session.commit()
    return series


def update(series: Series, settings: Settings) -> None:
    """Change the rules; a tier still given to an event may not disappear. Bumps the version (cached standings)."""
    check(settings)
    kept = {name.casefold() for name in parse_tiers(settings.tiers)}
    used = db.session.scalars(sa.select(SeriesEvent.tier).where(SeriesEvent.series_id == series.id,
                                                                 SeriesEvent.tier != "").distinct()).all()
    missing = sorted(t for t in used if t.casefold() not in kept)
    if missing:
        raise PointsError(f"The tier {missing[0]} is given to an event of the series: change that event's tier first.")
    _apply(series, settings)
    bump(series)
    db.session.commit()


def delete(series: Series) -> None:
    """The series goes, with its decisions; its events stay as they are."""
    db.session.delete(series)
    db.session.commit()


def lock(series: Series) -> Series:
    """The series' row, locked until the transaction ends (PostgreSQL; SQLite writes one at a time anyway): two
    requests deciding from the same roster wait for each other."""
    db.session.execute(sa.select(Series.id).where(Series.id == series.id).with_for_update())
    return series


def bump(series: Series) -> None:
    """A conditional UPDATE: two changes at once both count. The caller commits."""
    db.session.execute(sa.update(Series).where(Series.id == series.id).values(version=Series.version + 1)
                       .execution_options(synchronize_session=False))


def of_user(user: User) -> list[tuple[Series, str]]:
    """The series the user owns or manages, with their role; the site admin sees every one."""
    staff = dict(db.session.execute(sa.select(SeriesStaff.series_id, SeriesStaff.role)
                                    .where(SeriesStaff.user_id == user.id)).all())
    query = sa.select(Series).order_by(Series.created_at.desc(), Series.id.desc())
    if not user.is_admin:
        query = query.where(sa.or_(Series.owner_id == user.id, Series.id.in_(staff)))
    return [(s, "owner" if s.owner_id == user.id else staff.get(s.id, "")) for s in db.session.scalars(query)]


def by_slug(slug: str) -> Optional[Series]:
    return db.session.scalar(sa.select(Series).filter_by(slug=slug))


def series_of_event(tournament_id: int) -> list[Series]:
    """The series an event counts in (its dashboard and home page name them)."""
    return db.session.scalars(sa.select(Series).join(SeriesEvent, SeriesEvent.series_id == Series.id)
                              .where(SeriesEvent.tournament_id == tournament_id).order_by(Series.name)).all()


# --- staff -------------------------------------------------------------------------------------------------------

def members(series: Series) -> list[SeriesStaff]:
    return db.session.scalars(sa.select(SeriesStaff).filter_by(series_id=series.id).join(SeriesStaff.user)
                              .order_by(User.email)).all()


def add_staff(series: Series, email: str) -> SeriesStaff:
    user = db.session.scalar(sa.select(User).filter_by(email=email.strip().lower()))
    if user is None:
        raise SeriesError(f"No account uses {email}. They sign up first; then add them here.")
    if user.id == series.owner_id:
        raise SeriesError(f"{user.email} owns this series already.")
    member = db.session.scalar(sa.select(SeriesStaff).filter_by(series_id=series.id, user_id=user.id))
    if member is not None:
        raise SeriesError(f"{user.email} manages this series already.")
    member = SeriesStaff(series_id=series.id, user_id=user.id, role="organizer")
    db.session.add(member)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise SeriesError(f"{user.email} was just added by another request.") from None
    return member


def remove_staff(series: Series, staff_id: int) -> Optional[str]:
    member = db.session.get(SeriesStaff, staff_id)
    if member is None or member.series_id != series.id:
        return None
    email = member.user.email
    db.session.delete(member)
    db.session.commit()
    return email


# --- events ------------------------------------------------------------------------------------------------------

def events(series: Series) -> list[SeriesEvent]:
    """The series' events, oldest first (the order its standings show them)."""
    return db.session.scalars(sa.select(SeriesEvent).join(Tournament, Tournament.id == SeriesEvent.tournament_id)
                              .options(contains_eager(SeriesEvent.tournament))  # one query, not one per event
                              .where(SeriesEvent.series_id == series.id)
                              .order_by(Tournament.date, Tournament.id)).all()


def organized_by(user: User) -> sa.Select:
    """The ids of the events a user may add to a series: those they own or organize (their ORGANIZE, as
    app/web/access.py grants it)."""
    return sa.select(Tournament.id).where(sa.or_(
        Tournament.owner_id == user.id,
        Tournament.id.in_(sa.select(Staff.tournament_id).where(Staff.user_id == user.id, Staff.role == "organizer"))))


def candidates(series: Series, user: User) -> list[Tournament]:
    """Events the user organizes that are not in the series yet, newest first."""
    return db.session.scalars(
        sa.select(Tournament).where(Tournament.id.in_(organized_by(user)),
                                    Tournament.id.not_in(sa.select(SeriesEvent.tournament_id)
                                                         .where(SeriesEvent.series_id == series.id)))
        .order_by(Tournament.date.desc(), Tournament.id.desc()).limit(200)).all()


def tournament(tournament_id: int) -> Optional[Tournament]:
    return db.session.get(Tournament, tournament_id)


def _tier(series: Series, tier: str) -> str:
    tier = " ".join((tier or "").split())
    if not tier:
        return ""
    for name in tiers(series):
        if name.casefold() == tier.casefold():
            return name
    raise SeriesError(f"The series has no tier {tier}: name it in the series' tiers first.")


def add_event(series: Series, tournament: Tournament, tier: str = "") -> SeriesEvent:
    """Count the event in the series (the caller checked that the user organizes it)."""
    row = SeriesEvent(series_id=series.id, tournament_id=tournament.id, tier=_tier(series, tier))
    db.session.add(row)
    try:
        bump(series)  # flushes the new row first: a racing duplicate fails here
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise SeriesError(f"{tournament.name} is in this series already.") from None
    return row


def new_event(series: Series, owner: User, name: str, day: date, fmt: str, tier: str = "") -> Tournament:
    """A new event, owned by the user, counted in the series from the start."""
    tier = _tier(series, tier)
    tournament = Tournament(owner_id=owner.id, name=name.strip(), date=day, format=fmt)
    db.session.add(tournament)
    db.session.flush()
    db.session.add(SeriesEvent(series_id=series.id, tournament_id=tournament.id, tier=tier))
    bump(series)
    db.session.commit()
    return tournament


def event_row(series: Series, row_id: int) -> Optional[SeriesEvent]:
    row = db.session.get(SeriesEvent, row_id)
    return row if row is not None and row.series_id == series.id else None


def set_tier(series: Series, row: SeriesEvent, tier: str) -> None:
    row.tier = _tier(series, tier)
    bump(series)
    db.session.commit()


def remove_event(series: Series, row: SeriesEvent) -> str:
    """The event no longer counts in the series (it stays as it is); its name."""
    name = row.tournament.name
    db.session.delete(row)
    bump(series)
    db.session.commit()
    return name
