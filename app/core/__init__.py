"""The pure core: the rules of swiss play (pairing, results, standings, brackets, the clock, names, round checks).

No Flask and no SQL here: every module takes plain values and returns plain values, so the rules are tested alone
and the services and web layers above only load, store and show them (tests/test_layers.py holds the line)."""
