"""What a server process does around its tables, one module a job: the bots' warm-up
(:mod:`.warm_up`), the garbage collector's policy and giving memory back (:mod:`.memory`), the
sweeper that lets idle tables go and abandoned ones expire (:mod:`.sweeper`), the protocol's
header and the request body limit (:mod:`.middleware`), and the application's life span
(:mod:`.lifespan`) that starts and stops all of it with the :class:`~fanfold.server.hub.Hub`.
"""

from fanfold.server.runtime.lifespan import lifespan
from fanfold.server.runtime.memory import (
    FULL_COLLECTION_SECONDS,
    NO_AUTOMATIC_FULL_COLLECTION,
    bounded_caches,
    give_back,
)
from fanfold.server.runtime.middleware import BodyLimit, ProtocolHeader
from fanfold.server.runtime.warm_up import progress, stopping

__all__ = [
    "FULL_COLLECTION_SECONDS",
    "NO_AUTOMATIC_FULL_COLLECTION",
    "BodyLimit",
    "ProtocolHeader",
    "bounded_caches",
    "give_back",
    "lifespan",
    "progress",
    "stopping",
]
