"""The pages' own files (``/static/``: scripts, style sheets, pictures) and how long browsers
keep them.

A page names its scripts and style sheets by a versioned address, ``/static/table.js?v=HASH``
(:func:`static_url`, the templates' ``static_url("table.js")``), where ``HASH`` is a digest of
the file's content: a changed file gets a new address, so the old one can be kept for ever.
:class:`VersionedStatic` serves a file asked for at its current version with
``Cache-Control: public, max-age=31536000, immutable`` (a browser never asks again), and any
other request for it (no version, the modules a script imports by their plain address, or a
version that is no longer the file's) with ``no-cache``: the browser keeps it but asks each
time, and the file's ``ETag`` answers 304 while it is unchanged.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from urllib.parse import parse_qs

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

#: The folder of the pages' files, inside the package.
STATIC = Path(__file__).resolve().parent / "static"
#: A file asked for at its current version: kept for a year, never asked again.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Any other request for a file: kept, but checked again each time (``ETag``, 304).
REVALIDATE = "no-cache"

#: Each file's version, by its path, with the size and time of change it was read at.
_VERSIONS: dict[str, tuple[int, int, str]] = {}


def file_version(path: str | os.PathLike[str]) -> str:
    """The version of the file at ``path``: the first 12 hex digits of its content's SHA-256,
    read again only when its size or time of change differs from the last reading."""
    found = os.stat(path)
    key = os.fspath(path)
    known = _VERSIONS.get(key)
    if known is not None and known[:2] == (found.st_size, found.st_mtime_ns):
        return known[2]
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
    _VERSIONS[key] = (found.st_size, found.st_mtime_ns, digest)
    return digest


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
        response = super().file_response(full_path, stat_result, scope, status_code)
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]
        current = asked != "" and asked == file_version(full_path)
        response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response
