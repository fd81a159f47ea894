"""The identity table: every suggested identity has a NetrunnerDB faction code; names are canonicalised on the way
in and out of NRTM files (straight quotes, as NetrunnerDB and Cobra spell them)."""
import json

from app.core.identities import PATH, canonical, faction, identities

CORP = {"haas_bioroid", "jinteki", "nbn", "weyland_consortium", "neutral_corp"}
RUNNER = {"anarch", "criminal", "shaper", "neutral_runner", "adam", "apex", "sunny_lebeau"}


def test_every_identity_has_a_faction_of_its_side():
    data = json.loads(PATH.read_text(encoding="utf-8"))
    assert set(data["corp"]) == CORP and set(data["runner"]) == RUNNER
    names = [n for side in ("corp", "runner") for names in data[side].values() for n in names]
    assert len(names) == len(set(names)) == len(identities()["corp"]) + len(identities()["runner"])
    for side, codes in (("corp", CORP), ("runner", RUNNER)):
        for name in identities()[side]:
            assert faction(name, side) in codes
            assert canonical(name) == name  # the table is already canonical
            assert "“" not in name and "’" not in name


def test_some_factions_by_hand():
    assert faction("Haas-Bioroid: Engineering the Future") == "haas_bioroid"
    assert faction("Epiphany Analytica: Nations Undivided") == "nbn"
    assert faction("A Teia: IP Recovery", "corp") == "jinteki"
    assert faction("Ampère: Cybernetics For Anyone") == "neutral_corp"
    assert faction("Nathaniel \"Gnat\" Hall: One-of-a-Kind") == "anarch"
    assert faction("Sunny Lebeau: Security Specialist", "runner") == "sunny_lebeau"
    assert faction("Adam: Compulsive Hacker") == "adam" and faction("Apex: Invasive Predator") == "apex"
    assert faction("Noise: Hacker Extraordinaire", "corp") is None  # a Runner identity asked as Corp
    assert faction("My homebrew") is None and faction("") is None and faction(None) is None


def test_canonical_names():
    assert canonical("Rielle “Kit” Peddler: Transhuman") == 'Rielle "Kit" Peddler: Transhuman'
    assert canonical("  rielle  \"kit\" PEDDLER: transhuman ") == 'Rielle "Kit" Peddler: Transhuman'
    assert canonical("Ryo “Phoenix” Ono: Out of the Ashes") == 'Ryō "Phoenix" Ōno: Out of the Ashes'  # accents
    assert canonical("Harishchandra Ent.: Where You’re the Star") == "Harishchandra Ent.: Where You're the Star"
    assert canonical("Someone’s  “homebrew”") == 'Someone\'s "homebrew"'  # unknown: straightened, kept
    assert canonical("") == "" and canonical(None) == ""
