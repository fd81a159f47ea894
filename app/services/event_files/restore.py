"""A backup restored: as a new event (a copy) or as the event itself moved here (its address, links and staff).

It checks the whole file first (read), then writes the tournament in one transaction of bulk inserts
(event_writer); a file is restored whole or not at all.
"""
from __future__ import annotations

from fractions import Fraction

import sqlalchemy as sa

from ...core import decklists as deck_rules
from ...core import cards
from ...core.bracket_games import KINDS
from ...core.brackets import Bracket, BracketError
from ...core.identities import file_faction
from ...core.played_bracket import PlayedBracket
from ...extensions import db
from ...models import (MAX_INT, Decklist, Player, Tournament, User,
                      max_length)
from ...core.pairing import Format
from ...core.standings import TIEBREAKERS
from .. import decklists as decklists_service
from . import event_writer, restore_rounds
from . import jsonfile as j
from ..swiss import rounds as rounds_service
from ..organizers import staff as staff_service
from ..schedule import carry as schedule_carry
from .. import streaming
from .event_writer import (PLAYER_FACTIONS, PLAYER_FLAGS, PLAYER_NUMBER_MAX, PLAYER_NUMBERS, PLAYER_TEXT, CutRow,
                           DecklistRow, EventPlan, NameClash, PlayerRow, RoundRow)
from ..check_in import carried as check_in_carried
from .jsonfile import FileError
from ..penalties import carried as penalties_carried

from .backup import HASH, KIND, READS, SLUG, STAFF_ROLES


RESTORED = " (restored)"


def restored_name(name: str) -> str:
    """The copy's name, marked so the TO's list tells it from the original (once, within the column's length)."""
    if name.endswith(RESTORED):
        return name
    return name[:max_length(Tournament.name) - len(RESTORED)].rstrip() + RESTORED


def restore(data: bytes, owner: User) -> Tournament:
    """A new event owned by `owner`, identical to the backed-up one but for its slug and the name's mark;
    all or nothing."""
    plan = read(j.parse(data))
    plan.tournament["name"] = restored_name(plan.tournament["name"])
    return event_writer.write(plan, owner, "backup")


def move(data: bytes, owner: User) -> Tournament:
    """The event itself, moved here (from a dead laptop, or a laptop to a server): its address and every player's
    link are kept, so printed QR codes and slips keep working, and its staff and former owner keep their roles where
    their accounts exist here (the former owner as organizer). Refused when the address is taken here or the file
    is too old to carry the links; all or nothing."""
    plan = read(j.parse(data))
    if plan.slug is None or any(p.moved_link is None for p in plan.players):
        raise FileError("this backup was made by an older SASS and does not carry the players' links: restore it as "
                        "a new event instead")
    if db.session.scalar(sa.select(Tournament.id).filter_by(slug=plan.slug)) is not None:
        raise FileError(f"the address /t/{plan.slug} is taken on this server (was the event moved here already?): "
                        "restore it as a new event instead")
    accounts = {u.email: u.id for u in db.session.scalars(
        sa.select(User).where(User.email.in_([email for email, _ in plan.staff])))}
    plan.keep_address = True
    plan.staff_ids = [(accounts[email], role) for email, role in plan.staff
                      if email in accounts and accounts[email] != owner.id]
    plan.pending_staff = [(email, role) for email, role in plan.staff if email not in accounts]
    return event_writer.write(plan, owner, "backup")


def holds(t: Tournament) -> str:
    """What a restored event holds, said to the TO as it arrives, to check against the last state they saw: its
    newest round and how many of that round's results are in, or its cut; and the staff still to sign up here."""
    summaries = rounds_service.round_summaries(t)
    if t.cut_kind is not None:
        said = f"It holds {len(summaries)} swiss rounds and the top cut."
    elif summaries:
        last = summaries[-1]
        said = (f"It holds round {last.number}{'' if last.published else ' (not published)'}: "
                f"{last.matches - last.unreported} of its {last.matches} results in.")
    else:
        said = "It holds no round yet."
    missing = staff_service.pending(t)
    if missing:
        said += " Staff who get their role when they sign up here: " + ", ".join(
            f"{p.email} ({p.role})" for p in missing) + "."
    return said


