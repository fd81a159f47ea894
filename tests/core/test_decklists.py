"""Decklists read and judged (app/core/decklist_text.py, app/core/decklists.py): the pasted shapes, name matching,
"did you mean", and every deck-building rule of docs/domain.md section 12 with its explanation."""
from __future__ import annotations

import random
import re
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core import cards
from app.core import decklists as d
from app.core.decklist_text import MAX_CHARS, MAX_LINES, TooLong, find, key, parse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "decklists"
STANDARD = d.rules("standard", on=date(2026, 11, 1))


def corp_text() -> str:
    return (FIXTURES / "corp_nrdb.txt").read_text(encoding="utf-8")


def runner_text() -> str:
    return (FIXTURES / "runner_jinteki.txt").read_text(encoding="utf-8")


def kinds(checked) -> set:
    return {p.kind for p in checked.problems}


def test_the_sample_lists_are_legal_in_standard():
    corp = d.check(corp_text(), "corp", STANDARD)
    assert corp.valid, corp.problems
    assert corp.identity == "haas_bioroid_precision_design"
    assert (corp.size, corp.agenda_points, corp.influence) == (40, 18, 0)
    assert corp.ignored == ((1, "Precision Pressure"),)  # the deck's name: shown, not a problem
    runner = d.check(runner_text(), "runner", STANDARD)
    assert runner.valid, runner.problems
    assert runner.identity == "tao_salonga_telepresence_magician" and runner.size == 44


def _cards(checked) -> dict:
    return dict(checked.cards)


@pytest.mark.parametrize("shape", [
    lambda n, t: f"{n}x {t}", lambda n, t: f"{n} {t}", lambda n, t: f"{n} x {t}", lambda n, t: f"{n}× {t}",
    lambda n, t: f"{t} x{n}", lambda n, t: f"- {n}x [{t}](https://netrunnerdb.com/en/card/01050)",
    lambda n, t: f"{n}x {t} (Core Set) ●●", lambda n, t: f"{n}x {t.upper()}",
])
def test_every_common_line_shape_reads_the_same_cards(shape):
    expected = _cards(d.check(corp_text(), "corp", STANDARD))
    lines = ["Identity: Haas-Bioroid: Precision Design"]
    for cid, n in expected.items():
        lines.append(shape(n, cards.card(cid)["title"]))
    checked = d.check("\n".join(lines), "corp", STANDARD)
    assert _cards(checked) == expected and checked.valid, checked.problems


def test_names_match_ignoring_case_accents_and_punctuation():
    assert find("Bran 1.0") == find("BRÂN 1.0") == find("bran 10") == "bran_1_0"
    assert find("Tao Salonga: Telepresence Magician") == "tao_salonga_telepresence_magician"
    assert find("knickknack obrian") == find("“Knickknack” O’Brian")
    assert find("Hedge Fund ●●●") == "hedge_fund" and find("Hedge Fund (System Gateway)") == "hedge_fund"
    assert find("Hedge Fnd") is None
    assert key("Ryō “Phoenix” Ōno") == "ryophoenixono"


def test_a_typo_gets_did_you_mean():
    checked = d.check("Identity: Haas-Bioroid: Precision Design\n3x Hedge Fnd\n3x Seamles Launch", "corp", STANDARD)
    unknown = [p.message for p in checked.problems if p.kind is d.Kind.UNKNOWN_CARD]
    assert unknown == ["Line 2: there is no card called “Hedge Fnd”. Did you mean “Hedge Fund”?",
                       "Line 3: there is no card called “Seamles Launch”. Did you mean “Seamless Launch”?"]
    nothing = d.check("Identity: Haas-Bioroid: Precision Design\n3x Qwzxv Plorp", "corp", STANDARD)
    assert any(p.message == "Line 2: there is no card called “Qwzxv Plorp”." for p in nothing.problems)


