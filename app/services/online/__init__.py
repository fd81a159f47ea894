"""Online events on jinteki.net: each player's jinteki.net username and Discord handle (handles.py), and the
event's one report address, where a player proves who they are with a short code from their registration
(report_codes.py). Whether an event is online is Tournament.online, a setting on the tournament form.
"""
