"""The streaming forms (app/web/forms/streaming.py): a bounded address, a table number, the player's choice."""
from __future__ import annotations

from app.web.forms.streaming import URL_MAX, CoverageForm, FeatureForm, StreamForm


def test_stream_address_is_trimmed_and_bounded(submit):
    assert submit(StreamForm, stream_url=" https://twitch.tv/x ").stream_url.data == "https://twitch.tv/x"
    assert not submit(StreamForm, stream_url="https://" + "x" * URL_MAX).ok


def test_featured_table_and_coverage_choice(submit):
    assert submit(FeatureForm, table="").ok
    assert not submit(FeatureForm, table="0").ok
    assert submit(CoverageForm).coverage.errors == ["Choose whether you may be shown on stream."]
    assert submit(CoverageForm, coverage="off").ok
