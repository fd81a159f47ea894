"""Error pages: every failure a user can cause answers with a 4xx page, never a 500 traceback."""
from flask import Flask, abort, jsonify, render_template, request
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from ..extensions import db
from ..services.locks import TournamentGone
from ..services.series.manage import StoredRulesError
from .access import Refused
from .db_retry import DROPPED, dropped

BUSY = ("The server was too busy to save this just now. Check whether your change is there, then try again in a "
        "moment.")


def busy(error: BaseException) -> bool:
    """SQLite's write lock stayed taken past SQLITE_BUSY_TIMEOUT_MS (a burst of writes on a loaded machine)."""
    return isinstance(error, DBAPIError) and "database is locked" in str(getattr(error, "orig", error))


def register_error_handlers(app: Flask) -> None:
    @app.before_request
    def refuse_nul_in_path():
        """No page has a NUL in its address, and PostgreSQL refuses one in a query (a 500 if it got there)."""
        if "\x00" in request.path:
            abort(404)

    @app.before_request
    def refuse_json_bodies():
        """Every POST of this app is a form (the read-only API only answers GETs), but for the views marked
        `takes_json` (a browser's push subscription, app/web/views/push.py), which check their JSON themselves.
        Flask-WTF would read a JSON body as the form, whose values may then be numbers, lists or objects where
        every field expects text (a field's filter or validator failed on one: a 500); such a body is refused
        whole instead, before any view."""
        if request.method not in ("GET", "HEAD", "OPTIONS") and request.is_json and not getattr(
                app.view_functions.get(request.endpoint), "takes_json", False):
            abort(415, "This address takes a form, not JSON.")

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return _render(400, "The form expired or was not sent from this site. Reload the page and try again.")

    @app.errorhandler(RateLimitExceeded)
    def too_many(e: RateLimitExceeded):
        return _render(429, f"Too many attempts (at most {e.description}). Wait, then try again.")

    @app.errorhandler(TournamentGone)
    def tournament_gone(e):
        return _render(404, str(e))

    @app.errorhandler(StoredRulesError)
    def stored_rules(e: StoredRulesError):
        """A series whose stored tie-breaks name one SASS does not know: every page of its standings says so."""
        return _render(409, str(e))

    @app.errorhandler(DBAPIError)
    def database_error(e: DBAPIError):
        """A dropped connection that a retry could not save (a write, or a read twice unlucky), or SQLite's write
        lock still taken after the busy timeout: 503 and what to do; any other database error stays a 500 (a bug)."""
        if not (dropped(e) or busy(e)):
            raise e
        message = DROPPED if dropped(e) else BUSY
        db.session.rollback()
        try:
            response = _render(503, message)
        except DBAPIError:  # the database is still away: a page without the account's header
            db.session.rollback()
            response = (message, 503, {"Content-Type": "text/plain; charset=utf-8"})
        return response[0], 503, {**(response[2] if len(response) > 2 else {}), "Retry-After": "5"}

    @app.errorhandler(Refused)
    def refused(e: Refused):
        return _render(403, e.description, back=e.tournament_id)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        return _render(e.code or 500, e.description or e.name)


def _render(code: int, message: str, back: int | None = None):
    """`back`: the event whose dashboard the page links to (the caller holds a role there)."""
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        return jsonify(error=message), code
    return render_template("error.html", code=code, message=message, back=back), code
