"""Two WCAG failures the audit's accessibility scan found, checked in the served markup without a browser (axe-core
itself runs in tests/browser/test_accessibility.py): a list whose children are not list items (axe `list`: the
TO's cut page drew each bracket round's heading as `<li role="presentation">`), and a region that scrolls sideways
but takes no keyboard focus (axe `scrollable-region-focusable`: the judge-call log at 360 px)."""
from __future__ import annotations

from html.parser import HTMLParser

from cut_helpers import add_players, random_swiss
from app.services import cut as cut_service

LISTS = ("ul", "ol")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Lists(HTMLParser):
    """Every child element of a <ul> or <ol> that is not a plain <li> (nor a script or template)."""

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.bad: list[str] = []

    def handle_starttag(self, tag, attrs):
        if self.stack and self.stack[-1] in LISTS:
            role = dict(attrs).get("role")
            if tag not in ("li", "script", "template") or (tag == "li" and role not in (None, "listitem")):
                self.bad.append(f"<{tag} role={role}> in <{self.stack[-1]}>")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass


def list_problems(page: str) -> list[str]:
    parser = Lists()
    parser.feed(page)
    return parser.bad


def test_the_cut_pages_lists_hold_only_list_items(client, make_user, make_tournament, login):
    import random
    t = make_tournament(make_user())
    players = add_players(t, [f"P{i}" for i in range(10)])
    random_swiss(t, players, 3, random.Random(3))
    login()
    for kind in ("double", "single"):
        if t.cut_kind:
            cut_service.delete(t)
        cut_service.create(t, 8, kind)
        for path in (f"/tournaments/{t.id}/cut", f"/t/{t.slug}/bracket"):
            page = client.get(path).get_data(as_text=True)
            assert 'class="bracket' in page and list_problems(page) == [], (kind, path)


def test_the_judge_call_log_scrolls_by_keyboard(app, client, make_user, make_tournament, login):
    from app.extensions import db
    from app.models import JudgeCall
    t = make_tournament(make_user())
    ann, = add_players(t, ["Ann"])
    db.session.add(JudgeCall(tournament_id=t.id, player_id=ann.id, reason="", state="open"))
    db.session.commit()
    login()
    page = client.get(f"/tournaments/{t.id}/judge-calls").get_data(as_text=True)
    wrap = page.split('class="judge-log-wrap"', 1)[1].split(">", 1)[0]
    assert 'tabindex="0"' in wrap and 'aria-label="' in wrap and 'role="region"' in wrap
    assert list_problems(page) == []
