"""What the web site stores: article feedback and rendered share cards (SQLAlchemy 2).

SQLite by default (a file under the user's data directory), PostgreSQL (psycopg 3) when
``MINGSHU_DATABASE_URL`` names one.  Times are stored and read in UTC with their offset on
both (SQLite has no zone type: the text carries ``+00:00``).  The schema is made by the
Alembic migrations in ``mingshu/web/migrations`` (:func:`migrate`), never by
``create_all``, so both databases get the same tables the same way.  The app keeps
nothing in process: every worker or host shares the one database (docs/web.md,
Scale-out).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    DateTime,
    Dialect,
    Engine,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.types import TypeEngine

__all__ = [
    "MAX_COMMENT",
    "Base",
    "Feedback",
    "FeedbackClient",
    "FeedbackIn",
    "RateLimited",
    "ShareCard",
    "Store",
    "database_url",
    "feedback_rate_from_env",
    "migrate",
    "site_secret",
]

MAX_COMMENT: Final = 2000
"""Longest feedback comment kept, in characters."""
FEEDBACK_RATE: Final = 10
"""Feedback answers allowed per client address a minute, unless ``MINGSHU_FEEDBACK_RATE``."""


def feedback_rate_from_env() -> int:
    """``MINGSHU_FEEDBACK_RATE``, else :data:`FEEDBACK_RATE`; an
    :class:`~mingshu.errors.InputError` naming it when not a whole number 1..1000000000."""
    from mingshu.web.environment import whole_number

    return whole_number("MINGSHU_FEEDBACK_RATE", FEEDBACK_RATE, 1, 1_000_000_000)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A moment kept in UTC with its offset: an aware datetime in, an aware UTC datetime out.

    PostgreSQL keeps ``timestamptz``; SQLite keeps text, written here as
    ``2026-12-02 01:50:00.000000+00:00`` (rows written before without the offset are read
    as the UTC they were).  The text sorts like the moments, so range queries still work."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(
                sqlite.DATETIME(  # type: ignore[no-untyped-call]
                    storage_format="%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:"
                    "%(second)02d.%(microsecond)06d+00:00",
                    regexp=r"(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+)(?:\.(\d+))?",
                )
            )
        return dialect.type_descriptor(DateTime(timezone=True))

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("a stored time needs its zone (naive datetime)")
        return value.astimezone(dt.UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> dt.datetime | None:
        if not isinstance(value, dt.datetime):
            return None
        if value.tzinfo is None:  # SQLite: the text is UTC
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    pass


class Feedback(Base):
    """One answer to "Was this article helpful?"."""

    __tablename__ = "feedback"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    article_id: Mapped[str] = mapped_column(String(40), index=True)
    article_version: Mapped[str] = mapped_column(String(40))
    helpful: Mapped[bool] = mapped_column(Boolean)
    comment: Mapped[str] = mapped_column(Text, default="")
    client: Mapped[str] = mapped_column(String(64), index=True)
    """A salted hash of the client's address: enough to rate-limit, not to identify."""
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)


class FeedbackClient(Base):
    """One row per client hash, written first in every feedback transaction: the database
    locks that row (PostgreSQL) or the file (SQLite) until the transaction ends, so one
    client's posts are counted and inserted one after another, by every worker and host."""

    __tablename__ = "feedback_client"

    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_post: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class ShareCard(Base):
    """A rendered share card, once per article version (every worker reads the same one)."""

    __tablename__ = "share_card"

    article_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    article_version: Mapped[str] = mapped_column(String(40), primary_key=True)
    png: Mapped[bytes] = mapped_column(LargeBinary)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime)


class RateLimited(Exception):
    """Too many feedback posts from one client in the window."""


@dataclass(frozen=True, slots=True)
class FeedbackIn:
    article_id: str
    article_version: str
    helpful: bool
    comment: str
    client_address: str


def database_url() -> str:
    """``MINGSHU_DATABASE_URL``, or an SQLite file in ``$XDG_DATA_HOME/mingshu``."""
    url = os.environ.get("MINGSHU_DATABASE_URL", "").strip()
    if url:
        if url.startswith("postgresql://") or url.startswith("postgres://"):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        return url
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(home) / "mingshu"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'web.sqlite3'}"


