"""Writing files so that nothing a user saved is lost or half-written.

Every file mingshu writes goes through :func:`replacing`: the text is written to a new
temporary file beside the target (created with the usual permissions, the umask applying,
unlike ``tempfile.mkstemp``'s owner-only 0600) and renamed onto the target only when it is
complete.  A reader, or a run killed half-way, never sees half a file; an old file stays
whole until the new one replaces it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["create_beside", "replacing"]


def create_beside(target: Path, field: str) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s directory: (file descriptor, path)."""
    for _ in range(100):
        tmp = target.parent / f".{target.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as e:
            where = clip(str(target.parent))
            raise InputError(field, f"cannot write in {where}: {e.strerror or e}") from None
    raise InputError(field, f"cannot make a temporary file in {clip(str(target.parent))}")


@contextmanager
def replacing(target: Path, field: str) -> Iterator[IO[str]]:
    """A text file that becomes ``target`` when the block completes (and nothing if it
    fails); ``field`` names the input in errors (``"report"``, ``"svg"`` …)."""
    fd, tmp = create_beside(target, field)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            yield out
        os.replace(tmp, target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InputError(field, f"cannot write {clip(str(target))}: {e.strerror or e}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
