"""Whether a decklist is legal, every problem explained in plain words (docs/domain.md section 12): the identity
and its side, the card pool and restriction list of the event's format (banned, restricted, points, universal
influence, the old global penalty), deck size, influence, agenda points, deck limits. An invalid list is kept and
flagged, never refused: the TO decides. Reading the paste is app/core/decklist_text.py.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from enum import Enum
from functools import lru_cache

from . import cards
from .decklist_text import Parsed, TooLong, parse

__all__ = [
    "Checked",
    "Kind",
    "Problem",
    "Rules",
    "Side",
    "TooLong",
    "Visibility",
    "agenda_points_needed",
    "by_type",
    "check",
    "default_restriction",
    "formats",
    "group_of",
    "restriction_choices",
    "rules",
    "validate",
]


class Side(str, Enum):
    CORP = "corp"
    RUNNER = "runner"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Visibility(str, Enum):
    """Who sees the lists besides the TO, the staff and each player their own."""
    CLOSED = "closed"  # nobody else
    CUT = "cut"  # the cut players' lists, once the cut is made
    AFTER = "after"  # everyone's, once the event is over (app/services/decklists.py event_over)

    @property
    def label(self) -> str:
        return {"closed": "Closed: the TO and staff only (each player sees their own)",
                "cut": "Open lists for the cut: the cut players' lists are public once the cut is made",
                "after": "Open lists after the event: everyone's list is public once it is over (the top cut "
                         "decided; with no cut, the day after the event)"}[self.value]


class Kind(str, Enum):
    """What is wrong, so pages and tests can tell problems apart without reading their words."""
    TOO_LONG = "too_long"
    UNKNOWN_CARD = "unknown_card"
    NO_COUNT = "no_count"
    NO_IDENTITY = "no_identity"
    TWO_IDENTITIES = "two_identities"
    WRONG_SIDE = "wrong_side"
    NOT_IN_POOL = "not_in_pool"
    BANNED = "banned"
    RESTRICTED = "restricted"
    POINTS = "points"
    DECK_LIMIT = "deck_limit"
    FACTION_AGENDA = "faction_agenda"
    DECK_SIZE = "deck_size"
    INFLUENCE = "influence"
    AGENDA_POINTS = "agenda_points"


@dataclass(frozen=True)
class Problem:
    kind: Kind
    message: str


@dataclass(frozen=True)
class Rules:
    """The card format in force: its pool's sets and one restriction list (or none), resolved for quick lookups."""
    format_id: str
    format_name: str
    pool_id: str
    pool_name: str
    pool_sets: frozenset
    restriction_id: str | None
    restriction_name: str
    banned: frozenset
    restricted: frozenset
    points: dict  # card id -> points
    point_limit: int | None
    universal: dict  # card id -> extra influence per copy
    penalty: dict  # card id -> influence limit lost per copy


NO_LIST = "no restriction list"


def formats() -> list[tuple[str, str]]:
    """(id, name) of the card formats, Standard first."""
    order = {"standard": 0, "startup": 1, "eternal": 2}
    return sorted(((fid, f["name"]) for fid, f in cards.data()["formats"].items()),
                  key=lambda x: (order.get(x[0], 9), x[0]))


def restriction_choices(format_id: str) -> list[tuple[str, str]]:
    """(id, "name (from date)") of the format's restriction lists, newest first."""
    data = cards.data()
    ids = data["formats"][format_id]["restrictions"]
    return [(rid, f"{data['restrictions'][rid]['name']} (from {data['restrictions'][rid]['date_start']})")
            for rid in sorted(ids, key=lambda r: (data["restrictions"][r]["date_start"], r), reverse=True)]


def default_restriction(format_id: str, on: date | None = None) -> str | None:
    """The list in force on the event's date (app/core/cards.py `in_force`: the newest of the format's lists started
    by then; None before the first, as Startup before 2024). NetrunnerDB's own "active" mark lags behind new lists
    (it marked Standard Ban List 25.08 active after 25.10 was out), so SASS goes by the dates."""
    return cards.in_force(format_id, on).restriction


def _by_value(table: dict | None) -> dict:
    return {cid: int(value) for value, ids in (table or {}).items() for cid in ids}


