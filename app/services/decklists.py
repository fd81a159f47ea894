"""Players' decklists in the database: the event's settings (collected? card format, restriction list, who sees the
lists), submitting and replacing a list, the lock (the TO's, or round 1's pairing) and the TO's unlock of one list,
the TO's review (and its counts, which next_step.py shows before round 1), and which lists are public. What a list
says and whether it is legal is app/core/decklists.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ..core import cards, identities
from ..core import decklists as rules_core
from ..core.decklists import Checked, Side, TooLong, Visibility
from ..extensions import db
from ..models import CutEntry, Decklist, Player, Tournament, utcnow
from .locks import lock_tournament
from .players import states
from .players.players import rounds_started

ACTORS = ("player", "organizer", "staff")
LOCK_REASON = {True: ": round 1 has been paired", False: " by the organizer"}  # by rounds_started


class DecklistError(ValueError):
    """A submission or setting refused, with the reason in words for the page; nothing was changed."""


@dataclass(frozen=True)
class Settings:
    collected: bool
    format_id: str
    format_name: str
    pool_name: str  # the format's card pool in force on the event's date
    restriction_id: str | None  # None: the format had no list on the event's date
    restriction_name: str
    restriction_chosen: bool  # False: the list in force on the event's date, picked by SASS
    visibility: Visibility


def rules(t: Tournament) -> rules_core.Rules:
    """The event's card format on its date: the card pool in force then, under its restriction list (the one in
    force then unless the TO chose one; a chosen list the card data no longer has falls back to that too)."""
    return rules_for(t.card_format, t.restriction, t.date)


def rules_for(format_id: str, restriction_id: str | None, day) -> rules_core.Rules:
    if format_id not in dict(rules_core.formats()):
        format_id = "standard"
    try:
        return rules_core.rules(format_id, restriction_id, day)
    except KeyError:
        return rules_core.rules(format_id, None, day)


def settings(t: Tournament) -> Settings:
    r = rules(t)
    return Settings(collected=t.decklists, format_id=r.format_id, format_name=r.format_name, pool_name=r.pool_name,
                    restriction_id=r.restriction_id, restriction_name=r.restriction_name,
                    restriction_chosen=t.restriction is not None and t.restriction == r.restriction_id,
                    visibility=Visibility(t.decklist_visibility))


def save_settings(t: Tournament, collected: bool, format_id: str, restriction_id: str | None,
                  visibility: str) -> int:
    """Store the settings and judge every stored list again under them (a new restriction list changes what is
    legal); the number of lists judged again. DecklistError for a format or list the card data does not have."""
    if format_id not in dict(rules_core.formats()):
        raise DecklistError("Choose one of the card formats.")
    restriction_id = restriction_id or None
    if restriction_id is not None and restriction_id not in dict(rules_core.restriction_choices(format_id)):
        raise DecklistError("That restriction list is not one of the format's.")
    try:
        visibility = Visibility(visibility).value
    except ValueError:
        raise DecklistError("Choose who sees the lists.") from None
    t = lock_tournament(t)
    changed = (t.card_format, t.restriction) != (format_id, restriction_id)
    t.decklists, t.card_format, t.restriction, t.decklist_visibility = bool(collected), format_id, restriction_id, \
        visibility
    judged = judge_again(t) if changed else 0
    db.session.commit()
    return judged


def judge_again(t: Tournament) -> int:
    """Judge every stored list of the event again under its rules as they stand (a new format, list or date changes
    the pool and list in force); the number judged. The caller commits, in the transaction that changed them."""
    r = rules(t)
    judged = 0
    for deck in db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id)):
        _store(deck, rules_core.check(deck.text, deck.side, r))
        judged += 1
    return judged


def locked(t: Tournament) -> bool:
    """Lists lock when the TO locks them, and when round 1 is paired whatever the TO did."""
    return t.lists_locked or rounds_started(t)


def lock(t: Tournament) -> bool:
    """The TO's "lock the lists now" (before round 1, say for deck checks while the room fills): players may no
    longer submit or change a list; the TO's unlock of one list still works. False when they were locked already."""
    t = lock_tournament(t)
    if locked(t):
        db.session.rollback()
        return False
    t.lists_locked = True
    db.session.commit()
    return True


def reopen(t: Tournament) -> None:
    """Undo the TO's lock before round 1; DecklistError once round 1 is paired (that lock stays)."""
    t = lock_tournament(t)
    if rounds_started(t):
        db.session.rollback()
        raise DecklistError("Round 1 is paired: the lists stay locked. Unlock one player's list instead.")
    t.lists_locked = False
    db.session.commit()


def lists_of(t: Tournament, player: Player) -> dict[str, Decklist]:
    return {d.side: d for d in db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id,
                                                                                player_id=player.id))}


