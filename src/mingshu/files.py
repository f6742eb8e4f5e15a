"""Writing the files a user names, so that nothing already there is lost or half-written.

Every output path (``--out``, ``--report``, ``--svg``, a sweep's partitions and metadata, the
library's site) goes through :func:`replacing` (text or bytes written to a file object) or
:func:`replacing_path` (a writer that wants a path, such as pyarrow's):

* ``-`` is standard output (:func:`replacing` only).
* The target must be absent or a regular file.  A directory, FIFO, socket or device is
  refused (renaming onto ``/dev/null`` would replace the device by a regular file), and so is
  a **symbolic link**: renaming would replace the link itself, and writing through it would
  write wherever it points, which the user did not name; give the file it points to.  Only
  the last component is looked at: a path through a linked folder is fine.  A missing folder
  is refused, never created.
* The output goes to a new temporary file beside the target, ``.NAME.<pid>-<hex>.tmp``, and
  only once it is complete (and flushed to disk) does it become the target:

  - a new file is created 0600 (a birth chart is personal data; a stricter umask wins);
  - an existing file is replaced by a rename, the new file taking its permissions (and its
    owner and group, where allowed): a reader sees the old file or the new one, never half;
  - an existing file with other hard links (or whose owner cannot be kept) is rewritten in
    place from the complete temporary file, so every link sees the new text and the file
    keeps its mode, owner and links.  Only a crash during that copy can leave it partial.

* The temporary files of the same target left by a process that no longer exists (a killed
  run) are removed first.

:func:`make_folder` is the same for an output folder (a dataset, a site): only the last
component is created, and a missing parent is refused.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, BinaryIO, Final

from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "STDOUT",
    "check_folder",
    "check_not_input",
    "check_target",
    "create_beside",
    "make_folder",
    "remove_stale",
    "replacing",
    "replacing_bytes",
    "replacing_path",
]

STDOUT: Final = "-"
"""The path that means standard output."""

NEW_FILE_MODE: Final = 0o600

_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _name(path: Path | str) -> str:
    return clip(str(path))


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, for the message."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def check_target(target: Path | str, field: str) -> os.stat_result | None:
    """Whether a file may be written at ``target``: ``None`` if nothing is there (and its
    folder exists), its ``lstat`` if it is a regular file, else an :class:`InputError` on
    ``field``.  Nothing is opened or written."""
    text = str(target)
    if not text:
        raise InputError(field, "give a file name, not an empty path")
    if text.endswith(("/", os.sep)):
        raise InputError(field, f"{_name(text)} names a folder: give a file name")
    path = Path(target)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        parent = path.parent
        if not parent.is_dir():
            raise InputError(field, f"folder {_name(parent)} does not exist") from None
        return None
    except OSError as e:
        raise InputError(field, f"cannot use {_name(path)}: {e.strerror or e}") from None
    if stat.S_ISLNK(st.st_mode):
        try:
            pointed = os.readlink(path)
        except OSError:
            pointed = "?"
        raise InputError(
            field,
            f"{_name(path)} is a symbolic link (to {_name(pointed)}): give the file itself; "
            "a link is never replaced or written through",
        )
    if not stat.S_ISREG(st.st_mode):
        raise InputError(field, f"{_name(path)} is {_kind(st.st_mode)}, not a regular file")
    return st


def check_not_input(
    target: Path | str, field: str, source: Path | str | int, source_name: str
) -> None:
    """Refuse (:class:`InputError` on ``field``) to write ``target`` if it is the input
    ``source`` (a path, or an open file descriptor such as standard input's): the same file
    is recognised by its device and inode, so a symbolic link, a hard link or another
    spelling of the path is refused too."""
    if str(target) == STDOUT:
        return
    try:
        written = os.stat(target)
    except OSError:
        return  # nothing there (or unusable, which check_target says)
    try:
        read = os.fstat(source) if isinstance(source, int) else os.stat(source)
    except OSError:
        return
    if (written.st_dev, written.st_ino) == (read.st_dev, read.st_ino):
        raise InputError(
            field, f"{_name(target)} is the input {source_name}; it would be overwritten"
        )


def check_folder(folder: Path | str, field: str) -> bool:
    """Whether an output folder exists (``True``: a directory, or a link to one, which is
    followed: files are written inside it, never over it) or may be made (``False``: its
    parent exists); else an :class:`InputError` on ``field``.  Nothing is made."""
    if not str(folder):
        raise InputError(field, "give a folder name, not an empty path")
    path = Path(folder)
    if path.is_dir():
        return True
    if os.path.lexists(path):
        raise InputError(field, f"{_name(path)} exists and is not a directory")
    if not path.parent.is_dir():
        raise InputError(field, f"folder {_name(path.parent)} does not exist")
    return False


def make_folder(folder: Path | str, field: str) -> Path:
    """An output folder (:func:`check_folder`), made if missing: the last component only,
    never a missing parent."""
    path = Path(folder)
    if check_folder(path, field):
        return path
    try:
        path.mkdir()
    except FileExistsError:  # made meanwhile by another run: fine if it is a folder
        if not path.is_dir():
            raise InputError(field, f"{_name(path)} exists and is not a directory") from None
    except OSError as e:
        raise InputError(field, f"cannot make {_name(path)}: {e.strerror or e}") from None
    return path


_STALE: Final = re.compile(r"(\d+)-[0-9a-f]{12}\.tmp")


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (on POSIX; elsewhere every process counts as alive,
    since ``os.kill`` would end it)."""
    if os.name != "posix" or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def remove_stale(target: Path) -> list[Path]:
    """Remove the temporary files of ``target`` (``.NAME.<pid>-<hex>.tmp``) whose process no
    longer exists; returns those removed.  Another process's live temporary file is kept."""
    prefix = f".{target.name}."
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        match = _STALE.fullmatch(entry.name[len(prefix) :])
        if match is None or _alive(int(match[1])):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # not ours to remove, or gone already
    return removed


def create_beside(target: Path, field: str) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s folder, mode 0600 (before the umask):
    (file descriptor, path)."""
    for _ in range(100):
        tmp = target.parent / f".{target.name}.{os.getpid()}-{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, NEW_FILE_MODE), tmp
        except FileExistsError:
            continue
        except OSError as e:
            where = _name(target.parent)
            raise InputError(field, f"cannot write in {where}: {e.strerror or e}") from None
    raise InputError(field, f"cannot make a temporary file in {_name(target.parent)}")


def _keeps_owner(tmp: Path, old: os.stat_result) -> bool:
    """Give ``tmp`` the owner and group of ``old``; whether that worked."""
    now = os.stat(tmp)
    if (now.st_uid, now.st_gid) == (old.st_uid, old.st_gid):
        return True
    try:
        os.chown(tmp, old.st_uid, old.st_gid)
    except OSError:
        return False
    return True


def _commit(tmp: Path, target: Path, field: str) -> None:
    """Make the complete temporary file ``tmp`` the target (see the module)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)  # the data is on disk before the name points at it
    finally:
        os.close(fd)
    old = check_target(target, field)  # again: what is there now counts
    if old is None:
        os.replace(tmp, target)
        return
    if old.st_nlink == 1 and _keeps_owner(tmp, old):
        os.chmod(tmp, stat.S_IMODE(old.st_mode))  # after chown, which may clear setuid bits
        os.replace(tmp, target)
        return
    # Other hard links (or an owner only a rename would lose): rewrite the file in place.
    flags = os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    with open(tmp, "rb") as source, os.fdopen(os.open(target, flags), "wb") as dest:
        shutil.copyfileobj(source, dest)
        dest.flush()
        os.fsync(dest.fileno())
    tmp.unlink()


