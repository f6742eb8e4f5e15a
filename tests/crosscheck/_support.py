"""Helpers for the crosscheck tests: real iztro records, files of them, fake engines."""

from __future__ import annotations

import contextlib
import copy
import gzip
import json
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "iztro-2.6.0"


def load_records(name: str = "random.jsonl.gz", limit: int | None = None) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    with gzip.open(FIXTURES / name, "rt", encoding="utf-8") as f:
        for line in f:
            records.append(json.loads(line))
            if limit is not None and len(records) >= limit:
                break
    return records


def write_jsonl(path: Path, records: Iterable[Any], *, gz: bool = False) -> Path:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def engine_from(
    records: Iterable[dict[str, Any]],
    tweak: Callable[[str, dict[str, Any]], None] | None = None,
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A fake engine that answers each input with iztro's own chart (optionally tweaked)."""
    by_id = {r["input"]["id"]: r["output"] for r in records}

    def make_record(inp: dict[str, Any]) -> dict[str, Any]:
        expected = by_id[inp["id"]]
        ours = {k: copy.deepcopy(v) for k, v in expected.items() if k in ("chart", "horoscope")}
        if tweak is not None:
            tweak(inp["id"], ours)
        return ours

    return make_record


@contextlib.contextmanager
def fifo_of(path: Path, data: bytes) -> Iterator[Path]:
    """A FIFO at ``path`` whose first open reads ``data``; two more opens read nothing (so a
    reader that opens it twice sees no records instead of waiting for ever).  The writer
    still waiting at the end is released."""
    os.mkfifo(path)

    def writer() -> None:
        for chunk in (data, b"", b""):
            with contextlib.suppress(OSError), open(path, "wb") as f:
                f.write(chunk)

    threading.Thread(target=writer, daemon=True).start()
    try:
        yield path
    finally:  # release the writer still waiting to open the FIFO
        for _ in range(3):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
