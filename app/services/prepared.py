"""Statements PostgreSQL plans once per connection: what every phone in a hall asks every few seconds.

A player's poll asks one statement of several subqueries; PostgreSQL spends more time planning it than running
it, and planning it again for each of thousands of phones is most of the database's work in a hall
(docs/benchmarks.md). A `Prepared` statement is sent once per connection as `PREPARE` and then run by name
(`EXECUTE`), with the same bound and result types as the statement itself, so its callers read the same rows
whatever the database. Other databases (SQLite) run the statement as it is.
"""
from __future__ import annotations

from typing import Any, Mapping

import sqlalchemy as sa
from sqlalchemy.sql.elements import BindParameter
from sqlalchemy.sql.visitors import replacement_traverse, traverse

from ..extensions import db

_DONE = "sass_prepared"  # the names this DBAPI connection has prepared (its pool record's info follows it)
EVERY: list["Prepared"] = []  # every statement made so, for the tests that read their plans


class Prepared:
    def __init__(self, name: str, statement: sa.Select):
        self.name = name
        self.statement = statement
        self._pg: tuple[str, sa.TextClause] | None = None
        EVERY.append(self)

    def execute(self, params: Mapping[str, Any]) -> sa.CursorResult:
        """The statement's result with `params`, in the session's transaction."""
        conn = db.session.connection()
        if conn.dialect.name != "postgresql":
            return conn.execute(self.statement, params)
        prepare, run = self.compiled(conn.dialect)
        done = conn.connection.info.setdefault(_DONE, set())
        if self.name not in done:
            conn.exec_driver_sql(prepare)
            done.add(self.name)
        return conn.execute(run, params)

    def compiled(self, dialect) -> tuple[str, sa.TextClause]:
        """PREPARE with each named parameter as $n (constants written in), and EXECUTE typed as the statement."""
        if self._pg is not None:
            return self._pg
        binds: dict[str, BindParameter] = {}

        def collect(element):
            if isinstance(element, BindParameter) and element.value is None and not element.callable:
                binds.setdefault(element.key, element)

        traverse(self.statement, {}, {"bindparam": collect})
        names = list(binds)

        def placeholder(element):
            if isinstance(element, BindParameter) and element.key in binds:
                return sa.literal_column(f"${names.index(element.key) + 1}", element.type)
            return None

        body = replacement_traverse(self.statement, {}, placeholder)
        sql = str(body.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))
        assert "%" not in sql, "a literal % would be read as a parameter"
        run = (sa.text(f"EXECUTE {self.name}(" + ", ".join(f":{n}" for n in names) + ")")
               .bindparams(*[sa.bindparam(n, type_=binds[n].type) for n in names])
               .columns(*self.statement.selected_columns))
        self._pg = (f"PREPARE {self.name} AS {sql}", run)
        return self._pg
