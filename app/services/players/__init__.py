"""An event's players: their names, secret links and own page, self-registration, the CSV player list."""
