"""Every helper the templates share, registered in one place: filters, globals and what each page's context holds."""
from __future__ import annotations

import ipaddress
import re
from fractions import Fraction
from types import SimpleNamespace
from urllib.parse import urlsplit

from flask import Flask, current_app, request, url_for
from flask_login import current_user
from markupsafe import Markup, escape

from ..core import clock
from ..core.cards import data_label as card_data_label
from ..core.names import name_key
from ..core.player_state import Reader
from ..models import Player, Tournament, max_length, utcnow
from ..services import event_stats, judge_calls, next_step
from ..services.event_files import nrtm_export
from ..services.players import player_links, player_page, registration, states
from ..services.swiss import timer
from . import access, player_session, series_rows
from .forms import nrdb_decks as nrdb_decks_form

# The lengths of the inputs a template writes by hand (a form's field renders its own, from its Length
# validator): each from its one home, so a migration that changes a column changes its input too.
LIMITS = SimpleNamespace(
    player_name=max_length(Player.name),  # the find boxes look a player up by name
    judge_reason=judge_calls.REASON_LENGTH,
    nrdb_address=nrdb_decks_form.ADDRESS_MAX,
)


def register_template_helpers(app: Flask) -> None:
    app.add_template_filter(name_key, "name_key")
    app.add_template_filter(tiebreak, "tiebreak")
    app.add_template_filter(unbroken_scores, "unbroken_scores")
    app.add_template_global(countdown, "countdown")
    app.add_template_global(you_in, "you_in")
    app.add_template_global(registration.status, "registration_status")  # open or not, and why: one rule
    app.add_template_global(nrtm_export.organiser, "nrtm_organiser")  # whom the NRTM file names as organiser
    app.add_template_global(card_data_label, "card_data_label")  # the identity hints and the import page show it
    app.add_template_global(step_url, "step_url")
    app.add_template_global(site_root, "site_root")
    app.add_template_global(is_loopback, "is_loopback")
    app.add_template_global(event_stats.public, "stats_public")  # the event pages link the statistics once public
    app.add_template_global(LIMITS, "limits")  # the hand-written inputs' maxlength
    app.add_template_global(series_rows.rows, "series_rows")  # the series standings, each row drawn once
    app.context_processor(page_context)


_SCORE = re.compile(r"\d+-\d+")


def unbroken_scores(text: str) -> Markup:
    """The text with each score ("3-3", "2-0") kept on one line: a narrow button must not break it after the
    hyphen into "3-" and "3"."""
    return Markup(_SCORE.sub(lambda m: f'<span class="nowrap">{m.group()}</span>', str(escape(text))))


def site_root() -> str:
    """The site's address as phones use it: PUBLIC_URL when set, else the address of this request."""
    public = current_app.config.get("PUBLIC_URL")
    return public + "/" if public else request.host_url


def is_loopback(url: str) -> bool:
    """Whether `url` names this machine only (localhost, 127.x, ::1): phones cannot reach it."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def page_context() -> dict:
    """`can(t, capability)`: show only the buttons the user may actually use (app/web/access.py decides);
    `has_endpoint(name)`: link to other blueprints' routes only once those routes exist."""
    return {"can": lambda tournament, capability=access.ORGANIZE: access.may(current_user, tournament, capability),
            "SCORE": access.SCORE, "ORGANIZE": access.ORGANIZE, "OWN": access.OWN,
            "has_endpoint": lambda name: name in current_app.view_functions}


def tiebreak(value: Fraction, name: str = "") -> str:
    """A tiebreaker on a page: a percentage one (its name ends in %, as OMW%) as a percentage with one decimal;
    others whole numbers as they are, else with three decimals. The API and the CSV keep the exact value."""
    value = Fraction(value)
    if name.endswith("%"):
        return f"{_fixed(value * 100, 1)}%"
    if value.denominator == 1:
        return str(value.numerator)
    return _fixed(value, 3)


def _fixed(value: Fraction, places: int) -> str:
    """`value` rounded half away from zero to `places` decimals, exactly, in integers (a 2,000-row standings
    page formats 8,000 of these; Decimal took a fifth of its time)."""
    numerator, denominator = abs(value.numerator) * 10 ** places, value.denominator
    digits = str((2 * numerator + denominator) // (2 * denominator)).rjust(places + 1, "0")
    return f"{'-' if value < 0 else ''}{digits[:-places]}.{digits[-places:]}"


def countdown(number, c) -> dict:
    """What a page needs to draw a round's countdown (templates/timer/_countdown.html) as the server sees it now;
    the browser takes over from there."""
    now = utcnow()
    state = c.state if c is not None else None
    left = clock.remaining_seconds(c, now) if state else None
    return {"round": number, "state": state, "text": clock.clock_text(left) if state else "",
            "ends_at": timer.iso(c.ends_at) if state == clock.RUNNING else "",
            "remaining_ms": c.remaining_ms if state == clock.PAUSED else "",
            "server_now": int(now.timestamp() * 1000), "expired": state == clock.RUNNING and left == 0}


def you_in(t: Tournament):
    """For the public pages' banner (templates/public/_you.html): this device's player and their table."""
    player = player_session.current_player(t)
    if player is None:
        return None
    me = player_page.view(t, player)
    return {"player": player, "table": me.mine, "me": me, "status": _you_words(me.state),  # the view read it
            "url": url_for("player.link", slug=t.slug, token=player_links.token(player))}


def you_status(t: Tournament, player) -> str:
    """The banner's words for a player waiting or out of the event ("waitlist position 2", "you dropped"), from
    the core rule (app/core/player_state.py); "" for one in the field. A player still in the field (not dropped:
    the waitlist and every drop set the column) is asked nothing, so the banner costs them no query."""
    if not player.dropped:
        return ""
    return _you_words(states.of_player(t, player))


def _you_words(ps) -> str:
    return ps.words(Reader.PLAYER) if ps.waiting or ps.out else ""


def step_url(t: Tournament, step: next_step.Step) -> str:
    """Where a next-step button (templates/_next_step.html) goes; pairing posts there (one click does it)."""
    if step.kind == next_step.ADD_PLAYERS:
        return url_for("players.index", tid=t.id)
    if step.kind == next_step.REVIEW_LISTS:
        return url_for("decklists.review", tid=t.id)
    if step.kind == next_step.LOCK_LISTS:
        return url_for("decklists.lock", tid=t.id)
    if step.kind == next_step.PAIR:  # a pairing that changes the field first shows its plan (a GET) first
        return (url_for("rounds.pair_preview", tid=t.id, number=step.round) if step.preview
                else url_for("rounds.pair", tid=t.id))
    if step.kind == next_step.ROLL_CALL:
        return url_for("check_in.index", tid=t.id)
    if step.kind in (next_step.PUBLISH, next_step.RESULTS):
        return url_for("rounds.show", tid=t.id, number=step.round)
    if step.kind == next_step.FINISHED and not t.cut_kind:
        return url_for("rounds.standings", tid=t.id)
    return url_for("cut.index", tid=t.id)
