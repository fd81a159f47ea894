"""Database models, one module per concept (`from app.models import X` finds every one). The schema changes only
through migrations in migrations/.

`base.py` holds what every module shares (times, the integer bound, random keys, `max_length`); `versions.py`
marks which models are parts of an event (a change to one bumps its version). The modules imported below first
are the event's own tables; a capability with tables of its own follows.

Composite foreign keys let the database itself refuse a seat, match or cut entry that points at
another tournament's player or round.
"""
from __future__ import annotations

from .base import (MAX_INT, as_utc, max_length, new_session_token, new_slip_key, new_slip_ref, new_slug,  # noqa: F401
                   utcnow)
from .accounts import NrdbAccount, PendingStaff, Staff, User  # noqa: F401
from .tournament import Tournament  # noqa: F401
from .players import Decklist, Player  # noqa: F401
from .rounds import Match, PairingJob, ResultChange, ResultClaim, Round, Seat  # noqa: F401
from .cut import CutEntry, CutResult  # noqa: F401
from .abr import AbrUpload  # noqa: F401
from .judge_calls import JudgeCall  # noqa: F401
from .versions import TOURNAMENT_PARTS, touch, tournament_part  # noqa: F401
from . import series  # noqa: F401
from .series import Series, SeriesEvent, SeriesKind, SeriesLink, SeriesPlayer, SeriesRejection, SeriesStaff  # noqa: F401
from . import schedule  # noqa: F401
from .schedule import ScheduleDay, ScheduleItem  # noqa: F401
from . import penalties  # noqa: F401
from .penalties import DeckCheck, DeckCheckDraw, Penalty  # noqa: F401
from . import groups  # noqa: F401
from .groups import EventGroup, EventGroupMember  # noqa: F401
from . import check_in  # noqa: F401
from .check_in import CheckIn, CheckInSettings, WaitlistEntry  # noqa: F401
from . import push  # noqa: F401
from .push import PushEvent, PushMessage, PushSubscription  # noqa: F401
