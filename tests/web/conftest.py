"""Fixtures of the web tests: a fresh database per test (SQLite, and PostgreSQL from one
throwaway cluster for the whole session), and the app over it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .pg import postgres_cluster

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


# PostgreSQL is the service tier (pytest -m service); SQLite runs in the local loop.
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.service)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'web.sqlite3'}"
        return
    server: str = request.getfixturevalue("pg_server")
    import sqlalchemy as sa

    name = f"t{next(_counter)}_{abs(hash(request.node.nodeid)) % 10**8}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()
    yield server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    from mingshu.web import create_app

    with TestClient(create_app(sqlite_url)) as c:
        yield c
