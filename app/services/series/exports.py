"""A series' standings as CSV (the csv module) and JSON (docs/api.md, "Series standings")."""
from __future__ import annotations

import csv
import io

from ...core.series.points import figure
from ...models import Series
from ..event_files.export import safe_cell
from .manage import rules, stored_tie_breaks
from .standings import Table

JSON_VERSION = 1


def _invitation(table: Table, line) -> str:
    if line.invitation is None:
        return ""
    if line.invitation.event is None:
        return "standings"
    event = next(e for e in table.events if e.id == line.invitation.event)
    return f"winner of {event.name}"


def as_csv(series: Series, table: Table) -> str:
    """Safe to open in a spreadsheet (app/services/event_files/export.py safe_cell). One row per series player: rank,
    name, NetrunnerDB username, points, events, wins, invitation, then each event's points (empty where they did not
    play; in brackets where the result does not count)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([safe_cell(c) for c in ["rank", "name", "nrdb", "points", "events", "wins", "invited"]
                     + [f"{e.date.isoformat()} {e.name}" for e in table.events]])
    for line in table.lines:
        by_event = {r.event: r for r in line.results}
        cells = []
        for e in table.events:
            r = by_event.get(e.id)
            cells.append("" if r is None else figure(r.points) if r.counted else f"({figure(r.points)})")
        writer.writerow([safe_cell(c) for c in [line.rank, line.name, line.account or "", figure(line.total),
                                                line.events, line.wins, _invitation(table, line)] + cells])
    return out.getvalue()


def as_json(series: Series, table: Table) -> dict:
    """Exact points as strings ("12.5", "25/3"): the standings never round."""
    slugs = {e.id: e.slug for e in table.events}
    return {
        "version": JSON_VERSION,
        "series": {"name": series.name, "slug": series.slug, "kind": series.kind},
        "rules": {"points_table": series.points_table, "participation": figure(rules(series).participation),
                  "best_n": series.best_n, "field_reference": series.field_reference, "tiers": series.tiers,
                  "tie_breaks": list(stored_tie_breaks(series)), "invite_top": series.invite_top,
                  "invite_winners": series.invite_winners},
        "events": [{"slug": e.slug, "name": e.name, "date": e.date.isoformat(), "tier": e.tier,
                    "multiplier": figure(e.multiplier), "field": e.field, "started": e.started,
                    "finished": e.finished} for e in table.events],
        "standings": [{"rank": line.rank, "player": line.key, "name": line.name, "nrdb": line.account,
                       "points": figure(line.total), "all_results": figure(line.all_results),
                       "events": line.events, "wins": line.wins,
                       "invited": None if line.invitation is None else
                       {"event": slugs.get(line.invitation.event) if line.invitation.event is not None else None},
                       "results": [{"event": slugs[r.event], "placing": r.placing, "points": figure(r.points),
                                    "counted": r.counted} for r in line.results]}
                      for line in table.lines],
    }

