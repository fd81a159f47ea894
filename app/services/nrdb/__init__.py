"""NetrunnerDB: players' accounts, their history, and decks fetched from it."""
