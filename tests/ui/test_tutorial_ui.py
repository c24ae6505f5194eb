"""The tutorial in a real Voila server and Chromium: the commands it teaches are on the page.

Voila strips the cells' code (``voila.json``: ``strip_sources``), so the tutorial used to show its
results without the ``%roll`` lines that made them. Each cell now shows its command above its
result (``tabletop_widgets.magics.show_commands``); pages that do not ask for it are as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import open_context
from tabletop_widgets.magics import command_bundle

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _commands(name: str) -> list[str]:
    """The commands a page should show: its code cells after the first (which asks for them)."""
    cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"][1:]
    return [b["text/plain"] for b in map(command_bundle, code) if b is not None]


def test_the_tutorial_shows_each_command_above_its_result(browser, voila_url, watch_page):
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/tutorial.ipynb", timeout=LOAD_TIMEOUT)
        expect(page.locator(".jp-RenderedMarkdown h1").first).to_be_visible(timeout=LOAD_TIMEOUT)
        expected = _commands("tutorial.ipynb")
        shown = page.locator("pre.tt-command")
        expect(shown).to_have_count(len(expected), timeout=LOAD_TIMEOUT)
        assert [t.strip() for t in shown.all_inner_texts()] == [e.strip() for e in expected]
        assert expected[0] == "%load_ext tabletop_widgets"
        assert any(e.startswith("%%roll --seed 17\nattack: 1d20+6 >= 14\n") for e in expected)
        # a command comes first in its cell's output, its result right below it
        cell = page.locator(".jp-Cell", has=page.locator("pre.tt-command", has_text="%roll --seed 1 1d20+5"))
        command = cell.locator("pre.tt-command").bounding_box()
        result = cell.locator(".tt-roll").bounding_box()
        assert command["y"] + command["height"] <= result["y"] + 1, (command, result)
        assert watch.problems() == []
    finally:
        context.close()


def test_a_page_that_does_not_ask_shows_no_commands(browser, voila_url, watch_page):
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{voila_url}/voila/render/gallery/tracker.ipynb", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-tracker .tt-combatant").first).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.locator("pre.tt-command")).to_have_count(0)
    finally:
        context.close()