def test_identity_lines_in_each_shape():
    for line in ("Haas-Bioroid: Precision Design", "Identity: haas bioroid precision design",
                 "ID: Haas-Bioroid: Precision Design", "1x Haas-Bioroid: Precision Design (Elevation)"):
        assert parse(line + "\n3x Hedge Fund").identities[0][1] == "haas_bioroid_precision_design", line
    assert parse("Identity: Noise\n3x Sure Gamble").identities == ((1, "noise_hacker_extraordinaire"),)
    assert parse("Tāo Salonga\n3x Sure Gamble").identities == ((1, "tao_salonga_telepresence_magician"),)
    assert not parse("Identity: Jinteki").identities  # several identities are "Jinteki: ...": not one of them
    wrong = d.check("Identity: Haas-Bioroid: Precision Desing\n3x Hedge Fund", "corp", STANDARD)
    assert "there is no identity called “Haas-Bioroid: Precision Desing”. Did you mean “Haas-Bioroid: " \
           "Precision Design”" in wrong.problems[0].message
    assert d.Kind.NO_IDENTITY not in kinds(wrong)  # the misspelt identity is said once, with its "did you mean"


def test_headers_and_summary_lines_are_not_cards():
    parsed = parse(corp_text())
    assert not parsed.unknown and not parsed.uncounted
    assert [line for line, _ in parsed.ignored] == [1]


def test_a_card_without_a_count_is_explained():
    checked = d.check(corp_text() + "\nHedge Fund\n", "corp", STANDARD)
    assert any(p.kind is d.Kind.NO_COUNT and "write it as “1x Hedge Fund”" in p.message for p in checked.problems)


def test_wrong_side_identity_and_cards():
    checked = d.check(runner_text(), "corp", STANDARD)
    assert kinds(checked) >= {d.Kind.WRONG_SIDE}
    assert checked.problems[0].message == ("Line 1: Tāo Salonga: Telepresence Magician is a Runner identity; this "
                                           "is your Corp list.")
    mixed = d.check(corp_text().rstrip("\n") + "\n3x Sure Gamble", "corp", STANDARD)
    assert [p.message for p in mixed.problems if p.kind is d.Kind.WRONG_SIDE] == \
        [f"Line {len(corp_text().splitlines()) + 1}: Sure Gamble is a Runner card; a Corp deck cannot include it."]
    assert mixed.size == 40  # the Runner cards are not counted into the Corp deck


def test_deck_size_and_agenda_points():
    short = d.check(corp_text().replace("3x Hedge Fund", "1x Hedge Fund"), "corp", STANDARD)
    assert [p.message for p in short.problems] == [
        "38 cards; Haas-Bioroid: Precision Design needs at least 40 (the identity is not counted).",
        "18 agenda points; a deck of 38 cards needs 16 or 17."]
    long = d.check(corp_text() + "\n3x Fully Operational\n2x NAPD Cordon", "corp", STANDARD)
    assert [p.message for p in long.problems] == ["18 agenda points; a deck of 45 cards needs 20 or 21."]


@given(st.integers(min_value=0, max_value=500))
def test_agenda_points_rule(size):
    low, high = d.agenda_points_needed(size)
    assert high == low + 1
    if 40 <= size <= 44:
        assert (low, high) == (18, 19)
    if 45 <= size <= 49:
        assert (low, high) == (20, 21)
    assert d.agenda_points_needed(size + 5) == (low + 2, high + 2)  # each further 5 cards: +2


def test_deck_limit():
    checked = d.check(corp_text().replace("3x Hedge Fund", "4x Hedge Fund"), "corp", STANDARD)
    assert any(p.kind is d.Kind.DECK_LIMIT and "4 copies of Hedge Fund; a deck may hold at most 3." in p.message
               for p in checked.problems)
    split = d.check(corp_text() + "\n2x Hedge Fund", "corp", STANDARD)  # two lines of one card add up
    assert any("5 copies of Hedge Fund" in p.message for p in split.problems)