def read(doc) -> EventPlan:
    """The file's content, every value checked and normalised; FileError names the first problem."""
    doc = j.obj(doc, "the file")
    if doc.get("kind") != KIND:
        raise FileError("this is not a SASS backup file")
    if doc.get("version") not in READS or isinstance(doc.get("version"), bool):
        raise FileError(f"this backup has version {str(doc.get('version'))[:10]}; this SASS reads versions "
                        f"{READS[0]} to {READS[-1]}")
    t = j.obj(doc.get("tournament"), "tournament")
    fmt = Format(j.choice(t.get("format"), "tournament format", tuple(f.value for f in Format)))
    settings = {
        "name": j.text(t.get("name"), "tournament name", max_length(Tournament.name), empty=False),
        "date": j.iso_date(t.get("date"), "tournament date"),
        "format": fmt.value,
        "score_factor": _score_factor(t.get("score_factor")),
        "planned_rounds": j.integer(t.get("planned_rounds"), "planned_rounds", 0, 1000, null=True),
        "tiebreakers": j.choice(t.get("tiebreakers"), "tiebreakers", tuple(TIEBREAKERS), null=True),
        "power_pairing": j.boolean(t.get("power_pairing"), "power_pairing"),
        "seed": j.text(t.get("seed"), "seed", 32, empty=False),
        "single_report": j.boolean(t.get("single_report", False) if doc["version"] < 3 else t.get("single_report"),
                                   "single_report"),
        **_organiser(t.get("organiser")),
        **_decklist_settings(t.get("decklists")),
        "online": j.boolean(t.get("online", False), "online"),  # absent before online events
        "seed_by_rating": j.boolean(t.get("seed_by_rating", False), "seed_by_rating"),  # absent before ratings
    }
    if t.get("abr_id") is not None:  # where the results go (app/services/abr/)
        settings["abr_id"] = j.integer(t.get("abr_id"), "tournament abr_id", 1, MAX_INT)
    if doc["version"] >= 6:  # the slips already printed keep working (app/services/results/slip_codes.py)
        settings["slip_key"] = _hash(t.get("slip_key"), "tournament slip_key")

    players, names = [], NameClash()
    for i, raw in enumerate(j.array(doc.get("players"), "players"), 1):
        raw = j.obj(raw, f"player {i}")
        name = j.text(raw.get("name"), f"player {i} name", max_length(Player.name), empty=False)
        names.check(name)
        where = f"player {name!r}"
        players.append(PlayerRow(
            key=j.integer(raw.get("id"), f"{where} id"),
            name=name,
            # a text absent from an older backup (pronouns, the online handles) is empty
            **{k: j.text(raw.get(k, ""), f"{where} {k}", max_length(getattr(Player, k))) for k in PLAYER_TEXT},
            **{k: j.boolean(raw.get(k), f"{where} {k}") for k in PLAYER_FLAGS},
            **{k: j.integer(raw.get(k), f"{where} {k}", 1, PLAYER_NUMBER_MAX, null=True) for k in PLAYER_NUMBERS},
            # absent from backups made before a file's factions were kept
            **{k: _kept_faction(raw, k.removesuffix("_faction"), name) for k in PLAYER_FACTIONS},
            moved_link=_hash(raw.get("link"), f"{where} link") if doc["version"] >= 4 else None,
            nrdb=_nrdb(raw.get("nrdb"), name),
        ))
    ids = {p.key for p in players}
    if len(ids) != len(players):
        raise FileError("two players have the same id")
    linked = [p.nrdb[0] for p in players if p.nrdb]
    if len(set(linked)) != len(linked):
        raise FileError("two players are linked to the same NetrunnerDB account")

    rounds, numbers, refs = [], set(), set()
    for i, raw in enumerate(j.array(doc.get("rounds"), "rounds"), 1):
        raw = j.obj(raw, f"round {i}")
        number = j.integer(raw.get("number"), f"round {i} number", 1, 10000)
        if number in numbers:
            raise FileError(f"round {number} appears twice")
        numbers.add(number)
        row = RoundRow(number, j.boolean(raw.get("published"), f"round {number} published"),
                       restore_rounds.read_matches(raw.get("matches"), number, ids, fmt, doc["version"]),
                       # any version; absent (a file from before seeding by rating): not seeded
                       seeded_by_rating=j.boolean(raw.get("seeded_by_rating", False),
                                                  f"round {number} seeded_by_rating"))
        if doc["version"] >= 6:
            row.slip_ref = j.integer(raw.get("slip_ref"), f"round {number} slip_ref", 1, MAX_INT)
            if row.slip_ref in refs:
                raise FileError(f"round {number} has another round's slip_ref")
            refs.add(row.slip_ref)
            row.certified, row.gap = restore_rounds.read_proof(raw, number)
            row.timer = restore_rounds.read_clock(raw.get("timer"), number)
        rounds.append(row)

    _read_streaming(doc.get("streaming"), settings, players, rounds)
    plan = EventPlan(tournament=settings, players=players, rounds=rounds)
    if doc["version"] >= 4:
        plan.slug = j.text(t.get("slug"), "tournament slug", max_length(Tournament.slug), empty=False)
        if not SLUG.fullmatch(plan.slug):
            raise FileError("the tournament's slug should be lower-case letters and digits")
        plan.staff = _check_staff(doc)
    if doc["version"] >= 5:
        plan.decklists = _check_decklists(doc.get("decklists"), ids, settings)
    plan.schedule = schedule_carry.read(doc.get("schedule"))  # any version; absent: none
    plan.penalties = penalties_carried.read(doc.get(penalties_carried.KEY), ids, numbers, fmt)
    plan.check_in = check_in_carried.read(doc.get(check_in_carried.KEY), ids, {p.key: p.dropped for p in players})
    cut = _check_cut(doc.get("cut"), ids)
    if cut is not None:
        plan.cut_kind, plan.seeds, plan.cut_results = cut["kind"], cut["seeds"], cut["results"]
        plan.cut_ranking = cut["ranking"]
    return plan


