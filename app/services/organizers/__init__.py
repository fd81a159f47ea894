"""Organizers: their accounts and the staff roles they hold in each event."""