def test_influence_and_out_of_faction_agendas():
    # Account for influence: three out-of-faction Jinteki cards cost their influence each.
    jinteki = [(cid, c) for cid, c in sorted(cards.data()["cards"].items())
               if c["faction"] == "jinteki" and c["type"] == "operation" and c.get("influence", 0) >= 3
               and not STANDARD.pool_sets.isdisjoint(c["sets"]) and cid not in STANDARD.banned]
    extra = "".join(f"\n2x {c['title']}" for _, c in jinteki[:3])
    spent = sum(2 * c["influence"] for _, c in jinteki[:3])
    checked = d.check(corp_text() + extra, "corp", STANDARD)
    assert checked.influence == spent > 15
    influence = [p.message for p in checked.problems if p.kind is d.Kind.INFLUENCE]
    assert influence and influence[0].startswith(f"Influence: {spent} spent, Haas-Bioroid: Precision Design "
                                                 "allows 15 (")
    nbn_agenda = next(c["title"] for cid, c in sorted(cards.data()["cards"].items())
                      if c["faction"] == "nbn" and c["type"] == "agenda"
                      and not STANDARD.pool_sets.isdisjoint(c["sets"]))
    agenda = d.check(corp_text() + f"\n1x {nbn_agenda}", "corp", STANDARD)
    assert any(p.kind is d.Kind.FACTION_AGENDA and p.message.startswith(f"{nbn_agenda} is a NBN agenda")
               for p in agenda.problems)


def test_pool_and_ban_list():
    checked = d.check("Identity: Noise: Hacker Extraordinaire\n3x Account Siphon\n3x Cleaver", "runner", STANDARD)
    messages = [p.message for p in checked.problems]
    assert "Noise: Hacker Extraordinaire is not in the Standard card pool (Seventh Rotation)." in messages
    assert f"Cleaver is banned ({STANDARD.restriction_name})." in messages
    eternal = d.check("Identity: Noise: Hacker Extraordinaire\n3x Account Siphon", "runner", d.rules("eternal"))
    assert d.Kind.NOT_IN_POOL not in kinds(eternal)


def test_restricted_points_universal_influence_and_global_penalty():
    mwl2 = d.rules("standard", "napd_mwl_2_0")
    restricted = sorted(mwl2.restricted)
    runner_restricted = [c for c in restricted if cards.card(c)["side"] == "runner"][:2]
    text = "Identity: Noise: Hacker Extraordinaire\n" + "\n".join(f"1x {cards.card(c)['title']}"
                                                                   for c in runner_restricted)
    checked = d.check(text, "runner", mwl2)
    assert any(p.kind is d.Kind.RESTRICTED and p.message.startswith("A deck may hold only one restricted card")
               for p in checked.problems)

    eternal = d.rules("eternal", "eternal_points_list_25_07")
    points = d.check("Noise: Hacker Extraordinaire\n3x Account Siphon\n3 Rumor Mill\n3x Hyperdriver",
                     "runner", eternal)
    # points count once per title, whatever the copies
    assert [p.message for p in points.problems if p.kind is d.Kind.POINTS] == [
        ("10 points of the Eternal Points List 25.07 (Account Siphon 3, Rumor Mill 4, Hyperdriver 3); a deck may "
         "spend at most 7.")]

    universal = d.rules("standard", "napd_mwl_1_2")  # Blackmail: neutral, 3 universal influence a copy
    blackmail = d.check("Noise: Hacker Extraordinaire\n3x Blackmail", "runner", universal)
    assert blackmail.influence == 9
    penalty = d.rules("standard", "napd_mwl_1_0")  # Desperado on the list: each copy lowers the limit by one
    desperado = d.check("Noise: Hacker Extraordinaire\n1x Desperado", "runner", penalty)
    assert desperado.influence_limit == 14


def test_the_professor_pays_for_second_copies_of_programs_only():
    program = next(c["title"] for cid, c in sorted(cards.data()["cards"].items())
                   if c["type"] == "program" and c["faction"] == "anarch" and c.get("influence", 0) == 2)
    eternal = d.rules("eternal")
    one = d.check(f"The Professor: Keeper of Knowledge\n1x {program}", "runner", eternal)
    two = d.check(f"The Professor: Keeper of Knowledge\n2x {program}", "runner", eternal)
    assert (one.influence, two.influence) == (0, 2)


