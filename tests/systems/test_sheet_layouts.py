"""The four systems' sheet layouts are pinned (issue 15): a stable dump of each ``SHEET`` (every
section, field, item field and action with all its attributes, in order) equals the committed
fixture in ``tests/fixtures/sheets/``. The sheets are declared with helpers
(``tabletop_widgets.core.sheet_helpers``); this proves the helpers build exactly what the long
declarations built.

After a deliberate change to a sheet, rewrite the fixtures and review their diff::

    .venv/bin/python tests/systems/test_sheet_layouts.py --write
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "sheets"
SLUGS = ("ret", "seasons", "life_and_death", "threads_of_fate")


def dump(value):
    """A JSON-able copy of ``value`` that keeps every attribute and every order (dataclasses by
    their fields in declaration order, mappings by insertion order, sequences as lists; a
    callable by its qualified name)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"__type__": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = dump(getattr(value, f.name))
        return out
    if isinstance(value, Mapping):
        return {str(k): dump(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [dump(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if callable(value):
        return {"__callable__": f"{value.__module__}.{value.__qualname__}"}
    raise TypeError(f"cannot dump {type(value).__name__}: {value!r}")


def sheet_lines(sheet) -> list[str]:
    """One line a section (its attributes but its fields), then one line a field (with its item
    fields): a change to a field shows as a change to its line."""
    lines = []
    for section in sheet.sections:
        head = dump(section)
        fields = head.pop("fields")
        lines.append(json.dumps(head, ensure_ascii=False))
        lines += ["  " + json.dumps(f, ensure_ascii=False) for f in fields]
    return lines


def sheet_text(slug: str) -> str:
    from tabletop_widgets import get_system

    return "\n".join(sheet_lines(get_system(slug).sheet)) + "\n"


@pytest.mark.parametrize("slug", SLUGS)
def test_sheet_equals_the_pinned_layout(slug):
    expected = (FIXTURES / f"{slug}.json").read_text(encoding="utf-8")
    actual = sheet_text(slug)
    if actual != expected:
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "pinned", "now", lineterm="", n=0)
        pytest.fail(f"the {slug} sheet differs from tests/fixtures/sheets/{slug}.json:\n" + "\n".join(list(diff)[:12]))


def test_dump_sees_every_attribute():
    from tabletop_widgets.core import Field, Section, Sheet, T

    one = Sheet((Section("s", T("S", "С"), (Field("a", T("A", "А"), "input", min=0, max=3),)),))
    other = Sheet((Section("s", T("S", "С"), (Field("a", T("A", "А"), "input", min=0, max=4),)),))
    reordered = Sheet((Section("s", {"ru": "С", "en": "S"}, (Field("a", T("A", "А"), "input", min=0, max=3),)),))
    assert dump(one) != dump(other)
    assert sheet_lines(one) != sheet_lines(reordered)  # compared as text: the order counts
    assert dump(one)["sections"][0]["fields"][0]["max"] == 3


if __name__ == "__main__":  # pragma: no cover - the fixtures' writer
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tests/systems/test_sheet_layouts.py --write")
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for s in SLUGS:
        (FIXTURES / f"{s}.json").write_text(sheet_text(s), encoding="utf-8")
        print("wrote", FIXTURES / f"{s}.json")
