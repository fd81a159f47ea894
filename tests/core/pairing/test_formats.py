"""The formats (app/core/pairing/formats.py): every format decides every trait, and a table is one kind of play."""
from __future__ import annotations

import dataclasses

import pytest

from app.core.pairing.formats import TRAITS, Format, Traits


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
