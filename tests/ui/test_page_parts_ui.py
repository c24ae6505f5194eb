"""A page whose parts are built after its notebook has run (``PageParts``), in a real Voila server
and Chromium: the parts still building when the browser connects arrive and fill their frames,
nothing is lost, and a part whose build fails shows its error in its frame.

The page's parts are slow on purpose (each build sleeps), so the browser connects while the kernel
is still building: it sees frames saying "Loading…" first, then every part."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from conftest import open_context, running, start_voila

pytestmark = pytest.mark.ui

SLOW_PARTS = 24
#: seconds each slow part takes to build: the browser connects long before the last one is in
BUILD_SECONDS = 0.35

CELLS = [
    "import time\n"
    "import ipywidgets as widgets\n"
    "from tabletop_widgets.widgets import PageParts\n"
    "\n"
    'parts = PageParts(locale="en")\n'
    "\n"
    "def slow(k):\n"
    "    def build():\n"
    f"        time.sleep({BUILD_SECONDS})\n"
    '        return widgets.Label(f"part {k} built", _dom_classes=("tt-slow-part",))\n'
    "    return build\n"
    "\n"
    "def broken():\n"
    '    raise LookupError("no such sheet")\n'
    "\n"
    f"frames = [parts.frame(f'p{{k}}', slow(k)) for k in range({SLOW_PARTS})]\n"
    'widgets.VBox([*frames, parts.frame("broken", broken)])',
    "parts.start()",
]


def _notebook(folder):
    nb = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "id": f"c{k}", "metadata": {}, "outputs": [], "source": src}
            for k, src in enumerate(CELLS)
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "parts.ipynb").write_text(json.dumps(nb), encoding="utf-8")


def test_parts_built_after_the_page_connected_all_arrive(browser, chromium_path, tmp_path, watch_page):
    folder = tmp_path / "pages"
    _notebook(folder)
    server = start_voila(tmp_path, tmp_path / "table.db", folder=folder)
    with running(server):
        context = open_context(browser, viewport={"width": 900, "height": 900})
        page = context.new_page()
        watch = watch_page(page)
        try:
            page.goto(f"{server.base}/voila/render/parts.ipynb", timeout=120_000)
            # the frame is there while the kernel still builds: some part still says so
            loading = page.locator(".tt-part-loading")
            expect(loading.first).to_be_visible()
            expect(loading.first).to_contain_text("Loading…")
            # then every part arrives in its own frame, in order; none is left loading
            parts = page.locator(".tt-slow-part")
            expect(parts).to_have_count(SLOW_PARTS, timeout=120_000)
            expect(loading).to_have_count(0)
            for k in range(SLOW_PARTS):
                expect(page.locator(f".tt-part-p{k} .tt-slow-part")).to_have_text(f"part {k} built")
            # the broken part says what went wrong, in its frame
            failed = page.locator(".tt-part-broken.tt-part-failed")
            expect(failed).to_contain_text("could not be built")
            expect(failed).to_contain_text("LookupError: no such sheet")
            assert watch.problems() == [], watch.problems()
        finally:
            context.close()