def may_change(t: Tournament, deck: Decklist | None) -> bool:
    """Whether the player may still submit this side's list: before round 1 is paired, or once the TO unlocked it."""
    return not locked(t) or (deck is not None and deck.unlocked)


def closed_to_player(t: Tournament, player: Player) -> str | None:
    """Why the player's own link changes no list at all, whatever the lock, or None: a disqualified player's part
    in the event is over (the TO and staff still enter any list)."""
    try:
        states.refuse_if_disqualified(t, player, "decklist")
    except states.PartOver as e:
        return str(e)
    return None


def submit(t: Tournament, player: Player, side: str, text: str, actor: str) -> tuple[Decklist, Checked]:
    """Store `text` as the player's list for `side`, judged under the event's rules; kept even when invalid. A list
    naming a known identity of the side becomes the player's registered identity (the TO sees the change).

    A player (actor "player") submits only while the event collects lists, their list is not locked and they are not
    disqualified; the TO and staff enter or replace any list at any time. DecklistError for anything refused:
    nothing changed."""
    if actor not in ACTORS:
        raise ValueError(actor)
    try:
        side = Side(side).value
    except ValueError:
        raise DecklistError("A list is for the Corp or the Runner side.") from None
    if not (text or "").strip():
        raise DecklistError("The list is empty: paste your decklist.")
    if "\x00" in text:
        raise DecklistError("The list contains a NUL character; paste it again as plain text.")
    try:
        checked = rules_core.check(text, side, rules(t))
    except TooLong as e:
        raise DecklistError(str(e)) from None
    t = lock_tournament(t)  # the lock and round 1's pairing cannot cross
    deck = db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id, player_id=player.id,
                                                            side=side)).first()
    if actor == "player":
        over = closed_to_player(t, player)
        if over:
            db.session.rollback()
            raise DecklistError(over)
        if not t.decklists:
            db.session.rollback()
            raise DecklistError("This event does not collect decklists.")
        if not may_change(t, deck):
            db.session.rollback()
            raise DecklistError(f"Decklists are locked{LOCK_REASON[rounds_started(t)]}. Ask the organizer if your "
                                "list must change.")
    if deck is None:
        deck = Decklist(tournament_id=t.id, player_id=player.id, side=side)
        db.session.add(deck)
    deck.text = text
    deck.updated_by = actor
    deck.updated_at = utcnow()
    if actor == "player":
        deck.unlocked = False  # the unlock was for one change
    _store(deck, checked)
    _register_identity(player, deck, checked)
    db.session.commit()
    return deck, checked


def _store(deck: Decklist, checked: Checked) -> None:
    deck.identity = checked.identity
    deck.cards = [[cid, n] for cid, n in checked.cards]
    deck.valid = checked.valid
    deck.problems = [{"kind": p.kind.value, "message": p.message} for p in checked.problems]


def _register_identity(player: Player, deck: Decklist, checked: Checked) -> None:
    if checked.identity is None:
        return
    name = identities.canonical(rules_core.title(checked.identity))
    attr = f"{deck.side}_identity"
    registered = getattr(player, attr) or ""
    if identities.canonical(registered) == name:
        return
    original = deck.identity_was if deck.identity_was is not None else registered
    deck.identity_was = None if identities.canonical(original) == name else original
    setattr(player, attr, name)


def unlock(t: Tournament, player: Player, side: str) -> bool:
    """Let the player change this list once more after the lock; False when there is no such list."""
    t = lock_tournament(t)
    deck = db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id, player_id=player.id,
                                                            side=side)).first()
    if deck is None:
        db.session.rollback()
        return False
    deck.unlocked = True
    db.session.commit()
    return True


def _missing(sides) -> list[str]:
    """The sides a player has no list for."""
    return [s.value for s in Side if s.value not in sides]


@dataclass(frozen=True)
class Gaps:
    missing: int  # active players with a side unsubmitted
    invalid: int  # lists with problems


def _gaps(players, lists) -> Gaps:
    """From (player id, dropped) and (player id, side, valid) rows: the counts the review and the next step show."""
    sides: dict[int, set] = {}
    invalid = 0
    for pid, side, valid in lists:
        sides.setdefault(pid, set()).add(side)
        invalid += not valid
    return Gaps(missing=sum(1 for pid, dropped in players if not dropped and _missing(sides.get(pid, ()))),
                invalid=invalid)


def gaps(t: Tournament) -> Gaps:
    """Missing and invalid lists in two narrow queries (no list text): what the next step before round 1 shows
    (app/services/next_step.py) on every dashboard view."""
    return _gaps(db.session.execute(sa.select(Player.id, Player.dropped).filter_by(tournament_id=t.id)),
                 db.session.execute(sa.select(Decklist.player_id, Decklist.side, Decklist.valid)
                                    .filter_by(tournament_id=t.id)))


