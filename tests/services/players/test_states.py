"""app/services/players/states.py against the services that change a player: a hypothesis state machine walks a
capped event with a waitlist and a roll call through registrations, promotions, check-ins and their undo, the
no-show drop, drops by the player and by the TO, pairing and results, disqualifications and their void, and checks
after every step that what the pages say agrees with the core rule, and the event's invariants hold."""
from __future__ import annotations

import html

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from app.core.check_in import NoShows
from app.core.penalties import Infraction, Kind
from app.core.player_state import DropReason, Reader
from app.extensions import db
from app.models import Match, Penalty, Player, Round, Seat, Tournament
from app.services.check_in import roll_call, settings as check_in_settings, waitlist
from app.services.penalties import record as penalties
from app.services.players import drops, player_links, registration, states
from app.services.players.players import active_count, rounds_started
from app.services.results import participation
from app.services.swiss import rounds
from app.services import state as event_state

CAP = 4
NAMES = [f"Player {c}" for c in "ABCDEFGHIJ"]


@pytest.mark.slow
def test_every_transition_keeps_one_truth(app, make_user, login):
    owner = make_user("to@example.com")
    client = app.test_client()
    staff = login()

    class Weekend(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            t = Tournament(owner=owner, name="Store Championship", format="single", registration_open=True,
                           registration_cap=CAP)
            db.session.add(t)
            db.session.commit()
            check_in_settings.save(t, enabled=True, no_shows=NoShows.DROP, waitlist=True, closes_in=None)
            db.session.commit()
            self.t = t
            self.ids: dict[str, int] = {}

        def player(self, name):
            return db.session.get(Player, self.ids[name])

        @initialize(count=st.integers(2, 7))
        def doors_open(self, count):
            for name in NAMES[:count]:
                self.register(name)

        @rule(name=st.sampled_from(NAMES))
        def register(self, name):
            if name in self.ids:
                return
            try:
                p = registration.register(self.t, name)
            except registration.RegistrationError:
                db.session.rollback()
                return
            self.ids[name] = p.id

        @rule(name=st.sampled_from(NAMES))
        def check_in(self, name):
            if name not in self.ids:
                return
            try:
                roll_call.check_in(self.t, self.player(name), by_staff=True)
            except roll_call.Refusal:
                db.session.rollback()

        @rule(name=st.sampled_from(NAMES))
        def undo_check_in(self, name):
            if name not in self.ids:
                return
            try:
                roll_call.undo(self.t, self.player(name))
            except roll_call.Refusal:
                db.session.rollback()

        @rule()
        def drop_no_shows(self):
            try:
                roll_call.drop_no_shows(self.t)
            except roll_call.Refusal:
                db.session.rollback()

        @rule(name=st.sampled_from(NAMES))
        def drop_themselves(self, name):
            if name in self.ids and states.of_player(self.t, self.player(name)).may_drop:
                participation.drop(self.t, self.player(name))

        @rule(name=st.sampled_from(NAMES))
        def dropped_by_the_to(self, name):
            if name not in self.ids:
                return
            try:
                drops.drop(self.t, self.player(name), DropReason.ORGANIZER)
                db.session.commit()
            except drops.Refused:
                db.session.rollback()

        @rule(name=st.sampled_from(NAMES))
        def disqualify(self, name):
            if name not in self.ids:
                return
            number = rounds.latest_number(self.t) or None
            try:
                penalties.record(self.t, owner, self.ids[name], number, Infraction.CHEATING, Kind.DISQUALIFICATION)
            except penalties.Refused:
                db.session.rollback()

        @rule(name=st.sampled_from(NAMES))
        def void_disqualification(self, name):
            if name not in self.ids:
                return
            found = db.session.scalar(sa.select(Penalty.id).where(
                Penalty.player_id == self.ids[name], Penalty.voided_at.is_(None)))
            if found is not None:
                penalties.void(self.t, owner, found, "recorded for the wrong player")

        @precondition(lambda self: len(self.ids) >= 2)
        @rule()
        def pair_and_play(self):
            number = rounds.latest_number(self.t) + 1
            if number > 3 or event_state.open_rounds(self.t):
                return
            try:
                rounds.pair_next_round(self.t, number)
            except rounds.RoundError:  # nobody or one player left: refused, nothing written
                db.session.rollback()
                return
            except Exception:  # the engine's refusal of an impossible field, naming its players
                db.session.rollback()
                return
            rounds.publish_round(self.t, number)

        @rule(data=st.data())
        def report_a_table(self, data):
            open_tables = db.session.execute(
                sa.select(Match.id, Seat.player_id).join(Seat, Seat.match_id == Match.id)
                .join(Round, Round.id == Match.round_id)
                .where(Round.tournament_id == self.t.id, Match.result.is_(None), Match.is_bye.is_(False))
                .order_by(Match.id, Seat.position)).all()
            if not open_tables:
                return
            mid, pid = data.draw(st.sampled_from(open_tables))
            try:
                participation.report(self.t, db.session.get(Player, pid), mid, "corp")
            except Exception:
                db.session.rollback()

        @rule(name=st.sampled_from(NAMES))
        def look_at_the_pages(self, name):
            """The player's own page and the staff's penalty form say what the core rule says."""
            if name not in self.ids:
                return
            t = db.session.get(Tournament, self.t.id)
            player = self.player(name)
            s = states.of_player(t, player)
            page = html.unescape(client.get(f"/t/{t.slug}/p/{player_links.token(player)}").get_data(as_text=True))
            said = s.words(Reader.PLAYER)
            if s.out or s.waiting:
                assert (said[:1].upper() + said[1:]) in page, (s, said)
            if not s.out:
                assert "You have dropped" not in page and "Dropped" not in page
            if not s.may_report:
                assert 'name="result"' not in page
            form = html.unescape(staff.get(f"/tournaments/{t.id}/penalties/new").get_data(as_text=True))
            assert s.words(Reader.STAFF) in form

        # ------------------------------------------------------------ what must always hold

        @invariant()
        def one_truth(self):
            if not self.ids:
                return
            db.session.expire_all()
            t = db.session.get(Tournament, self.t.id)
            every = states.of_event(t)
            for pid, s in every.items():
                one = states.of_player(t, db.session.get(Player, pid))
                assert one == s, (pid, one, s)
                assert "dropped" not in s.words(Reader.PLAYER) or s.out
            pairable = [p for p, s in every.items() if s.pairable]
            assert len(pairable) == active_count(t)
            waiting = [p for p, s in every.items() if s.waiting]
            assert sorted(s.position for s in every.values() if s.waiting) == list(range(1, len(waiting) + 1))
            if not rounds_started(t):
                assert len(pairable) <= CAP  # never over the cap
                # nobody waits beside a free place (while a roll call runs: nobody who is here)
                running = check_in_settings.roll_call(t).running(rounds.latest_number(t))
                ready = [p for p in waiting if every[p].present or not running]
                assert not ready or len(pairable) >= CAP, (ready, pairable)
            # a disqualified player has no open game, and at most one standing disqualification
            for pid, s in every.items():
                if s.disqualified:
                    assert not db.session.scalar(sa.select(sa.func.count()).select_from(Seat)
                                                 .join(Match, Match.id == Seat.match_id)
                                                 .where(Seat.player_id == pid, Match.result.is_(None),
                                                        Match.is_bye.is_(False)))
                standing = db.session.scalar(sa.select(sa.func.count(Penalty.id)).where(
                    Penalty.player_id == pid, Penalty.kind == Kind.DISQUALIFICATION.value,
                    Penalty.voided_at.is_(None)))
                assert standing == (1 if s.disqualified else 0)
            # nobody waiting or out is in the next pairing; everyone in is
            entrants = {e.id for e in event_state.entrants(t) if not e.dropped}
            assert entrants == set(pairable)

    run_state_machine_as_test(Weekend, settings=settings(max_examples=25, stateful_step_count=30, deadline=None,
                                                        suppress_health_check=list(HealthCheck)))
