"""How long browsers keep the pages' files (:mod:`fanfold.server.static_files`): a page names
its scripts and style sheets at versioned addresses (``?v=`` a digest of the content), served
immutable for a year; a file's plain address (the modules a script imports) or an old version
is served ``no-cache``, revalidated by its ``ETag``; a changed file gets a new address."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.routing import Mount

from fanfold.server import static_files
from fanfold.server.static_files import (
    IMMUTABLE,
    REVALIDATE,
    VersionedStatic,
    file_version,
    static_url,
)
from fanfold.server.templating import render
from tests.server.support import serve

#: A page's scripts and style sheets named by their plain addresses.
PLAIN = re.compile(r'(?:src|href)="(/static/[\w./-]+\.(?:js|css))"')
#: A page's versioned addresses of its own files.
VERSIONED = re.compile(r'(?:src|href)="(/static/[\w./-]+\?v=[0-9a-f]{12})"')


def test_pages_name_their_files_by_version_and_those_are_kept_for_a_year(
    tmp_path: Path,
) -> None:
    with serve(tmp_path, bot_seconds=None) as client:
        table = client.post("/api/tables", json={"game": "morris", "players": 2}).json()
        pages = ["/", "/account", "/leaderboard/morris", f"/table/{table['table']}"]
        found: set[str] = set()
        for page in pages:
            html = client.get(page).text
            assert PLAIN.findall(html) == [], page  # no script or style at its plain address
            found |= set(VERSIONED.findall(html))
        assert {"/static/table.js", "/static/lobby.js", "/static/fanfold.css"} <= {
            url.split("?")[0] for url in found
        }
        for url in sorted(found):
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert answer.headers["cache-control"] == IMMUTABLE, url
        # the plain address (a script's own imports), and a version that is not the file's
        for url in ("/static/common.js", "/static/table.js?v=000000000000"):
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert answer.headers["cache-control"] == REVALIDATE, url
            etag = answer.headers["etag"]
            again = client.get(url, headers={"If-None-Match": etag})
            assert again.status_code == 304, url
            assert again.headers["cache-control"] == REVALIDATE, url
        assert client.get("/static/nothing.js?v=1").status_code == 404


def test_a_changed_file_gets_a_new_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "static"
    shutil.copytree(static_files.STATIC, folder)
    script = folder / "table.js"
    monkeypatch.setattr(static_files, "STATIC", folder)
    first = static_url("table.js")
    assert first == f"/static/table.js?v={file_version(script)}"
    assert static_url("table.js") == first  # read once, the same while unchanged
    script.write_text(script.read_text() + "// changed\n")
    second = static_url("table.js")
    assert second != first
    assert second.startswith("/static/table.js?v=")
    # and the pages name the new one
    assert second in str(render("table.html"))


def test_an_updated_module_is_never_served_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A script names each module it imports at its versioned address, and its own version
    covers theirs: a changed ``common.js`` gives ``table.js`` (which imports it) a new address
    whose text imports the new ``common.js``; the old address is no longer kept."""
    folder = tmp_path / "static"
    shutil.copytree(static_files.STATIC, folder)
    monkeypatch.setattr(static_files, "STATIC", folder)
    app = Starlette(routes=[Mount("/static", VersionedStatic(directory=folder))])
    with TestClient(app) as client:
        first = static_url("table.js")
        common = f"./common.js?v={file_version(folder / 'common.js')}"
        served = client.get(first)
        assert served.headers["cache-control"] == IMMUTABLE
        assert served.headers["content-type"].startswith("text/javascript")
        assert f'from "{common}"' in served.text
        assert 'from "./common.js"' not in served.text
        nested = client.get(f"/static/games/fano.js?v={file_version(folder / 'games' / 'fano.js')}")
        assert f'from ".{common}"' in nested.text  # "../common.js?v=..." from games/
        script = folder / "common.js"
        script.write_text(script.read_text() + "// changed\n")
        second = static_url("table.js")
        assert second != first  # table.js itself is unchanged: its import is not
        changed = f"./common.js?v={file_version(script)}"
        assert changed != common
        assert f'from "{changed}"' in client.get(second).text
        assert client.get(second).headers["cache-control"] == IMMUTABLE
        assert client.get(first).headers["cache-control"] == REVALIDATE
        etag = client.get("/static/table.js").headers["etag"]
        assert client.get("/static/table.js", headers={"If-None-Match": etag}).status_code == 304
    # and the page names the new table.js
    assert second in str(render("table.html"))