def _read_streaming(raw, settings: dict, players: list, rounds: list) -> None:
    """The backup's "streaming" key (optional: absent, nothing is streamed): the stream's address, the players who
    opted out of coverage, each round's featured table, which must be a game of that round with nobody opted out."""
    if raw is None:
        return
    raw = j.obj(raw, "streaming")
    try:
        settings["stream_url"] = streaming.check_stream_url(
            j.text(raw.get("stream_url", ""), "stream_url", max_length(Tournament.stream_url)))
    except streaming.StreamingError as e:
        raise FileError(f"stream_url: {e}") from None
    by_key = {p.key: p for p in players}
    for i, key in enumerate(j.array(raw.get("no_coverage", []), "streaming no_coverage"), 1):
        key = j.integer(key, f"streaming no_coverage {i}")
        if key not in by_key:
            raise FileError(f"streaming no_coverage names player {key}, who is not in the file")
        by_key[key].no_coverage = True
    by_number = {r.number: r for r in rounds}
    for i, item in enumerate(j.array(raw.get("featured", []), "streaming featured"), 1):
        item = j.obj(item, f"streaming featured {i}")
        number = j.integer(item.get("round"), f"streaming featured {i} round", 1, 10000)
        table = j.integer(item.get("table"), f"streaming featured {i} table", 1, 100000)
        rnd = by_number.get(number)
        if rnd is None or rnd.featured_table is not None:
            raise FileError(f"streaming featured {i}: round {number} is not in the file, or named twice")
        match = next((m for m in rnd.matches if m.table == table and not m.is_bye), None)
        if match is None:
            raise FileError(f"streaming featured {i}: round {number} has no game at table {table}")
        if any(by_key[s.player].no_coverage for s in match.seats):
            raise FileError(f"streaming featured {i}: table {table} has a player who opted out of coverage")
        rnd.featured_table = table


def _hash(value, where: str) -> str:
    text = j.text(value, where, 64, empty=False)
    if not HASH.fullmatch(text):
        raise FileError(f"{where} should be 64 hexadecimal digits")
    return text


