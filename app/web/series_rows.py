"""The series standings' rows (templates/series/_standings.html, `series_row`), each drawn once while it stands: a
result in one event draws again the rows of that event's players, and writes the new rank of those it moved, not
the 3,000 other rows. A row is kept by what it shows: the line's results (its points, events, wins and best follow
from them), its name, key, invitation and rating; its rank is written in per page."""
from __future__ import annotations

from flask import get_template_attribute, url_for
from markupsafe import Markup

from ..core.kept import Kept

RANK = "<!--rank-->"

# (series id, the player pages' address, with a rating column) -> {player key: (results, key, name, invited,
# rating, the row before its rank, after it)}; read only once made (threads may share one)
_DRAWN: Kept[dict] = Kept(16)


def rows(series, table, ratings=None) -> Markup:
    """Every line of `table` as its table row, in order; `ratings` (key -> shown rating) adds their column."""
    row = get_template_attribute("series/_standings.html", "series_row")
    # a player's address: keys are "a" or "e" and a number (app/core/series/people.py), so one url_for serves all
    player_url = url_for("series.player", series_slug=series.slug, key="k")[:-1]
    rated = ratings is not None
    name = (series.id, player_url, rated)
    earlier = _DRAWN.find(name, {})
    drawn, out = {}, []
    for line in table.lines:
        rating = ratings.get(line.key, "") if rated else None
        shown = (line.key, line.name, line.invitation is not None, rating)
        hit = earlier.get(line.key)
        if hit is None or hit[1:5] != shown or hit[0] != line.results:  # equal results: the same objects, at once
            before, after = str(row(line, Markup(RANK), rating, player_url, rated)).split(RANK)
            hit = (line.results, *shown, before, after)
        drawn[line.key] = hit
        out += (hit[5], str(line.rank), hit[6])
    _DRAWN.keep(name, drawn)
    return Markup("".join(out))


def forget_cached() -> None:
    """Benchmarks measure a cold build."""
    _DRAWN.clear()
