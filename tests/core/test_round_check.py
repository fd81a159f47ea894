"""The pure round checker (app/core/round_check.py): the rules a round breaks, and a one-click fix for each."""
from __future__ import annotations

from app.core import round_check
from app.core.pairing import Entrant, Format, Game, Side


def texts(warnings) -> list[str]:
    return [w.text for w in warnings]


def test_check_round_rules_per_format():
    ann, ben, cat = (Entrant(i, n) for i, n in enumerate(["Ann", "Ben", "Cat"], 1))
    games = [Game(1, 1, 2, 3, 0, player_side=Side.CORP), Game(1, 3, None, 3)]
    assert texts(round_check.check_round(Format.SINGLE_SIDED, 2, [ann, ben, cat], games, [(1, [2, 1]), (2, [3])])) \
        == ["Table 2: Cat would get a second bye."]
    twice = games + [Game(2, 2, 1, 3, 0, player_side=Side.CORP)]
    assert "meet a third time" in str(round_check.check_round(Format.SINGLE_SIDED, 3, [ann, ben], twice, [(1, [1, 2])])[0])
    plain = [Game(1, 1, 2, 3, 0, player_games=2)]
    assert texts(round_check.check_round(Format.PLAIN, 2, [ann, ben], plain, [(1, [1, 2])])) \
        == ["Table 1: Ann and Ben have played each other already."]
    dropped = Entrant(4, "Dee", dropped=True)
    warnings = round_check.check_round(Format.PLAIN, 1, [ann, ben, cat, dropped], [], [(1, [1, 4])])
    assert texts(warnings) == ["Table 1: Dee has dropped.", "Not paired this round: Ben, Cat."]
    first_round = [Entrant(1, "Ann", first_round_bye=True), Entrant(2, "Ben", first_round_bye=True)]
    assert round_check.check_round(Format.PLAIN, 1, first_round, [], [(1, [1]), (2, [2])]) == []


def test_check_round_names_the_unasked_bye_only_when_requests_caused_it():
    ann = Entrant(1, "Ann", first_round_bye=True)
    ben, cat, dee = (Entrant(i, n) for i, n in ((2, "Ben"), (3, "Cat"), (4, "Dee")))
    warnings = round_check.check_round(Format.SINGLE_SIDED, 1, [ann, ben, cat, dee], [], [(1, [2, 3]), (2, [1]), (3, [4])])
    assert [w.text for w in warnings] == ["Dee has a bye nobody asked for: the 1 requested bye left an odd number of players to pair. "
                                          "Allowed, but check that it is what you want."]
    # an odd field without requests: its one bye is the usual one
    assert round_check.check_round(Format.SINGLE_SIDED, 1, [ben, cat, dee], [], [(1, [2, 3]), (2, [4])]) == []


