"""Fixtures for the table store tests, parametrised over backends.

``store_url`` is one fresh database per test and backend; ``open_store_at(url)`` opens another
store object (another connection, as another kernel would) on it; ``store`` is one opened store.
Backends: ``sqlite`` always; ``postgres`` when ``TABLETOP_TEST_POSTGRES`` holds a
``postgresql://`` URL of a throwaway database (issue 11 adds the backend; until then it skips).
"""
from __future__ import annotations

import os
import uuid

import pytest

from tabletop_widgets.table import open_store
from tabletop_widgets import get_system

def _postgres_url() -> str | None:
    return os.environ.get("TABLETOP_TEST_POSTGRES") or None


BACKENDS = ["sqlite"] + (["postgres"] if _postgres_url() else [])


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    if request.param == "postgres":
        try:
            from tabletop_widgets.table import postgres  # noqa: F401
        except ImportError:
            pytest.skip("PostgreSQL backend not implemented yet (issue 11)")
    return request.param


@pytest.fixture
def store_url(backend, tmp_path) -> str:
    if backend == "sqlite":
        return str(tmp_path / "table.db")
    # a fresh schema per test: the backend takes ?options=-csearch_path=... or similar; issue 11
    # may replace this with its own per-test database creation
    base = _postgres_url()
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}tabletop_schema=t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
def open_store_at():
    opened = []

    def _open(url):
        s = open_store(url)
        opened.append(s)
        return s

    yield _open
    for s in opened:
        s.close()


@pytest.fixture
def store(store_url, open_store_at):
    return open_store_at(store_url)


@pytest.fixture(scope="session")
def ret_sheet() -> dict:
    return get_system("ret").Character().to_dict()
