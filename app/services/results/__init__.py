"""Results in the database: the one result writer, players' reports and drops, slip codes, the standings table."""
