"""The cut pages draw the bracket from app/core/bracket_layout.py: each game in a grid cell whose classes place it
(no inline styles), the upper bracket, lower bracket and grand final in that order, the same on the public page."""
from __future__ import annotations

import re

import pytest

from tests.web.views.test_cut import _event, _post_cut


def _cells(page: str) -> dict[int, str]:
    """Game id -> the classes of the grid cell holding its card."""
    return {int(gid): classes for classes, gid in
            re.findall(r'<li class="bracket-cell ([^"]+)">\s*<div class="cut-game[^"]*" id="game-(\d+)"', page)}


@pytest.mark.parametrize("kind, size, titles", [
    ("double", 8, ["Upper bracket", "Lower bracket", "Grand final"]),
    ("single", 8, ["Bracket"]),
])
def test_cut_pages_draw_the_bracket(client, make_user, make_tournament, login, kind, size, titles):
    t, _ = _event(make_user, make_tournament, n=12)
    login()
    assert _post_cut(client, t, size, kind).status_code == 302
    for url in (f"/tournaments/{t.id}/cut", f"/t/{t.slug}/bracket"):
        page = client.get(url).get_data(as_text=True)
        assert re.findall(r'<section class="cut-section bracket-part[^"]*">\s*<h3>([^<]+)</h3>', page) == titles
        cells = _cells(page)
        assert sorted(cells) == list(range(1, (14 if kind == "double" else 7) + 1))
        assert cells[1] == "gc-1 gr-1 gs-1 out-top" and cells[2] == "gc-1 gr-2 gs-1 out-bottom"
        assert cells[5] == "gc-2 gr-1 gs-2 in out-top"
        headings = re.findall(r'<li class="bracket-round gc-\d+">([^<]+)</li>', page)
        if kind == "single":
            assert cells[7] == "gc-3 gr-1 gs-4 in"  # the final ends the one bracket
            assert headings == ["Round 1", "Round 2", "Final"]
        else:
            assert cells[9] == "gc-3 gr-1 gs-4 in" and cells[14] == "gc-1 gr-1 gs-1"
            assert headings == ["Round 1", "Round 2", "Round 3", "Round 2", "Round 3", "Round 4", "Round 5", "Final"]
        assert "style=" not in page
