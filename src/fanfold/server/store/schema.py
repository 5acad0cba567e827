"""The server's schema as SQLAlchemy tables: every table of the store, in one
:data:`metadata` (Alembic compares it with the migrations, :mod:`fanfold.server.migrations`).

Only the store package reads and writes these tables; the rest of the server asks the store's
typed methods (:mod:`fanfold.server.store`).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# ------------------------------------------------------------------- tables

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    # Decimal digits: a dealt game's seed has 128 bits (see fanfold.play.setup.fresh_seed).
    sa.Column("seed", sa.String(60), nullable=False),
    sa.Column("start_position", sa.Text, nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("allow_undo", sa.Boolean, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("outcome", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False, index=True),
    # The hash of the creator's token: the creator may give a seat a new invitation.
    sa.Column("creator_hash", sa.String(64), nullable=True),
    # Whether the lobby lists the table (tables opened to the public).
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(200), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, index=True),
    # The hash of the seat's pending invitation (a join link nobody has claimed yet).
    sa.Column("invite_hash", sa.String(64), nullable=True),
    # The account that holds the seat (none: a guest, a bot, or a seat nobody claimed).
    sa.Column("account_id", sa.Integer, nullable=True),
    # A player's finished and waiting games (the profile, "Your move"): migration 0010.
    sa.Index("seats_account", "account_id"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
)

# ----------------------------------------------------------------- accounts

#: An account's role when nothing else is said (``fanfold.server.accounts.PLAYER``).
PLAYER_ROLE = "player"

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),
    # The name in lower case: two names that differ only in case are one name.
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(300), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # What the account may do besides playing: PLAYER or MODERATOR (``fanfold moderate
    # grant``/``revoke``; fanfold.server.moderation).
    sa.Column("role", sa.String(20), nullable=False, server_default=PLAYER_ROLE),
    # Closed by a moderator: no sign-in, no session, off the leaderboards (until reopened).
    sa.Column("closed", sa.Boolean, nullable=False, server_default=sa.false()),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Index("sessions_account", "account_id"),
    sa.Index("sessions_expires", "expires"),
)

#: One row a counted attempt, by key, so that every server process counts the same: a sign-in
#: counted as a failure (``client:ADDRESS``, ``name:NAME`` and ``pair:ADDRESS NAME``; deleted
#: when the password proves right), a sign-up (``sign-up:ADDRESS``) and a table opened
#: (``tables:ADDRESS``). Old rows are deleted (fanfold.server.accounts.MEMORY).
sign_in_attempts = sa.Table(
    "sign_in_attempts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(120), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("sign_in_attempts_key", "key", "at"),
)

server_keys = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("value", sa.String(200), nullable=False),
)

# Each server process's last sign of life (fanfold.server.hub.beats): the time a table had no
# live owner is not charged to its clocks.
server_beats = sa.Table(
    "server_beats",
    metadata,
    sa.Column("name", sa.String(120), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

# ------------------------------------------------------------------ ratings

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("family", sa.String(40), primary_key=True),
    sa.Column("player", sa.String(80), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("table_id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("family", sa.String(40), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("rated_table", sa.String(40), primary_key=True),
    sa.Column("player", sa.String(80), primary_key=True),
    sa.Column("family", sa.String(40), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("team", sa.Integer, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # How much of the model's change was applied (repeated results: fanfold.server.fairplay).
    sa.Column("weight", sa.Float, nullable=False, server_default="1"),
    sa.Index("rating_changes_player", "player", "at"),
)

# ---------------------------------------------------------------- fair play

seat_origins = sa.Table(
    "seat_origins",
    metadata,
    sa.Column("table_id", sa.String(40), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("address_hash", sa.String(64), nullable=True),
    sa.Column("device_hash", sa.String(64), nullable=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
)

fairplay_flags = sa.Table(
    "fairplay_flags",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(40), nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("first_account", sa.Integer, nullable=False),
    sa.Column("second_account", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False, index=True),
)

# --------------------------------------------------------------- moderation

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.Integer, nullable=False),
    sa.Column("reported_id", sa.Integer, nullable=False),
    # Not "table_id": an unfinished table that expires takes its rows with it
    # (Store.expire); its reports stay.
    sa.Column("table_ref", sa.String(40), nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    # The moves (actions) played at the table when the report was filed.
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("reason", sa.String(20), nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # Settled (by a moderator, or by closing the reported account): when, by whom, how.
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("resolved_by", sa.String(80), nullable=True),
    sa.Column("resolution", sa.Text, nullable=True),
    sa.Index("reports_reporter", "reporter_id", "at"),
    sa.Index("reports_open", "resolved_at", "at"),
)

appeals = sa.Table(
    "appeals",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("appeals_account", "account_id", "at"),
)

#: The points given back to ``player`` for the rated game ``rated_table``, once: the primary
#: key makes a second row for the same game and player impossible.
rating_refunds = sa.Table(
    "rating_refunds",
    metadata,
    sa.Column("rated_table", sa.String(40), primary_key=True),
    sa.Column("player", sa.String(80), primary_key=True),
    sa.Column("family", sa.String(40), nullable=False),
    sa.Column("points", sa.Float, nullable=False),
    # The closed accounts (rating keys, space-separated) the points were lost to.
    sa.Column("closed_accounts", sa.String(400), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

moderation_log = sa.Table(
    "moderation_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # The moderator's account (none: the command line, named in ``moderator``).
    sa.Column("moderator_id", sa.Integer, nullable=True),
    sa.Column("moderator", sa.String(80), nullable=False),
    sa.Column("action", sa.String(20), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("account", sa.String(40), nullable=True),
    sa.Column("note", sa.Text, nullable=False),
    # What the action did (sessions ended, points refunded, reports settled).
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("moderation_log_at", "at"),
)

# ------------------------------------------------------------------- reviews

#: The engines' review of a finished table, one per table and review version: a job that one
#: process at a time holds (``owner``, until ``lease_until``; another takes it over once the
#: lease has run out), with what makes it reproducible (``seed``, ``budget``, ``engine``).
reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column("table_id", sa.String(40), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    # pending, running, done or failed.
    sa.Column("state", sa.String(10), nullable=False),
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("seed", sa.String(60), nullable=False),
    sa.Column("budget", sa.Integer, nullable=True),
    sa.Column("owner", sa.String(80), nullable=True),
    sa.Column("lease_until", sa.Float, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    # JSON, once done: the engine's identity, the summary, Fan's finding about the deal.
    sa.Column("engine", sa.Text, nullable=True),
    sa.Column("summary", sa.Text, nullable=True),
    sa.Column("deal", sa.Text, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

#: A review's judged moves, each stored as soon as it is computed (JSON).
review_moves = sa.Table(
    "review_moves",
    metadata,
    sa.Column("table_id", sa.String(40), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("entry", sa.Text, nullable=False),
)

# --------------------------------------------------------------------- chat

#: The lines said at a table, in its players' room or its spectators' (never part of the
#: game's record). An unfinished table that expires takes its lines with it (Store.expire
#: deletes the rows of every table with a ``table_id``); a report keeps its own copy.
chat_messages = sa.Table(
    "chat_messages",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(40), nullable=False),
    sa.Column("room", sa.String(20), nullable=False),
    # The sender's account (none: a guest at a seat), name as shown, and seat (none: a
    # spectator).
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # Who said it, for the limits counted from the lines: "a:" and an account's id, or "t:"
    # and a guest seat token's hash (none: kept by a release before revision 0011).
    sa.Column("speaker", sa.String(80), nullable=True),
    sa.Index("chat_messages_room", "table_id", "room", "id"),
    sa.Index("chat_messages_speaker", "speaker", "at"),
)

#: A reported line, with the lines around it as they were (JSON) for the moderators.
chat_reports = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("message_id", sa.Integer, nullable=False),
    sa.Column("table_ref", sa.String(40), nullable=False),
    # Who reported: an account's name, or a guest's seat ("seat 2").
    sa.Column("reporter", sa.String(120), nullable=False),
    sa.Column("reporter_id", sa.Integer, nullable=True),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("context", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # The account that said the reported line (none: a guest), and the report's settling by a
    # moderator: when, who, the note (none: open). Revision 0011.
    sa.Column("reported_id", sa.Integer, nullable=True),
    sa.Column("resolved_at", sa.Float, nullable=True),
    sa.Column("resolved_by", sa.String(80), nullable=True),
    sa.Column("resolution", sa.Text, nullable=True),
    sa.Index("chat_reports_at", "at"),
    sa.Index("chat_reports_reporter", "reporter", "message_id"),
    sa.Index("chat_reports_reporter_id", "reporter_id", "at"),
    sa.Index("chat_reports_reported", "reported_id", "resolved_at"),
)


# --------------------------------------------------------------- bot pool

#: The bot pool's shares across server processes: one row a decision of a client's bots that a
#: process thinks (or waits to), until ``until`` (renewed while it is held). Revision 0011.
bot_leases = sa.Table(
    "bot_leases",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("client", sa.String(200), nullable=False),
    # The process that holds it (its server name and process id), for an operator.
    sa.Column("holder", sa.String(120), nullable=False),
    sa.Column("until", sa.Float, nullable=False),
    # Granted (thinking, or about to), else waiting for the client's share.
    sa.Column("granted", sa.Boolean, nullable=False),
    sa.Index("bot_leases_client", "client", "until"),
)
