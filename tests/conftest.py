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
    from helpers import registered

    with registered(tutored_lantern()) as system:
        yield system


@pytest.fixture
def seat_views(tmp_path):
    """A shared table in a file store, seen from its seats: ``seat_views(slug, seats,
    characters, **create_options)`` makes the table and returns ``view(seat_id)``, a new
    ``TableView`` on its own store connection (``helpers.SeatPages.view``). The connections
    close after the test."""
    from helpers import SeatPages

    made = []

    def make(slug, seats, characters, **create_options):
        made.append(SeatPages(str(tmp_path / "table.db"), slug, seats, characters, **create_options))
        return made[-1].view

    yield make
    for pages in made:
        pages.close()


@pytest.fixture
def skirmish():
    """``fixtures.skirmish.Skirmish``, its call log emptied, registered for the test."""
    from fixtures.skirmish import Skirmish
    from helpers import registered

    system = Skirmish()
    Skirmish.calls = []
    with registered(system):
        yield system


def pytest_sessionfinish(session, exitstatus):
    """Close the widgets the tests left open while ipywidgets is still whole: at interpreter
    exit its module state is gone first, and each open widget's ``__del__`` then prints an
    ignored ``AttributeError`` (hundreds of lines after the summary)."""
    ipywidgets = sys.modules.get("ipywidgets")
    if ipywidgets is not None:
        ipywidgets.Widget.close_all()
