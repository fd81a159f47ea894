"""Generate app/core/data/cards.json, SASS's card data, from NetrunnerDB's public card data.

    python -m scripts.cards PATH      (or: make cards SOURCE=PATH)

PATH is a checkout of NetrunnerDB/netrunner-cards-json, or a bare clone of it (read at HEAD with `git show`). The
output holds, for every card, what SASS and decklists need (title, side, type, faction, influence cost, deck
limit, agenda points, an identity's minimum deck size and influence limit, the sets that print it and its
NetrunnerDB codes; for ice and programs their subtypes, which group a list as NetrunnerDB shows it), every faction under both spellings of its code (the v2 data's `haas_bioroid`, the v1 API's
`haas-bioroid`), the Standard, Startup and Eternal formats with their card pools and restriction lists and their
dated snapshots (which pool and list were in force from when), and the date of the source commit. Rules text, flavour and artwork are left out. The same source always gives the same
file (keys sorted, one card a line).

Cards released after the source's data (app/core/data/cards_supplement.json: the Vantage Point set) are merged in
as long as the source lacks them: a card whose NetrunnerDB code the source has comes from the source, so a
refresh after NetrunnerDB adds the set takes NetrunnerDB's data and the supplement's rows fall away by themselves.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "app" / "core" / "data"
OUT = DATA / "cards.json"
SUPPLEMENT = DATA / "cards_supplement.json"  # cards NetrunnerDB's data does not have yet (merge_supplement)
FORMATS = ("standard", "startup", "eternal")
# card fields kept, renamed: v2 name -> cards.json name
FIELDS = {"title": "title", "side_id": "side", "card_type_id": "type", "faction_id": "faction",
          "influence_cost": "influence", "deck_limit": "limit", "agenda_points": "agenda_points",
          "minimum_deck_size": "min_deck", "influence_limit": "influence_limit", "is_unique": "unique"}
SUBTYPED = ("ice", "program")  # the types whose subtypes are kept (barrier, code gate, sentry; icebreaker)


def subtype_id(name: str) -> str:
    """A subtype as NetrunnerDB's v2 data names it: "Code Gate" is `code_gate`."""
    return name.strip().lower().replace(" ", "_").replace("-", "_")


