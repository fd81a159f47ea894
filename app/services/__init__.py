"""Services: the glue between the database and the pure core (pairing, standings, brackets)."""