def test_the_list_in_force_goes_by_the_events_date():
    assert d.default_restriction("standard", date(2025, 9, 1)) == "standard_ban_list_25_08"
    assert d.default_restriction("standard", date(2026, 1, 1)) == "standard_ban_list_25_10"
    assert d.default_restriction("startup") == "startup_balance_update_25_04"
    assert d.restriction_choices("standard")[0][0] == "standard_ban_list_25_10"  # newest first
    with pytest.raises(KeyError):
        d.rules("standard", "eternal_points_list_25_07")


@pytest.mark.parametrize("name, side, identity, size, influence", [
    ("corp_nrdb_markdown.md", "corp", "haas_bioroid_precision_design", 40, 0),
    ("corp_nrdb_bbcode.txt", "corp", "haas_bioroid_precision_design", 40, 0),
    ("runner_nrdb_markdown.md", "runner", "tao_salonga_telepresence_magician", 44, 7),
    ("runner_nrdb_bbcode.txt", "runner", "tao_salonga_telepresence_magician", 44, 7),
])
def test_netrunnerdbs_markdown_and_bbcode_exports_read_like_its_plain_text(name, side, identity, size, influence):
    """NetrunnerDB's "Markdown" and "bbCode" exports (links to each card, set names in emphasis, "###Barrier (5)" or
    "[b]Event (16)[/b]" headers, coloured influence dots, summary lines): every card read, the deck's name the one
    line that names nothing."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    checked = d.check(text, side, STANDARD)
    assert checked.valid, checked.problems
    assert (checked.identity, checked.size, checked.influence) == (identity, size, influence)
    assert [line for _, line in checked.ignored] == [("Precision Pressure" if side == "corp" else "Tāo Goes Shopping")]
    if side == "corp":
        assert _cards(checked) == _cards(d.check(corp_text(), "corp", STANDARD))
    else:
        assert _cards(checked)["carmen"] == 2 and _cards(checked)["mutual_favor"] == 1


def test_a_card_address_names_its_card_when_the_title_does_not():
    """A link's NetrunnerDB card code stands for a title the data spells otherwise."""
    checked = d.check("[Haas-Bioroid: Precison Desgin](https://netrunnerdb.com/en/card/30035) _(System Gateway)_\n"
                      "* 3x [Hedge Fnud](https://netrunnerdb.com/en/card/30075) _(System Gateway)_\n"
                      "3x [url=https://netrunnerdb.com/en/card/30040]Seemless Lunch[/url] [i](System Gateway)[/i]",
                      "corp", STANDARD)
    assert _cards(checked) == {"hedge_fund": 3, "seamless_launch": 3}
    assert checked.identity == "haas_bioroid_precision_design"


@pytest.mark.parametrize("old, new, words", [
    ("3x Hedge Fund", "3x Hedge Fnd", "Line 15: there is no card called “Hedge Fnd”. Did you mean “Hedge Fund”?"),
    ("3x Project Ingatan", "3x Project Ingatn", "Line 7: there is no card called “Project Ingatn”. Did you mean "
                                                "“Project Ingatan”, “Project Wotan” or “Project Atlas”?"),
    ("Haas-Bioroid: Precision Design", "Haas-Bioroid: Precisoin Design",
     "Line 3: there is no identity called “Haas-Bioroid: Precisoin Design”. Did you mean “Haas-Bioroid: Precision "
     "Design”?"),
    ("Haas-Bioroid: Precision Design", "Identity: Haas-Bioroid: Precisoin Design",
     "Line 3: there is no identity called “Haas-Bioroid: Precisoin Design”. Did you mean “Haas-Bioroid: Precision "
     "Design”?"),
])
def test_one_misspelt_line_is_one_problem(old, new, words):
    """A typo is not also a deck too small, agenda points off, or no identity: its copies count as whatever they
    turn out to be."""
    checked = d.check(corp_text().replace(old, new, 1), "corp", STANDARD)
    assert [p.message for p in checked.problems] == [words]


