"""QR codes drawn in one place (app/core/qr.py): one look per purpose, the same error correction for all."""
from __future__ import annotations

import io
import re
from pathlib import Path

import segno

from app.core import qr

TEXT = "https://sass.example/t/abc123"


def view_box(svg: str) -> int:
    side = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert side and side.group(1) == side.group(2)
    return int(side.group(1))


def test_each_purpose_draws_the_same_code_at_its_own_size():
    modules = segno.make(TEXT, error=qr.ERROR).symbol_size(border=0)[0]
    assert view_box(qr.svg(TEXT, qr.ON_PAGE)) == (modules + 2 * 4) * 4
    assert view_box(qr.svg(TEXT, qr.HANDED_OVER)) == (modules + 2 * 4) * 6
    assert view_box(qr.svg(TEXT, qr.PRINTED)) == modules + 2 * qr.QUIET_ZONE


def test_an_inline_code_fits_a_page_and_a_file_stands_alone():
    inline = qr.svg(TEXT, qr.PRINTED, title="Code")
    assert inline.startswith("<svg") and "xmlns" not in inline and "<title>Code</title>" in inline
    assert 'width="' not in inline.split(">")[0]  # scales with its box
    file = qr.svg(TEXT, qr.PRINTED, inline=False)
    assert 'xmlns="http://www.w3.org/2000/svg"' in file and "<?xml" not in file


def test_the_terminal_drawing_is_the_code():
    out = io.StringIO()
    qr.terminal(TEXT, out)
    assert out.getvalue().count("\n") >= segno.make(TEXT, error=qr.ERROR).symbol_size(border=0)[0] // 2


def test_no_other_module_draws_a_code():
    app = Path(__file__).resolve().parents[2] / "app"
    drawing = sorted(str(p.relative_to(app)) for p in app.rglob("*.py") if "import segno" in p.read_text())
    assert drawing == ["core/qr.py"]
