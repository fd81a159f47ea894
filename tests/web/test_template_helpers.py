"""The helpers every template shares (app/web/template_helpers.py)."""


def test_tiebreakers_round_as_decimal_did():
    """The standings' integer formatting of tiebreakers matches Decimal's ROUND_HALF_UP, sign and all."""
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    from app.web.template_helpers import _fixed

    for n in range(-2001, 2002, 7):
        for d in (1, 2, 3, 7, 8, 64, 2000, 4096):
            value = Fraction(n, d)
            for places in (1, 3):
                exact = (Decimal(n) / Decimal(d)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
                assert _fixed(value, places) == str(exact), (value, places)


def test_scores_stay_on_one_line_and_text_stays_escaped():
    """A narrow button breaks "3-3" after the hyphen unless the score is one unbreakable run; the rest of the
    text (a player's name can be anything) is escaped as before."""
    from app.web.template_helpers import unbroken_scores

    assert unbroken_scores("We drew 3-3: each won as Corp") == \
        'We drew <span class="nowrap">3-3</span>: each won as Corp'
    assert unbroken_scores("I won 2-0 and 10-12") == \
        'I won <span class="nowrap">2-0</span> and <span class="nowrap">10-12</span>'
    assert unbroken_scores("<b>Ana</b> said: a tie") == "&lt;b&gt;Ana&lt;/b&gt; said: a tie"
    assert unbroken_scores("I lost as Runner") == "I lost as Runner"


def test_no_template_types_a_length():
    """Every input's maxlength comes from its one home: a form field renders its Length validator's, a
    hand-written input takes `limits` (from the columns); a number typed in a template would drift from both."""
    import re
    from pathlib import Path

    templates = Path(__file__).resolve().parents[2] / "templates"
    typed = [f"{path.relative_to(templates)}: {m.group()}" for path in sorted(templates.rglob("*.html"))
             for m in re.finditer(r"maxlength=\"?\d+", path.read_text())]
    assert typed == []


def test_inputs_take_the_columns_lengths(app):
    """The player form's fields and the find boxes carry the columns' lengths, whatever they are."""
    import re

    from flask import render_template_string

    from app.models import Player, max_length
    from app.web.forms.players import PlayerForm

    with app.test_request_context():
        html = render_template_string(
            '{% from "_form.html" import render_field %}{{ render_field(form.name) }}{{ render_field(form.pronouns) }}'
            '{{ render_field(form.jinteki_name) }}<input maxlength="{{ limits.player_name }}" name="q">',
            form=PlayerForm(meta={"csrf": False}))
    lengths = {name: int(n) for n, name in re.findall(r'maxlength="(\d+)" name="(\w+)"', html)}
    assert lengths == {"name": max_length(Player.name), "pronouns": max_length(Player.pronouns),
                       "jinteki_name": max_length(Player.jinteki_name), "q": max_length(Player.name)}
