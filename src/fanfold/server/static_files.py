"""The pages' own files (``/static/``: scripts, style sheets, pictures) and how long browsers
keep them.

A page names its scripts and style sheets by a versioned address, ``/static/table.js?v=HASH``
(:func:`static_url`, the templates' ``static_url("table.js")``), where ``HASH`` is a digest of
the file's content: a changed file gets a new address, so the old one can be kept for ever.
:class:`VersionedStatic` serves a file asked for at its current version with
``Cache-Control: public, max-age=31536000, immutable`` (a browser never asks again), and any
other request for it (no version, a game's board imported by its plain address, or a version
that is no longer the file's) with ``no-cache``: the browser keeps it but asks each
time, and the file's ``ETag`` answers 304 while it is unchanged.

A script's own imports are versioned too: a module is served with each import of a file of
the folder (``from "./common.js"``, ``import("/static/games/generic.js")``) at that file's
versioned address (:func:`module_text`), and a module's version is the digest of that text, so
it changes when any module it imports, however deep, changes. A page that keeps a script for a
year never runs it with an imported module older than the script.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import parse_qs

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse
from starlette.types import Scope

#: The folder of the pages' files, inside the package.
STATIC = Path(__file__).resolve().parent / "static"
#: A file asked for at its current version: kept for a year, never asked again.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Any other request for a file: kept, but checked again each time (``ETag``, 304).
REVALIDATE = "no-cache"
#: A module's type.
MODULE = "text/javascript"

#: Each file's version, by its path, with the size and time of change it was read at.
_VERSIONS: dict[str, tuple[int, int, str]] = {}


#: An import of a module by a literal address: what comes before it, its quote, the address.
IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])([^"'\n?#]+\.js)\2""")

#: A module cut after each import of a file of the folder: (its text up to and with the
#: address, the imported file's path) each, then the rest of it.
Pieces = tuple[tuple[tuple[str, str], ...], str]
#: Each module's pieces (by its path and the folder its imports are read from), with the size
#: and time of change it was read at.
_PIECES: dict[tuple[str, str], tuple[int, int, Pieces]] = {}
#: Each module's version, with the size and time of change and its imports' versions it was
#: worked out from.
_MODULES: dict[tuple[str, str], tuple[int, int, tuple[str, ...], str]] = {}


def file_version(path: str | os.PathLike[str]) -> str:
    """The version of the file at ``path``: the first 12 hex digits of its content's SHA-256
    (a module's: of :func:`module_text`, its imports versioned), read again only when its
    size or time of change (or a module's imports' versions) differ from the last reading."""
    return _version(os.fspath(path), None, frozenset())


def module_text(path: str | os.PathLike[str], folder: Path | None = None) -> str:
    """The module at ``path`` as served: each import of a file of the static folder by a
    literal address (relative to ``folder``, default the module's own) at that file's
    versioned address, ``"./common.js?v=HASH"``; any other import as written."""
    key = os.fspath(path)
    pieces, rest = _pieces(key, folder)
    versions = _imported(pieces, frozenset({key}))
    return _joined(pieces, versions, rest)


def _version(key: str, folder: Path | None, seen: frozenset[str]) -> str:
    found = os.stat(key)
    if key.endswith(".js") and key not in seen:  # in an import cycle: the file's own bytes
        pieces, rest = _pieces(key, folder)
        versions = _imported(pieces, seen | {key})
        cache = (key, "" if folder is None else os.fspath(folder))
        known = _MODULES.get(cache)
        if known is not None and known[:3] == (found.st_size, found.st_mtime_ns, versions):
            return known[3]
        digest = hashlib.sha256(_joined(pieces, versions, rest).encode()).hexdigest()[:12]
        _MODULES[cache] = (found.st_size, found.st_mtime_ns, versions, digest)
        return digest
    known_file = _VERSIONS.get(key)
    if known_file is not None and known_file[:2] == (found.st_size, found.st_mtime_ns):
        return known_file[2]
    digest = hashlib.sha256(Path(key).read_bytes()).hexdigest()[:12]
    _VERSIONS[key] = (found.st_size, found.st_mtime_ns, digest)
    return digest


def _imported(pieces: tuple[tuple[str, str], ...], seen: frozenset[str]) -> tuple[str, ...]:
    """The versions of the files a module imports (:data:`Pieces`)."""
    return tuple(_version(target, None, seen) for _, target in pieces)


def _joined(pieces: tuple[tuple[str, str], ...], versions: tuple[str, ...], rest: str) -> str:
    return (
        "".join(f"{text}?v={version}" for (text, _), version in zip(pieces, versions, strict=True))
        + rest
    )


def _pieces(key: str, folder: Path | None) -> Pieces:
    found = os.stat(key)
    cache = (key, "" if folder is None else os.fspath(folder))
    known = _PIECES.get(cache)
    if known is not None and known[:2] == (found.st_size, found.st_mtime_ns):
        return known[2]
    text = Path(key).read_text(encoding="utf-8")
    base = Path(key).parent if folder is None else folder
    root = STATIC.resolve()
    cut: list[tuple[str, str]] = []
    start = 0
    for match in IMPORT.finditer(text):
        address = match[3]
        if address.startswith("/static/"):
            target = (root / address.removeprefix("/static/")).resolve()
        elif address.startswith(("./", "../")):
            target = (base / address).resolve()
        else:
            continue
        if target.is_relative_to(root) and target.is_file():
            cut.append((text[start : match.end(3)], os.fspath(target)))
            start = match.end(3)
    made: Pieces = (tuple(cut), text[start:])
    _PIECES[cache] = (found.st_size, found.st_mtime_ns, made)
    return made


def static_url(name: str) -> str:
    """The versioned address of the page's file ``name`` (``"table.js"``):
    ``/static/table.js?v=HASH``."""
    return f"/static/{name}?v={file_version(STATIC / name)}"


class VersionedStatic(StaticFiles):
    """:class:`StaticFiles` with the ``Cache-Control`` of each answer: :data:`IMMUTABLE` for
    a file asked for at its current version, :data:`REVALIDATE` otherwise."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        if os.fspath(full_path).endswith(".js"):  # its imports versioned (module_text)
            version = file_version(full_path)
            headers = {"etag": f'"{version}"'}
            response: Response = Response(module_text(full_path), status_code, headers, MODULE)
            if self.is_not_modified(response.headers, Headers(scope=scope)):
                response = NotModifiedResponse(response.headers)
        else:
            response = super().file_response(full_path, stat_result, scope, status_code)
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]
        current = asked != "" and asked == file_version(full_path)
        response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response