def test_a_typo_does_not_hide_what_no_reading_of_it_could_mend():
    short = corp_text().replace("3x Hedge Fund", "1x Hedge Fnd").replace("3x Sprint", "1x Sprint")
    messages = [p.message for p in d.check(short, "corp", STANDARD).problems]
    assert "35 cards, besides 1 on lines naming no card; Haas-Bioroid: Precision Design needs at least 40 (the " \
           "identity is not counted)." in messages
    many_points = corp_text().replace("3x Hedge Fund", "3x Hedge Fnd").replace("2x Send a Message",
                                                                                "3x Send a Message")
    assert "21 agenda points; a deck of 41 cards (3 of them on lines naming no card) needs 18 or 19." in \
        [p.message for p in d.check(many_points, "corp", STANDARD).problems]


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_a_past_events_decks_are_judged_by_the_pool_and_list_of_its_own_date():
    """A 2022 Corp list (cards rotated since, Obokata Protocol banned from 24.09) and a 2024 Runner list (Daily
    Casts and Cleaver banned from 25.04): each legal on its date, illegal on another."""
    corp, runner = _fixture("standard_2022_corp.txt"), _fixture("standard_2024_runner.txt")
    on_2022 = d.rules("standard", on=date(2022, 11, 12))
    assert (on_2022.pool_id, on_2022.pool_name, on_2022.restriction_id) == \
        ("rotation_2022", "Fifth Rotation", "standard_ban_list_22_09")
    assert d.check(corp, "corp", on_2022).valid, d.check(corp, "corp", on_2022).problems
    on_2024 = d.rules("standard", on=date(2024, 11, 16))
    assert (on_2024.pool_id, on_2024.restriction_id) == ("rotation_2023", "standard_ban_list_24_09")
    assert d.check(runner, "runner", on_2024).valid, d.check(runner, "runner", on_2024).problems
    on_2023 = d.rules("standard", on=date(2023, 11, 18))
    assert (on_2023.pool_id, on_2023.restriction_id) == ("rotation_2023", "standard_ban_list_23_09")
    assert d.check(runner, "runner", on_2023).valid

    assert [p.message for p in d.check(corp, "corp", on_2024).problems] == \
        ["Obokata Protocol is banned (Standard Banlist 24.09)."]
    today = d.check(corp, "corp", STANDARD)
    assert "Jinteki: Personal Evolution is not in the Standard card pool (Seventh Rotation)." in \
        [p.message for p in today.problems]
    later = d.check(runner, "runner", d.rules("standard", on=date(2025, 10, 10)))
    assert {p.message for p in later.problems} >= {"Daily Casts is banned (Standard Ban List 25.10).",
                                                    "Cleaver is banned (Standard Ban List 25.10)."}
    assert d.Kind.NOT_IN_POOL in kinds(later)
    # and today's list was no list in 2022: its newer cards were in no pool then
    assert d.Kind.NOT_IN_POOL in kinds(d.check(corp_text(), "corp", on_2022))


def test_the_snapshot_in_force_reads_through_netrunnerdbs_misdated_snapshots():
    """NetrunnerDB dates the Seventh Rotation's snapshots a year early (2024-04-24, though Elevation and Ban List
    25.04 both start 2025-04-24), so mid-2024 is still the Sixth Rotation; the list in force goes by the list's own
    date (Startup's Liberation pool of 2024-03-30 names a list of 2024-09-20: until then 24.01 stands)."""
    mid_2024 = cards.in_force("standard", date(2024, 6, 1))
    assert (mid_2024.pool, mid_2024.restriction) == ("rotation_2023", "standard_ban_list_24_05")
    assert cards.in_force("standard", date(2025, 4, 24)) == cards.Snapshot("2025-04-24", "rotation_2025",
                                                                          "standard_ban_list_25_04")
    assert cards.in_force("standard").restriction == "standard_ban_list_25_10"  # no date: the newest
    liberation = cards.in_force("startup", date(2024, 6, 1))
    assert (liberation.pool, liberation.restriction) == ("startup_liberation", "startup_ban_list_24_01")
    assert cards.in_force("startup", date(2025, 1, 10)).pool == "startup_liberation"  # Elevation: not before 2025-04-24
    assert cards.in_force("standard", date(2017, 11, 1)).pool == "rotation_2017"  # a true date is kept
    starts = [s.start for s in cards.snapshots("standard")]
    assert starts == sorted(starts)
    # a format with no list on the day: nothing restricted, and the pages say so
    early_startup = d.rules("startup", on=date(2023, 1, 10))
    assert (early_startup.pool_id, early_startup.restriction_id) == ("startup_borealis", None)
    assert early_startup.restriction_name == "no restriction list" and not early_startup.banned
    assert d.default_restriction("startup", date(2023, 1, 10)) is None