class Source:
    """The card data at PATH: a working tree, or a git repository read at HEAD."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.tree = (self.path / "v2").is_dir()
        if not self.tree and not self._git("rev-parse", "--git-dir", check=False):
            sys.exit(f"{path} is neither a checkout nor a git repository of netrunner-cards-json")

    def _git(self, *args, check=True) -> str:
        done = subprocess.run(["git", "-C", str(self.path), *args], capture_output=True, text=True, check=False)
        if check and done.returncode:
            sys.exit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout if not done.returncode else ""

    def files(self, folder: str) -> list[str]:
        if self.tree:
            return sorted(str(p.relative_to(self.path)) for p in (self.path / folder).rglob("*.json"))
        return sorted(self._git("ls-tree", "-r", "--name-only", "HEAD", folder).split())

    def read(self, name: str):
        text = (self.path / name).read_text(encoding="utf-8") if self.tree else self._git("show", f"HEAD:{name}")
        return json.loads(text)

    def commit(self) -> tuple[str, str]:
        """(commit id, commit date YYYY-MM-DD); ("", "") for a working tree that is not a git checkout."""
        out = self._git("log", "-1", "--format=%H %cI", check=False).split()
        return (out[0], out[1][:10]) if out else ("", "")


def merge_supplement(supplement: dict, sets: dict, cards: dict, formats: dict, pools: dict) -> list[str]:
    """Add the supplement's cards the source lacks (by NetrunnerDB code), their sets, and those sets to the current
    card pool of the supplement's formats (the newest set is in Standard and Startup, and in Eternal). Returns the
    names of the sets that brought cards (shown beside the data's date), [] once the source has them all."""
    known = {code for c in cards.values() for code in c["codes"]}
    added_sets = set()
    for cid, c in supplement["cards"].items():
        if known.intersection(c["codes"]) or cid in cards:
            continue
        cards[cid] = {new: c[new] for new in FIELDS.values() if c.get(new) is not None}
        if c["type"] in SUBTYPED and c.get("subtypes"):
            cards[cid]["subtypes"] = [subtype_id(name) for name in c["subtypes"]]
        cards[cid]["sets"], cards[cid]["codes"] = sorted(c["sets"]), sorted(c["codes"])
        added_sets.update(c["sets"])
    for sid in sorted(added_sets):
        if sid in sets:
            continue  # the source has the set (not yet all its cards): its pools stand
        sets[sid] = supplement["sets"][sid]
        for fid in supplement["formats"]:
            pool = pools[formats[fid]["pool"]]
            pool["sets"] = sorted(set(pool["sets"]) | {sid})
    return sorted(sets[sid]["name"] for sid in added_sets)


def build(source: Source, supplement: dict | None = None) -> dict:
    factions = {}
    v2_of_v1 = {f["code"]: f for f in source.read("factions.json")}
    for f in source.read("v2/factions.json"):
        v1 = next((code for code in v2_of_v1 if code.replace("-", "_") == f["id"]), f["id"])
        factions[f["id"]] = {"name": f["name"], "side": f["side_id"], "mini": bool(f.get("is_mini")), "v1": v1}

    sets = {s["id"]: {"name": s["name"], "date": s.get("date_release"), "cycle": s["card_cycle_id"]}
            for s in source.read("v2/card_sets.json")}
    printed: dict[str, set] = {}
    codes: dict[str, set] = {}
    for name in source.files("v2/printings"):
        for p in source.read(name):
            printed.setdefault(p["card_id"], set()).add(p["card_set_id"])
            codes.setdefault(p["card_id"], set()).add(p["id"])

    cards = {}
    for name in source.files("v2/cards"):
        c = source.read(name)
        row = {new: c[old] for old, new in FIELDS.items() if c.get(old) is not None}
        if c["card_type_id"] in SUBTYPED and c.get("subtypes"):
            row["subtypes"] = list(c["subtypes"])
        row["sets"] = sorted(printed.get(c["id"], ()))
        row["codes"] = sorted(codes.get(c["id"], ()))
        cards[c["id"]] = row

    formats, pools, restrictions = {}, {}, {}
    for fid in FORMATS:
        f = source.read(f"v2/formats/{fid}.json")
        snapshots = f["snapshots"]
        active = next((s for s in snapshots if s.get("active")), snapshots[-1])
        formats[fid] = {"name": f["name"], "pool": active["card_pool_id"],
                        "restriction": active.get("restriction_id"), "since": active["date_start"],
                        "pools": list(dict.fromkeys(s["card_pool_id"] for s in snapshots)),
                        "restrictions": list(dict.fromkeys(s["restriction_id"] for s in snapshots
                                                           if s.get("restriction_id"))),
                        # as NetrunnerDB dates them (its typos included: app/core/cards.py reads them)
                        "snapshots": [{"date_start": s["date_start"], "pool": s["card_pool_id"],
                                       "restriction": s.get("restriction_id")} for s in snapshots]}
        for pool in source.read(f"v2/card_pools/{fid}.json"):
            pools[pool["id"]] = {"name": pool["name"], "format": fid, "sets": sorted(pool["card_set_ids"])}
        for name in source.files(f"v2/restrictions/{fid}"):
            r = source.read(name)
            restrictions[r["id"]] = {k: v for k, v in r.items() if k != "id"}

    commit, day = source.commit()
    added = merge_supplement(supplement, sets, cards, formats, pools) if supplement else []
    return {"_comment": "Generated by scripts/cards.py from NetrunnerDB/netrunner-cards-json; do not edit, run "
                        "`make cards SOURCE=<checkout>` again (docs/development.md).",
            "source": {"repository": "NetrunnerDB/netrunner-cards-json", "commit": commit, "date": day,
                       "supplement": added},
            "factions": factions, "sets": sets, "formats": formats, "pools": pools,
            "restrictions": restrictions, "cards": cards}


def dump(data: dict) -> str:
    """Sorted keys; one line per card, set, pool and restriction list: small, and a refresh reads as a short diff."""
    def compact(value) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    lines = ["{"]
    keys = sorted(data)
    for i, key in enumerate(keys):
        value = data[key]
        end = "," if i < len(keys) - 1 else ""
        if isinstance(value, dict) and key not in ("source",):
            lines.append(f"{compact(key)}:{{")
            inner = sorted(value)
            lines += [f"{compact(k)}:{compact(value[k])}{',' if j < len(inner) - 1 else ''}"
                      for j, k in enumerate(inner)]
            lines.append("}" + end)
        else:
            lines.append(f"{compact(key)}:{compact(value)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="a checkout or bare clone of NetrunnerDB/netrunner-cards-json")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--supplement", default=str(SUPPLEMENT),
                        help="cards the source lacks, merged in ('' for none)")
    args = parser.parse_args(argv)
    supplement = json.loads(Path(args.supplement).read_text(encoding="utf-8")) if args.supplement else None
    data = build(Source(args.source), supplement)
    text = dump(data)
    Path(args.out).write_text(text, encoding="utf-8")
    identities = sum(c["type"].endswith("identity") for c in data["cards"].values())
    plus = "".join(f" plus {name}" for name in data["source"]["supplement"])
    print(f"{args.out}: {len(data['cards'])} cards, {identities} identities, data of {data['source']['date']}{plus}, "
          f"{len(text.encode()) // 1024} KiB")


if __name__ == "__main__":
    main()
