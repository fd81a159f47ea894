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


def test_the_vantage_point_supplement_is_in_the_data_and_the_current_pools():
    melies = cards.card("melies_u_only_the_brightest")
    assert (melies["type"], melies["faction"], melies["limit"], melies["min_deck"], melies["influence_limit"],
            melies["codes"], melies["sets"]) == ("corp_identity", "jinteki", 1, 45, 15, ["36036"], ["vantage_point"])
    assert cards.card("lotus_haze")["agenda_points"] == 2 and cards.card("corsair")["limit"] == 3
    assert cards.card("realloc")["title"] == "realloc()" and cards.card("nurse_hanh")["title"] == "Nurse Hạnh"
    assert sum("vantage_point" in c["sets"] for c in cards.data()["cards"].values()) == 66
    assert cards.data()["sets"]["vantage_point"]["name"] == "Vantage Point"
    for fmt in ("standard", "startup", "eternal"):
        assert cards.in_pool("hiram_0mission_svensson_shadow_of_the_past", fmt)
    assert not cards.in_pool("melies_u_only_the_brightest", "standard", "rotation_2023")  # only the current pool
    assert cards.data_label() == f"{cards.data_date()} plus Vantage Point"


def test_netrunnerdbs_own_data_wins_over_the_supplement():
    """Once NetrunnerDB has a card (by its code), the supplement's row falls away; a set NetrunnerDB has keeps
    its own pools."""
    from scripts.cards import merge_supplement

    supplement = {"formats": ["standard"], "sets": {"vp": {"name": "VP", "cycle": "c", "date": None}},
                  "cards": {"new_card": {"title": "New Card", "side": "corp", "type": "ice", "faction": "nbn",
                                         "influence": 1, "limit": 3, "subtypes": ["Barrier"], "codes": ["36001"],
                                         "sets": ["vp"]},
                            "old_card": {"title": "Old Card", "side": "corp", "type": "ice", "faction": "nbn",
                                         "influence": 9, "limit": 3, "codes": ["36002"], "sets": ["vp"]}}}
    sets = {"core": {"name": "Core"}}
    source_cards = {"old_card_renamed": {"title": "Old Card", "influence": 2, "codes": ["36002"], "sets": ["core"]}}
    formats, pools = {"standard": {"pool": "now"}}, {"now": {"sets": ["core"]}}
    assert merge_supplement(supplement, sets, source_cards, formats, pools) == ["VP"]
    assert source_cards["new_card"] == {"title": "New Card", "side": "corp", "type": "ice", "faction": "nbn",
                                        "influence": 1, "limit": 3, "codes": ["36001"], "sets": ["vp"],
                                        "subtypes": ["barrier"]}  # as NetrunnerDB spells a subtype
    assert "old_card" not in source_cards and source_cards["old_card_renamed"]["influence"] == 2
    assert pools["now"]["sets"] == ["core", "vp"]
    everything = {"new": {"codes": ["36001"]}, "old": {"codes": ["36002"]}}
    pools = {"now": {"sets": ["core", "vp"]}}
    assert merge_supplement(supplement, {"vp": {"name": "VP"}}, everything, formats, pools) == []
    assert pools["now"]["sets"] == ["core", "vp"] and set(everything) == {"new", "old"}