def _check_staff(doc: dict) -> list[tuple[str, str]]:
    """(e-mail, role): the former owner as organizer, then the staff, each account once."""
    owner = j.text(doc.get("owner"), "owner", 254, empty=False).lower()
    staff, seen = [(owner, "organizer")], {owner}
    for i, raw in enumerate(j.array(doc.get("staff"), "staff"), 1):
        raw = j.obj(raw, f"staff {i}")
        email = j.text(raw.get("email"), f"staff {i} email", 254, empty=False).lower()
        role = j.choice(raw.get("role"), f"staff {i} role", STAFF_ROLES)
        if email not in seen:
            seen.add(email)
            staff.append((email, role))
    return staff


def _score_factor(value) -> str:
    text = j.text(value, "score_factor", max_length(Tournament.score_factor), empty=False)
    try:
        factor = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise FileError(f"score_factor should be a number like 2 or 5/2, not {text!r}") from None
    if factor <= 0:
        raise FileError("score_factor should be more than 0")
    return text


def _organiser(raw) -> dict:
    """An imported NRTM file's organiser, kept by the event (absent from older backups)."""
    if raw is None:
        return {}
    raw = j.obj(raw, "tournament organiser")
    return {"organiser_name": j.text(raw.get("name", ""), "organiser name", max_length(Tournament.organiser_name)),
            "organiser_nrdb_username": j.text(raw.get("nrdb_username", ""), "organiser nrdb_username",
                                              max_length(Tournament.organiser_nrdb_username)),
            "organiser_nrdb_id": j.integer(raw.get("nrdb_id"), "organiser nrdb_id", 0, MAX_INT, null=True)}


def _decklist_settings(raw) -> dict:
    """The event's decklist settings (absent before version 5: none collected)."""
    if raw is None:
        return {}
    raw = j.obj(raw, "tournament decklists")
    formats = tuple(fid for fid, _ in deck_rules.formats())
    return {"decklists": j.boolean(raw.get("collected"), "decklists collected"),
            "card_format": j.choice(raw.get("card_format"), "decklists card_format", formats),
            # a list this SASS's card data lacks falls back to the one in force (services/decklists.rules)
            "restriction": j.text(raw.get("restriction"), "decklists restriction", max_length(Tournament.restriction),
                                  null=True) or None,
            "decklist_visibility": j.choice(raw.get("visibility"), "decklists visibility",
                                            tuple(v.value for v in deck_rules.Visibility)),
            "lists_locked": j.boolean(raw.get("locked", False), "decklists locked")}  # absent before the TO's lock


def _check_decklists(raw, ids: set, settings: dict) -> list:
    """The players' lists, each judged here under the event's rules (as if submitted now): the file's text is what
    counts, never what another SASS read from it."""
    rule = decklists_service.rules_for(settings.get("card_format", "standard"), settings.get("restriction"),
                                       settings["date"])
    rows, seen = [], set()
    for i, d in enumerate(j.array(raw, "decklists"), 1):
        d = j.obj(d, f"decklist {i}")
        player = j.integer(d.get("player"), f"decklist {i} player")
        if player not in ids:
            raise FileError(f"decklist {i} names player {player}, who is not in the file's players")
        side = j.choice(d.get("side"), f"decklist {i} side", ("corp", "runner"))
        if (player, side) in seen:
            raise FileError(f"player {player} has two {side} lists")
        seen.add((player, side))
        text = d.get("text")
        if not isinstance(text, str) or "\x00" in text:
            raise FileError(f"decklist {i} text should be text without NUL characters")
        try:
            checked = deck_rules.check(text, side, rule)
        except deck_rules.TooLong as e:
            raise FileError(f"decklist {i}: {e}") from None
        rows.append(DecklistRow(
            player=player, side=side, text=text, identity=checked.identity,
            cards=[[c, n] for c, n in checked.cards], valid=checked.valid,
            problems=[{"kind": p.kind.value, "message": p.message} for p in checked.problems],
            identity_was=j.text(d.get("identity_was"), f"decklist {i} identity_was",
                                max_length(Decklist.identity_was), null=True),
            updated_by=j.choice(d.get("updated_by"), f"decklist {i} updated_by", decklists_service.ACTORS),
            updated_at=j.iso_time(d.get("updated_at"), f"decklist {i} updated_at"),
            unlocked=j.boolean(d.get("unlocked"), f"decklist {i} unlocked")))
    return rows


