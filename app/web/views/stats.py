"""The event's statistics page: identities and factions per side, how each did, the cut, side balance.

Public once the swiss is over, for the TO and staff at any time (app/web/access.py: stats_tournament). The body
(charts and tables) is the same for everyone who may see it, so it is built once per event version
(app/web/built_pages.py); the page around it is drawn per request.
"""
from __future__ import annotations

from flask import Blueprint, render_template

from ...core import factions
from ...services import event_stats
from .. import built_pages
from ..access import stats_tournament

bp = Blueprint("stats", __name__)


@bp.get("/t/<slug>/stats")
def show(slug: str):
    t, public = stats_tournament(slug)

    def build():
        return render_template("stats/_body.html", t=t, stats=event_stats.build(t), colour=factions.colour), {}

    return built_pages.respond(t, "stats", build,
                               lambda body, _meta: render_template("stats/show.html", t=t, body=body, public=public))
