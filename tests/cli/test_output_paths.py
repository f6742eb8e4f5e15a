"""Every command's output path through the one writer (issue 20 "Data is never lost"):
``--svg``, ``--report``, ``ziwei --batch --out``, ``sweep --out`` and ``library build --out``
refuse what is not a regular file (or a folder, for folders), never replace their input, keep
an existing file's mode, and make only the last folder.  Every path is in tmp_path."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app

runner = CliRunner()
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and modes: POSIX")

CHART = ["ziwei", "1987-05-16", "10:30", "-g", "female"]
LINE = {"id": "a", "date": "2000-8-16", "time": 2, "gender": "女"}
_MAIN = "import sys; from mingshu.cli import main; sys.argv[0] = 'mingshu'; main()"


def batch_file(path: Path) -> bytes:
    path.write_text(json.dumps(LINE, ensure_ascii=False) + "\n", encoding="utf-8")
    return path.read_bytes()


# ------------------------------------------------------------- not a regular file


@posix_only
@pytest.mark.parametrize("option", ["--svg", "--report", "--out"])
def test_a_fifo_is_refused_by_every_file_option(tmp_path: Path, option: str) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    source = tmp_path / "in.jsonl"
    batch_file(source)
    args = {
        "--svg": [*CHART, "--svg", str(fifo)],
        "--report": ["crosscheck", str(source), "--report", str(fifo), "--no-progress"],
        "--out": ["ziwei", "--batch", str(source), "--out", str(fifo)],
    }[option]
    result = runner.invoke(app, args)
    field = option.removeprefix("--")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {field}: ") and "FIFO" in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@posix_only
def test_svg_onto_a_symlink_leaves_the_link_and_its_file(tmp_path: Path) -> None:
    real = tmp_path / "kept.txt"
    real.write_text("kept", encoding="utf-8")
    link = tmp_path / "chart.svg"
    link.symlink_to(real)
    result = runner.invoke(app, [*CHART, "--svg", str(link)])
    assert result.exit_code == 2 and result.stderr.startswith("error: svg: ")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "kept"


def test_an_empty_svg_path_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # "" once meant the working directory
    result = runner.invoke(app, [*CHART, "--svg", ""])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: svg: give a file name, not an empty path")


def test_svg_dash_is_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [*CHART, "--svg", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("<svg") and list(tmp_path.iterdir()) == []


# --------------------------------------------------------------- modes and links


@posix_only
def test_a_new_svg_is_private_and_an_old_one_keeps_its_mode(tmp_path: Path) -> None:
    new, old = tmp_path / "new.svg", tmp_path / "old.svg"
    old.write_text("old", encoding="utf-8")
    old.chmod(0o644)  # the user made it readable by a web server: that stays
    mask = os.umask(0o022)
    try:
        for target in (new, old):
            result = runner.invoke(app, [*CHART, "--svg", str(target)])
            assert result.exit_code == 0, result.output
    finally:
        os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o600  # a birth chart is personal data
    assert stat.S_IMODE(old.stat().st_mode) == 0o644
    assert old.read_text(encoding="utf-8").startswith("<svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.svg", "old.svg"]


@posix_only
def test_a_batch_output_keeps_its_hard_link(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    batch_file(source)
    out, other = tmp_path / "out.jsonl", tmp_path / "backup-link.jsonl"
    out.write_text("old\n", encoding="utf-8")
    os.link(out, other)
    result = runner.invoke(app, ["ziwei", "--batch", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(other.read_text(encoding="utf-8"))["id"] == "a"


# ---------------------------------------------------------- the input is not output


@posix_only
@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink"])
def test_batch_out_onto_its_input_is_refused(tmp_path: Path, spelling: str) -> None:
    source = tmp_path / "in.jsonl"
    before = batch_file(source)
    out = {"same": source, "symlink": tmp_path / "l.jsonl", "hardlink": tmp_path / "h.jsonl"}
    target = out[spelling]
    if spelling == "symlink":
        target.symlink_to(source)
    elif spelling == "hardlink":
        os.link(source, target)
    result = runner.invoke(app, ["ziwei", "--batch", str(source), "--out", str(target)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: out: ") and "would be overwritten" in result.stderr
    assert source.read_bytes() == before


@posix_only
def test_batch_from_stdin_onto_the_piped_file_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    before = batch_file(source)
    with source.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-c", _MAIN, "ziwei", "--batch", "-", "--out", str(source)],
            stdin=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: out: ") and "standard input" in done.stderr
    assert source.read_bytes() == before


# --------------------------------------------------------- output folders: last only


@pytest.mark.parametrize(
    "command",
    [
        ["sweep", "ziwei", "--from", "2000", "--to", "2000", "--workers", "1"],
        ["sweep", "bazi", "--from", "2000", "--to", "2000", "--workers", "1"],
        ["library", "build"],
    ],
    ids=["sweep-ziwei", "sweep-bazi", "library-build"],
)
def test_a_missing_parent_folder_is_refused_not_made(tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "nonexistent" / "x"
    result = runner.invoke(app, [*command, "--out", str(target)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: out: ") and "does not exist" in result.stderr
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------- killed runs' leftovers


@posix_only
def test_a_batch_run_removes_a_killed_runs_temporary_file(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    batch_file(source)
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # its pid no longer exists: the run that made the leftover is gone
    leftover = tmp_path / f".out.jsonl.{child.pid}-00112233aabb.tmp"
    leftover.write_text('{"line": 1, half', encoding="utf-8")
    result = runner.invoke(
        app, ["ziwei", "--batch", str(source), "--out", str(tmp_path / "out.jsonl")]
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


def test_svg_dash_with_json_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a file named "-" would appear here
    result = runner.invoke(app, [*CHART, "--svg", "-", "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: svg: --svg - and --json both print")
    assert list(tmp_path.iterdir()) == []
