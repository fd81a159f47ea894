"""A backup restored: as a new event (a copy) or as the event itself moved here (its address, links and staff).

It checks the whole file first (read), then writes the tournament in one transaction of bulk inserts
(event_writer); a file is restored whole or not at all.
"""
from __future__ import annotations

from fractions import Fraction

import sqlalchemy as sa

from ...core import decklists as deck_rules
from ...core import results as result_rules
from ...core import cards
from ...core.bracket_games import KINDS
from ...core.brackets import Bracket, BracketError
from ...core.identities import file_faction
from ...core.played_bracket import PlayedBracket
from ...extensions import db
from ...models import (MAX_INT, Decklist, Match, Player, ResultChange, ResultClaim, Round, Tournament, User,
                      max_length)
from ...core.pairing import Format
from ...core.standings import TIEBREAKERS
from .. import decklists as decklists_service
from . import event_writer
from . import jsonfile as j
from ..results import participation
from ..swiss import rounds as rounds_service
from ..organizers import staff as staff_service
from ..schedule import carry as schedule_carry
from .. import streaming
from .event_writer import (PLAYER_FACTIONS, PLAYER_FLAGS, PLAYER_NUMBER_MAX, PLAYER_NUMBERS, PLAYER_TEXT, ChangeRow,
                           ClaimRow, CutRow, DecklistRow, EventPlan, MatchRow, NameClash, PlayerRow, RoundRow, SeatRow)
from ..check_in import carried as check_in_carried
from .jsonfile import FileError
from ..results.match_results import check_log
from ..penalties import carried as penalties_carried
from ..swiss.rounds import RoundError

from .backup import ACTORS, HASH, KIND, READS, SLUG, STAFF_ROLES


RESTORED = " (restored)"
SIDES = ("corp", "runner")


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
                       _check_matches(raw.get("matches"), number, ids, fmt, doc["version"]))
        if doc["version"] >= 6:
            row.slip_ref = j.integer(raw.get("slip_ref"), f"round {number} slip_ref", 1, MAX_INT)
            if row.slip_ref in refs:
                raise FileError(f"round {number} has another round's slip_ref")
            refs.add(row.slip_ref)
            row.certified, row.gap = _proof(raw, number)
            row.timer = _clock(raw.get("timer"), number)
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


def _proof(raw: dict, number: int) -> tuple:
    """A round's (certified, gap) as Round keeps them: both null (not paired by an engine), proven optimal (no
    gap), or not proven, with its gap a fraction of at least 0 or unknown."""
    certified = raw.get("certified")
    if certified is not None:
        certified = j.boolean(certified, f"round {number} certified")
    gap = j.text(raw.get("gap"), f"round {number} gap", max_length(Round.gap), null=True)
    if gap is not None:
        try:
            ok = Fraction(gap) >= 0 and certified is False
        except (ValueError, ZeroDivisionError):
            ok = False
        if not ok:
            raise FileError(f"round {number} gap should be a number of at least 0, for a round not proven optimal")
    return certified, gap


def _clock(raw, number: int) -> tuple:
    """A round's clock as Round keeps it (the timer CHECK in app/models/): none, running to a time, paused with
    the time left, or called."""
    if raw is None:
        return None, None, None
    raw = j.obj(raw, f"round {number} timer")
    state = j.choice(raw.get("state"), f"round {number} timer state", ("running", "paused", "called"))
    ends_at = None if raw.get("ends_at") is None else j.iso_time(raw.get("ends_at"), f"round {number} timer ends_at")
    remaining = j.integer(raw.get("remaining_ms"), f"round {number} timer remaining_ms", 0, 36_000_000, null=True)
    if (ends_at is not None) != (state == "running") or (remaining is not None) != (state == "paused"):
        raise FileError(f"round {number} timer: a running clock has an end time, a paused one its time left, "
                        "and nothing else")
    return state, ends_at, remaining


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


