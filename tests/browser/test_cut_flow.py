"""An organizer finishes a 12-player single-sided swiss, runs a double-elimination top 4 to the end (with a
grand-final reset), downloads the NRTM JSON, and a phone shows the bracket."""
from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

PLAYERS = 12
SWISS_ROUNDS = 4
GAMES = 7  # double elimination top 4 with the grand-final reset played
FINAL, RESET = 6, 7
NARROW = 360


def finish_swiss(page, tid: int, number: int) -> None:
    """Report the last swiss round in the browser: Corp wins everywhere."""
    page.goto(f"/tournaments/{tid}/rounds/{number}")
    games = page.locator("li.match", has=page.get_by_role("button", name="Corp win"))
    for match_id in games.evaluate_all("(els) => els.map((e) => e.id)"):
        page.locator(f"#{match_id}").get_by_role("button", name="Corp win").click()
        expect(page.locator(f"#{match_id} .result")).to_have_text("Corp win")
    expect(page.get_by_text("All results are in.")).to_be_visible()


def play_game(page, game: int, winner_slot: int) -> tuple[str, str]:
    """Record the side choice if the higher seed has to make one, then tap the winner (slot 0 or 1).
    Returns (winner, loser) names."""
    card = page.locator(f"#game-{game}")
    expect(card).to_have_class(re.compile(r"\bready\b"))
    names = card.locator(".cut-player .name").all_inner_texts()
    chooser = card.get_by_text("(higher seed) chooses a side")
    if chooser.count():
        chooser_name = chooser.inner_text().split(" (higher seed)")[0]
        card.get_by_role("button", name=f"{chooser_name} corps", exact=True).click()
        expect(page.locator(f"#game-{game} .cut-player", has_text=chooser_name).locator(".corp")).to_be_visible()
        card = page.locator(f"#game-{game}")
    # Every game to be played shows who is Corp and who is Runner.
    expect(card.locator(".cut-player .corp")).to_have_count(1)
    expect(card.locator(".cut-player .runner")).to_have_count(1)
    winner, loser = names[winner_slot], names[1 - winner_slot]
    card.get_by_role("button", name=f"{winner} won", exact=True).click()
    done = page.locator(f"#game-{game}")
    expect(done).to_have_class(re.compile(r"\bdone\b"))
    expect(done.locator(".cut-player.winner .name")).to_have_text(winner)
    return winner, loser


def test_top_cut_to_the_end(roster, page, phone, organizer, seed_swiss, log_in, screenshots):
    assert len(roster) == PLAYERS
    event = seed_swiss(organizer["id"], roster, rounds=SWISS_ROUNDS - 1, name="Cut Open", planned=SWISS_ROUNDS)
    event.pair(SWISS_ROUNDS)
    log_in(page, organizer["email"])
    finish_swiss(page, event.id, SWISS_ROUNDS)
    swiss_points = event.points()

    # The swiss standings decide the seeds.
    page.goto(f"/tournaments/{event.id}/standings")
    top4 = page.locator("table.standings tbody tr td.name").evaluate_all(
        "(tds) => tds.slice(0, 4).map((td) => td.firstChild.textContent.trim())")

    # Cut to a double-elimination top 4 from the dashboard.
    page.goto(f"/tournaments/{event.id}")
    page.get_by_role("link", name="Top cut").click()
    page.get_by_label("Bracket").select_option("double")
    page.get_by_label("Cut to the top").select_option("4")
    page.get_by_role("button", name="Create the cut").click()
    expect(page.get_by_text("Top 4 cut created.")).to_be_visible()
    seeds = page.locator("#game-1 .cut-player, #game-2 .cut-player").evaluate_all(
        "(els) => els.map((e) => [parseInt(e.querySelector('.seed').textContent), "
        "e.querySelector('.name').textContent.trim()])")
    assert sorted(seeds) == [[1, top4[0]], [2, top4[1]], [3, top4[2]], [4, top4[3]]]
    expect(page.locator("#game-1 .cut-player .name")).to_have_text([top4[0], top4[3]])  # 1 v 4
    expect(page.locator("#game-2 .cut-player .name")).to_have_text([top4[1], top4[2]])  # 2 v 3

    # Upper and lower bracket: the first-listed player wins; then the lower-bracket player takes the
    # first final, which forces the reset, and wins that too (the reset lists the first final's winner first).
    expect(page.locator(f"#game-{RESET}")).to_have_count(0)
    results = {}
    for game in range(1, FINAL):
        results[game] = play_game(page, game, 0)
    upper_champion = results[3][0]
    expect(page.locator(f"#game-{FINAL} .cut-player .name")).to_have_text([upper_champion, results[5][0]])
    results[FINAL] = play_game(page, FINAL, 1)
    reset = page.locator(f"#game-{RESET}")
    expect(reset).to_contain_text("grand-final reset")
    results[RESET] = play_game(page, RESET, 0)
    champion = results[RESET][0]
    assert champion == results[5][0] != upper_champion
    expect(page.get_by_text(f"Champion: {champion}.")).to_be_visible()
    expect(page.locator(".cut-game.done")).to_have_count(GAMES)
    page.screenshot(path=str(screenshots / "cut_organizer.png"), full_page=True)

    # Final standings: champion, runner-up, then by the round they went out; then the swiss order.
    final_rows = page.locator("h2:has-text('Final standings') + .table-wrap tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [parseInt(r.cells[0].textContent), r.cells[1].textContent.trim()])")
    out_order = [champion, results[RESET][1], results[5][1], results[4][1]]  # out in rounds 5, 3, 2
    assert [name for _, name in final_rows[:4]] == out_order
    assert {name for _, name in final_rows[:4]} == set(top4)
    assert [rank for rank, _ in final_rows] == list(range(1, PLAYERS + 1))
    assert [name for _, name in final_rows[4:]] == [n for n in _swiss_order(page, event.id) if n not in top4]

    # NRTM JSON from the download button.
    page.goto(f"/tournaments/{event.id}/cut")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download NRTM JSON").click()
    assert info.value.suggested_filename.endswith(".json")
    nrtm = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    check_nrtm(nrtm, swiss_points, top4, champion)

    # A phone shows the bracket, linked from the event's public home.
    phone.goto(f"/t/{event.slug}")
    phone.locator("nav.tabs").get_by_role("link", name="Top cut").click()
    expect(phone.get_by_text(f"Champion: {champion}")).to_be_visible()
    expect(phone.locator(".cut-game")).to_have_count(GAMES)
    expect(phone.locator(".cut-game.done")).to_have_count(GAMES)
    expect(phone.locator(f"#game-{RESET}")).to_contain_text("grand-final reset")
    expect(phone.locator(".cut-game button")).to_have_count(0)  # nothing to tap for players
    phone.screenshot(path=str(screenshots / "phone_bracket.png"), full_page=True)
    phone.set_viewport_size({"width": NARROW, "height": 740})
    phone.reload()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW, f"the bracket page is {width} px wide at {NARROW} px"


