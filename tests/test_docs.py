"""The project documents itself: README.md and docs/ never point outside the repository, every
relative link and image resolves to a file in it, and each system's page lists every GM option the
system has, with its real default.

Links to other sites are not allowed either (the docs are read offline, from a checkout or an
sdist): a page names outside things in plain words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from tabletop_widgets import available_systems, get_system

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("ret", "seasons", "life_and_death", "threads_of_fate")


def doc_files(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
_REFDEF = re.compile(r"^[ ]{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
_HTML = re.compile(r"<(?:a|img|source|link|script)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def link_targets(text: str) -> list[str]:
    """Every link and image target of a Markdown text (code blocks and code spans excluded)."""
    text = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return [m.group(1) for rx in (_INLINE, _REFDEF, _HTML) for m in rx.finditer(text)]


def link_problems(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the links of one file; empty when every one stays in the repository."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root).as_posix()
    out = []
    if "../shared" in text:
        out.append(f"{name}: mentions ../shared (outside the repository)")
    for target in link_targets(text):
        if not target:
            out.append(f"{name}: an empty link")
            continue
        if target.startswith("#"):
            continue  # a heading of the same page
        if _SCHEME.match(target) or target.startswith("//"):
            out.append(f"{name}: {target} points outside the repository")
            continue
        if target.startswith("/"):
            out.append(f"{name}: {target} is an absolute path (use a path relative to the page)")
            continue
        rel = unquote(target.split("#", 1)[0].split("?", 1)[0])
        dest = (path.parent / rel).resolve()
        if not dest.is_relative_to(root.resolve()):
            out.append(f"{name}: {target} leaves the repository")
        elif not dest.exists():
            out.append(f"{name}: {target} does not exist")
    return out


def test_the_docs_exist():
    names = {p.relative_to(ROOT).as_posix() for p in doc_files()}
    assert {"README.md", *(f"docs/systems/{slug}.md" for slug in SYSTEMS)} <= names


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_inside_the_repository(path):
    assert link_problems(path) == []


def test_the_link_check_catches_each_kind_of_bad_link(tmp_path):
    (tmp_path / "docs" / "systems").mkdir(parents=True)
    (tmp_path / "docs" / "ok.md").write_text("here")
    page = tmp_path / "docs" / "systems" / "page.md"
    page.write_text(
        '[fine](../ok.md) [fine too](../ok.md#part "title") [same page](#top) ![shot](../ok.md)\n'
        "[gone](missing.md) ![lost](img/none.png) [web](https://example.org/x) [out](../../../etc/passwd)\n"
        '[abs](/etc/hosts)\n[ref]: ../nope.md\n<a href="http://example.org">x</a> <img src="pic.png">\n'
        "`[code span](missing-but-code.md)`\n```\n[fenced](also-missing.md)\n```\n"
        "see `../shared/rules/ret.md`\n"
    )
    problems = "\n".join(link_problems(page, tmp_path))
    for bad in (
        "missing.md does not exist",
        "img/none.png does not exist",
        "https://example.org/x points outside",
        "../../../etc/passwd leaves the repository",
        "/etc/hosts is an absolute path",
        "../nope.md does not exist",
        "http://example.org points outside",
        "pic.png does not exist",
        "mentions ../shared",
    ):
        assert bad in problems, bad
    assert "ok.md" not in problems and "#top" not in problems
    assert "missing-but-code" not in problems and "also-missing" not in problems
    assert len(problems.splitlines()) == 9


def test_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = _FENCE.search(text)
    assert first_block is not None and text[: first_block.start()].strip() == ""
    commands = [line.split("#", 1)[0].strip() for line in first_block.group(0).splitlines()[1:-1]]
    assert commands == ["make play", "make test"]
    # and the pip way comes right after
    assert "pip install 'tabletop-widgets[voila]'" in text and "tabletop-widgets play" in text


def test_the_two_commands_are_make_targets():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^play:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    play = makefile.split("\nplay:", 1)[1].split("\n\n", 1)[0]
    assert "-m tabletop_widgets play" in play


# -- the systems' pages ----------------------------------------------------------------------------


def _option_rows(slug: str) -> dict[str, str]:
    """Rows of the "GM options" section of a system's page, by option name."""
    text = (ROOT / "docs" / "systems" / f"{slug}.md").read_text(encoding="utf-8")
    section = text.split("\n## GM options", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|.*$", section, re.M)}


def _shown(value) -> str:
    """A default as the pages write it."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def test_every_built_in_system_has_a_page():
    assert set(SYSTEMS) <= set(available_systems())
    for slug in available_systems():
        if slug in SYSTEMS:
            assert (ROOT / "docs" / "systems" / f"{slug}.md").is_file(), slug


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_gm_option_is_documented_with_its_default(slug):
    rules = get_system(slug).rules
    rows = _option_rows(slug)
    assert sorted(set(rules) - set(rows)) == [], f"{slug}: GM options missing from docs/systems/{slug}.md"
    assert sorted(set(rows) - set(rules)) == [], f"{slug}: documented options the system does not have"
    wrong = {name: _shown(value) for name, value in rules.items() if f"`{_shown(value)}`" not in rows[name]}
    assert wrong == {}, f"{slug}: the documented default differs from the system's"
    for name, row in rows.items():
        effect = row.rstrip().rstrip("|").rsplit("|", 1)[-1].strip()
        assert len(effect) > 10, f"{slug}: {name} has no description"


@pytest.mark.parametrize("slug", SYSTEMS)
def test_system_pages_link_back_and_to_each_other(slug):
    text = (ROOT / "docs" / "systems" / f"{slug}.md").read_text(encoding="utf-8")
    targets = set(link_targets(text))
    assert "../../README.md" in targets
    assert {f"{other}.md" for other in SYSTEMS if other != slug} <= targets
    assert f"(`{slug}`)" in text.splitlines()[0]
