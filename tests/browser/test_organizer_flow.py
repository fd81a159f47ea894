"""An organizer runs a 12-player single-sided event in the browser, from sign-up to the two CSV exports.

The test keeps its own tally of every result it taps (points from the format's Scoring) and checks the
standings page and both CSV files against it.
"""
from __future__ import annotations

import csv
import re
from collections import defaultdict

from playwright.sync_api import expect

from app.core.pairing import Format

SCORING = Format.SINGLE_SIDED.scoring
LABELS = {"corp": "Corp win", "runner": "Runner win", "tie": "Tie", "id": "Intentional draw"}
KEYS = list(LABELS)
ROUNDS = 4
DROP_AFTER = 2  # the dropped player plays rounds 1 and 2


class Tally:
    """What the standings must say, built only from the results the test reported."""

    def __init__(self, names):
        self.stats = {n: defaultdict(int) for n in names}
        self.games: dict[tuple[int, int], dict] = {}  # (round, table) -> {"corp": name, "runner": name, "key": key}

    def bye(self, rnd: int, table: int, name: str) -> None:
        self.games[(rnd, table)] = {"bye": name}

    def game(self, rnd: int, table: int, corp: str, runner: str, key: str) -> None:
        self.games[(rnd, table)] = {"corp": corp, "runner": runner, "key": key}

    def points(self, rnd: int, table: int) -> dict[str, int]:
        g = self.games[(rnd, table)]
        if "bye" in g:
            return {g["bye"]: SCORING.bye}
        corp, runner = {"corp": (SCORING.win, SCORING.loss), "runner": (SCORING.loss, SCORING.win),
                        "tie": (SCORING.tie, SCORING.tie), "id": (SCORING.tie, SCORING.tie)}[g["key"]]
        return {g["corp"]: corp, g["runner"]: runner}

    def totals(self) -> dict[str, dict]:
        out = {n: {"points": 0, "wins": 0, "losses": 0, "ties": 0, "games": 0, "corp": 0, "runner": 0}
               for n in self.stats}
        for (rnd, table), g in self.games.items():
            if "bye" in g:
                out[g["bye"]]["points"] += SCORING.bye
                out[g["bye"]]["wins"] += 1
                continue
            for name, pts in self.points(rnd, table).items():
                o = out[name]
                o["points"] += pts
                o["games"] += 1
                o["corp" if name == g["corp"] else "runner"] += 1
                o["wins" if pts == SCORING.win else "losses" if pts == SCORING.loss else "ties"] += 1
        return out


def key_for(rnd: int, table: int) -> str:
    """Every button gets used: corp win, runner win, tie, intentional draw in turn."""
    return KEYS[(rnd + table) % len(KEYS)]


def report_round(page, rnd: int, tally: Tally) -> None:
    """On the round page: read each table's row, tap its result button and wait for the row to show it."""
    for row_id in page.locator("li.match").evaluate_all("(els) => els.map((e) => e.id)"):
        card = page.locator(f"#{row_id}")
        table = int(card.locator(".tno").inner_text())
        if "bye" in (card.get_attribute("class") or "").split():
            tally.bye(rnd, table, card.locator(".seat-1 .name").inner_text())
            expect(card.locator(".result")).to_have_text("Bye")
            continue
        expect(card.locator(".seat-1 .side")).to_have_text("Corp")
        expect(card.locator(".seat-2 .side")).to_have_text("Runner")
        corp, runner = card.locator(".seat-1 .name").inner_text(), card.locator(".seat-2 .name").inner_text()
        key = key_for(rnd, table)
        tally.game(rnd, table, corp, runner, key)
        card.get_by_role("button", name=LABELS[key], exact=True).click()
        expect(page.locator(f"#{row_id} .result")).to_have_text(LABELS[key])
        expect(page.locator(f"#{row_id} button[aria-pressed=true]")).to_have_text(LABELS[key])
    expect(page.get_by_text("All results are in.")).to_be_visible()


def standings_on_page(page) -> list[tuple[int, str, int, bool]]:
    """(rank, name, points, dropped) of each row of the standings table."""
    return page.locator("table.standings tbody tr").evaluate_all("""(rows) => rows.map((r) => [
        parseInt(r.querySelector('td.rank').textContent),
        r.querySelector('td.name').firstChild.textContent.trim(),
        parseInt(r.querySelector('td[data-label=Points]').textContent),
        r.classList.contains('dropped')])""")


