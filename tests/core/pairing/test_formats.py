"""The formats (app/core/pairing/formats.py): every format decides every trait, and a table is one kind of play."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
import pytest
from app.core.pairing.formats import TRAITS, Format, Traits
from app.core.pairing.formats import Side


def test_every_format_has_traits_and_no_trait_has_a_default():
    """A format added to the enum without its traits, or a trait added with a default some format never decided,
    fails here."""
    assert set(TRAITS) == set(Format)
    assert all(f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
               for f in dataclasses.fields(Traits))


@pytest.mark.parametrize("fmt", list(Format))
def test_a_table_is_exactly_one_kind_of_play(fmt):
    """Results, exports and the engine branch on these three: a format must be exactly one of them."""
    assert [fmt.sided_tables, fmt.both_sides, fmt.counts_games].count(True) == 1
    assert fmt.games_per_round == (2 if fmt.both_sides else 1)
    assert fmt.label and fmt.cut_kinds and fmt.tiebreakers


def test_the_stored_values_stay_as_they_were():
    """Tournament.format holds these strings: no schema change may come from a format's object."""
    assert [f.value for f in Format] == ["single", "double", "plain"]
    assert Format("plain").counts_games and not Format("single").custom_results


def test_no_code_compares_formats_outside_their_home():
    """What differs by format is asked of its traits: a comparison with one format (`fmt is Format.PLAIN`,
    `format == "plain"`) anywhere else is a behaviour the next format would silently miss."""
    root = Path(__file__).resolve().parents[3]
    compare = re.compile(r"""(\bis(\s+not)?|[!=]=)\s*Format\.[A-Z]"""
                         r"""|\b(format|fmt)(\.value|\.data)?\s*[!=]=\s*["'](single|double|plain)["']""")
    found = [f"{path.relative_to(root)}:{n}" for folder in ("app", "bench", "templates")
             for path in sorted((root / folder).rglob("*")) if path.suffix in (".py", ".html")
             and path != root / "app/core/pairing/formats.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if compare.search(line)]
    assert found == []
    assert compare.search("if fmt is Format.PLAIN:") and compare.search("{% if t.format == 'double' %}")
    assert not compare.search('losses = 2 if kind == "double" else 1')  # a cut's kind is no format


def test_a_round_is_worth_a_clean_sweep():
    assert Format.SINGLE_SIDED.scoring.round_points == 3
    assert Format.DOUBLE_SIDED.scoring.round_points == 6 == Format.DOUBLE_SIDED.scoring.bye
    assert Format.PLAIN.scoring.bye_game_wins == 2


def test_the_formats_facts():
    assert [f for f in Format if f.sided_tables] == [Format.SINGLE_SIDED]
    assert [f for f in Format if not f.netrunner] == [Format.PLAIN] == [f for f in Format if f.counts_games]
    assert [f for f in Format if f.custom_results] == [Format.DOUBLE_SIDED, Format.PLAIN]
    assert Format("double").games_per_round == 2
    assert Side.CORP.other is Side.RUNNER and Side.RUNNER.other is Side.CORP
