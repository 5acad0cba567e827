"""The documentation's own upkeep: every guide stays short enough to read (docs/*.md and
docs/*/*.md, the dated notes apart), every relative link in docs/ and README.md lands on a file
that exists (and on a heading of it, where the link names one), and a guide split into pages
keeps its old path as the index page that links each of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: A guide has fewer lines than this; the bots' guide may have exactly this many.
GUIDE_LINES = 300
AT_MOST = {"agents.md"}
#: Not guides: the exact rules documents are the text the server serves as one page per game
#: (``/rules/GAME/exact``), and the notes are dated history.
NOT_GUIDES = ("notes", "rules")

_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`+[^`]*`+")
_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def guides() -> list[Path]:
    found = [*DOCS.glob("*.md"), *DOCS.glob("*/*.md")]
    return sorted(p for p in found if p.relative_to(DOCS).parts[0] not in NOT_GUIDES)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def _prose(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the text shown (links as their words, no code marks),
    lower case, without punctuation, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in _prose(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if match is None:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of a Markdown file whose file, or heading, is not there (named from
    `root`)."""
    broken = []
    for number, line in _prose(path.read_text(encoding="utf-8")):
        for target in _LINK.findall(_INLINE_CODE.sub("", line)):
            if _SCHEME.match(target):
                continue
            file, _, anchor = target.partition("#")
            landing = (path.parent / file).resolve() if file else path
            where = f"{path.relative_to(root)}:{number}: {target}"
            if not landing.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and landing.suffix == ".md" and anchor not in anchors(landing):
                broken.append(f"{where} (no heading with that anchor)")
    return broken


def test_every_guide_is_short() -> None:
    found = guides()
    assert DOCS / "server.md" in found
    assert DOCS / "server" / "operate.md" in found
    assert all(p.relative_to(DOCS).parts[0] != "notes" for p in found)
    long = []
    for path in found:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        limit = GUIDE_LINES if path.name in AT_MOST and path.parent == DOCS else GUIDE_LINES - 1
        if lines > limit:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines (at most {limit})")
    assert not long, "guides too long (split them by reader; history goes to docs/notes/): " + (
        "; ".join(long)
    )


def test_every_relative_link_lands() -> None:
    found = documents()
    assert len(found) > 50
    broken = [entry for path in found for entry in broken_links(path)]
    assert not broken, "broken links:\n" + "\n".join(broken)


@pytest.mark.parametrize("name", ["server", "envs", "review", "api", "fast", "runbook"])
def test_a_split_guide_keeps_its_path_as_the_index_of_its_pages(name: str) -> None:
    index = DOCS / f"{name}.md"
    pages = sorted((DOCS / name).glob("*.md"))
    assert pages, f"docs/{name}/ has no pages"
    text = index.read_text(encoding="utf-8")
    targets = {t.partition("#")[0] for _, line in _prose(text) for t in _LINK.findall(line)}
    missing = [p.name for p in pages if f"{name}/{p.name}" not in targets]
    assert not missing, f"docs/{name}.md links none of {missing}"


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    other = tmp_path / "other.md"
    other.write_text("# Other\n\n## The `tree=fast` search (compiled)\n", encoding="utf-8")
    page.write_text(
        "# Page\n\n## A heading\n\n"
        "[fine](other.md#the-treefast-search-compiled) [here](#a-heading) "
        "[web](https://example.org/x.md) `[code](nowhere.md)`\n"
        "[gone](nowhere.md) [wrong](other.md#no-such-heading) [self](#nothing)\n\n"
        "```\n[fenced](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page, tmp_path) == [
        "page.md:6: nowhere.md (no such file)",
        "page.md:6: other.md#no-such-heading (no heading with that anchor)",
        "page.md:6: #nothing (no heading with that anchor)",
    ]


def test_slugs_follow_githubs_rule() -> None:
    assert slug("The compiled search (`tree=fast`)") == "the-compiled-search-treefast"
    assert slug("The bots ([agents.md](../agents.md))") == "the-bots-agentsmd"
    assert slug("Fano's hard at ten tables") == "fanos-hard-at-ten-tables"
    assert slug("Imperfect-information search (IS-MCTS)") == "imperfect-information-search-is-mcts"
