"""Paper for the venue: the event's QR code, pairings by name for the wall, match slips. Print styles live in
static/style.css (@media print); these pages are laid out for A4."""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_login import current_user, login_required

from ...services.swiss import printouts as service
from ...services.swiss import rounds as rounds_service
from .. import built_pages, page_cache
from ..access import SCORE, managed_tournament, may, public_tournament

bp = Blueprint("printouts", __name__)


@bp.get("/t/<slug>/qr.svg")
def qr(slug: str):
    """The event page's QR code, for the dashboard, the projector and posters."""
    t = public_tournament(slug)
    svg = service.qr_svg(url_for("public.home", slug=t.slug, _external=True))
    # Built from PUBLIC_URL it is the same for everyone: a proxy may keep it. Built from this request's Host header
    # it is this visitor's alone: a shared cache must never hand it (perhaps pointing elsewhere) to phones.
    cache = "public, max-age=86400" if current_app.config["PUBLIC_URL"] else "private, no-cache"
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": cache})


def _printout(t, number: int, name: str, build, template: str, missing: str = ""):
    """A printout's body, built once per event version for every worker and device (app/web/built_pages.py)."""
    def from_round():
        rnd = rounds_service.load_round(t, number)
        return None if rnd is None else build(rnd)
    return built_pages.respond(t, f"{name}-{number}", from_round,
                               lambda body, meta: render_template(template, t=t, number=number, body=body, **meta),
                               missing or f"There is no round {number}.")


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/by-name")
@login_required
def by_name(tid: int, number: int):
    t = managed_tournament(tid, SCORE)

    def build(rnd):
        return render_template("printouts/_by_name.html", t=t, rows=service.by_name(t, rnd)), \
            {"published": rnd.published}
    return _printout(t, number, "by-name", build, "printouts/by_name.html")


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/slips")
@login_required
def slips(tid: int, number: int):
    """The slips, a page of service.SLIPS_PER_PAGE tables at a time (?page=2); their codes report tables, so the
    site admin (who reports nothing) gets them without. A page's codes are drawn once and kept for every worker
    and every later version of the page (page_cache.kept): a result changes the page, never its codes."""
    t = managed_tournament(tid, SCORE)
    codes = may(current_user, t, SCORE)
    page = request.args.get("page", 1, type=int)

    def draw(urls: list[str]) -> list[str]:
        kept = page_cache.kept(t, "slip-codes", "\n".join(urls), lambda: json.dumps(service.draw_codes(urls)).encode())
        return json.loads(kept)

    def build(rnd):
        pages = service.slip_pages(rnd)
        if not 1 <= page <= pages:
            return None
        slips = service.slips(t, rnd, codes, page, draw)
        return render_template("printouts/_slips.html", t=t, number=number, slips=slips), \
            {"count": len(slips), "codes": codes, "page": page, "pages": pages,
             "tables": len(service.slip_tables(rnd)), "per_page": service.SLIPS_PER_PAGE}
    return _printout(t, number, f"{'slips' if codes else 'slips-read'}-p{page}", build, "printouts/slips.html",
                     f"There is no round {number}, or no page {page} of its slips.")
