"""Push to a player's phone: their page's "Notify me" posts the browser's subscription here (their link is the
authorization, the page's CSRF token rides in X-CSRFToken), "Stop notifications" takes it back; the service
worker and the installable page's manifest are served here too."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from ...services.push import settings, subscriptions
from ..access import linked_player

bp = Blueprint("push", __name__)


def takes_json(view):
    """This view reads a JSON body itself (app/web/errors.py refuses JSON everywhere else)."""
    view.takes_json = True
    return view


def _refused(message: str, status: int):
    return jsonify({"error": message}), status


@bp.post("/t/<slug>/p/<token>/push")
@takes_json
def subscribe(slug: str, token: str):
    """Keep the browser's PushSubscription JSON (endpoint, keys.p256dh, keys.auth) for this player."""
    t, player = linked_player(slug, token)
    off = settings.why_off(current_app)
    if off:
        return _refused(off, 409)
    data = request.get_json(silent=True)
    try:
        subscriptions.subscribe(t, player, data, current_app.config["PUSH_SERVICES"])
    except subscriptions.PushError as e:
        return _refused(str(e), 422)
    return jsonify({"subscribed": subscriptions.count(player)}), 201


@bp.post("/t/<slug>/p/<token>/push/stop")
@takes_json
def unsubscribe(slug: str, token: str):
    """Forget this browser's subscription (its endpoint in the JSON body)."""
    _t, player = linked_player(slug, token)
    data = request.get_json(silent=True)
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    gone = subscriptions.unsubscribe(player, endpoint)
    return jsonify({"stopped": gone, "subscribed": subscriptions.count(player)})


@bp.get("/push-worker.js")
def worker():
    """The service worker, from the site's root so its scope covers every player page."""
    return current_app.send_static_file("push_worker.js"), {"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"}


@bp.get("/t/<slug>/p/<token>/manifest.webmanifest")
def manifest(slug: str, token: str):
    """The installable page: it opens on the player's own page."""
    t, player = linked_player(slug, token)
    return Response(render_template("push/manifest.json", t=t, player=player, token=token),
                    mimetype="application/manifest+json", headers={"Cache-Control": "private, no-store"})