@dataclass(frozen=True)
class ReviewRow:
    player: Player
    lists: dict  # side -> Decklist

    @property
    def missing(self) -> list[str]:
        return _missing(self.lists)

    @property
    def needs_attention(self) -> bool:
        """A list missing (an active player's), invalid, unlocked, or an identity a list changed."""
        return bool(self.missing and not self.player.dropped) or any(
            not d.valid or d.unlocked or d.identity_was is not None for d in self.lists.values())


@dataclass(frozen=True)
class Review:
    rows: list
    missing: int  # players with a side unsubmitted
    invalid: int  # lists with problems
    changed_identities: int
    players: int  # all of them, shown or not
    attention_only: bool


# Above this many players the review shows only the rows needing attention unless asked for all (a GP's 2,000 rows
# are a 1.7 MB page).
REVIEW_ALL_UP_TO = 200


def review(t: Tournament, show_all: bool | None = None) -> Review:
    """Players with their lists: who has not submitted, which lists are invalid, identity changes. `show_all`
    None: everyone in an event of up to REVIEW_ALL_UP_TO players, else those needing attention."""
    players = db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id)).all()
    decks: dict[int, dict] = {}
    for d in db.session.scalars(sa.select(Decklist).filter_by(tournament_id=t.id)):
        decks.setdefault(d.player_id, {})[d.side] = d
    rows = sorted((ReviewRow(p, decks.get(p.id, {})) for p in players), key=lambda r: (r.player.name_key,))
    lists = [d for r in rows for d in r.lists.values()]
    attention_only = not show_all if show_all is not None else len(rows) > REVIEW_ALL_UP_TO
    counts = _gaps(((p.id, p.dropped) for p in players), ((d.player_id, d.side, d.valid) for d in lists))
    return Review(rows=[r for r in rows if r.needs_attention] if attention_only else rows,
                  missing=counts.missing, invalid=counts.invalid,
                  changed_identities=sum(1 for d in lists if d.identity_was is not None), players=len(rows),
                  attention_only=attention_only)


def all_lists(t: Tournament, player_ids: set | None = None) -> list[tuple[Player, list[Decklist]]]:
    """Players (by name) with their lists, Corp first; only `player_ids` when given, players without a list left out."""
    query = sa.select(Decklist).filter_by(tournament_id=t.id)
    if player_ids is not None:
        query = query.where(Decklist.player_id.in_(player_ids))
    decks: dict[int, list] = {}
    for d in db.session.scalars(query):
        decks.setdefault(d.player_id, []).append(d)
    if not decks:
        return []
    players = db.session.scalars(sa.select(Player).where(Player.id.in_(decks))).all()
    return [(p, sorted(decks[p.id], key=lambda d: d.side)) for p in sorted(players, key=lambda p: p.name_key)]


def public_players(t: Tournament, event_over: bool) -> list[int]:
    """The players whose lists anyone may see under the event's visibility setting: the cut's in seed order, or
    everyone's once `event_over` (app/services/next_step.py event_over: the next step depends on these lists before
    round 1, so it is given, not asked)."""
    visibility = Visibility(t.decklist_visibility)
    if visibility is Visibility.CLOSED:
        return []
    if visibility is Visibility.CUT:
        if not t.cut_kind:
            return []
        return list(db.session.scalars(sa.select(CutEntry.player_id).filter_by(tournament_id=t.id)
                                       .order_by(CutEntry.seed)))
    if not event_over:
        return []
    # everyone who played: a player still on the waitlist, or out before round 1 (a no-show), never did
    # (app/core/player_state.py did_not_play)
    return [pid for pid, s in states.of_event(t).items() if not s.waiting and not s.did_not_play]


def public_lists(t: Tournament, event_over: bool) -> list[tuple[Player, list[Decklist]]]:
    """The public lists with their players: a cut's in seed order, everyone's by name; none while closed."""
    if not t.decklists:
        return []
    shown = public_players(t, event_over)
    if not shown:
        return []
    by_player = dict(all_lists(t, set(shown)))
    order = {pid: i for i, pid in enumerate(shown)} if Visibility(t.decklist_visibility) is Visibility.CUT else None
    return sorted(by_player.items(), key=lambda x: order[x[0].id]) if order else list(by_player.items())


def problems(deck: Decklist) -> list[str]:
    return [p["message"] for p in deck.problems or []]


def groups(deck: Decklist) -> list[rules_core.Group]:
    return rules_core.by_type(tuple(deck.cards or []))


def identity_title(deck: Decklist) -> str:
    return rules_core.title(deck.identity)


def counts(deck: Decklist) -> tuple[int, int]:
    """(cards, agenda points) of a stored list, for the sheets."""
    size = sum(n for _, n in deck.cards or [])
    points = sum((cards.card(c) or {}).get("agenda_points", 0) * n for c, n in deck.cards or [])
    return size, points