def _check_matches(raw_matches, number: int, ids: set, fmt: Format, version: int) -> list:
    matches, tables, seen = [], set(), set()
    results = {None: None, result_rules.BYE: result_rules.BYE}  # a result as written -> as stored

    def stored(result, where):
        if result not in results:  # each distinct result is checked once, not once per table
            try:
                results[result] = result_rules.outcome(fmt, result).key  # a version 1 total: both games
                if version >= 2 and fmt is Format.DOUBLE_SIDED and not result_rules.games_known(result):
                    results[result] = result  # an imported file's total that does not say its games stays so
            except result_rules.ResultError as e:
                raise FileError(f"{where}: {e}") from None
        return results[result]

    scores = set()  # the (is_bye, result, seats, drawn games) already found to follow the rules: checked once
    for k, m in enumerate(j.array(raw_matches, f"round {number} matches"), 1):
        # Each value is checked where it is read; the common, well-formed value passes a plain test first, and
        # only another value takes the full check (jsonfile), which accepts it or names it in its error. 10,000 x
        # 10 restored spent most of its time writing those names for values that were fine.
        table = m.get("table") if type(m) is dict else None
        if not (type(table) is int and 1 <= table <= 100000):
            m = j.obj(m, f"round {number} match {k}")
            table = j.integer(m.get("table"), f"round {number} match {k} table", 1, 100000)
        where = f"round {number} table {table}"
        if table in tables:
            raise FileError(f"round {number} has table {table} twice")
        tables.add(table)
        is_bye = m.get("is_bye")
        if type(is_bye) is not bool:
            is_bye = j.boolean(is_bye, f"{where} is_bye")
        result = m.get("result")
        if not (result is None or type(result) is str and result in results):
            result = j.text(result, f"{where} result", max_length(Match.result), null=True)
        result = stored(result, f"{where} result")
        seats, positions = [], set()
        raw_seats = m.get("seats")
        for s in raw_seats if type(raw_seats) is list else j.array(raw_seats, f"{where} seats"):
            if type(s) is dict:
                player, position, side = s.get("player"), s.get("position"), s.get("side")
                points, games_won, penalty = s.get("points"), s.get("games_won"), s.get("penalty", 0)
            if not (type(s) is dict and type(player) is int and type(position) is int and position in (1, 2)
                    and (side is None or side in SIDES) and (points is None or type(points) is int
                                                            and 0 <= points <= 1000)
                    and type(games_won) is int and 0 <= games_won <= 100
                    and type(penalty) is int and 0 <= penalty <= 1000):
                s = j.obj(s, f"{where} seat")
                player = j.integer(s.get("player"), f"{where} seat player")
                position = side = points = games_won = penalty = None  # checked below, after the player
            if player not in ids:
                raise FileError(f"{where} names player {player}, who is not in the file's players")
            if player in seen:
                raise FileError(f"player {player} plays twice in round {number}")
            seen.add(player)
            if position is None:
                position = j.choice(s.get("position"), f"{where} seat position", (1, 2))
                side = j.choice(s.get("side"), f"{where} seat side", SIDES, null=True)
                points = j.integer(s.get("points"), f"{where} seat points", 0, 1000, null=True)
                games_won = j.integer(s.get("games_won"), f"{where} seat games_won", 0, 100)
                penalty = j.integer(s.get("penalty", 0), f"{where} seat penalty", 0, 1000)
            if position in positions:
                raise FileError(f"{where} has two seats at position {position}")
            positions.add(position)
            seats.append(SeatRow(player=player, position=position, side=side, points=points, games_won=games_won,
                                 penalty=penalty))
        if len(seats) != (1 if is_bye else 2):
            raise FileError(f"{where} should have {'one seat (a bye)' if is_bye else 'two seats'}")
        drawn_games = m.get("drawn_games")
        if not (type(drawn_games) is int and 0 <= drawn_games <= 100):
            drawn_games = j.integer(drawn_games, f"{where} drawn_games", 0, 100)
        score = (is_bye, result, tuple((s.position, s.side, s.points, s.games_won) for s in seats), drawn_games)
        if score not in scores:
            try:  # points and games follow from the result, as if it had been entered here
                result_rules.check_scores(fmt, is_bye, result, list(score[2]), drawn_games)
            except result_rules.ResultError as e:
                raise FileError(f"{where}: {e}") from None
            scores.add(score)
        claims, changes = _check_reports(m, where, result, is_bye, {s.player for s in seats}, fmt, version, stored)
        intentional_draw, two_for_one = m.get("intentional_draw"), m.get("two_for_one", False)
        if type(intentional_draw) is not bool:
            intentional_draw = j.boolean(intentional_draw, f"{where} intentional_draw")
        if type(two_for_one) is not bool:
            two_for_one = j.boolean(two_for_one, f"{where} two_for_one")
        matches.append(MatchRow(
            table=table, is_bye=is_bye, result=result, intentional_draw=intentional_draw, two_for_one=two_for_one,
            drawn_games=drawn_games, seats=seats, claims=claims, changes=changes,
        ))
    return matches


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


def _check_reports(m: dict, where: str, result, is_bye: bool, seated: set, fmt: Format, version: int, stored):
    """A match's claims and result log (version 3), checked by the rules that make them (participation.report,
    match_results.write_result)."""
    if version < 3:
        return [], []
    raw_claims, raw_changes = m.get("claims"), m.get("changes")
    claims = []
    for k, c in enumerate(raw_claims if type(raw_claims) is list else j.array(raw_claims, f"{where} claims"), 1):
        c = j.obj(c, f"{where} claim {k}")
        key = j.text(c.get("result"), f"{where} claim {k} result", max_length(ResultClaim.result))
        try:
            participation.check_claim(fmt, key)
        except result_rules.ResultError as e:
            raise FileError(f"{where} claim {k} result {key!r}: {e}") from None
        claims.append(ClaimRow(j.integer(c.get("player"), f"{where} claim {k} player"), key,
                               j.iso_time(c.get("at"), f"{where} claim {k} at")))
    changes = []
    for k, c in enumerate(raw_changes if type(raw_changes) is list else j.array(raw_changes, f"{where} changes"),
                          1):
        c = j.obj(c, f"{where} change {k}")
        changes.append(ChangeRow(
            actor=j.choice(c.get("actor"), f"{where} change {k} actor", ACTORS),
            player=j.integer(c.get("player"), f"{where} change {k} player", null=True),
            old=stored(j.text(c.get("old"), f"{where} change {k} old", max_length(ResultChange.old_result), null=True),
                       f"{where} change {k} old"),
            new=stored(j.text(c.get("new"), f"{where} change {k} new", max_length(ResultChange.new_result)),
                       f"{where} change {k} new"),
            at=j.iso_time(c.get("at"), f"{where} change {k} at"),
            reason=j.text(c.get("reason"), f"{where} change {k} reason", 200, null=True),  # absent: none
        ))
    last = changes[-1] if changes else None
    try:
        check_log(result, is_bye, seated, [(c.actor, c.player, c.old, c.new) for c in changes])
        participation.check_claims(result, is_bye, seated, [participation.Claim(c.player, "", c.result)
                                                            for c in claims],
                                   last.player if last and last.actor == "player" else None)
    except RoundError as e:
        raise FileError(f"{where}: {e}") from None
    return claims, changes


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
