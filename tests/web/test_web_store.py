"""The feedback store on SQLite and on a real PostgreSQL server: migrations, feedback rows,
the per-client rate limit, share-card caching, and many concurrent posts with none lost."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa

from mingshu.web.store import FeedbackIn, RateLimited, Store, migrate


def test_migrations_make_the_tables(db_url: str) -> None:
    migrate(db_url)
    migrate(db_url)  # a second start-up finds nothing to do
    names = set(sa.inspect(sa.create_engine(db_url)).get_table_names())
    assert {"feedback", "share_card", "alembic_version"} <= names


def test_feedback_is_stored_and_read_back(db_url: str) -> None:
    migrate(db_url)
    store = Store(db_url)
    first = store.add_feedback(FeedbackIn("ZW-AUX-17", "1.0", True, "clear, 谢谢", "10.0.0.1"))
    store.add_feedback(FeedbackIn("BZ-SS-02", "1.0", False, "", "10.0.0.2"))
    rows = store.feedback("ZW-AUX-17")
    assert [(r.id, r.helpful, r.comment, r.article_version) for r in rows] == [
        (first, True, "clear, 谢谢", "1.0")
    ]
    assert rows[0].client != "10.0.0.1"  # only a salted hash of the address is kept
    assert len(store.feedback()) == 2
    store.dispose()


def test_rate_limit_per_client(db_url: str) -> None:
    migrate(db_url)
    store = Store(db_url, rate=3)
    for _ in range(3):
        store.add_feedback(FeedbackIn("ZW-AUX-17", "1", True, "", "10.0.0.9"))
    with pytest.raises(RateLimited):
        store.add_feedback(FeedbackIn("ZW-AUX-17", "1", True, "", "10.0.0.9"))
    store.add_feedback(FeedbackIn("ZW-AUX-17", "1", True, "", "10.0.0.10"))  # another client
    assert len(store.feedback()) == 4
    store.dispose()


def test_share_card_kept_once_per_version(db_url: str) -> None:
    migrate(db_url)
    store = Store(db_url)
    assert store.card("ZW-AUX-17", "1.0") is None
    store.save_card("ZW-AUX-17", "1.0", b"first")
    store.save_card("ZW-AUX-17", "1.0", b"second")  # the first stays
    assert store.card("ZW-AUX-17", "1.0") == b"first"
    assert store.card("ZW-AUX-17", "1.1") is None
    store.dispose()


def test_500_concurrent_posts_none_lost(db_url: str) -> None:
    migrate(db_url)
    store = Store(db_url, rate=10_000)
    items = [
        FeedbackIn("ZW-AUX-17", "1", i % 2 == 0, f"comment {i}", f"10.1.{i // 250}.{i % 250}")
        for i in range(500)
    ]
    with ThreadPoolExecutor(max_workers=50) as pool:
        ids = list(pool.map(store.add_feedback, items))
    assert len(set(ids)) == 500
    comments = sorted(r.comment for r in store.feedback())
    assert comments == sorted(f"comment {i}" for i in range(500))
    store.dispose()


def test_database_url_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from mingshu.web.store import database_url

    monkeypatch.setenv("MINGSHU_DATABASE_URL", "postgresql://u:pw@db.internal/mingshu")
    assert database_url() == "postgresql+psycopg://u:pw@db.internal/mingshu"
    monkeypatch.setenv("MINGSHU_DATABASE_URL", "")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert database_url() == f"sqlite:///{tmp_path}/mingshu/web.sqlite3"
