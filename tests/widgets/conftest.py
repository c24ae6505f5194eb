"""Fixtures the widget tests share."""

from __future__ import annotations

import pytest


@pytest.fixture
def table(tmp_path):
    """``test_table_view.Table``: a RET table with a GM, two players and an observer, opened
    from its seats (a test module may define its own ``table`` instead)."""
    from test_table_view import Table

    t = Table(tmp_path)
    yield t
    t.close()