def _swiss_order(page, tid: int) -> list[str]:
    page.goto(f"/tournaments/{tid}/standings")
    return page.locator("table.standings tbody tr td.name").evaluate_all(
        "(tds) => tds.map((td) => td.firstChild.textContent.trim())")


def check_nrtm(data: dict, swiss_points: dict, top4: list, champion: str) -> None:
    """The fields of docs/domain.md section 9, with numbers that agree with the event."""
    for key in ("name", "date", "cutToTop", "preliminaryRounds", "players", "eliminationPlayers", "rounds",
                "uploadedFrom", "links"):
        assert key in data, f"NRTM JSON lacks {key}"
    assert data["name"] == "Cut Open"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", data["date"])
    assert data["cutToTop"] == 4
    assert data["preliminaryRounds"] == SWISS_ROUNDS
    assert "SASS" in data["uploadedFrom"]

    players = {p["id"]: p for p in data["players"]}
    assert len(players) == PLAYERS
    for p in data["players"]:
        assert {"id", "name", "rank", "corpIdentity", "runnerIdentity", "matchPoints", "strengthOfSchedule",
                "extendedStrengthOfSchedule", "sideBalance"} <= p.keys()
        assert p["matchPoints"] == swiss_points[p["name"]]
    assert sorted(p["rank"] for p in data["players"]) == list(range(1, PLAYERS + 1))
    assert [p["name"] for p in sorted(data["players"], key=lambda p: p["rank"])][:4] == top4

    elimination = sorted(data["eliminationPlayers"], key=lambda p: p["seed"])
    assert [(p["seed"], p["name"]) for p in elimination] == list(enumerate(top4, 1))
    assert sorted(p["rank"] for p in elimination) == [1, 2, 3, 4]
    assert next(p for p in elimination if p["rank"] == 1)["name"] == champion
    for p in elimination:
        assert {"id", "name", "rank", "seed"} <= p.keys() and p["id"] in players

    swiss, cut = data["rounds"][:SWISS_ROUNDS], data["rounds"][SWISS_ROUNDS:]
    for rnd in swiss:
        assert len(rnd) == PLAYERS // 2
        seen = set()
        for game in rnd:
            assert {"table", "player1", "player2", "intentionalDraw", "twoForOne", "eliminationGame"} <= game.keys()
            assert game["eliminationGame"] is False
            p1, p2 = game["player1"], game["player2"]
            assert {p1["role"], p2["role"]} == {"corp", "runner"}
            for p in (p1, p2):
                assert {"id", "role", "corpScore", "runnerScore", "combinedScore"} <= p.keys()
                unused = "runnerScore" if p["role"] == "corp" else "corpScore"
                assert p[unused] is None
                seen.add(p["id"])
        assert seen == players.keys()
    swiss_totals = {pid: 0 for pid in players}
    for rnd in swiss:
        for game in rnd:
            for p in (game["player1"], game["player2"]):
                swiss_totals[p["id"]] += p["combinedScore"]
    assert {players[pid]["name"]: pts for pid, pts in swiss_totals.items()} == swiss_points

    cut_games = [g for rnd in cut for g in rnd]
    assert len(cut_games) == GAMES
    for game in cut_games:
        assert game["eliminationGame"] is True
        p1, p2 = game["player1"], game["player2"]
        assert {p1["role"], p2["role"]} == {"corp", "runner"}
        assert sorted([p1["winner"], p2["winner"]]) == [False, True]
    last = cut_games[-1]
    winner = last["player1"] if last["player1"]["winner"] else last["player2"]
    assert players[winner["id"]]["name"] == champion
