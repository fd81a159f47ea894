"""The identity table, read from the card data: every identity NetrunnerDB lists (current and rotated) has a
faction of its side; names are canonicalised on the way in and out of NRTM files (straight quotes, as Cobra
writes them)."""
from app.core import cards
from app.core.identities import canonical, data_date, faction, identities

CORP = {"haas_bioroid", "jinteki", "nbn", "weyland_consortium", "neutral_corp"}
RUNNER = {"anarch", "criminal", "shaper", "neutral_runner", "adam", "apex", "sunny_lebeau"}


def test_every_identity_has_a_faction_of_its_side():
    names = identities()["corp"] + identities()["runner"]
    assert len(names) == len(set(names)) == len(cards.identity_cards())
    for side, codes in (("corp", CORP), ("runner", RUNNER)):
        assert {faction(name, side) for name in identities()[side]} == codes
        for name in identities()[side]:
            assert canonical(name) == name  # the table is already canonical
            assert "“" not in name and "’" not in name


def test_identities_real_events_played():
    """Identities real NRTM files carried that the hand-kept table of old lacked (issue 20), with NetrunnerDB's
    factions."""
    assert faction("AU Co.: The Gold Standard in Clones", "corp") == "jinteki"
    assert faction("Nebula Talent Management: Making Stars", "corp") == "nbn"
    assert faction("Synapse Global: Faster than Thought", "corp") == "nbn"
    assert faction("The Zwicky Group: Invisible Hands", "corp") == "weyland_consortium"
    assert faction("LEO Construction: Labor Solutions", "corp") == "haas_bioroid"
    assert faction("Thunderbolt Armaments: Peace Through Power", "corp") == "haas_bioroid"
    assert faction("PT Untaian: Life's Building Blocks", "corp") == "jinteki"
    assert faction("GameNET: Where Dreams are Real", "corp") == "nbn"
    assert faction("MuslihaT: Multifarious Marketeer", "runner") == "criminal"
    assert faction("Weyland Consortium: Builder of Nations", "corp") == "weyland_consortium"  # rotated


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


def test_data_date_is_the_source_commits():
    assert data_date() == cards.data()["source"]["date"]
    assert len(data_date()) == 10 and data_date()[4] == "-"


def test_vantage_point_identities_from_the_supplement():
    """Released after the NetrunnerDB snapshot: in the card data through app/core/data/cards_supplement.json,
    found by name with typographic or straight quotes."""
    for name in ("Hiram “0mission” Svensson: Shadow of the Past", 'Hiram "0mission" Svensson: Shadow of the Past'):
        assert faction(name, "runner") == "shaper" and faction(name, "corp") is None
        assert canonical(name) == 'Hiram "0mission" Svensson: Shadow of the Past'
    vic = 'Virtual Intelligence, P.I.: "You Can Call Me Vic"'
    assert faction("Virtual Intelligence, P.I.: “You Can Call Me Vic”", "runner") == "criminal"
    assert canonical("virtual intelligence, p.i.: “you can call me vic”") == vic
    assert faction("Melies U: Only the Brightest", "corp") == "jinteki"  # accents do not matter
    assert canonical("Melies U: Only the Brightest") == "Méliès U: Only the Brightest"
    assert faction("Editorial Division: Ad Nihilum", "corp") == "nbn"
    assert {vic, 'Hiram "0mission" Svensson: Shadow of the Past'} <= set(identities()["runner"])
    assert {"Méliès U: Only the Brightest", "Editorial Division: Ad Nihilum"} <= set(identities()["corp"])


def test_a_files_faction_by_the_nrtm_apps_display_name():
    """The NRTM app writes factions by name: read them as well as codes, for the side asked ("Neutral" is the
    side's neutral faction), and a name of the other side, or one two factions share, names none."""
    from app.core.factions import read
    from app.core.identities import file_faction
    assert read("Weyland", "corp") == "weyland_consortium"
    assert read("Sunny Lebeau", "runner") == read("sunny-lebeau") == "sunny_lebeau"
    assert read("Haas-Bioroid") == read("haas_bioroid") == "haas_bioroid"
    assert read("Neutral", "runner") == "neutral_runner" and read("Neutral") is None
    assert read("Weyland", "runner") is None and read("Mystery") is None and read(None) is None
    assert file_faction("Next Year's Corp", "corp", "Weyland") == "weyland_consortium"
    assert file_faction("Haas-Bioroid: Engineering the Future", "corp", "Weyland") is None  # the data knows it
