"""Where the server's bots think: a pool of workers shared fairly by every table.

One module a job: :mod:`.decisions` (what a decision is, and how a worker makes it),
:mod:`.pickling` (how a decision crosses to a worker process), :mod:`.worker` (a worker
process's life and its pipe), :mod:`.pool` (the pool, its fair queue and its shares),
:mod:`.reviewer` (the reviews' own worker), :mod:`.live_work` (the live work it waits for),
:mod:`.step_pauses` (its pauses inside a step).

``fanfold serve`` runs the pool in worker processes (``processes=True``), each a process of its
own at a lower CPU priority than the server (:data:`NICENESS`): a search holds its own
process's interpreter lock, never the server's, so people's actions are answered while every
worker thinks. Tests may use threads (the same code, without the processes' start-up).

Each decision travels as a :class:`Decision`: the table, the seat, the game, the agent text
(already within the server's budget, :mod:`fanfold.server.budget`), a seed drawn from the
table's own bot stream, the seat's view and the legal actions; nothing more of the game. A
worker keeps the agents it made (by table, seat and text, :data:`CACHE`) so that an agent that
is costly to make or that follows a plan (the Fan solver) is made once, and reseeds it for
each decision; the pool sends a table's decisions to the worker that had its last one when
that worker is free.

Fairness: each table has one decision at a time (the hub plays its bots in turn), and when more
decisions wait than there are free workers the pool starts the decision of the client that has
used the least thinking time (start-time fair queuing: a client's tag grows by the seconds its
decisions took, at most :data:`~fanfold.server.bots.pool.CHARGE_SECONDS` each, so that one long
decision does not hold its table's next behind every other table's), so a client whose bots
think at the server's cap waits behind clients whose bots answer at once, never the other way
round. A client is whoever opened the tables (an account, or one address: :attr:`Decision`'s
caller names it); one with thirty tables counts once, and holds at most
:attr:`BotPool.client_share` workers at once, so its tables cannot fill the pool while another
client's table waits (at every process on one PostgreSQL store together:
:attr:`BotPool.shared`, :mod:`fanfold.server.bot_shares`).
Decisions also come in :class:`Priority` classes: a waiting live decision (a game being
played) always starts before a review's, and a review's before background work.

The engines' reviews do not think in the pool: their steps go to the process's one
:class:`ReviewWorker` (:mod:`.reviewer`), a worker process of its own at the lowest CPU
priority, so that reviews never hold a worker or processor time a live game's bot wants; it
starts a step only while no live work is under way (:mod:`.live_work`: the pool's live
decisions and the players' actions), and pauses inside a step while there is
(:mod:`.step_pauses`, the count read from memory shared with the worker process).
"""

from fanfold.server.bots.decisions import CACHE, Decision, decide, decide_counted, decision_for
from fanfold.server.bots.live_work import LiveWork
from fanfold.server.bots.pool import BotPool, Priority, default_client_share
from fanfold.server.bots.reviewer import HOLD_LIMIT, ReviewWorker, hold_limit
from fanfold.server.bots.worker import NICENESS, WorkerProcess

__all__ = [
    "CACHE",
    "HOLD_LIMIT",
    "NICENESS",
    "BotPool",
    "Decision",
    "LiveWork",
    "Priority",
    "ReviewWorker",
    "WorkerProcess",
    "decide",
    "decide_counted",
    "decision_for",
    "default_client_share",
    "hold_limit",
]
