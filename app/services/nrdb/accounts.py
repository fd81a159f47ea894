"""NetrunnerDB accounts and the entries linked to them.

An account row is made (or its username refreshed) when someone signs in with NetrunnerDB (app/web/nrdb_oauth.py
proves who they are; this module only stores what NetrunnerDB said). A player links their own entry, through their
player link, to the account they are signed in with. The rules, in one place:

- an entry linked to one account cannot be taken by another (only that account, or the event's organizers, unlink it);
- one account links one entry per event (also the database's unique (tournament, account) constraint);
- the history of an account is private until the account makes it public.

No token is ever stored here.
"""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models import NrdbAccount, Player, Tournament, max_length
from ..locks import lock_tournament

USERNAME_MAX = max_length(NrdbAccount.username)


class LinkError(ValueError):
    """Why an entry was not linked or unlinked, in words for the player."""


def signed_in(nrdb_id: int, username: str) -> NrdbAccount:
    """The account NetrunnerDB vouched for, made on its first sign-in, its username as NetrunnerDB says it now
    (a renamed account keeps its links). Committed."""
    if not isinstance(nrdb_id, int) or isinstance(nrdb_id, bool) or not 0 < nrdb_id < 2**31:
        raise ValueError("NetrunnerDB sent no usable account id")
    username = (username or "").strip()[:USERNAME_MAX] or f"#{nrdb_id}"
    account = by_nrdb_id(nrdb_id)
    if account is None:
        account = NrdbAccount(nrdb_id=nrdb_id, username=username)
        db.session.add(account)
        try:
            db.session.commit()
            return account
        except IntegrityError:  # the same account's sign-in in another tab got there first
            db.session.rollback()
            account = by_nrdb_id(nrdb_id)
    if account.username != username:
        account.username = username
        db.session.commit()
    return account


def by_nrdb_id(nrdb_id: int) -> NrdbAccount | None:
    if not 0 < nrdb_id < 2**31:
        return None
    return db.session.scalar(sa.select(NrdbAccount).filter_by(nrdb_id=nrdb_id))


def entry_in(t: Tournament, account_id: int) -> Player | None:
    """The account's entry in this event, if it linked one."""
    return db.session.scalar(sa.select(Player).filter_by(tournament_id=t.id, nrdb_account_id=account_id))


def link(t: Tournament, player: Player, account_id: int) -> bool:
    """Link `player`'s entry to the account; False if it already was. LinkError (nothing written) if the entry is
    another account's, or the account already holds another entry of this event. Under the event's lock, so two
    accounts racing for one entry (or one account for two) cannot both win."""
    t = lock_tournament(t)
    db.session.refresh(player)
    if player.nrdb_account_id == account_id:
        db.session.rollback()
        return False
    if player.nrdb_account_id is not None:
        db.session.rollback()
        raise LinkError("This entry is linked to another NetrunnerDB account. Only that account, or the "
                        "organizer, can unlink it.")
    other = entry_in(t, account_id)
    if other is not None:
        db.session.rollback()
        raise LinkError(f"Your NetrunnerDB account is already linked to the entry {other.name} in this event: "
                        "one account, one entry.")
    player.nrdb_account_id = account_id
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise LinkError("Your NetrunnerDB account is already linked to another entry in this event.") from None
    return True


def unlink(t: Tournament, player: Player, account_id: int | None = None) -> bool:
    """Unlink the entry; False if it was not linked. With `account_id` (a player signed in with NetrunnerDB),
    only that account's own link goes; the organizers pass None."""
    t = lock_tournament(t)
    db.session.refresh(player)
    if player.nrdb_account_id is None:
        db.session.rollback()
        return False
    if account_id is not None and player.nrdb_account_id != account_id:
        db.session.rollback()
        raise LinkError("This entry is linked to another NetrunnerDB account: only that account, or the "
                        "organizer, can unlink it.")
    player.nrdb_account_id = None
    db.session.commit()
    return True


def set_public(account_id: int, public: bool) -> None:
    db.session.execute(sa.update(NrdbAccount).where(NrdbAccount.id == account_id).values(history_public=public))
    db.session.commit()


def usernames(tournament_id: int) -> dict[int, str]:
    """Player id -> NetrunnerDB username of the event's linked entries, in one query (lists and exports)."""
    return dict(db.session.execute(
        sa.select(Player.id, NrdbAccount.username).join(NrdbAccount, NrdbAccount.id == Player.nrdb_account_id)
        .where(Player.tournament_id == tournament_id)).all())


def ensure(pairs) -> dict[int, int]:
    """NetrunnerDB id -> account row id for (nrdb id, username) pairs a restored file names, making the accounts
    this server has not seen (their histories private, as for every account); the caller commits."""
    wanted = dict(pairs)
    if not wanted:
        return {}
    known = dict(db.session.execute(sa.select(NrdbAccount.nrdb_id, NrdbAccount.id)
                                    .where(NrdbAccount.nrdb_id.in_(wanted))).all())
    for nrdb_id, username in wanted.items():
        if nrdb_id not in known:
            account = NrdbAccount(nrdb_id=nrdb_id, username=username[:USERNAME_MAX] or f"#{nrdb_id}")
            db.session.add(account)
            db.session.flush()
            known[nrdb_id] = account.id
    return known
