"""Error pages: every failure a user can cause answers with a 4xx page, never a 500 traceback."""
from flask import Flask, jsonify, render_template, request
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return _render(400, "The form expired or was not sent from this site. Reload the page and try again.")

    @app.errorhandler(RateLimitExceeded)
    def too_many(e: RateLimitExceeded):
        return _render(429, f"Too many attempts (at most {e.description}). Wait, then try again.")

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        return _render(e.code or 500, e.description or e.name)


def _render(code: int, message: str):
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        return jsonify(error=message), code
    return render_template("error.html", code=code, message=message), code