def _kept_faction(raw: dict, side: str, name: str):
    """A player's kept faction (Player.corp_faction / runner_faction): a faction of its side, kept only while the
    card data does not know the identity (core/identities.py file_faction)."""
    code = raw.get(f"{side}_faction")
    if code is None:
        return None
    if cards.faction_id(code) is None or cards.data()["factions"][cards.faction_id(code)]["side"] != side:
        raise FileError(f"player {name!r} {side}_faction should be a {side} faction, not {j.brief(code)}")
    return file_faction(raw.get(f"{side}_identity"), side, code)


def _check_cut(raw, ids: set):
    if raw is None:
        return None
    raw = j.obj(raw, "cut")
    kind = j.choice(raw.get("kind"), "cut kind", KINDS)
    entries, ranks = [], {}
    for i, e in enumerate(j.array(raw.get("entries"), "cut entries"), 1):
        e = j.obj(e, f"cut entry {i}")
        player = j.integer(e.get("player"), f"cut entry {i} player")
        if player not in ids:
            raise FileError(f"cut entry {i} names player {player}, who is not in the file's players")
        entries.append((j.integer(e.get("seed"), f"cut entry {i} seed", 1, 64), player))
        rank = j.integer(e.get("rank"), f"cut entry {i} rank", 1, 64, null=True)  # absent from older backups
        if rank is not None:
            ranks[player] = rank
    entries.sort()
    seeds = [p for _, p in entries]
    if [s for s, _ in entries] != list(range(1, len(entries) + 1)) or len(set(seeds)) != len(seeds):
        raise FileError("the cut should have seeds 1, 2, 3 ... once each, each player once")
    if ranks and sorted(ranks.values()) != list(range(1, len(seeds) + 1)):
        raise FileError("the cut's ranks should be 1, 2, 3 ... once each for every player, or none")
    ranking = sorted(ranks, key=ranks.get)
    results, games = [], set()
    for i, r in enumerate(j.array(raw.get("results"), "cut results"), 1):
        r = j.obj(r, f"cut result {i}")
        game = j.integer(r.get("game"), f"cut result {i} game", 1, 1000)
        if game in games:
            raise FileError(f"cut game {game} appears twice")
        games.add(game)
        winner = j.integer(r.get("winner"), f"cut game {game} winner", null=True)
        corp = j.integer(r.get("corp"), f"cut game {game} corp", null=True)
        table = j.integer(r.get("table"), f"cut game {game} table", 1, 100000, null=True)
        player1 = j.integer(r.get("player1"), f"cut game {game} player1", null=True)
        player2 = j.integer(r.get("player2"), f"cut game {game} player2", null=True)
        rnd = j.integer(r.get("round"), f"cut game {game} round", 1, 100, null=player1 is None)
        for who in (winner, corp, player1, player2):
            if who is not None and who not in ids:
                raise FileError(f"cut game {game} names player {who}, who is not in the file's players")
        results.append(CutRow(game, winner, corp, table, rnd if player1 is not None else None, player1, player2))
    played = [r for r in results if r.player1 is not None]
    try:
        if played and (len(played) != len(results) or any(r.player2 is None for r in played)):
            raise BracketError("a cut kept as played names both players of every game")
        if played:
            bracket = PlayedBracket(kind, seeds, [(r.game, r.round, r.player1, r.player2, r.winner, r.corp)
                                                  for r in played])
        else:
            bracket = Bracket.from_results(kind, seeds, [(r.game, r.winner, r.corp) for r in results
                                                         if r.winner is not None])
            for r in results:
                if r.winner is None and r.corp is not None and r.corp not in bracket.game(r.game).players:
                    raise BracketError(f"game {r.game} records a side choice for a player who is not in it")
        if ranking:
            bracket.rank_as(ranking)
    except BracketError as e:
        raise FileError(f"the cut does not add up: {e}") from None
    return {"kind": kind, "seeds": seeds, "results": results, "ranking": ranking}


def _nrdb(raw, name: str):
    """A player's linked NetrunnerDB account, (id, username); absent or null: not linked."""
    if raw is None:
        return None
    raw = j.obj(raw, f"player {name!r} nrdb")
    return (j.integer(raw.get("id"), f"player {name!r} nrdb id", 1, MAX_INT),
            j.text(raw.get("username"), f"player {name!r} nrdb username", 100, empty=False))
