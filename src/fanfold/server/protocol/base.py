"""What every module of the protocol shares: its number, the header that names it, the largest
request body, and the two kinds of model (strict for what clients send, open for what the server
sends)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

#: The protocol's number: every message on a socket carries it as ``"protocol"``, and every HTTP
#: answer as the header :data:`PROTOCOL_HEADER`. Fields added later keep it; a change that
#: renames, retypes or drops a field, or changes what one means, is a new number.
PROTOCOL = 1
PROTOCOL_HEADER = "X-Fanfold-Protocol"

#: The largest request body accepted, in bytes (a long record fits).
MAX_BODY = 512 * 1024

#: A table-level ending (:mod:`fanfold.core.rulings`): asked for by a client, and offered in a
#: seat's state.
Ending = Literal["resign", "draw", "abort", "claim", "leave"]


class Strict(BaseModel):
    """What a client sends: a field the model does not name is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Out(BaseModel):
    """What the server sends: fields it does not name are allowed (later features add some).

    A message holds the fields it was given: it is serialised without those left unset (an
    HTTP route's ``response_model_exclude_unset``, and a socket's
    :func:`~fanfold.server.protocol.sending.wire`)."""

    model_config = ConfigDict(extra="allow")


__all__ = ["MAX_BODY", "PROTOCOL", "PROTOCOL_HEADER", "Ending", "Out", "Strict"]
