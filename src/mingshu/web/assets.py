"""Static files (stylesheets, script, icon, the CJK font) with a content ETag and a long
``Cache-Control``.

The URLs carry no version, so "immutable" would keep an old stylesheet after an upgrade:
browsers keep the files for a day (the 496 KB font for 30 days: a stale font only lacks
glyphs added since, which fall back to the next family), then revalidate with the ETag and
get a 304 while nothing changed.  The ETag is a hash of the content, not of the file's
time and size as Starlette's is, so every worker and host, and every install of the same
release, gives the same tag for the same bytes."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Final

import xxhash
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

__all__ = ["FONT_CACHE", "STATIC_CACHE", "Assets", "content_etag"]

STATIC_CACHE: Final = "public, max-age=86400"
FONT_CACHE: Final = "public, max-age=2592000"


@lru_cache(maxsize=64)
def _file_etag(path: str, _stat: tuple[int, ...]) -> str:
    # Keyed by the stat too: the change time moves on any write (utime cannot set it back).
    with open(path, "rb") as f:
        return content_etag(f.read())


def content_etag(*parts: bytes) -> str:
    """A strong ETag for the bytes ``parts`` make together: their XXH3-128 digest.  Not a
    cryptographic hash (an ETag only tells a client whether its copy is still the answer,
    and only the server makes the bytes), and every new chart answer is hashed: 2.5 µs
    for an 83 KB chart page and 0.8 µs for a 20 KB JSON answer here, where SHA-256 took
    88 and 21 µs even in hardware (SHA-NI), a twelfth of the JSON answer's CPU."""
    h = xxhash.xxh3_128()
    for part in parts:
        h.update(part)
    return '"' + h.hexdigest() + '"'


class Assets(StaticFiles):
    """:class:`StaticFiles` answering with a content ETag and ``cache_control``."""

    def __init__(self, *, directory: str | os.PathLike[str], cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        st = stat_result
        tag = _file_etag(
            os.fspath(full_path), (st.st_ino, st.st_ctime_ns, st.st_mtime_ns, st.st_size)
        )
        headers = {"etag": tag, "cache-control": self.cache_control}
        response = FileResponse(
            full_path, status_code=status_code, stat_result=stat_result, headers=headers
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