def test_fixes_are_found_and_clean():
    """The pure checker: each fix clears its table and breaks nothing at the tables it touches."""
    people = [Entrant(i, n) for i, n in enumerate(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], 1)]
    # Round 1: Ann (Corp) beat Ben; Cat v Dan; Eve v Fay.
    games = [Game(1, 1, 2, 3, 0, player_side=Side.CORP), Game(1, 3, 4, 3, 0, player_side=Side.CORP),
             Game(1, 5, 6, 3, 0, player_side=Side.CORP)]
    check = round_check.RoundCheck(Format.SINGLE_SIDED, 2, people, games)
    # Ann Corp again against Ben: the same sides in a rematch, and Ann Corp +2; swapping sides fixes both.
    tables = [(1, [1, 2]), (2, [4, 3]), (3, [6, 5])]
    warnings = check.with_fixes(tables, check.round(tables))
    assert {w.kind for w in warnings} >= {"same_sides", "side_bias"}
    assert {w.fix for w in warnings} == {round_check.Fix("Swap sides at table 1", "sides", 1)}
    # Double-sided: a rematch at table 1 is fixed by a swap with table 2, and the result is clean.
    check = round_check.RoundCheck(Format.DOUBLE_SIDED, 2, people, [Game(1, 1, 2, 6, 0), Game(1, 3, 4, 6, 0),
                                                                Game(1, 5, 6, 6, 0)])
    tables = [(1, [1, 2]), (2, [3, 5]), (3, [4, 6])]
    (w,) = check.with_fixes(tables, check.round(tables))
    assert w.fix.action == "swap"
    seats = {table: list(ps) for table, ps in tables}
    where = {p: table for table, ps in seats.items() for p in ps}
    ta, tb = where[w.fix.first], where[w.fix.second]
    ia, ib = seats[ta].index(w.fix.first), seats[tb].index(w.fix.second)
    seats[ta][ia], seats[tb][ib] = w.fix.second, w.fix.first
    assert check.round(list(seats.items())) == []
    # Two extra byes: pairing them is the fix.
    check = round_check.RoundCheck(Format.PLAIN, 2, people[:4], [Game(1, 1, 2, 3, 0), Game(1, 3, 4, 3, 0)])
    tables = [(1, [1, 3]), (2, [2]), (3, [4])]
    (w,) = check.with_fixes(tables, check.round(tables))
    assert w.kind == "byes" and w.fix == round_check.Fix("Pair Ben with Dan", "join", 2, 4)
    # A dropped player paired: out, and the opponent plays the lone bye player, else takes the bye.
    gil = Entrant(7, "Gil", dropped=True)
    check = round_check.RoundCheck(Format.PLAIN, 1, people[:4] + [gil], [])
    tables = [(1, [1, 7]), (2, [2, 3]), (3, [4])]
    (w,) = check.with_fixes(tables, check.round(tables))
    assert w.kind == "dropped" and w.fix == round_check.Fix("Take Gil out; Ann plays Dan (table 3)", "remove", 7, 4)
    assert check.round([(1, [1, 4]), (2, [2, 3])]) == []
    check = round_check.RoundCheck(Format.PLAIN, 1, people[:3] + [gil], [])
    tables = [(1, [1, 7]), (2, [2, 3])]
    (w,) = check.with_fixes(tables, check.round(tables))
    assert w.fix == round_check.Fix("Take Gil out; Ann gets the bye", "remove", 7)
    # ... but never into a rematch, nor a second bye beside another: then it is the TO's call.
    check = round_check.RoundCheck(Format.PLAIN, 2, people[:4] + [gil], [Game(1, 1, 4, 3, 0), Game(1, 2, 3, 3, 0)])
    tables = [(1, [1, 7]), (2, [2, 3]), (3, [4])]
    assert [w.fix for w in check.with_fixes(tables, check.round(tables))
            if w.kind == "dropped"] == [None]
    # A dropped player with the bye just leaves.
    tables = [(1, [1, 2]), (2, [3, 4]), (3, [7])]
    (w,) = check.with_fixes(tables, check.round(tables))
    assert w.fix == round_check.Fix("Take Gil out of this round", "remove", 7)
    # A player left out: paired with the lone bye player when clean, else given a bye when clean.
    check = round_check.RoundCheck(Format.SINGLE_SIDED, 1, people[:4], [])
    (w,) = check.with_fixes([(1, [1, 2]), (2, [3])], check.round([(1, [1, 2]), (2, [3])]))
    assert w.kind == "missing" and w.fix == round_check.Fix("Pair Dan with Cat (table 2)", "add", 4, 3)
    assert check.round([(1, [1, 2]), (2, [3, 4])]) == []
    check = round_check.RoundCheck(Format.PLAIN, 2, people[:5], [Game(1, 1, 2, 3, 0), Game(1, 3, 4, 3, 0),
                                                             Game(1, 5, None, 3)])
    (w,) = check.with_fixes([(1, [1, 3]), (2, [2, 4])], check.round([(1, [1, 3]), (2, [2, 4])]))
    assert w.fix is None  # Eve had her bye in round 1
    check = round_check.RoundCheck(Format.PLAIN, 2, people[:5], games[:2])
    (w,) = check.with_fixes([(1, [1, 3]), (2, [2, 4])], check.round([(1, [1, 3]), (2, [2, 4])]))
    assert w.fix == round_check.Fix("Add Eve with a bye", "add", 5)