@contextmanager
def _staged(target: Path | str, field: str) -> Iterator[tuple[int, Path]]:
    """An open temporary file beside ``target`` that becomes it when the block completes
    (the block closes the descriptor); nothing changes if the block fails."""
    check_target(target, field)
    path = Path(target)
    remove_stale(path)
    fd, tmp = create_beside(path, field)
    try:
        yield fd, tmp
        _commit(tmp, path, field)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InputError(field, f"cannot write {_name(path)}: {e.strerror or e}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def replacing(target: Path | str, field: str) -> Iterator[IO[str]]:
    """A UTF-8 text file that becomes ``target`` when the block completes (and nothing if it
    fails); ``-`` is standard output.  ``field`` names the option in errors (``"report"``,
    ``"svg"``, ``"out"`` …)."""
    if str(target) == STDOUT:
        with _stdout(field):
            yield sys.stdout
        return
    with _staged(target, field) as (fd, _), os.fdopen(fd, "w", encoding="utf-8") as out:
        yield out


@contextmanager
def replacing_bytes(target: Path | str, field: str) -> Iterator[BinaryIO]:
    """:func:`replacing` for bytes."""
    if str(target) == STDOUT:
        with _stdout(field):
            yield sys.stdout.buffer
        return
    with _staged(target, field) as (fd, _), os.fdopen(fd, "wb") as out:
        yield out


@contextmanager
def replacing_path(target: Path | str, field: str) -> Iterator[Path]:
    """The path of a new temporary file for a writer that opens files by name (it may
    truncate and rewrite it); it becomes ``target`` when the block completes."""
    with _staged(target, field) as (fd, tmp):
        os.close(fd)
        yield tmp


@contextmanager
def _stdout(field: str) -> Iterator[None]:
    try:
        yield
        sys.stdout.flush()
    except OSError as e:
        raise InputError(field, f"cannot write to standard output: {e.strerror or e}") from None
