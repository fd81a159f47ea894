"""Read a player list from CSV: name, corp identity, runner identity, pronouns, jinteki.net username, Discord (all
but the name optional; the last two kept for an online event); a header row is optional.

All or nothing: parse_players returns either rows to insert or the errors of every bad row, never both.
"""
from __future__ import annotations

import csv
import io
import re
from itertools import pairwise
from dataclasses import dataclass, field
from typing import Iterable

from ...models import Player, max_length
from ...core.identities import faction
from ...core.names import name_key

NAME_MAX = max_length(Player.name)
PRONOUNS_MAX = max_length(Player.pronouns)
HANDLE_MAX = max_length(Player.jinteki_name)
COLUMNS = ("name", "corp identity", "runner identity", "pronouns")
ONLINE_COLUMNS = COLUMNS + ("jinteki.net username", "discord handle")  # an online event's (app/services/online/)
MAX_ROWS = 20_000
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
HEADER_NAMES = {"name", "player", "player name", "players", "nom", "spieler"}


@dataclass(frozen=True)
class Row:
    line: int
    name: str
    corp_identity: str = ""
    runner_identity: str = ""
    pronouns: str = ""
    jinteki_name: str = ""
    discord: str = ""


@dataclass
class ImportResult:
    rows: list[Row] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "Row 4: ...", in row order


class UnreadableFile(ValueError):
    """The whole input is unusable (not text, not CSV); nothing row-specific to report."""


def decode(data: bytes) -> str:
    """UTF-8 (with or without the BOM Excel writes); anything else is refused, not guessed."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnreadableFile("The file is not UTF-8 text. Save it as “CSV UTF-8” and try again.") from None


def parse_players(text: str, existing: Iterable[str] = (), online: bool = False) -> ImportResult:
    """Rows to add, or every row's problem: empty or too long fields, names repeated in the file or already
    entered (compared by app.core.names.name_key: case, accents and spacing ignored)."""
    if "\x00" in text:
        raise UnreadableFile("The file contains NUL bytes; it is not a text CSV file.")
    taken = {name_key(name) for name in existing}
    seen: dict[str, int] = {}
    result = ImportResult()
    try:
        records = list(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline="")))
    except csv.Error as e:
        raise UnreadableFile(f"The file is not valid CSV: {e}.") from None
    for index, record in enumerate(records, start=1):
        cells = [cell.strip() for cell in record]
        while cells and not cells[-1]:
            cells.pop()  # spreadsheets add trailing empty columns
        if not cells:
            continue  # blank lines are harmless
        if index == 1 and cells[0].casefold() in HEADER_NAMES:
            continue
        columns = ONLINE_COLUMNS if online else COLUMNS
        problems = _problems(cells, columns)
        name = cells[0] if cells else ""
        key = name_key(name)
        if name and not problems:
            if key in taken:
                problems.append(f"“{name}” is already a player in this tournament")
            elif key in seen:
                problems.append(f"“{name}” is also on row {seen[key]}")
        seen.setdefault(key, index)
        if problems:
            result.errors.append(f"Row {index}: " + "; ".join(problems) + ".")
        else:
            cells += [""] * (len(columns) - len(cells))
            result.rows.append(Row(index, *cells[:len(columns)]))
    if len(result.rows) + len(result.errors) > MAX_ROWS:
        result.errors.insert(0, f"At most {MAX_ROWS:,} players can be imported at once.")
    if not result.rows and not result.errors:
        result.errors.append("The list is empty: give one player a line (name, corp identity, runner identity).")
    if result.errors:
        result.rows = []
    return result


def _split_by_a_comma(cells: list[str]) -> str | None:
    """A known identity whose name holds a comma ("SYNC: Everything, Everywhere") that an unquoted row split into
    two fields; None if there is none."""
    for first, second in pairwise(cells[1:]):
        joined = f"{first}, {second}"
        if faction(joined) is not None:
            return joined
    return None


def _problems(cells: list[str], columns: tuple[str, ...] = COLUMNS) -> list[str]:
    split = _split_by_a_comma(cells) if len(cells) > 3 else None
    if split is not None:  # the fields after it are shifted: their own checks would only mislead
        return [f"the row has {len(cells)} fields because “{split}” holds a comma: put it in double quotes, "
                f"\"{split}\" (a spreadsheet saving as CSV does this by itself)"]
    problems = []
    if len(cells) > len(columns):
        problems.append(f"the row has {len(cells)} fields; expected at most {len(columns)} ({', '.join(columns)}): "
                        "a name or identity holding a comma must be in double quotes")
    if not cells[0]:
        problems.append("the name is empty")
    for label, cell in zip(columns, cells, strict=False):
        longest = PRONOUNS_MAX if label == "pronouns" else HANDLE_MAX if label in ONLINE_COLUMNS[4:] else NAME_MAX
        if len(cell) > longest:
            problems.append(f"the {label} {'are' if label == 'pronouns' else 'is'} longer than {longest} characters"
                            + (" (if an identity holds a comma, put it in double quotes: it split the row)"
                               if label == "pronouns" else ""))
        if CONTROL.search(cell):
            problems.append(f"the {label} contains control characters")
    return problems
