"""The whole suite's conftest: puts ``tests/`` on ``sys.path`` so that every test file can
``from helpers import ...`` (the shared helpers: :mod:`helpers`), whatever pytest's import mode;
and the fixtures every test directory shares."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


@pytest.fixture(autouse=True)
def _fresh_page_language():
    """Every test starts on a fresh page (a new kernel): English, no page switch. A test that
    switches a page's language (a widget's toggle switches the page) does not leak it."""
    from tabletop_widgets.widgets.language import reset_page_language

    reset_page_language()
    yield
    reset_page_language()


@pytest.fixture
def tutored_lantern_system():
    """Lantern with the Train advance (``tests/fixtures/tutored_lantern.py``), registered for the
    test (a table made in-process finds it by its slug) and unregistered after."""
    from fixtures.tutored_lantern import tutored_lantern

    from tabletop_widgets.core import register_system, unregister_system

    system = tutored_lantern()
    register_system(system)
    try:
        yield system
    finally:
        unregister_system("lantern")
