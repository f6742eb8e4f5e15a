"""Output that cannot be written is one error line and exit 2, for every command: a full disk
(standard output on /dev/full) and a standard output whose encoding cannot hold 中文
(PYTHONIOENCODING=ascii).  The guard sits at the command-line entry, so these run the real
entry point in a subprocess."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

_MAIN = "import sys; from mingshu.cli import main; sys.argv = ['mingshu', *sys.argv[1:]]; main()"

COMMANDS = [
    pytest.param(["ziwei", "2000-01-01", "12:00", "-g", "male"], id="ziwei"),
    pytest.param(["ziwei", "2000-01-01", "12:00", "-g", "male", "--json"], id="ziwei-json"),
    pytest.param(["bazi", "2000-01-01", "12:00", "-g", "female"], id="bazi"),
    pytest.param(["--version"], id="version"),
]


@contextmanager
def full_disk() -> Iterator[int]:
    """A descriptor of /dev/full, the device that refuses every write: opened without
    creating or truncating anything, and only if it is that character device (were it
    missing or a regular file, writing there would make or change a file in /dev)."""
    try:
        st = os.stat("/dev/full")
    except OSError:
        pytest.skip("no /dev/full here")
    if not stat.S_ISCHR(st.st_mode):  # something replaced the machine's device: say so
        pytest.fail("/dev/full is not the character device 1,7: restore it (mknod)")
    fd = os.open("/dev/full", os.O_WRONLY)  # no O_CREAT, no O_TRUNC
    try:
        yield fd
    finally:
        os.close(fd)


def run(args: list[str], stdout: int, env: dict[str, str] | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", _MAIN, *args],
        stdout=stdout,  # a descriptor or subprocess.PIPE
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        text=True,
        check=False,
    )
    return done.returncode, done.stderr


@pytest.mark.parametrize("args", COMMANDS)
def test_a_full_disk_is_one_error_line(args: list[str]) -> None:
    with full_disk() as full:
        code, err = run(args, full)
    assert code == 2
    assert err == "error: out: cannot write standard output: No space left on device\n"


# JSON is written as UTF-8 bytes whatever the terminal's encoding, and the version is ASCII.
@pytest.mark.parametrize("args", [a for a in COMMANDS if a.id in ("ziwei", "bazi")])
def test_an_ascii_only_output_is_one_error_line(args: list[str]) -> None:
    code, err = run(args, subprocess.PIPE, {"PYTHONIOENCODING": "ascii"})
    assert code == 2
    assert err.startswith("error: out: standard output's encoding (ascii) cannot write ")
    assert err.rstrip("\n").endswith("set PYTHONIOENCODING=utf-8 (or a UTF-8 locale)")
    assert err.count("\n") == 1


def test_an_ascii_output_that_needs_no_other_character_still_works() -> None:
    code, err = run(["--version"], subprocess.PIPE, {"PYTHONIOENCODING": "ascii"})
    assert (code, err) == (0, "")


def every_command() -> list[list[str]]:
    """The words of every command and sub-command the app registers."""
    import typer.main

    from mingshu.cli import app

    found: list[list[str]] = []

    def walk(command: object, words: list[str]) -> None:
        children = getattr(command, "commands", None)
        if children is None:
            found.append(words)
            return
        for name, child in children.items():
            walk(child, [*words, name])

    walk(typer.main.get_command(app), [])
    return found


def test_every_command_is_guarded() -> None:
    """A command added later is guarded too: its help, sent to a full disk, is the one error
    line (the guard is the entry's, not each command's)."""
    commands = every_command()
    assert ["ziwei"] in commands and ["sweep", "ziwei"] in commands and len(commands) >= 10
    for words in commands:
        with full_disk() as full:
            code, err = run([*words, "--help"], full)
        assert (code, err) == (
            2,
            "error: out: cannot write standard output: No space left on device\n",
        ), words


def test_bytes_that_are_not_utf8_are_written_back_as_those_bytes() -> None:
    """The entry lets standard output write an argument's undecodable bytes (a file name
    echoed in "wrote 68 files to site\\xff") back as they came, as `ls` does, instead of
    failing with "surrogates not allowed" after the work is done."""
    code = (
        "import sys; from mingshu.cli import main; sys.argv = ['mingshu', '--version']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sys.argv[0] + 'x\\udcff')"  # the byte 0xff of an argument, as Python holds it
    )
    # PYTHONIOENCODING=utf-8 writes strictly, as a UTF-8 locale such as en_US.UTF-8 does
    # (the C locale of a bare container already writes such bytes back).
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, check=False)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.splitlines()[-1] == b"mingshux\xff"


def test_a_path_that_is_not_utf8_is_one_error_line(tmp_path: Path) -> None:
    """pyarrow cannot take such a path: an error line naming the byte, not a traceback."""
    out = os.fsdecode(bytes(tmp_path) + b"/charts\xff")
    code, err = run(
        ["sweep", "ziwei", "--from", "1990", "--to", "1990", "--workers", "1", "--out", out],
        subprocess.PIPE,
    )
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith("error: out: ")  # after the progress bar
