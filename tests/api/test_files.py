"""The one writer of every output path (mingshu.files, issue 20 "Data is never lost"): only a
regular file or nothing is written over, a link is never replaced, an existing file keeps its
mode and hard links, a new one is private, ``-`` is standard output, and the temporary files
of killed runs are cleaned up.  Every path is made in tmp_path; /dev/null is only stat'ed."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mingshu.errors import InputError
from mingshu.files import (
    check_folder,
    check_not_input,
    check_target,
    make_folder,
    replacing,
    replacing_bytes,
    replacing_path,
)

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, sockets, modes: POSIX")


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def write(target: Path | str, text: str, field: str = "out") -> None:
    with replacing(target, field) as out:
        out.write(text)


def only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --------------------------------------------------------------- what may be written


@posix_only
def test_a_fifo_is_refused_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError) as e:
        write(fifo, "chart")
    assert e.value.field == "out" and "FIFO" in e.value.message
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert only(tmp_path) == ["pipe"]


@posix_only
def test_a_socket_is_refused_and_stays_a_socket(tmp_path: Path) -> None:
    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.bind(str(path))
        with pytest.raises(InputError) as e:
            write(path, "chart", "report")
        assert e.value.field == "report" and "a socket" in e.value.message
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_directory_is_refused_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "inside").write_text("kept", encoding="utf-8")
    with pytest.raises(InputError) as e:
        write(folder, "chart", "svg")
    assert e.value.field == "svg" and "a directory, not a regular file" in e.value.message
    assert (folder / "inside").read_text(encoding="utf-8") == "kept"


@posix_only
def test_dev_null_is_refused_without_writing() -> None:
    """The decision alone, on the character device's stat: nothing is opened or written."""
    with pytest.raises(InputError) as e:
        check_target(os.devnull, "report")
    assert e.value.field == "report" and "a character device" in e.value.message
    assert stat.S_ISCHR(os.lstat(os.devnull).st_mode)


@posix_only
def test_a_symlink_is_refused_and_neither_it_nor_its_file_changes(tmp_path: Path) -> None:
    real = tmp_path / "real.svg"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    with pytest.raises(InputError) as e:
        write(link, "new")
    assert e.value.field == "out" and "symbolic link" in e.value.message
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "old"
    assert only(tmp_path) == ["link.svg", "real.svg"]


@posix_only
def test_a_path_through_a_linked_folder_is_fine(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    write(tmp_path / "via" / "x.json", "{}")
    assert (tmp_path / "real" / "x.json").read_text(encoding="utf-8") == "{}"


def test_a_missing_folder_is_refused_not_made(tmp_path: Path) -> None:
    with pytest.raises(InputError) as e:
        write(tmp_path / "no" / "such" / "x.svg", "chart")
    assert "folder" in e.value.message and "does not exist" in e.value.message
    assert only(tmp_path) == []


@pytest.mark.parametrize("path", ["", "some/folder/"])
def test_an_empty_or_folder_path_is_refused_clearly(path: str) -> None:
    with pytest.raises(InputError) as e:
        check_target(path, "svg")
    assert e.value.field == "svg"
    assert ("empty path" if not path else "names a folder") in e.value.message


# ---------------------------------------------------------------- what is kept, made


@posix_only
def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    with umask(0o022):
        write(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert only(tmp_path) == ["report.jsonl"]


@posix_only
def test_an_existing_file_keeps_its_hard_links(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old text, longer than the new one", encoding="utf-8")
    target.chmod(0o604)
    other = tmp_path / "other-name.jsonl"
    os.link(target, other)
    inode = target.stat().st_ino
    write(target, "new")
    assert other.read_text(encoding="utf-8") == "new"  # every link sees the new text
    assert target.stat().st_ino == inode and target.stat().st_nlink == 2
    assert stat.S_IMODE(target.stat().st_mode) == 0o604
    assert only(tmp_path) == ["other-name.jsonl", "out.jsonl"]


@posix_only
@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o600), (0o000, 0o600), (0o277, 0o400)])
def test_a_new_file_is_private_unless_the_umask_is_stricter(
    tmp_path: Path, mask: int, mode: int
) -> None:
    target = tmp_path / "chart.svg"
    with umask(mask):
        write(target, "<svg/>")
    assert stat.S_IMODE(target.stat().st_mode) == mode


def test_a_failed_block_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), replacing(target, "out") as out:
        out.write("half")
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "old"
    assert only(tmp_path) == ["x.json"]


