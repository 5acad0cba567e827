"""Who moderates, and the accounts as moderation sees them: a moderator read from the store at
each request (:func:`moderator_of`), an account found by name, the closed accounts' rating keys
(what the leaderboards leave out), and the people of a moderator's list named
(:mod:`fanfold.server.moderation` says what moderation does)."""

from __future__ import annotations

import getpass
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fanfold.server.accounts import MODERATOR, Account, SignInError
from fanfold.server.live import ForbiddenError, NotFoundError
from fanfold.server.ratings import account_key
from fanfold.server.refusals import refusal
from fanfold.server.store import Transaction
from fanfold.server.store.engine import Engine
from fanfold.server.store.moderation_records import AccountRecord
from fanfold.server.store.moderation_store import SqlModeration
from fanfold.server.store.protocols import ModerationStore


@dataclass(frozen=True)
class Moderator:
    """Who acts: a moderator's account (``id``), or the command line (``id`` ``None``, named
    after the machine's user)."""

    id: int | None
    name: str

    @classmethod
    def console(cls) -> Moderator:
        """The command line, as the log names it: ``command line (USER)``."""
        try:
            user = getpass.getuser()
        except Exception:  # no user name to be had (a container without one)
            user = "unknown user"
        return cls(None, f"command line ({user})"[:80])


@dataclass(frozen=True)
class AccountState:
    """An account as moderation sees it."""

    id: int
    name: str
    role: str
    closed: bool

    @property
    def key(self) -> str:
        """Its key in the ratings (``a:ID``)."""
        return account_key(self.id)

    @classmethod
    def of(cls, record: AccountRecord) -> AccountState:
        """The account as the store keeps it."""
        return cls(record.id, record.name, record.role, record.closed)


def moderation_data(engine: Engine) -> ModerationStore:
    """Moderation's store on a SQL store's engine."""
    return SqlModeration(engine)


def data_of(tx: Transaction) -> ModerationStore:
    """Moderation's store of the database a transaction works on."""
    return SqlModeration.of(tx)


def name_key(name: str) -> str:
    """The key an account is found by: its name in lower case."""
    return name.strip().lower()[:40]


def closed_account_keys(tx: Transaction) -> set[str]:
    """The rating keys (``a:ID``, as :func:`fanfold.server.ratings.account_key` makes them) of
    every closed account: what the leaderboards leave out."""
    return {account_key(number) for number in data_of(tx).closed_accounts(tx)}


def find_account(tx: Transaction, name: str) -> AccountState:
    """The account called ``name`` (any case).

    Raises:
        NotFoundError: no account is called that.
    """
    found = data_of(tx).account(tx, name_key(name))
    if found is None:
        raise NotFoundError(refusal("moderation.no_account", name=repr(name.strip())))
    return AccountState.of(found)


def lock_account(data: ModerationStore, tx: Transaction, name: str) -> AccountState:
    """The account called ``name``, its row locked for the transaction (SQLite takes its
    write lock before anything is read, PostgreSQL locks the row).

    Raises:
        NotFoundError: no account is called that.
    """
    found = data.lock_account(tx, name_key(name))
    if found is None:
        raise NotFoundError(refusal("moderation.no_account", name=repr(name.strip())))
    return AccountState.of(found)


def moderator_of(engine: Engine, account: Account | None) -> Moderator:
    """The moderator signed in as ``account``, read from the store at each request (a role
    revoked, or an account closed, counts at once).

    Raises:
        SignInError: nobody is signed in.
        ForbiddenError: the account is no moderator.
    """
    if account is None:
        raise SignInError("sign in with a moderator's account first")
    data = moderation_data(engine)
    with data.reading() as tx:
        found = data.role(tx, account.id)
    if found is None or found[0] != MODERATOR or found[1]:
        raise ForbiddenError("only the site's moderators may do this")
    return Moderator(account.id, account.name)


def is_moderator(engine: Engine, account: Account | None) -> bool:
    """Whether ``account`` is a moderator's (open) account."""
    try:
        moderator_of(engine, account)
    except (SignInError, ForbiddenError):
        return False
    return True


def named(data: ModerationStore, tx: Transaction, ids: Iterable[int]) -> dict[int, AccountState]:
    """The accounts ``ids`` that exist, by id."""
    return {
        number: AccountState.of(found) for number, found in data.accounts_by_id(tx, ids).items()
    }


def person(found: dict[int, AccountState], number: int | None) -> dict[str, Any] | None:
    """An account of a moderator's list: id, name and whether it is closed."""
    if number is None:
        return None
    state = found.get(int(number))
    if state is None:
        return {"id": int(number), "name": f"#{number}", "closed": False}
    return {"id": state.id, "name": state.name, "closed": state.closed}
