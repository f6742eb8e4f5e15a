"""Static files and the font: a long Cache-Control, an ETag of the content, 304 when the
browser has them (issue 24, fast for a new birth)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette

from mingshu.web.assets import Assets

FILES = [
    "/static/site.css",
    "/static/site.js",
    "/static/favicon.svg",
    "/static/library.css",
    "/fonts/NotoSansCJKsc-Subset.otf",
]


def _max_age(header: str) -> int:
    m = re.search(r"max-age=(\d+)", header)
    assert m, header
    return int(m.group(1))


@pytest.mark.parametrize("path", FILES)
def test_static_files_are_cached_and_revalidated(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200 and r.content
    assert r.headers["cache-control"].startswith("public")
    day = 86_400
    assert _max_age(r.headers["cache-control"]) >= (30 * day if "/fonts/" in path else day)
    tag = r.headers["etag"]
    again = client.get(path, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == tag
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_font_is_served_whole(client: TestClient) -> None:
    shipped = Path(__file__).parents[2] / "src/mingshu/web/fonts/NotoSansCJKsc-Subset.otf"
    assert client.get("/fonts/NotoSansCJKsc-Subset.otf").content == shipped.read_bytes()


def test_the_etag_follows_the_content_not_the_file_time(tmp_path: Path) -> None:
    """Another worker, host or install has other file times: the same bytes keep their tag,
    and new bytes of the same size and time get a new one (Starlette's tag is of the time
    and size, so it missed such a change and differed between hosts)."""
    site = tmp_path / "site.css"
    site.write_text("a { color: red }")
    os.utime(site, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    app = Starlette()
    app.mount("/static", Assets(directory=tmp_path, cache_control="public, max-age=60"))
    client = TestClient(app)
    first = client.get("/static/site.css").headers["etag"]
    os.utime(site, ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    assert client.get("/static/site.css").headers["etag"] == first
    site.write_text("b { color: red }")  # same size
    os.utime(site, ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    assert client.get("/static/site.css").headers["etag"] != first


def test_a_chart_body_s_etag_follows_its_bytes_not_its_object() -> None:
    """The chart responses' ETags are found by the body's identity for repeats: equal bytes
    in another object get the same tag, other bytes another tag, even after the table of
    tags has been refilled many times over (an id Python reuses never returns a stale tag)."""
    from mingshu.web.api import etag_of

    tags = {}
    for i in range(3000):
        body = f"chart {i} ".encode() * 50
        tag = etag_of(body)
        assert etag_of(body) == tag  # the repeat, by identity
        tags[i] = tag
        del body  # its id is free for the next body
    assert len(set(tags.values())) == 3000
    for i in (0, 1, 1500, 2999):
        assert etag_of(bytes(bytearray(f"chart {i} ".encode() * 50))) == tags[i]
    assert re.fullmatch(r'"[0-9a-f]{32}"', tags[0])  # 128 bits
