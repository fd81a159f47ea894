"""A page's live parts and the answer to its poll (app/web/live_parts.py)."""
from app.web import live_parts

TEMPLATE = '{% macro form() %}<form><input name="csrf_token" value="{{ csrf_token() }}"> saved {{ n }}</form>' \
           '{% endmacro %}{% macro count() %}<b>{{ n }}</b>{% endmacro %}'


def _draw(app, n, ids=None, seen=None, token="token-one"):
    loader = app.jinja_loader
    from jinja2 import ChoiceLoader, DictLoader

    app.jinja_loader = ChoiceLoader([DictLoader({"parts_test.html": TEMPLATE}), loader])
    try:
        return live_parts.draw("parts_test.html", {"n": n, "csrf_token": lambda: token},
                               lambda m: {"form": m.form, "count": m.count}, ids, seen)
    finally:
        app.jinja_loader = loader


def test_a_part_digests_alike_whatever_the_form_token_and_carries_the_real_one(csrf_app):
    """The digest is taken with a stand-in token: two sessions (two tokens) see the same digest, each its own
    token in the HTML; a changed part changes its digest, an unchanged one keeps it."""
    with csrf_app.test_request_context():
        first = _draw(csrf_app, 1, token="token-one")
        again = _draw(csrf_app, 1, token="token-two")
        later = _draw(csrf_app, 2)
    assert live_parts.digests(first) == live_parts.digests(again)
    assert "token-one" in first["form"][1] and "token-two" in again["form"][1]
    assert live_parts.TOKEN not in first["form"][1] + again["form"][1]
    assert live_parts.digests(later)["count"] != live_parts.digests(first)["count"]


def test_only_the_asked_parts_are_drawn_and_seen_chooses_what_is_digested(csrf_app):
    with csrf_app.test_request_context():
        one = _draw(csrf_app, 1, ids={"count"}, seen=lambda part, html: "same")
        two = _draw(csrf_app, 2, ids={"count"}, seen=lambda part, html: "same")
    assert set(one) == {"count"}
    assert one["count"][0] == two["count"][0] and one["count"][1] != two["count"][1]


def test_the_poll_answer_is_private_with_its_etag(csrf_app):
    with csrf_app.test_request_context("/?parts=count"):
        wanted = live_parts.asked()
        parts = _draw(csrf_app, 3, ids=wanted)
        response = live_parts.answer(parts, wanted, "v-7")
    assert wanted == {"count"}
    assert response.get_json() == {"digests": live_parts.digests(parts), "fragments": {"count": "<b>3</b>"}}
    assert response.headers["ETag"] == '"v-7"' and response.headers["Cache-Control"] == "private, no-cache"
    with csrf_app.test_request_context("/"):
        assert live_parts.asked() is None
        body, status, headers = live_parts.unchanged("v-7")
    assert (body, status, headers["ETag"], headers["Cache-Control"]) == ("", 304, '"v-7"', "private, no-cache")