def rules(format_id: str, restriction_id: str | None = None, on: date | None = None) -> Rules:
    """The rules of a format on a day: the card pool in force then, under one of the format's restriction lists (by
    default the one in force then). KeyError for a format or list the card data does not have."""
    f = cards.data()["formats"][format_id]
    snap = cards.in_force(format_id, on)
    rid = restriction_id or snap.restriction
    r = cards.restriction(format_id, rid) if rid else {}
    return Rules(format_id=format_id, format_name=f["name"], pool_id=snap.pool,
                 pool_name=cards.data()["pools"][snap.pool]["name"],
                 pool_sets=cards.format_pool_sets(format_id, snap.pool), restriction_id=rid,
                 restriction_name=r.get("name", NO_LIST),
                 banned=frozenset(r.get("banned", ())), restricted=frozenset(r.get("restricted", ())),
                 points=_by_value(r.get("points")), point_limit=r.get("point_limit"),
                 universal=_by_value(r.get("universal_faction_cost")), penalty=_by_value(r.get("global_penalty")))


def agenda_points_needed(size: int) -> tuple[int, int]:
    """A Corp deck's agenda points: two for every full five cards, plus two or three (40-44 cards: 18 or 19)."""
    base = 2 * (size // 5) + 2
    return base, base + 1


@dataclass(frozen=True)
class Checked:
    """A list as read and judged: the identity (a card id, or None), the cards (id, count) merged per title, the
    problems (none: the list is legal) and the numbers the pages show."""
    side: Side
    identity: str | None
    cards: tuple[tuple[str, int], ...]
    problems: tuple[Problem, ...]
    size: int
    min_size: int | None
    influence: int
    influence_limit: int | None
    agenda_points: int
    ignored: tuple[tuple[int, str], ...]  # lines that named nothing (shown, never a problem)

    @property
    def valid(self) -> bool:
        return not self.problems


def _title(cid: str) -> str:
    return cards.known(cid)["title"]


def _side_name(side: str) -> str:
    return side.capitalize()


PROFESSOR = "the_professor_keeper_of_knowledge"  # the first copy of each program costs him no influence


def check(text: str, side: Side | str, rule: Rules) -> Checked:
    """Read and judge a paste. TooLong for a paste no decklist could be (nothing read)."""
    return validate(parse(text), Side(side), rule)


def validate(parsed: Parsed, side: Side, rule: Rules) -> Checked:
    side = Side(side)
    found: list[tuple[int, int, Problem]] = []  # (line, order, problem): a paste's lines first, then the deck

    def add(kind: Kind, message: str) -> None:
        line = re.match(r"Line (\d+):", message)
        found.append((int(line.group(1)) if line else 1 << 30, len(found), Problem(kind, message)))

    for u in parsed.unknown:
        hint = f" Did you mean {_or(u.suggestions)}?" if u.suggestions else ""
        what = "identity" if u.identity else "card"
        add(Kind.UNKNOWN_CARD, f"Line {u.line}: there is no {what} called “{u.name}”.{hint}")
    for line, cid in parsed.uncounted:
        add(Kind.NO_COUNT, f"Line {line}: {_title(cid)} has no number of copies; write it as “1x {_title(cid)}”.")

    identity = None
    named = list(dict.fromkeys(cid for _, cid in parsed.identities))
    if not named and any(u.identity for u in parsed.unknown):
        pass  # the identity's line is misspelt: said once, above, with its "did you mean"
    elif not named:
        example = 'Jinteki: Personal Evolution' if side is Side.CORP else 'Noise: Hacker Extraordinaire'
        add(Kind.NO_IDENTITY, f"No identity: add a line naming it, for example “Identity: {example}”.")
    elif len(named) > 1:
        add(Kind.TWO_IDENTITIES, f"The list names {len(named)} identities ({_and([_title(c) for c in named])}); "
                                 "a deck has exactly one.")
    else:
        identity = named[0]
        id_card = cards.known(identity)
        if id_card["side"] != side.value:
            line = next(n for n, cid in parsed.identities if cid == identity)
            add(Kind.WRONG_SIDE, f"Line {line}: {id_card['title']} is a {_side_name(id_card['side'])} identity; "
                                 f"this is your {side.label} list.")
            identity = None

    counts: Counter = Counter()
    first_line: dict[str, int] = {}
    for e in parsed.entries:
        counts[e.card_id] += e.count
        first_line.setdefault(e.card_id, e.line)
    merged = tuple(sorted(counts.items(), key=lambda x: _sort_key(x[0])))

    for cid, n in merged:
        c = cards.known(cid)
        where = f"Line {first_line[cid]}: "
        if c["side"] != side.value:
            add(Kind.WRONG_SIDE, f"{where}{c['title']} is a {_side_name(c['side'])} card; a {side.label} deck "
                                 "cannot include it.")
            continue
        if n > c["limit"]:
            add(Kind.DECK_LIMIT, f"{where}{n} copies of {c['title']}; a deck may hold at most {c['limit']}.")
    for cid in ([named[0]] if len(named) == 1 else []) + [cid for cid, _ in merged]:
        c = cards.known(cid)
        if c["side"] != side.value:
            continue
        if rule.pool_sets.isdisjoint(c["sets"]):
            add(Kind.NOT_IN_POOL, f"{c['title']} is not in the {rule.format_name} card pool ({rule.pool_name}).")
        if cid in rule.banned:
            add(Kind.BANNED, f"{c['title']} is banned ({rule.restriction_name}).")

    own = [(cid, n) for cid, n in merged if cards.known(cid)["side"] == side.value]
    restricted = [cid for cid, _ in own if cid in rule.restricted]
    if len(restricted) > 1:
        add(Kind.RESTRICTED, f"A deck may hold only one restricted card ({rule.restriction_name}); this one has "
                             f"{_and([_title(c) for c in restricted])}.")
    if rule.point_limit is not None:
        pointed = [(cid, rule.points[cid]) for cid in ([identity] if identity else []) + [c for c, _ in own]
                   if cid in rule.points]
        spent = sum(p for _, p in pointed)
        if spent > rule.point_limit:
            add(Kind.POINTS, f"{spent} points of the {rule.restriction_name} ("
                             f"{', '.join(f'{_title(c)} {p}' for c, p in pointed)}); a deck may spend at most "
                             f"{rule.point_limit}.")

    size = sum(n for _, n in own)
    # Copies on lines naming no card: each such line is one problem (its "did you mean"), so the totals count
    # them as whatever they turn out to be and complain only of what no reading of them could mend.
    unread = sum(u.count for u in parsed.unknown)
    agenda_points = sum(cards.known(cid).get("agenda_points", 0) * n for cid, n in own)
    influence, limit, min_size = 0, None, None
    if identity is not None:
        id_card = cards.known(identity)
        faction, min_size = id_card["faction"], id_card.get("min_deck")
        limit = id_card.get("influence_limit")
        spenders = []
        for cid, n in own:
            c = cards.known(cid)
            cost = 0
            if c["faction"] != faction and not c["faction"].startswith("neutral"):
                if c["type"] == "agenda":
                    add(Kind.FACTION_AGENDA, f"{c['title']} is a {_faction(c['faction'])} agenda; a "
                                             f"{_faction(faction)} deck may include only its own and neutral "
                                             "agendas.")
                else:
                    paid = n - 1 if identity == PROFESSOR and c["type"] == "program" else n
                    cost = c.get("influence", 0) * paid
            cost += rule.universal.get(cid, 0) * n
            if cost:
                spenders.append((cost, c["title"]))
            influence += cost
        if limit is not None:
            penalty = sum(rule.penalty.get(cid, 0) * n for cid, n in own)
            if penalty:
                limit = max(1, limit - penalty)
            if influence > limit:
                top = ", ".join(f"{t} {v}" for v, t in sorted(spenders, key=lambda x: (-x[0], x[1]))[:5])
                add(Kind.INFLUENCE, f"Influence: {influence} spent, {id_card['title']} allows {limit} ({top}"
                                    f"{', …' if len(spenders) > 5 else ''}).")
        if min_size is not None and size + unread < min_size:
            add(Kind.DECK_SIZE, f"{size} cards{_unread(unread)}; {id_card['title']} needs at least {min_size} (the "
                                "identity is not counted).")
    if side is Side.CORP and (identity is not None or own):
        low, high = agenda_points_needed(size + unread)
        if agenda_points > high or agenda_points + unread * _most_agenda_points() < low:
            add(Kind.AGENDA_POINTS, f"{agenda_points} agenda points; a deck of {size + unread} cards"
                                    f"{f' ({unread} of them on lines naming no card)' if unread else ''} needs {low} "
                                    f"or {high}.")

    problems = tuple(p for _, _, p in sorted(found, key=lambda x: x[:2]))
    return Checked(side=side, identity=identity, cards=merged, problems=problems, size=size,
                   min_size=min_size, influence=influence, influence_limit=limit, agenda_points=agenda_points,
                   ignored=parsed.ignored)


def _unread(unread: int) -> str:
    return f", besides {unread} on lines naming no card" if unread else ""


@lru_cache(maxsize=1)
def _most_agenda_points() -> int:
    return max((c.get("agenda_points", 0) for c in cards.data()["cards"].values()), default=0)


def _faction(fid: str) -> str:
    return cards.data()["factions"].get(fid, {}).get("name", fid)


def _or(names) -> str:
    names = [f"“{n}”" for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _and(names) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# The order a deck check reads a list in: NetrunnerDB's deck page sorted by type (nrdb.js `update_deck`), so a
# judge reads SASS's sheet and the player's NetrunnerDB page alike. Its groups stand in two columns, each sorted by
# the group's id: agenda, asset, event, hardware, operation, resource, upgrade; then barrier, code gate,
# icebreaker, multi, other ice, program, sentry. Ice is grouped by its subtypes (barrier, code gate, sentry; two or
# more: multi; none: other), programs by whether they are icebreakers; within a group, by title.
GROUP_ORDER = ("agenda", "asset", "event", "hardware", "operation", "resource", "upgrade",
               "barrier", "code_gate", "icebreaker", "multi", "other_ice", "program", "sentry")
GROUP_LABELS = {"agenda": "Agenda", "asset": "Asset", "event": "Event", "hardware": "Hardware",
                "operation": "Operation", "resource": "Resource", "upgrade": "Upgrade", "barrier": "Barrier",
                "code_gate": "Code Gate", "icebreaker": "Icebreaker", "multi": "Multi", "other_ice": "Other ice",
                "program": "Program", "sentry": "Sentry"}
ICE_KINDS = ("barrier", "code_gate", "sentry")


def group_of(card: dict) -> str:
    """A card's group on NetrunnerDB's deck page: its type, ice by its kind, icebreakers apart."""
    subtypes = card.get("subtypes", ())
    if card["type"] == "ice":
        kinds = [k for k in ICE_KINDS if k in subtypes]
        return kinds[0] if len(kinds) == 1 else ("multi" if kinds else "other_ice")
    if card["type"] == "program" and "icebreaker" in subtypes:
        return "icebreaker"
    return card["type"]


def _sort_key(cid: str):
    c = cards.known(cid)
    g = group_of(c)
    return (GROUP_ORDER.index(g) if g in GROUP_ORDER else len(GROUP_ORDER), c["title"].casefold(), cid)


@dataclass(frozen=True)
class Group:
    label: str
    total: int
    rows: tuple[tuple[int, str, str], ...]  # (count, title, faction name)


def by_type(card_counts) -> list[Group]:
    """A list's cards grouped as NetrunnerDB's deck page groups them, in its order, titles alphabetical, with each
    group's count; cards the data no longer has are left out."""
    groups: dict[str, list] = {}
    for cid, n in sorted(((c, n) for c, n in card_counts if cards.card(c)), key=lambda x: _sort_key(x[0])):
        c = cards.known(cid)
        groups.setdefault(group_of(c), []).append((n, c["title"], _faction(c["faction"])))
    return [Group(GROUP_LABELS.get(g, g.replace("_", " ").capitalize()), sum(r[0] for r in rows), tuple(rows))
            for g, rows in groups.items()]


def title(card_id: str | None) -> str:
    """A card's title ("" for None or a card the data no longer has)."""
    c = cards.card(card_id) if card_id else None
    return c["title"] if c else ""
