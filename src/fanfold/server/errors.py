"""The refusal of a request the server cannot act on (:class:`BadRequestError`), apart from
:mod:`fanfold.server.live` so that the modules below it (the clocks, a table's options) can
raise it too."""

from __future__ import annotations

from fanfold.core.errors import FanfoldError


class BadRequestError(FanfoldError, ValueError):
    """A request the server cannot act on (an unknown agent, a broken record)."""


__all__ = ["BadRequestError"]