def site_secret(url: str) -> str:
    """``MINGSHU_SECRET``, else the secret kept beside the database at ``url``, made (32
    random bytes, mode 0600) the first time: it signs the CSRF tokens and salts the client
    hashes, so ``mingshu serve`` needs no configuration.  Beside an SQLite file it is
    ``<file>.secret``; for any other database, ``secret`` in the data folder (hosts that
    share a PostgreSQL database must share ``MINGSHU_SECRET`` instead: docs/web.md)."""
    given = os.environ.get("MINGSHU_SECRET", "")
    if given:
        return given
    import secrets

    if _in_memory(url):  # nothing outlives the process: neither may its secret
        return _process_secret()
    path = _secret_path(url)
    try:
        return _read_secret(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written under a temporary name and linked into place: two workers starting at once
    # agree on the first one linked, and nobody reads a half-written file.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(32) + "\n")
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return _read_secret(path)


def _in_memory(url: str) -> bool:
    """An SQLite database in memory (``sqlite://``, ``sqlite:///:memory:``, mode=memory)."""
    return url.startswith("sqlite") and (
        url.rstrip("/") == "sqlite:" or ":memory:" in url or "mode=memory" in url
    )


@cache
def _process_secret() -> str:
    """One random secret for this process's in-memory databases."""
    import secrets

    return secrets.token_urlsafe(32)


def _secret_path(url: str) -> Path:
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///").split("?", 1)[0] + ".secret")
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(home) / "mingshu" / "secret"


def _read_secret(path: Path) -> str:
    from mingshu.errors import InputError

    text = path.read_text().strip()
    if len(text) < 16:
        raise InputError(
            "secret", f"{path} is shorter than 16 characters: delete it to have one made"
        )
    return text


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            # WAL: readers never wait for the writer; busy_timeout: writers queue instead of
            # failing when several workers post feedback at once.
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def migrate(url: str) -> None:
    """Bring the database at ``url`` up to the newest Alembic migration."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["url"] = url
    command.upgrade(config, "head")


class Store:
    """The database the site writes to; one per app (an engine and its connection pool)."""

    def __init__(self, url: str, *, salt: str = "mingshu", rate: int = 10, window: int = 60):
        self.url = url
        self.engine = _engine(url)
        self.salt = salt
        self.rate = rate
        """Feedback posts allowed per client in ``window`` seconds."""
        self.window = window

    def client_hash(self, address: str) -> str:
        return hashlib.sha256(f"{self.salt}:{address}".encode()).hexdigest()

    def add_feedback(self, item: FeedbackIn) -> int:
        """Store one feedback answer; :class:`RateLimited` past the client's allowance.

        Atomic in the database: the transaction first writes the client's row of
        ``feedback_client`` (an upsert), which holds every other transaction of that client,
        in any worker or host, until this one has counted and inserted.  Counting then
        inserting without it let 11 of 10 through in concurrent bursts on PostgreSQL."""
        client = self.client_hash(item.client_address)
        now = dt.datetime.now(dt.UTC)
        since = now - dt.timedelta(seconds=self.window)
        insert = postgresql.insert if self.engine.dialect.name == "postgresql" else sqlite.insert
        claim = insert(FeedbackClient).values(client=client, last_post=now)
        claim = claim.on_conflict_do_update(
            index_elements=[FeedbackClient.client], set_={"last_post": now}
        )
        with Session(self.engine) as session, session.begin():
            session.execute(claim)
            recent = session.scalar(
                select(func.count())
                .select_from(Feedback)
                .where(Feedback.client == client, Feedback.created >= since)
            )
            if (recent or 0) >= self.rate:
                raise RateLimited(f"at most {self.rate} answers a minute; try again later")
            row = Feedback(
                article_id=item.article_id,
                article_version=item.article_version,
                helpful=item.helpful,
                comment=item.comment[:MAX_COMMENT],
                client=client,
                created=now,
            )
            session.add(row)
            session.flush()
            return row.id

    def feedback(self, article_id: str | None = None) -> list[Feedback]:
        with Session(self.engine) as session:
            query = select(Feedback).order_by(Feedback.id)
            if article_id is not None:
                query = query.where(Feedback.article_id == article_id)
            return list(session.scalars(query))

    def card(self, article_id: str, version: str) -> bytes | None:
        with Session(self.engine) as session:
            row = session.get(ShareCard, (article_id, version))
            return None if row is None else row.png

    def save_card(self, article_id: str, version: str, png: bytes) -> None:
        """Keep a rendered card; if another worker stored it first, theirs stays."""
        with Session(self.engine) as session:
            if session.get(ShareCard, (article_id, version)) is not None:
                return
            session.add(
                ShareCard(
                    article_id=article_id,
                    article_version=version,
                    png=png,
                    created=dt.datetime.now(dt.UTC),
                )
            )
            try:
                session.commit()
            except Exception:  # a concurrent insert of the same card: keep the first
                session.rollback()

    def ping(self) -> bool:
        with self.engine.connect() as conn:
            return conn.exec_driver_sql("SELECT 1").scalar() == 1

    def dispose(self) -> None:
        self.engine.dispose()
