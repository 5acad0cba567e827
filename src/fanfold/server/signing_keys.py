"""The keys that sign the session cookies: :class:`SigningKeys`.

* **By default** the key is kept in the store (``server_keys``,
  :data:`fanfold.server.accounts.KEY_NAME`): made by the first process that starts, read by
  every other.
* **In a file** (``fanfold serve --key-file PATH``, or :data:`KEY_FILE_VARIABLE` in the
  environment): one key a line (blank lines and lines starting with ``#`` skipped, each key at
  least :data:`SHORTEST` characters). The first line signs; every line verifies, so that a
  session signed by an older key is taken until its line is removed. The store keeps the
  signing key's :func:`fingerprint` (never the key), written at the first start with the file;
  a start whose signing key has another fingerprint is refused (:class:`KeyMismatchError`)
  until the change is accepted with ``fanfold keys rotate`` (:func:`rotate`), so that one
  process started with a stale file cannot sign cookies the others refuse.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shlex
from dataclasses import dataclass
from pathlib import Path

from fanfold.core.errors import FanfoldError, Refusal, templates
from fanfold.server.store import Store
from fanfold.server.store.account_store import SqlAccounts
from fanfold.server.store.protocols import AccountStore

#: The environment variable naming the key file (``fanfold serve --key-file`` sets it for its
#: processes).
KEY_FILE_VARIABLE = "FANFOLD_KEY_FILE"
#: The store's name of the session-signing key (kept there when no file is given).
KEY_NAME = "session-signing"
#: The store's name of the file's signing key's fingerprint.
FINGERPRINT_NAME = "session-signing-fingerprint"
#: The shortest key a file may hold (characters).
SHORTEST = 32


#: A key file's refusals (``fanfold serve --key-file``, ``fanfold keys``, ``fanfold
#: check-config``), worded in the terminal's language; the system's reason inside as it says it.
templates(
    {
        "keys.unreadable": "the key file {path} cannot be read: {reason}",
        "keys.short": "the key file {path} has a key of {length} characters on line {line}: a "
        "key has at least {shortest} (make one with: {command})",
        "keys.none": "the key file {path} holds no key: the first line's key signs",
        "keys.mismatch": "the signing key (the first line of {path}, fingerprint {found}) is "
        "not the one this store knows (fingerprint {known}): put that key first again, or "
        "accept the change with: {command}",
    }
)


class KeyFileError(FanfoldError, ValueError):
    """The key file cannot be read, or holds no key, or a key too short: the sentence says."""


class KeyMismatchError(FanfoldError, ValueError):
    """The key file's signing key is not the one the store knows (its fingerprint differs)."""


def fingerprint(key: str) -> str:
    """A key's fingerprint: the first 16 hexadecimal digits of its SHA-256 (it does not give
    the key away, and tells two keys apart)."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def read_key_file(path: Path) -> tuple[str, ...]:
    """The keys of a key file, the signing one first.

    Raises:
        KeyFileError: it cannot be read, holds no key, or a key shorter than
            :data:`SHORTEST` characters.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or error
        raise KeyFileError(Refusal("keys.unreadable", path=str(path), reason=str(reason))) from None
    keys: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        key = line.strip()
        if not key or key.startswith("#"):
            continue
        if len(key) < SHORTEST:
            raise KeyFileError(
                Refusal(
                    "keys.short",
                    path=str(path),
                    length=len(key),
                    line=number,
                    shortest=SHORTEST,
                    command="python3 -c 'import secrets; print(secrets.token_urlsafe(48))'",
                )
            )
        keys.append(key)
    if not keys:
        raise KeyFileError(Refusal("keys.none", path=str(path)))
    return tuple(keys)


@dataclass(frozen=True)
class SigningKeys:
    """The key that signs the session cookies, and every key that verifies them (the signing
    one first)."""

    signing: str
    accepted: tuple[str, ...]

    @classmethod
    def load(cls, data: AccountStore, key_file: Path | None, store: str = "") -> SigningKeys:
        """The keys of ``key_file`` (checked against the fingerprint in the store, written
        there at its first use), or the store's own key when no file is given; ``store``: how
        the store was named (:func:`mismatch`).

        Raises:
            KeyFileError: the file cannot be read, or holds no usable key.
            KeyMismatchError: its signing key is not the one the store knows.
        """
        if key_file is None:
            key = data.stored_key(KEY_NAME, secrets.token_urlsafe(48))
            return cls(key, (key,))
        keys = read_key_file(key_file)
        found = fingerprint(keys[0])
        known = data.stored_key(FINGERPRINT_NAME, found)
        if known != found:
            raise mismatch(key_file, found, known, store)
        return cls(keys[0], keys)


def mismatch(key_file: Path, found: str, known: str, store: str = "") -> KeyMismatchError:
    """What ``fanfold serve`` (and ``fanfold check-config``) says when ``key_file``'s signing
    key, of fingerprint ``found``, is not the store's (fingerprint ``known``): the command
    that accepts it names the store as it was named (``store``: ``--db URL``, its password
    masked, or ``--db-file PATH``; empty for ``FANFOLD_DB_URL`` or the default store), so
    that it rotates that store and no other."""
    command = f"fanfold keys rotate --key-file {shlex.quote(str(key_file))}"
    if store:
        command += f" {store}"
    return KeyMismatchError(
        Refusal("keys.mismatch", path=str(key_file), found=found, known=known, command=command)
    )


def stored_key(store: Store, name: str) -> str:
    """The secret key ``name`` every process of this store uses: the stored one, or a new one
    stored now (when two processes start at once, the first insert wins and both read it)."""
    return SqlAccounts(store.engine).stored_key(name, secrets.token_urlsafe(48))


def key_file_of_environment() -> Path | None:
    """The key file named by :data:`KEY_FILE_VARIABLE`, if any."""
    named = os.environ.get(KEY_FILE_VARIABLE, "").strip()
    return Path(named) if named else None


def rotate(data: AccountStore, key_file: Path) -> tuple[str | None, str]:
    """Accept ``key_file``'s signing key as the store's (its fingerprint stored): returns the
    fingerprint known before (``None``: none) and the new one.

    Raises:
        KeyFileError: the file cannot be read, or holds no usable key.
    """
    keys = read_key_file(key_file)
    found = fingerprint(keys[0])
    before = data.replace_key(FINGERPRINT_NAME, found)
    return before, found


__all__ = [
    "FINGERPRINT_NAME",
    "KEY_FILE_VARIABLE",
    "KEY_NAME",
    "SHORTEST",
    "KeyFileError",
    "KeyMismatchError",
    "SigningKeys",
    "fingerprint",
    "key_file_of_environment",
    "mismatch",
    "read_key_file",
    "rotate",
    "stored_key",
]
