"""The top cut: its seeds and its games."""
from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKeyConstraint, UniqueConstraint

from ..extensions import db


PLAYED_CUT_GAME = ("(player1_id IS NULL AND player2_id IS NULL AND round IS NULL)"
                   " OR (player1_id IS NOT NULL AND player2_id IS NOT NULL AND round IS NOT NULL AND round > 0"
                   " AND player1_id <> player2_id)")


class CutEntry(db.Model):
    """A player's seed in the top cut."""

    __tablename__ = "cut_entries"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    player_id = db.Column(db.Integer, nullable=False)
    seed = db.Column(db.Integer, nullable=False)
    # The player's final place as an imported NRTM file ranked the cut where SASS's rule ranks it otherwise (the
    # file's ranking stands: core/brackets.py Elimination.file_ranking); NULL for every other cut. A cut result
    # reported or corrected here forgets it (services/cut.py).
    rank = db.Column(db.Integer)

    __table_args__ = (
        ForeignKeyConstraint(["player_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("tournament_id", "seed"),
        UniqueConstraint("tournament_id", "player_id"),
        CheckConstraint("seed > 0", name="seed_positive"),
        CheckConstraint("rank IS NULL OR rank > 0", name="rank_positive"),
    )

    player = db.relationship("Player", primaryjoin="Player.id == foreign(CutEntry.player_id)", viewonly=True)


class CutResult(db.Model):
    """A cut game's recorded side choice and/or winner; the bracket is rebuilt from the seeds and these.

    A cut kept exactly as played (an imported one no layout describes, app.core.played_bracket.PlayedBracket) names each
    game's players and cut round here; then every game has a row, its winner NULL until played."""

    __tablename__ = "cut_results"
    id = db.Column(db.Integer, primary_key=True)
    tournament_id = db.Column(db.Integer, db.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)
    game = db.Column(db.Integer, nullable=False)
    winner_id = db.Column(db.Integer)  # NULL while only the side choice is recorded
    corp_id = db.Column(db.Integer)
    table = db.Column(db.Integer)  # the table an imported file gave the game; NULL: the game number
    round = db.Column(db.Integer)  # played cuts only
    player1_id = db.Column(db.Integer)  # played cuts only
    player2_id = db.Column(db.Integer)

    __table_args__ = (
        ForeignKeyConstraint(["winner_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["corp_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["player1_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        ForeignKeyConstraint(["player2_id", "tournament_id"], ["players.id", "players.tournament_id"],
                             ondelete="CASCADE"),
        UniqueConstraint("tournament_id", "game"),
        CheckConstraint(PLAYED_CUT_GAME, name="played"),
        CheckConstraint('"table" IS NULL OR "table" > 0', name="table_positive"),
    )
