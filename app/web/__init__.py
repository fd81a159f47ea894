"""The web layer: blueprints (app/web/views), forms, the access policy, the page cache, players' sessions and the
template helpers. Routes parse a request, call a service, render."""
from flask import Flask


def init_web(app: Flask) -> None:
    from .db_retry import retry_reads
    from .errors import register_error_handlers
    from .headers import register_security_headers
    from .numbers import IdConverter
    from .player_checks import answer_unchanged_checks
    from .shared_answers import init_shared_answers
    from .template_helpers import register_template_helpers
    from .throttle import init_throttle
    from .views import register_blueprints

    app.url_map.converters["int"] = IdConverter  # before any route is added: every <int:...> is bounded
    register_error_handlers(app)
    register_security_headers(app)
    init_shared_answers(app)
    register_blueprints(app)
    retry_reads(app)
    register_template_helpers(app)
    init_throttle(app)
    answer_unchanged_checks(app)
