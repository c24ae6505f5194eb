"""Every notebook under notebooks/ in a real Voila server and Chromium (one page load each).

* It renders: every widget output of the page (counted from the HTML Voila served) has drawn its
  view, the notebook's own marker is visible, and the page has its main heading or widgets.
* No error output (stderr/error outputs are rendered with the stderr mime type; ``--show_tracebacks``
  is on, so a failing cell shows its traceback), no "Traceback" text, no "Error displaying widget".
* No failed request and no console error (``watch_page``: only the known offline FontAwesome CDN
  request is ignored).
* ``table.ipynb`` opened without a seat token shows its clear "no seat" page: that is expected.
* The play notebooks (``play_<slug>.ipynb``) also leave a screenshot of the whole dashboard,
  ``play_<slug>.png``, and must show the four parts: creation check, sheet, tray, tracker.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from conftest import open_context

pytestmark = pytest.mark.ui

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(
    p.relative_to(NOTEBOOKS).as_posix() for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
)

LOAD_TIMEOUT = 120_000
RENDER_TIMEOUT = 60_000
WIDTH = 1100

#: What shows a page has rendered, beyond its widgets (the default: any tt- element or a heading).
MARKERS = {
    "table.ipynb": ".tt-seat-error",  # no seat token: the clear "no seat" page, not an error
    "index.ipynb": ".tt-index-page",
    "lobby.ipynb": ".tt-lobby",
    "tutorial.ipynb": ".jp-RenderedMarkdown h1",
}
DEFAULT_MARKER = "[class*='tt-'], .jp-RenderedMarkdown h1"
#: The four parts of a play dashboard: the creation check, the sheet, the tray and the tracker.
PLAY_PARTS = (".tt-play-checks", ".tt-sheet", ".tt-dice-tray", ".tt-tracker .tt-combatant")

ERROR_OUTPUTS = (
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], '
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]'
)
WIDGET_OUTPUT = re.compile(r"application/vnd\.jupyter\.widget-view\+json")


def _slug(rel: str) -> str | None:
    m = re.fullmatch(r"play_(\w+)\.ipynb", rel)
    return m.group(1) if m else None


def test_every_notebook_is_tested():
    """The list is not empty, and every play notebook is among the pages."""
    assert "index.ipynb" in PATHS and "table.ipynb" in PATHS
    assert {_slug(p) for p in PATHS if _slug(p)} >= {"ret", "seasons", "life_and_death", "threads_of_fate"}


@pytest.mark.parametrize("rel", PATHS)
def test_notebook_renders_in_voila(browser, voila_url, watch_page, screenshot_dir, rel):
    context = open_context(browser, viewport={"width": WIDTH, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        response = page.goto(f"{voila_url}/voila/render/{rel}", timeout=LOAD_TIMEOUT)
        assert response is not None and response.ok, f"{rel}: HTTP {response and response.status}"
        # Voila executed the notebook on the server and sends its outputs in the page; each
        # widget output is drawn in the browser: wait for all of them.
        n_widgets = len(WIDGET_OUTPUT.findall(response.text()))
        marker = MARKERS.get(rel, DEFAULT_MARKER)
        expect(page.locator(marker).first).to_be_visible(timeout=LOAD_TIMEOUT)
        drawn = page.locator(".jp-OutputArea-output > .jupyter-widgets")
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets').length >= n",
            arg=n_widgets,
            timeout=RENDER_TIMEOUT,
        )
        assert drawn.count() >= n_widgets
        slug = _slug(rel)
        if slug:
            expect(page.locator(".jp-RenderedMarkdown h1").first).to_be_visible()
            for part in PLAY_PARTS:
                expect(page.locator(part).first).to_be_visible(timeout=RENDER_TIMEOUT)
            # the parts built after the notebook ran are all in their frames, none failed
            expect(page.locator(".tt-part-loading")).to_have_count(0)
            expect(page.locator(".tt-part-failed")).to_have_count(0)

        errors = page.locator(ERROR_OUTPUTS)
        assert errors.count() == 0, f"{rel}: error output: {errors.first.inner_text()[:2000]}"
        text = page.locator("body").inner_text()
        assert "Traceback" not in text, f"{rel}: a traceback is shown"
        assert "Error displaying widget" not in text, f"{rel}: a widget failed to display"
        if rel == "table.ipynb":
            expect(page.locator(".tt-seat-error")).to_contain_text("No seat")

        if slug:
            # the whole dashboard in one picture: Voila's lab page scrolls inside its own
            # container, so the viewport is made as tall as the content
            height = page.evaluate(
                "() => Math.max(...Array.from(document.querySelectorAll('body, body *')).map(e => e.scrollHeight))"
            )
            page.set_viewport_size({"width": WIDTH, "height": min(int(height) + 40, 16000)})
            expect(page.locator(PLAY_PARTS[-1]).first).to_be_visible()
            page.wait_for_timeout(300)  # one relayout after the resize
            page.screenshot(path=str(screenshot_dir / f"play_{slug}.png"))
        assert watch.problems() == [], f"{rel}: {watch.problems()}"
    finally:
        context.close()
