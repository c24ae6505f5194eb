"""Fixtures every test directory shares."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_page_language():
    """Every test starts on a fresh page (a new kernel): English, no page switch. A test that
    switches a page's language (a widget's toggle switches the page) does not leak it."""
    from tabletop_widgets.widgets.language import reset_page_language

    reset_page_language()
    yield
    reset_page_language()
