"""Each server process's last sign of life, in SQL (``server_beats``): what
:class:`~fanfold.server.hub.beats.Beats` writes every few seconds and reads when it takes a
table whose clock runs."""

from __future__ import annotations

import sqlalchemy as sa

from fanfold.server.store.schema import server_beats
from fanfold.server.store.sql_base import SqlBase


class BeatWrites(SqlBase):
    """The SQL :class:`~fanfold.server.store.protocols.BeatStore`."""

    def beat(self, name: str, at: float, forget_before: float) -> None:
        """Record that process ``name`` lived at ``at`` (a ``time.time()``), and forget the
        processes silent since before ``forget_before``."""
        with self._begin() as connection:
            changed = connection.execute(
                server_beats.update().where(server_beats.c.name == name).values(at=at)
            )
            if not changed.rowcount:
                connection.execute(server_beats.insert().values(name=name, at=at))
            connection.execute(server_beats.delete().where(server_beats.c.at < forget_before))

    def last_beat(self, name: str) -> float | None:
        """When process ``name`` last said it lived (``None``: never, or forgotten)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(server_beats.c.at).where(server_beats.c.name == name)
            ).scalar()
        return None if found is None else float(found)