def download_csv(page, link: str, suffix: str) -> list[dict]:
    with page.expect_download() as info:
        page.get_by_role("link", name=link).first.click()
    download = info.value
    assert download.suggested_filename == f"Browser-Open-{suffix}.csv"
    with open(download.path(), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def cell_name(name: str) -> str:
    """How a name reads in the CSV: formula-like text is escaped with a leading apostrophe."""
    return "'" + name if name[:1] in "=+-@" else name


def test_organizer_runs_an_event(page, unique, roster, players_csv, screenshots):
    names = [name for name, _, _ in roster]
    assert len(names) == 12
    tally = Tally(names)

    # Sign up and create the event.
    page.goto("/signup")
    page.get_by_label("Email").fill(f"browser-{unique}@example.com")
    page.get_by_label("Password", exact=True).fill("a long enough password")
    page.get_by_label("Repeat password").fill("a long enough password")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("Welcome!")).to_be_visible()
    page.get_by_role("link", name="Create your first tournament").click()
    page.get_by_label("Name", exact=True).fill("Browser Open")
    page.get_by_label("Format").select_option("single")
    page.get_by_label("Planned swiss rounds").fill(str(ROUNDS))
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Browser Open")).to_be_visible()
    tid = int(re.search(r"/tournaments/(\d+)$", page.url).group(1))

    # Import the players from the CSV file.
    page.get_by_role("link", name="Import CSV").first.click()
    page.get_by_label("CSV file").set_input_files(str(players_csv))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported 12 players.")).to_be_visible()
    for name in names:
        expect(page.locator("table.players").get_by_role("link", name=name, exact=True)).to_be_visible()

    # Pair, publish and report four rounds; drop a player after round 2.
    page.goto(f"/tournaments/{tid}")
    page.get_by_role("link", name="Rounds", exact=True).click()
    dropped = None
    for rnd in range(1, ROUNDS + 1):
        if rnd == 1:
            page.get_by_role("button", name="Pair round 1").click()
        else:
            page.goto(f"/tournaments/{tid}/rounds/{rnd - 1}")
            page.get_by_role("button", name=f"Pair round {rnd}").click()
        expect(page.get_by_role("heading", name=f"Round {rnd}")).to_be_visible()
        page.get_by_role("button", name=f"Publish round {rnd}").click()
        expect(page.get_by_text(f"Round {rnd} is published")).to_be_visible()
        report_round(page, rnd, tally)
        if rnd == 1:
            page.screenshot(path=str(screenshots / "organizer_round1.png"), full_page=True)
        if rnd == DROP_AFTER:
            dropped = names[3]
            page.goto(f"/tournaments/{tid}/players")
            page.locator("tr", has_text=dropped).get_by_role("button", name="Drop").click()
            expect(page.get_by_text(f"Dropped {dropped}")).to_be_visible()
            expect(page.locator("tr.dropped", has_text=dropped)).to_be_visible()

    # The dropped player is not paired again; 11 players means one bye in each later round.
    later = [g for (rnd, _), g in tally.games.items() if rnd > DROP_AFTER]
    assert all(dropped not in g.values() for g in later)
    assert sum("bye" in g for g in later) == ROUNDS - DROP_AFTER

    # Correct a past result: round 1 is read-only until "Edit results" (confirmed); then the first table with a
    # game gets the opposite winner.
    page.goto(f"/tournaments/{tid}/rounds/1")
    table, game = min((t, g) for (r, t), g in tally.games.items() if r == 1 and "bye" not in g)
    new_key = "runner" if game["key"] == "corp" else "corp"
    card = page.locator(f"#t{table}")
    expect(card.get_by_role("button", name=LABELS[new_key], exact=True)).to_have_count(0)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Edit results").click()
    card.get_by_role("button", name=LABELS[new_key], exact=True).click()
    expect(card.locator(".result")).to_have_text(LABELS[new_key])
    tally.game(1, table, game["corp"], game["runner"], new_key)

    # The standings page follows at once and agrees with the tally.
    expected = tally.totals()
    page.goto(f"/tournaments/{tid}/standings")
    rows = standings_on_page(page)
    assert sorted(r[1] for r in rows) == sorted(names)
    assert {name: pts for _, name, pts, _ in rows} == {n: e["points"] for n, e in expected.items()}
    assert [r[1] for r in rows if r[3]] == [dropped]
    ranks = [r[0] for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)
    page.screenshot(path=str(screenshots / "organizer_standings.png"), full_page=True)

    # Standings CSV: the same ranks and points, records and sides from the tally.
    standings = download_csv(page, "Standings CSV", "standings")
    page_rank = {name: rank for rank, name, _, _ in rows}
    assert [r["name"] for r in standings] == [cell_name(r[1]) for r in rows]
    assert sum(int(r["points"]) for r in standings) == sum(e["points"] for e in expected.values())
    for row, (rank, name, points, is_dropped) in zip(standings, rows, strict=True):
        e = expected[name]
        assert int(row["rank"]) == page_rank[name] == rank
        assert int(row["points"]) == points == e["points"]
        assert (int(row["wins"]), int(row["losses"]), int(row["ties"])) == (e["wins"], e["losses"], e["ties"])
        assert row["record (W-L-T)"] == f"{e['wins']}-{e['losses']}-{e['ties']}"
        assert (int(row["corp games"]), int(row["runner games"])) == (e["corp"], e["runner"])
        assert row["dropped"] == ("yes" if is_dropped else "")
    assert cell_name("@Zoe Formula") == "'@Zoe Formula" and "'@Zoe Formula" in [r["name"] for r in standings]

    # Games CSV: one line per table of every round, matching what was reported.
    games = download_csv(page, "Games CSV", "games")
    assert len(games) == len(tally.games)
    from_csv = defaultdict(int)
    played = defaultdict(int)
    for row in games:
        rnd, table = int(row["round"]), int(row["table"])
        g = tally.games[(rnd, table)]
        want = tally.points(rnd, table)
        if "bye" in g:
            assert (row["player 1"], row["player 2"], int(row["player 1 points"])) == \
                (cell_name(g["bye"]), "BYE", SCORING.bye)
        else:
            seats = {row["player 1 side"]: (row["player 1"], int(row["player 1 points"])),
                     row["player 2 side"]: (row["player 2"], int(row["player 2 points"]))}
            assert seats == {"corp": (cell_name(g["corp"]), want[g["corp"]]),
                             "runner": (cell_name(g["runner"]), want[g["runner"]])}
            assert row["result"] == LABELS[g["key"]]
            for name in (g["corp"], g["runner"]):
                played[name] += 1
        for seat in ("player 1", "player 2"):
            if row[f"{seat} points"]:
                from_csv[row[seat]] += int(row[f"{seat} points"])
    assert dict(played) == {n: e["games"] for n, e in expected.items() if e["games"]}
    assert played[dropped] == DROP_AFTER
    assert dict(from_csv) == {r["name"]: int(r["points"]) for r in standings}
