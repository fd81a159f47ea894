"""The card data (app/core/cards.py, made by scripts/cards.py): faction codes in both spellings, formats, pools
and restriction lists as NetrunnerDB gives them."""
import subprocess
import sys
from pathlib import Path

import pytest

from app.core import cards

MIRROR = Path("/work/.mirror/NetrunnerDB+netrunner-cards-json/repo")


def test_faction_codes_in_both_spellings():
    assert cards.faction_id("weyland-consortium") == cards.faction_id("weyland_consortium") == "weyland_consortium"
    assert cards.faction_id("Haas-Bioroid") == "haas_bioroid"
    assert cards.faction_id("neutral-corp") == "neutral_corp" and cards.faction_id("shaper") == "shaper"
    assert cards.faction_id("weyland") is None and cards.faction_id(None) is None and cards.faction_id(3) is None
    assert cards.nrtm_faction("haas_bioroid") == "haas-bioroid"
    assert cards.nrtm_faction("sunny-lebeau") == "sunny-lebeau"
    assert cards.nrtm_faction("anarch") == "anarch" and cards.nrtm_faction(None) is None
    for fid, f in cards.data()["factions"].items():
        assert f["v1"].replace("-", "_") == fid and f["side"] in ("corp", "runner")


def test_cards_carry_what_decklists_need():
    siphon = cards.card("account_siphon")
    assert (siphon["title"], siphon["side"], siphon["faction"], siphon["influence"], siphon["limit"]) == \
        ("Account Siphon", "runner", "criminal", 4, 3)
    noise = cards.card("noise_hacker_extraordinaire")
    assert (noise["type"], noise["min_deck"], noise["influence_limit"]) == ("runner_identity", 45, 15)
    assert "text" not in noise and "01001" in noise["codes"]
    assert cards.card("hostile_takeover")["agenda_points"] == 1
    assert cards.card("no such card") is None


def test_formats_pools_and_restrictions():
    assert set(cards.data()["formats"]) == {"standard", "startup", "eternal"}
    assert cards.in_pool("account_siphon", "eternal")
    assert not cards.in_pool("account_siphon", "standard")  # rotated
    assert cards.in_pool("account_siphon", "standard", "pre_rotation")
    with pytest.raises(KeyError):
        cards.in_pool("account_siphon", "standard", "startup_ashes")
    current = cards.restriction("standard")
    assert current["format_id"] == "standard" and current["banned"]
    assert cards.restriction("standard", "napd_mwl_1_0")["global_penalty"]
    with pytest.raises(KeyError):
        cards.restriction("startup", "napd_mwl_1_0")


@pytest.mark.skipif(not MIRROR.is_dir(), reason="no copy of netrunner-cards-json on this machine")
def test_the_script_makes_the_shipped_file(tmp_path):
    """One command refreshes the data; from the same source it writes the same bytes."""
    out = tmp_path / "cards.json"
    subprocess.run([sys.executable, "-m", "scripts.cards", str(MIRROR), "--out", str(out)], check=True,
                   capture_output=True, cwd=Path(__file__).resolve().parents[2])
    if cards.data()["source"]["commit"] == subprocess.run(
            ["git", "-C", str(MIRROR), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip():
        assert out.read_bytes() == cards.PATH.read_bytes()
    else:
        assert out.stat().st_size > 100_000