def test_too_long_pastes_are_refused_before_any_work():
    with pytest.raises(TooLong, match="10,000 lines"):
        parse("3x Hedge Fund\n" * 9_999 + "3x Hedge Fund")
    with pytest.raises(TooLong, match="characters"):
        parse("x" * (MAX_CHARS + 1))
    parse("\n" * (MAX_LINES - 1))  # at the limit: read


def test_by_type_groups_in_netrunnerdbs_order():
    """As NetrunnerDB's deck page sorts by type: agendas, assets, operations, upgrades, then ice by kind; events,
    hardware, resources, then icebreakers and other programs; titles alphabetical in each."""
    checked = d.check(corp_text(), "corp", STANDARD)
    groups = d.by_type(checked.cards)
    assert [(g.label, g.total) for g in groups] == [("Agenda", 8), ("Asset", 6), ("Operation", 12), ("Barrier", 5),
                                                    ("Code Gate", 3), ("Sentry", 6)]
    assert [r[1] for r in groups[2].rows] == ["Hedge Fund", "Seamless Launch", "Sprint", "Top-Down Solutions"]
    corp = d.by_type([("ice_wall", 1), ("hedge_fund", 3), ("archer", 1), ("tollbooth", 2), ("ansel_2_0", 1),
                      ("snare", 1), ("sansan_city_grid", 1), ("hostile_takeover", 2), ("adonis_campaign", 1)])
    assert [g.label for g in corp] == ["Agenda", "Asset", "Operation", "Upgrade", "Barrier", "Code Gate", "Sentry"]
    runner = d.by_type([("corroder", 2), ("sure_gamble", 3), ("clone_chip", 1), ("datasucker", 1),
                        ("daily_casts", 2)])
    assert [(g.label, [r[1] for r in g.rows]) for g in runner] == [
        ("Event", ["Sure Gamble"]), ("Hardware", ["Clone Chip"]), ("Resource", ["Daily Casts"]),
        ("Icebreaker", ["Corroder"]), ("Program", ["Datasucker"])]
    assert d.group_of({"type": "ice", "subtypes": ["barrier", "sentry"]}) == "multi"
    assert d.group_of({"type": "ice", "subtypes": ["trap"]}) == "other_ice"


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["x ", " ", " x ", "× "]), st.booleans(), st.booleans())
def test_order_case_and_shape_do_not_change_the_verdict(rnd: random.Random, sep, upper, headers):
    """Any order of the lines, any case, any count shape, with or without headers: the same cards and verdict."""
    base = d.check(corp_text(), "corp", STANDARD)
    lines = [f"{n}{sep}{cards.card(cid)['title']}" for cid, n in base.cards]
    rnd.shuffle(lines)
    if headers:
        lines.insert(rnd.randrange(len(lines) + 1), "Ice (14)")
    text = "Haas-Bioroid: Precision Design\n" + "\n".join(lines)
    again = d.check(text.upper() if upper else text, "corp", STANDARD)
    assert again.cards == base.cards and again.problems == base.problems


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_any_text_is_read_without_error(text):
    """Whatever is pasted (under the limits) gets a verdict, never an exception; every problem is words."""
    checked = d.check(text, "runner", STANDARD)
    assert all(isinstance(p.message, str) and p.message for p in checked.problems)
    assert checked.valid == (not checked.problems)
    assert re.sub(r"\s", "", text) or not checked.cards