def test_bytes_and_path_writers_go_the_same_way(tmp_path: Path) -> None:
    with replacing_bytes(tmp_path / "a.png", "out") as out:
        out.write(b"\x89PNG")
    with replacing_path(tmp_path / "b.parquet", "out") as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".b.parquet.")
        tmp.write_bytes(b"PAR1")
    assert (tmp_path / "a.png").read_bytes() == b"\x89PNG"
    assert (tmp_path / "b.parquet").read_bytes() == b"PAR1"
    assert only(tmp_path) == ["a.png", "b.parquet"]


def test_dash_is_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a file named "-" would appear here
    write("-", "to stdout\n")
    with replacing_bytes("-", "out") as out:
        out.write(b"bytes too\n")
    assert capsys.readouterr().out == "to stdout\nbytes too\n"
    assert only(tmp_path) == []


# ------------------------------------------------------------- the input is not output


@posix_only
@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink", "descriptor"])
def test_the_input_is_recognised_in_every_spelling(tmp_path: Path, spelling: str) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("{}\n", encoding="utf-8")
    target = {"same": source, "symlink": tmp_path / "l", "hardlink": tmp_path / "h"}.get(
        spelling, source
    )
    if spelling == "symlink":
        target.symlink_to(source)
    elif spelling == "hardlink":
        os.link(source, target)
    with open(source, "rb") as f:
        what: Path | int = f.fileno() if spelling == "descriptor" else source
        with pytest.raises(InputError) as e:
            check_not_input(target, "out", what, "batch file")
    assert e.value.field == "out" and "would be overwritten" in e.value.message
    check_not_input(tmp_path / "elsewhere", "out", source, "batch file")  # absent: fine


# ------------------------------------------------------------------------ folders


def test_an_output_folder_is_made_only_as_its_last_component(tmp_path: Path) -> None:
    assert make_folder(tmp_path / "site", "out").is_dir()
    with pytest.raises(InputError) as e:
        make_folder(tmp_path / "missing" / "site", "out")
    assert e.value.field == "out" and "does not exist" in e.value.message
    assert not (tmp_path / "missing").exists()
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="not a directory"):
        check_folder(tmp_path / "file", "out")


# ------------------------------------------------------------- killed runs' leftovers


def _dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@posix_only
def test_stale_temporary_files_of_the_target_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    dead = tmp_path / f".report.jsonl.{_dead_pid()}-0123456789ab.tmp"
    live = tmp_path / f".report.jsonl.{os.getpid()}-0123456789ab.tmp"  # a run still going
    other = tmp_path / f".other.jsonl.{_dead_pid()}-0123456789ab.tmp"  # another target's
    for leftover in (dead, live, other):
        leftover.write_text("half a report", encoding="utf-8")
    write(target, "whole")
    assert not dead.exists()
    assert live.exists() and other.exists()
    assert target.read_text(encoding="utf-8") == "whole"


# ------------------------------------------------------------------------ owners


@posix_only
@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="chown needs root")
def test_an_existing_file_keeps_its_owner(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    target.write_text("old", encoding="utf-8")
    os.chown(target, 65534, 65534)  # nobody's file, written by root
    write(target, "new")
    assert (target.stat().st_uid, target.stat().st_gid) == (65534, 65534)
    assert target.read_text(encoding="utf-8") == "new"


@posix_only
def test_an_owner_a_rename_would_lose_is_kept_by_writing_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the new file cannot be given the old one's owner, the old file is rewritten in
    place (same inode, same owner) rather than replaced by a file of another owner."""
    target = tmp_path / "out.jsonl"
    target.write_text("old text", encoding="utf-8")
    before = target.stat()
    real_stat = os.stat

    def stat_as_if_another_owner(path: object, *args: object, **kwargs: object) -> object:
        st = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if str(path) == str(target):  # the target looks owned by someone else
            values = list(st)
            values[stat.ST_UID] = st.st_uid + 1
            return os.stat_result(values)
        return st

    def refuse(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("mingshu.files.os.lstat", stat_as_if_another_owner)
    monkeypatch.setattr("mingshu.files.os.chown", refuse)
    write(target, "new")
    monkeypatch.undo()
    assert target.stat().st_ino == before.st_ino
    assert target.read_text(encoding="utf-8") == "new"
    assert only(tmp_path) == ["out.jsonl"]
