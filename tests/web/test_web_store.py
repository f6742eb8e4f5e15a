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


def test_the_rate_limit_holds_in_a_concurrent_burst(db_url: str) -> None:
    """Forty posts of one client at once, allowance ten: exactly ten stored.  Counting then
    inserting let 11 of 10 through in bursts on PostgreSQL with two workers (issue 24)."""
    import threading

    migrate(db_url)
    store = Store(db_url, rate=10)
    start = threading.Barrier(40)

    def post(i: int) -> str:
        start.wait()
        try:
            store.add_feedback(FeedbackIn("ZW-AUX-17", "1", True, f"burst {i}", "10.7.7.7"))
        except RateLimited:
            return "limited"
        return "stored"

    with ThreadPoolExecutor(max_workers=40) as pool:
        outcomes = list(pool.map(post, range(40)))
    assert outcomes.count("stored") == 10 and outcomes.count("limited") == 30
    assert len(store.feedback()) == 10
    store.dispose()


def test_times_are_stored_and_read_in_utc_with_the_offset(db_url: str) -> None:
    import datetime as dt

    migrate(db_url)
    store = Store(db_url)
    before = dt.datetime.now(dt.UTC)
    store.add_feedback(FeedbackIn("ZW-AUX-17", "1", True, "", "10.0.0.1"))
    (row,) = store.feedback()
    assert row.created.utcoffset() == dt.timedelta(0)
    assert before - dt.timedelta(seconds=5) <= row.created <= dt.datetime.now(dt.UTC)
    store.save_card("ZW-AUX-17", "1", b"png")
    with store.engine.connect() as conn:
        raw = conn.exec_driver_sql("SELECT created FROM feedback").scalar()
        card = conn.exec_driver_sql("SELECT created FROM share_card").scalar()
    if db_url.startswith("sqlite"):  # text: the offset is written out
        assert str(raw).endswith("+00:00") and str(card).endswith("+00:00")
    else:  # timestamptz
        assert raw.tzinfo is not None and card.tzinfo is not None
    store.dispose()


def test_a_time_written_before_without_the_offset_reads_as_utc(sqlite_url: str) -> None:
    import datetime as dt

    migrate(sqlite_url)
    store = Store(sqlite_url)
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO feedback (article_id, article_version, helpful, comment, client, created)"
            " VALUES ('ZW-AUX-17', '1', 1, '', 'x', '2026-11-30 23:59:58.000000')"
        )
    (row,) = store.feedback()
    assert row.created == dt.datetime(2026, 11, 30, 23, 59, 58, tzinfo=dt.UTC)
    store.dispose()


def test_the_secret_is_made_once_beside_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stat

    from mingshu.web.store import site_secret

    monkeypatch.delenv("MINGSHU_SECRET", raising=False)
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    first = site_secret(url)
    path = tmp_path / "web.sqlite3.secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 32 and first != "mingshu"
    assert site_secret(url) == first  # kept: the next start (and every worker) reads it
    assert site_secret(f"sqlite:///{tmp_path / 'other.sqlite3'}") != first
    monkeypatch.setenv("MINGSHU_SECRET", "from-the-environment-0123456789")
    assert site_secret(url) == "from-the-environment-0123456789"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3.secret", path.name]
