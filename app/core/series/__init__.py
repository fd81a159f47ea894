"""A series (league, season or circuit): how its events' placings add up (docs/domain.md 14).

`points`: the points table, tiers and an event's points; `standings`: best N, the ranks; `tie_breaks`: each
tie-break, named, worded and computed in one entry; `invitations`: who is invited, and how an invitation passes
down. Pure: placings in, plain values out.
"""
from .invitations import Invitation, invitations
from .points import Band, PointsError, Rules, event_points, format_table, format_tiers, parse_table, parse_tiers
from .standings import EventResult, Row, Score, counted, standings
from .tie_breaks import TIE_BREAKS, TieBreak, UnknownTieBreak

__all__ = ["Band", "EventResult", "Invitation", "PointsError", "Row", "Rules", "Score", "TIE_BREAKS", "TieBreak",
           "UnknownTieBreak", "counted", "event_points", "format_table", "format_tiers", "invitations", "parse_table",
           "parse_tiers", "standings"]
