"""Series (leagues, seasons, circuits): the database glue around app/core/series/.

`manage`: the series, its staff and its events; `people`: who its players are (confirm, reject, undo, the TO's
invitation notes); `standings`: each event's final placings and the standings across them, cached by versions;
`exports`: CSV and JSON; `games`: every game of its events as plain values; `series_ratings`: the series' ratings
from them; `rating_source`: which series an event's seeding by rating answers to.
"""
