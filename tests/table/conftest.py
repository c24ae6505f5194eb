"""Fixtures for the table store tests, parametrised over backends.

``store_url`` is one fresh database per test and backend; ``open_store_at(url)`` opens another
store object (another connection, as another kernel would) on it; ``store`` is one opened store.
Backends: ``sqlite`` always; ``postgres`` on the server in ``TABLETOP_TEST_POSTGRES`` (a
``postgresql://`` URL of a throwaway database; one fresh schema per test, dropped afterwards).
Without it the PostgreSQL tests skip with the reason, and fail when ``CI`` is set.
"""

from __future__ import annotations

import os
import uuid

import pytest

from tabletop_widgets.table import open_store
from tabletop_widgets import get_system


def _postgres_url() -> str | None:
    return os.environ.get("TABLETOP_TEST_POSTGRES") or None


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


BACKENDS = ["sqlite", "postgres"]


def _skip_or_fail(reason: str):
    """No PostgreSQL: skip on a developer machine, fail loudly in CI (as tests/ui does)."""
    if in_ci():
        pytest.fail(f"CI is set and the PostgreSQL tests cannot run: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The ``TABLETOP_TEST_POSTGRES`` server, checked once per session (``make test`` starts a
    throwaway one with ``scripts/pg-test-server`` when run as root)."""
    url = _postgres_url()
    if not url:
        _skip_or_fail(
            "TABLETOP_TEST_POSTGRES is not set (run `eval $(scripts/pg-test-server)`, "
            "or `make test` as root, which starts a throwaway server)"
        )
    try:
        import psycopg
    except ImportError:
        _skip_or_fail("psycopg is not installed (pip install -e '.[postgres]')")
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        _skip_or_fail(f"PostgreSQL at TABLETOP_TEST_POSTGRES is not reachable: {str(exc).strip()}")
    return url


def drop_schema(url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def pg_schema_url(request):
    """``make(base_url) -> url``: a URL of a fresh schema (``tabletop_schema=``; the store
    creates it), dropped after the test."""
    made = []

    def make(base: str) -> str:
        schema = f"t_{uuid.uuid4().hex[:16]}"
        made.append((base, schema))
        sep = "&" if "?" in base else "?"
        return f"{base}{sep}tabletop_schema={schema}"

    yield make
    for base, schema in made:
        try:
            drop_schema(base, schema)
        except Exception:  # a test that stopped the server: nothing left to drop
            pass


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    if request.param == "postgres":
        request.getfixturevalue("postgres_url")
    return request.param


@pytest.fixture
def store_url(backend, tmp_path, request) -> str:
    if backend == "sqlite":
        return str(tmp_path / "table.db")
    # one fresh schema per test in the session's database (fast: no CREATE DATABASE)
    return request.getfixturevalue("pg_schema_url")(request.getfixturevalue("postgres_url"))


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
