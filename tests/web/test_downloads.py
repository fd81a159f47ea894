"""Download names (app/web/downloads.py): an event named in any script keeps its letters in the saved file's name
(RFC 5987 filename*), with an ASCII spelling for old clients; nothing in a name reaches the header raw."""
from __future__ import annotations

from urllib.parse import unquote

from app.web.downloads import attachment
from tests.web.views.test_rounds import pair, report_all, setup_event


def test_ascii_names_are_left_as_they_are():
    assert attachment("Store-Champs-standings.csv") == 'attachment; filename="Store-Champs-standings.csv"'


def test_a_name_in_another_script_keeps_its_letters():
    header = attachment("Zürich-Ωmega-東京-games.csv")
    plain, star = header.split("; filename*=UTF-8''")
    assert plain == 'attachment; filename="Zurich-mega-games.csv"'
    assert unquote(star) == "Zürich-Ωmega-東京-games.csv" and star.isascii()


def test_nothing_breaks_the_header():
    header = attachment('a"b;\r\nSet-Cookie: x=ö.csv')
    assert "\r" not in header and "\n" not in header and header.isascii()
    assert header.split("; filename*=UTF-8''")[0] == 'attachment; filename="a-b-Set-Cookie-x-o.csv"'


def test_exports_carry_the_events_name(make_user, make_tournament, login):
    client, t, _ = setup_event(make_user, make_tournament, login, n=4, name="Große Meisterschaft Åre")
    pair(client, t, 1)
    report_all(client, t, 1)
    for what in ("standings", "games"):
        header = client.get(f"/tournaments/{t.id}/{what}.csv").headers["Content-Disposition"]
        assert unquote(header.split("filename*=UTF-8''")[1]) == f"Große-Meisterschaft-Åre-{what}.csv"
        assert f'filename="Groe-Meisterschaft-Are-{what}.csv"' in header
