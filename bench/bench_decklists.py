"""Decklist benchmark: median time to read and judge one pasted list (app.core.decklists.check), over many lists.

`python -m bench.bench_decklists` builds random lists from the card data (a legal-looking identity, 40-50 cards of
its side from the format's pool, 1-3 copies each, one shape of "3x Card" / "3 Card" / "Card x3" per list, a
NetrunnerDB header and summary now and then, a typo in one list of five so "did you mean" runs too) and prints a
markdown table: the median and 95th percentile per list, legal and with typos apart, for Standard and Eternal, and
the largest paste SASS accepts (1,000 lines) once.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.core import cards  # noqa: E402
from app.core import decklists  # noqa: E402
from app.core.decklist_text import MAX_LINES  # noqa: E402

SHAPES = ("{n}x {t}", "{n} {t}", "{t} x{n}")


def random_list(rnd: random.Random, rule: decklists.Rules, side: str, typo: bool) -> str:
    pool = [(cid, c) for cid, c in sorted(cards.data()["cards"].items())
            if c["side"] == side and not rule.pool_sets.isdisjoint(c["sets"])]
    ids = [c for _, c in pool if c["type"] in cards.IDENTITY_TYPES]
    others = [c for _, c in pool if c["type"] not in cards.IDENTITY_TYPES]
    identity = rnd.choice(ids)
    shape = rnd.choice(SHAPES)
    lines = [identity["title"]] if rnd.random() < 0.5 else [f"Identity: {identity['title']}"]
    size, target = 0, rnd.randint(40, 50)
    while size < target:
        c = rnd.choice(others)
        n = rnd.randint(1, 3)
        lines.append(shape.format(n=n, t=c["title"]))
        size += n
    if typo:
        i = rnd.randrange(1, len(lines))
        lines[i] = lines[i][:-2] + lines[i][-1]  # one letter gone
    if rnd.random() < 0.3:
        lines[1:1] = ["", "Agenda (9)"]
        lines += ["", "15 influence spent (max 15)", f"{size} cards (min 45)", "Cards up to Elevation"]
    return "\n".join(lines)


def timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lists", type=int, default=2_000, help="lists per format (default 2,000)")
    args = parser.parse_args(argv)
    rnd = random.Random("decklists")
    rows = []
    for format_id in ("standard", "eternal"):
        rule = decklists.rules(format_id)
        decklists.check("Identity: x", "corp", rule)  # the name index, built once per process
        clean, typos = [], []
        for i in range(args.lists):
            typo = i % 5 == 0
            side = ("corp", "runner")[i % 2]
            text = random_list(rnd, rule, side, typo)
            (typos if typo else clean).append(timed(decklists.check, text, side, rule) * 1000)
        for label, times in (("no typo", clean), ("one typo (did you mean)", typos)):
            times.sort()
            rows.append((format_id, label, len(times), statistics.median(times), times[int(len(times) * 0.95)]))
    rule = decklists.rules("standard")
    biggest = "\n".join(f"1x {c['title']}" for c in list(cards.data()["cards"].values())[:MAX_LINES])
    largest = statistics.median(timed(decklists.check, biggest, "corp", rule) * 1000 for _ in range(5))
    print("| format | lists | count | median ms | p95 ms |")
    print("|---|---|---:|---:|---:|")
    for format_id, label, count, median, p95 in rows:
        print(f"| {format_id} | {label} | {count} | {median:.3f} | {p95:.3f} |")
    print(f"\nThe largest paste accepted ({MAX_LINES:,} lines, every one a card): median {largest:.1f} ms.")


if __name__ == "__main__":
    main()
