"""Hostile inputs: about 6,400 bad or edge inputs over every front end of mingshu, classified.

Issue 20 asks, in "Done when", for counts: inputs tried, clean errors, tracebacks (0), wrong
exception types (0), silent changes (0).  This is that battery, reusable:

- ``cli``: every command and option of ``mingshu`` (read from the Typer app, so a new option
  is tried without editing this file) with bad dates, times, words, numbers, repeated options,
  empty strings, huge numbers, undecodable bytes (as the surrogates Python gives them),
  paths that are directories, FIFOs or missing (in a temporary folder this tool makes and
  removes), run in-process through the Typer app, plus a few real subprocesses for output
  encodings and a full disk (``> /dev/full`` as standard output);
- ``api``: the public functions and methods of both engines, ``mingshu.space``,
  ``mingshu.library``, ``mingshu.present`` and ``mingshu.ziwei.locale`` with wrong-typed and
  out-of-range arguments;
- ``batch``: ``mingshu ziwei --batch`` lines (bad JSON, wrong types, unknown keys, huge ids,
  binary);
- ``web``: the JSON API and the pages through FastAPI's TestClient (unknown, repeated and
  bad parameters).

Each input is classified:

- ``clean``: a clean refusal.  CLI: exit 2 (or 1 for an I/O failure) with exactly one stderr
  line ``error: FIELD: message``, the last one, and no "Traceback"; API: ``InputError`` (or
  ``OutOfRangeError``) with a field; web: 4xx, for ``/api`` JSON whose ``detail`` names a
  field in ``loc``;
- ``accepted``: a valid answer;
- failures: ``traceback`` (an exception escaped, or "Traceback" was printed), ``wrong type``
  (the API raised something other than InputError), ``5xx``, ``bad error`` (a refusal that
  is not the one error line, or a 4xx that names no field) and ``silent change``: an input
  whose meaning would change silently (a repeated option, an unknown web parameter, an
  impossible date, ...) was accepted, or an accepted answer changed what was given (a batch
  id, a query's cell).

Usage::

    python tools/hostile_inputs.py               # every input (about a minute); exit 1 on a failure
    python tools/hostile_inputs.py --area cli    # one area
    python tools/hostile_inputs.py --sample 25   # every 25th input of each area

Everything written goes into a temporary folder (also the working directory while the
battery runs); the web store is an SQLite file there; nothing is sent anywhere but
127.0.0.1; ``mingshu serve`` is stopped where it would bind its socket.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import gzip
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "iztro-2.6.0"

FAILURES = ("traceback", "wrong type", "5xx", "bad error", "silent change")
AREAS = ("cli", "api", "batch", "web")
ERROR_LINE = re.compile(r"^error: [^\s:][^:]*: .*\S")
# crosscheck lists each bad record of its FILE as ``error: FILE:LINE: message`` (documented).
RECORD_LINE = re.compile(r"^error: .+:\d+: .*\S")
HUGE = "9" * 5000


@dataclasses.dataclass(frozen=True)
class Outcome:
    verdict: str  # "clean", "accepted" or one of FAILURES
    detail: str = ""


@dataclasses.dataclass(frozen=True)
class Case:
    area: str
    name: str
    run: Callable[[], Outcome]
    reachable: bool = True  # False: an argument no process can be given (a NUL byte)


@dataclasses.dataclass(frozen=True)
class Result:
    area: str
    name: str
    outcome: Outcome


def _short(text: object, limit: int = 240) -> str:
    s = repr(text) if not isinstance(text, str) else text
    return s if len(s) <= limit else s[: limit - 1] + "…"


# --------------------------------------------------------------------------- the workplace


class Workplace:
    """The temporary folder, its prepared files (datasets, records, FIFOs), and cleanup."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="mingshu-hostile-"))
        self._n = 0
        self._fifos: list[tuple[Path, str]] = []
        # A library of one article: building the package's whole library takes seconds.
        self.one_article = self.root / "one-article"
        self.one_article.mkdir()
        articles = ROOT / "src" / "mingshu" / "library" / "articles"
        shutil.copy(articles / "ZW-AUX-17.md", self.one_article)

    def fresh(self, stem: str = "f") -> Path:
        """A path in the folder that does not exist yet."""
        self._n += 1
        return self.root / f"{stem}{self._n}"

    def file(self, data: bytes | str, stem: str = "in", suffix: str = "") -> Path:
        path = self.fresh(stem).with_suffix(suffix) if suffix else self.fresh(stem)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path

    def folder(self, stem: str = "d") -> Path:
        path = self.fresh(stem)
        path.mkdir()
        return path

    def fifo(self, feed: bytes | None = None) -> Path:
        """A FIFO with a thread at its other end, so no command can hang on it: it drains
        what a command writes, or feeds ``feed`` to a command that reads."""
        path = self.fresh("fifo")
        os.mkfifo(path)
        mode = "drain" if feed is None else "feed"

        def other_end() -> None:
            with contextlib.suppress(OSError):
                if feed is None:
                    with open(path, "rb") as f:
                        while f.read(65536):
                            pass
                else:
                    with open(path, "wb") as f:
                        f.write(feed)

        threading.Thread(target=other_end, daemon=True).start()
        self._fifos.append((path, mode))
        return path

    def close(self) -> None:
        # Release the threads still waiting to open a FIFO no command opened.
        for path, mode in self._fifos:
            flags = os.O_WRONLY if mode == "drain" else os.O_RDONLY
            with contextlib.suppress(OSError):
                os.close(os.open(path, flags | os.O_NONBLOCK))
        shutil.rmtree(self.root, ignore_errors=True)


# --------------------------------------------------------------------------- the CLI, in-process


class _WouldServe(Exception):
    """``mingshu serve`` got as far as binding its socket: the input was accepted."""


@contextlib.contextmanager
def _no_serving() -> Iterator[None]:
    try:
        import uvicorn
    except ImportError:
        yield
        return

    def refuse_to_bind(self: object) -> None:
        raise _WouldServe

    saved = uvicorn.Config.bind_socket
    uvicorn.Config.bind_socket = refuse_to_bind  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        uvicorn.Config.bind_socket = saved  # type: ignore[method-assign]


def run_cli(
    args: list[str], stdin: bytes = b""
) -> tuple[int | None, str, str, BaseException | None]:
    """``mingshu ARGS`` in this process: exit code, stdout, stderr, an escaped exception."""
    from mingshu.cli import app

    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    code: int | None = 0
    escaped: BaseException | None = None
    try:
        with _no_serving():
            app(args, prog_name="mingshu")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) or e.code is None else 1
    except _WouldServe:
        code = 0
    except BaseException as e:
        escaped = e
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
            with contextlib.suppress(Exception):
                stream.detach()
        sys.stdin, sys.stdout, sys.stderr = saved
    return (
        code,
        out.getvalue().decode(errors="replace"),
        err.getvalue().decode(errors="replace"),
        escaped,
    )


def judge_cli(
    code: int | None,
    out: str,
    err: str,
    escaped: BaseException | None,
    *,
    refuse: bool,
    answers: tuple[int, ...] = (0,),
    check: Callable[[str, str], str | None] | None = None,
) -> Outcome:
    if escaped is not None:
        return Outcome("traceback", f"{type(escaped).__name__}: {_short(str(escaped))}")
    if "Traceback (most recent call last)" in out + err:
        return Outcome("traceback", _short(err.strip().splitlines()[-1] if err.strip() else out))
    lines = [line for line in err.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    if code == 0 and not errors and refuse:
        return Outcome("silent change", f"exit 0; stdout {_short(out, 120)!r}")
    if code in answers and not errors:
        if check is not None:
            problem = check(out, err)
            if problem:
                return Outcome("silent change", problem)
        return Outcome("accepted", f"exit {code}")
    if (
        code in (1, 2)
        and len(errors) == 1
        and lines[-1] == errors[0]
        and ERROR_LINE.match(errors[0])
    ):
        return Outcome("clean", _short(errors[0]))
    if code == 2 and errors and lines == errors and all(RECORD_LINE.match(e) for e in errors):
        return Outcome("clean", _short(errors[0]))
    return Outcome("bad error", f"exit {code}; stderr {_short(err.strip(), 300)!r}")


def cli_case(
    name: str,
    args: list[str],
    *,
    refuse: bool,
    stdin: bytes = b"",
    answers: tuple[int, ...] = (0,),
    check: Callable[[str, str], str | None] | None = None,
    env: dict[str, str] | None = None,
    area: str = "cli",
) -> Case:
    def go() -> Outcome:
        with _environment(env or {}):
            code, out, err, escaped = run_cli(args, stdin)
        return judge_cli(code, out, err, escaped, refuse=refuse, answers=answers, check=check)

    # argv and the environment are C strings: a NUL cannot reach a real `mingshu`.
    reachable = not any("\x00" in a for a in [*args, *(env or {}).values()])
    return Case(area, name, go, reachable)


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# --------------------------------------------------------------------------- CLI inputs

# (value, refuse): refuse marks a value whose acceptance would change its meaning silently
# (an impossible date rolled over, a word that is no choice, a number out of range).
BAD_DATES: list[tuple[str, bool]] = [
    ("1990-02-30", True), ("1990-13-01", True), ("1990-00-10", True), ("1990-05-00", True),
    ("1990-05-32", True), ("2023-02-29", True), ("1900-02-30", True), ("", True), ("   ", True),
    ("x", True), ("1990-05", True), ("1990", True), ("1582-12-31", True), ("2651-01-01", True),
    ("0000-01-01", True), ("99999999999999999999-01-01", True), ("1990-99999999999999999999-01", True),
    (HUGE, True), ("1990-05-15\x00", True), ("1990-05-15\udcff", True), ("\udcff\udcfe", True),
    ("1990-05-15-01", True), ("1990--05-15", True), ("1990-05-15T10:30", False),
    ("2024-02-29", False), ("1990-5-15", False), ("1990/05/15", False), (" 1990-05-15 ", False),
    ("１９９０-０５-１５", False), ("1583-01-01", False), ("2650-12-31", False), ("1900-01-01", False),
    ("1990-05-15\n", False), ("+1990-05-15", False), ("1e3-01-01", True), ("0x7c6-05-15", True),
    ("1990.05.15", False), ("15/05/1990", True), ("-1990-05-15", True), ("1990-05-1_5", True),
]  # fmt: skip
BAD_TIMES: list[tuple[str, bool]] = [
    ("25:00", True), ("24:01", True), ("23:60", True), ("-1:00", True), ("10:30:61", True),
    ("", True), ("x", True), ("10:", True), (":30", True), ("99999999999999999999:00", True),
    ("10:99999999999999999999", True), (HUGE, True), ("10:30\x00", True), ("10:30\udcff", True),
    ("1e3", True), ("10:30:00:00", True), ("10:3_0", True), ("24:00", False), ("10", False),
    ("10:30pm", False), ("１０:３０", False), ("10.5", False), (" 10:30 ", False),
    ("23:59:59", False), ("00:00", False), ("10:30:00.5", False), ("0:0", False),
]  # fmt: skip
BAD_GENDERS: list[tuple[str, bool]] = [
    ("", True), ("x", True), ("0", True), ("1", True), ("\udcff", True), ("m" * 5000, True),
    ("male female", True), ("none", True), ("男女", True), ("M", False), ("男", False),
    ("女", False), ("MALE", False), ("Female", False), (" male ", False), ("f", False),
]  # fmt: skip
BAD_ZONES: list[tuple[str, bool]] = [
    ("Mars/Phobos", True), ("localtime", True), ("Factory", True), ("posixrules", True),
    ("../../etc/passwd", True), ("/etc/localtime", True), ("Asia/Shanghai\x00", True),
    ("x" * 5000, True), ("\udcff", True), ("", True), ("asia/shanghai", False), ("UTC", False),
    ("Etc/GMT+8", False), ("EST5EDT", False), ("America/New_York", False), ("+08:00", False),
]  # fmt: skip
BAD_LONGITUDES: list[tuple[str, bool]] = [
    ("1_16", True), ("nan", True), ("inf", True), ("-inf", True), ("181", True), ("-181", True),
    ("", True), ("x", True), ("1e3", True), ("0x10", True), (HUGE, True), ("116.4\x00", True),
    ("116.4", False), ("-73.9", False), ("0", False), ("180", False), ("116,4", False),
    ("116°", False), ("１１６", False),
]  # fmt: skip
BAD_INTS: list[tuple[str, bool]] = [
    ("", True), ("x", True), ("1.5", True), (HUGE, True), ("99999999999999999999", True),
    ("-99999999999999999999", True), ("1e3", True), ("0x10", True), ("\udcff", True),
    ("1_0", False), ("-1", False), ("0", False), ("１", False),
]  # fmt: skip
BAD_WORDS: list[tuple[str, bool]] = [
    ("nope", True), ("", True), ("\udcff", True), ("w" * 5000, True), ("next_day,same_day", True),
    ("0", True), ("true", True),
]  # fmt: skip
ANY_TEXT: list[str] = ["", " ", "\udcff", "x" * 5000, "-", "--", "'; DROP TABLE x; --"]


def _dataset_cases(w: Workplace, ds: Path, bz: Path) -> Iterator[Case]:
    """query, find and claims over good and damaged datasets."""
    good = str(ds)
    missing = str(w.fresh("nodata"))
    a_file = str(w.file("x"))
    empty = str(w.folder())
    corrupt = w.fresh("corrupt")
    shutil.copytree(ds, corrupt)
    part = next(corrupt.glob("year=*/part.parquet"))
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    meta_bad = w.fresh("metabad")
    shutil.copytree(ds, meta_bad)
    (meta_bad / "_mingshu.json").write_text("{not json")
    meta_types = w.fresh("metatypes")
    shutil.copytree(ds, meta_types)
    meta = json.loads((meta_types / "_mingshu.json").read_text())
    meta["first_year"], meta["last_year"] = "2000", [2001]
    (meta_types / "_mingshu.json").write_text(json.dumps(meta))
    meta_none = w.fresh("metanone")
    shutil.copytree(ds, meta_none)
    (meta_none / "_mingshu.json").unlink()
    holed = w.fresh("holed")
    shutil.copytree(ds, holed)
    shutil.rmtree(holed / "year=2001")
    binary_meta = w.fresh("metabin")
    shutil.copytree(ds, binary_meta)
    (binary_meta / "_mingshu.json").write_bytes(b"\xff\xfe\x00binary")
    fifo_meta = w.fresh("metafifo")
    shutil.copytree(ds, fifo_meta)
    (fifo_meta / "_mingshu.json").unlink()
    os.mkfifo(fifo_meta / "_mingshu.json")  # nothing writes: a reader must not hang on it

    damaged = {
        "missing": missing, "a file": a_file, "empty folder": empty, "corrupt part": str(corrupt),
        "malformed _mingshu.json": str(meta_bad), "mistyped _mingshu.json": str(meta_types),
        "no _mingshu.json": str(meta_none), "a year missing": str(holed),
        "binary _mingshu.json": str(binary_meta), "": "", "undecodable": "\udcff",
        "huge": "d" * 5000, "nul": "ds\x00",
    }  # fmt: skip
    fifo_ok = os.environ.get("MINGSHU_HOSTILE_FIFO_META") == "1"
    for label, path in damaged.items():
        yield cli_case(f"query dataset {label}", ["query", path, "SELECT 1"], refuse=True)
        yield cli_case(f"find dataset {label}", ["find", path, "tai_fu = 午"], refuse=True)
        yield cli_case(f"claims dataset {label}", ["claims", path], refuse=True, answers=(0, 1))
    if fifo_ok:  # opening a FIFO named _mingshu.json blocks today; off unless asked
        yield cli_case(
            "query dataset FIFO meta", ["query", str(fifo_meta), "SELECT 1"], refuse=True
        )
    yield cli_case(
        "claims a year missing, allowed",
        ["claims", str(holed), "--allow-partial"],
        refuse=False,
        answers=(0, 1),
        check=lambda out, err: None if "2001" in out + err else "no word of the missing year",
    )
    yield cli_case("claims on the BaZi dataset", ["claims", str(bz)], refuse=False, answers=(0, 1))

    def has(text: str) -> Callable[[str, str], str | None]:
        return lambda out, err: (
            None if text in out else f"{text!r} missing from {_short(out, 120)!r}"
        )

    secret = w.root / ".tmp" / "secret"  # DuckDB once allowed <cwd>/.tmp/ (issue 20)
    secret.parent.mkdir(exist_ok=True)
    secret.write_text("hostile-secret")
    bad_sql = [
        "", " ", "DROP TABLE charts", "DELETE FROM charts", "SELECT 1; SELECT 2",
        "COPY charts TO 'x.csv'", "ATTACH 'x.db' AS x", "INSTALL httpfs", "LOAD httpfs",
        "SELECT * FROM read_text('/etc/passwd')", "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('.tmp/secret')", "PRAGMA version", "SET threads=1",
        "CREATE TABLE t AS SELECT 1", "SELECT * FROM nope", "SELEC 1", "SELECT 'unterminated",
        "SELECT \udcff", "SELECT '\x00'", "SELECT " + "(" * 2000 + "1" + ")" * 2000,
        "SELECT getenv('HOME')", "SELECT * FROM glob('/*')", "CALL pragma_version()",
        "WITH x AS (DELETE FROM charts RETURNING *) SELECT * FROM x", "EXPORT DATABASE 'x'",
        "SELECT * FROM 'x.parquet'",
        "SELECT * FROM parquet_scan('/etc/passwd')", "SELECT setseed(2)",
    ]  # fmt: skip
    for sql in bad_sql:
        yield cli_case(f"query {_short(sql, 50)!r}", ["query", good, sql], refuse=True)
    yield cli_case(
        "query --json --csv", ["query", good, "SELECT 1", "--json", "--csv"], refuse=True
    )
    yield cli_case(
        "query markup-like cell", ["query", good, "SELECT '[/x]' AS a"], refuse=False,
        check=has("[/x]"),
    )  # fmt: skip
    yield cli_case(
        "query brackets kept", ["query", good, "SELECT 'a[b]c' AS a"], refuse=False,
        check=has("a[b]c"),
    )  # fmt: skip
    yield cli_case(
        "query --json HUGEINT exact",
        ["query", good, "SELECT 170141183460469231731687303715884105727::HUGEINT AS h", "--json"],
        refuse=False,
        check=has("170141183460469231731687303715884105727"),
    )
    yield cli_case(
        "query --json duplicate names",
        ["query", good, "SELECT 1 AS a, 2 AS a", "--json"],
        refuse=False,
        check=lambda out, err: (
            None
            if re.search(r"\b1\b", out) and re.search(r"\b2\b", out)
            else f"a column dropped: {_short(out, 120)!r}"
        ),
    )
    yield cli_case(
        "query --csv undecodable cell", ["query", good, "SELECT 'x\udcff' AS a", "--csv"],
        refuse=False,
    )  # fmt: skip
    yield cli_case("query huge SQL", ["query", good, "SELECT 1" + " " * 200_000], refuse=False)
    for sql in ("SELECT 1 AS a", "SELECT count(*) FROM charts", "SELECT NULL AS n",
                "SELECT '男' AS g", "SELECT 1.5::DOUBLE AS d, 'nan'::DOUBLE AS e",
                "SELECT [1, 2] AS l, {'a': 1} AS s", "SELECT DATE '2000-01-01' AS d",
                "SELECT '\\x00' AS z"):  # fmt: skip
        for fmt in ([], ["--json"], ["--csv"]):
            yield cli_case(f"query {sql!r} {fmt}", ["query", good, sql, *fmt], refuse=False)

    bad_expr = [
        "", " ", "en_guang =", "= 1", "nope = 1", "tai_fu = nope", "tai_fu = 午 and", "(tai_fu = 午",
        "tai_fu = 午)", "tai_fu in ()", "tai_fu in (午", "1 = 1; DROP TABLE charts",
        "tai_fu = 午' OR '1'='1", "tai_fu = \udcff", "not", "and", "tai_fu == 午",
        "tai_fu = 午 or or tai_fu = 子", "x" * 5000, "(" * 500 + "tai_fu = 午" + ")" * 500,
        "tai_fu = 99", "life_branch = 13", "gender = x", "tai_fu = \x00",
    ]  # fmt: skip
    for expr in bad_expr:
        yield cli_case(f"find {_short(expr, 50)!r}", ["find", good, expr], refuse=True)
    for expr in ("tai_fu = 午", "en_guang = tian_gui", "gender = 男", "gender = female",
                 "not tai_fu = 午", "tai_fu in (午, 子)", "tai_fu != 午 and life_branch = 子"):  # fmt: skip
        yield cli_case(f"find {expr!r}", ["find", good, expr], refuse=False)
    for by, refuse in (("nope", True), ("", True), ("HOUR", False), ("\udcff", True),
                       ("hour,month", True), ("month", False), ("life", False), ("body", False)):  # fmt: skip
        yield cli_case(
            f"find --by {by!r}", ["find", good, "tai_fu = 午", "--by", by], refuse=refuse
        )


def _path_cases(w: Workplace, iztro: Path) -> Iterator[Case]:
    """Output and input paths: directories, FIFOs, missing parents, the input itself."""
    base = ["ziwei", "1990-05-15", "10:30", "-g", "male"]
    line = b'{"id": "a", "date": "2000-8-16", "time": 2, "gender": "\xe5\xa5\xb3"}\n'

    def outs() -> dict[str, tuple[str, bool]]:
        link_to_fifo = w.fresh("link")
        link_to_fifo.symlink_to(w.fifo())
        return {
            "a folder": (str(w.folder()), True),
            "a FIFO": (str(w.fifo()), True),
            "a link to a FIFO": (str(link_to_fifo), True),
            "a missing parent": (str(w.fresh("nodir") / "x"), True),
            "empty": ("", True),
            "a file under a file": (str(w.file("x") / "y"), True),
            "nul": ("x\x00y", True),
            "undecodable": (str(w.fresh("u")) + "\udcff", False),
            "huge": ("p" * 5000, True),
            "a new file": (str(w.fresh("new")), False),
            "an old file": (str(w.file("old")), False),
        }

    def case(name: str, args: list[str], *, refuse: bool, answers: tuple[int, ...] = (0,)) -> Case:
        if "FIFO" in name:  # a command that blocks on it must not stop the battery
            return process_case(w, name, list(args), refuse=refuse, answers=answers, timeout=60)
        return cli_case(name, args, refuse=refuse, answers=answers)

    for label, (path, refuse) in outs().items():
        yield case(f"ziwei --svg {label}", [*base, "--svg", path], refuse=refuse)
    for label, (path, refuse) in outs().items():
        src = w.file(line)
        yield case(
            f"batch --out {label}", ["ziwei", "--batch", str(src), "--out", path], refuse=refuse
        )
    for label, (path, refuse) in outs().items():
        yield case(
            f"crosscheck --report {label}",
            ["crosscheck", str(iztro), "--no-progress", "--report", path],
            refuse=refuse,
            answers=(0, 1),
        )
    for label, (path, refuse) in outs().items():  # an empty folder is a good place for both
        yield case(
            f"sweep ziwei --out {label}",
            ["sweep", "ziwei", "--from", "2000", "--to", "2000", "--workers", "1", "--out", path],
            refuse=refuse and label != "a folder",
        )
    for label, (path, refuse) in outs().items():
        yield case(f"library build --out {label}",
                       ["library", "build", "--root", str(w.one_article), "--out", path],
                       refuse=refuse and label != "a folder")  # fmt: skip

    # The input itself as the output: refused by name, link or hard link.
    src = w.file(line)
    link = w.fresh("link")
    link.symlink_to(src)
    hard = w.fresh("hard")
    os.link(src, hard)
    for label, out in (("the input", src), ("a link to the input", link), ("a hard link", hard)):
        yield cli_case(
            f"batch --out {label}", ["ziwei", "--batch", str(src), "--out", str(out)], refuse=True
        )
        record = w.file(iztro.read_bytes(), suffix=".jsonl")
        rlink, rhard = w.fresh("rl"), w.fresh("rh")
        rlink.symlink_to(record)
        os.link(record, rhard)
        target = {"the input": record, "a link to the input": rlink, "a hard link": rhard}[label]
        yield cli_case(
            f"crosscheck --report {label}",
            ["crosscheck", str(record), "--no-progress", "--report", str(target)],
            refuse=True,
            answers=(0, 1),
        )

    def inputs() -> dict[str, tuple[str, bool]]:
        return {
            "missing": (str(w.fresh("none")), True),
            "a folder": (str(w.folder()), True),
            "empty": (str(w.file(b"")), False),
            "binary": (str(w.file(bytes(range(256)) * 4)), True),
            "latin-1": (str(w.file("é\n".encode("latin-1"))), True),
            "a FIFO fed one line": (str(w.fifo(line)), False),
            "a name of nothing": ("", True),
            "nul": ("a\x00b", True),
        }

    for label, (path, refuse) in inputs().items():
        yield case(f"batch input {label}", ["ziwei", "--batch", path], refuse=refuse)
    for label, (path, _) in inputs().items():
        # An empty file compares nothing: exit 3, never a pass.
        yield case(f"crosscheck input {label}", ["crosscheck", path, "--no-progress"], refuse=True,
                       answers=(1, 3))  # fmt: skip
    gz_bad = w.file(b"\x1f\x8b\x08\x00garbage", suffix=".gz")
    gz_cut = w.file(gzip.compress(iztro.read_bytes())[:40], suffix=".gz")
    not_gz = w.file(b"plain text\n", suffix=".gz")
    for label, path in (("a bad .gz", gz_bad), ("a cut .gz", gz_cut), ("text named .gz", not_gz)):
        yield cli_case(f"crosscheck {label}", ["crosscheck", str(path), "--no-progress"], refuse=True,
                       answers=(1, 3))  # fmt: skip
    first = json.loads(iztro.read_text().splitlines()[0])
    for label, output in (
        ("output ok only", {"ok": True}),
        ("empty chart", {"ok": True, "chart": {}}),
        ("ok missing", {k: v for k, v in first["output"].items() if k != "ok"}),
        ("ok null", {**first["output"], "ok": None}),
        ('ok "false"', {**first["output"], "ok": "false"}),
        ("output a list", []),
        ("output null", None),
    ):
        rec = w.file(json.dumps({"input": first["input"], "output": output}) + "\n")
        yield cli_case(f"crosscheck record {label}", ["crosscheck", str(rec), "--no-progress"],
                       refuse=True, answers=(1, 3))  # fmt: skip
    for label, text in (
        ("not JSON", "{nope\n"), ("a list", "[1, 2]\n"), ("no input", '{"output": {}}\n'),
        ("input a string", '{"input": "x", "output": {}}\n'), ("deep", "[" * 100_000 + "\n"),
        ("huge number", '{"input": {"date": 1e999}, "output": {}}\n'),
    ):  # fmt: skip
        rec = w.file(text)
        yield cli_case(f"crosscheck line {label}", ["crosscheck", str(rec), "--no-progress"],
                       refuse=True, answers=(1, 3))  # fmt: skip

    # The library's folders.
    binary_md = w.folder()
    (binary_md / "ZW-AUX-17.md").write_bytes(b"\xff\xfe\x00\x01binary")
    broken = w.folder()
    (broken / "ZW-AUX-17.md").write_text("---\nid: [unclosed\n---\nbody\n")
    planned = w.folder()
    (planned / "_planned.yaml").write_text("{nope: [")
    roots = {
        "missing": (str(w.fresh("noroot")), True),
        "a file": (str(w.file("x")), True),
        "empty": (str(w.folder()), True),
        "binary .md": (str(binary_md), True),
        "broken front matter": (str(broken), True),
        "broken _planned.yaml": (str(planned), True),
        "empty string": ("", False),
        "undecodable": ("\udcff", True),
    }
    for label, (root, refuse) in roots.items():
        yield cli_case(f"library show --root {label}", ["library", "show", "ZW-AUX-17", "--root", root],
                       refuse=refuse)  # fmt: skip
        if root:  # with no root the package's library would be checked over a whole space
            yield cli_case(
                f"library check --root {label}",
                ["library", "check", "--root", root, "--space", str(w.folder()), "--years",
                 "2000:2000", "--quiet"],
                refuse=refuse, answers=(1,),
            )  # fmt: skip
        yield cli_case(
            f"library build --root {label}",
            ["library", "build", "--root", root, "--out", str(w.fresh("site"))],
            refuse=refuse and label != "empty",
        )  # fmt: skip  (a site of no articles)
    for years in ("x", "2000:1990", "1899:1900", "2000:2101", "", ":", "a:b", HUGE,
                  "2000:2000:2000", "\udcff"):  # fmt: skip
        # --years is read before any sweep starts, so the package's library is safe here
        yield cli_case(
            f"library check --years {_short(years, 20)!r}",
            ["library", "check", "--years", years, "--space", str(w.folder()), "--quiet"],
            refuse=True, answers=(1,),
        )  # fmt: skip


def _ziwei_cases(w: Workplace) -> Iterator[Case]:
    base_t = ["10:30", "-g", "male"]
    for value, refuse in BAD_DATES:
        yield cli_case(
            f"ziwei date {_short(value, 30)!r}", ["ziwei", value, *base_t], refuse=refuse
        )
        yield cli_case(f"bazi date {_short(value, 30)!r}", ["bazi", value, *base_t], refuse=refuse)
    for value, refuse in BAD_TIMES:
        yield cli_case(
            f"ziwei time {_short(value, 30)!r}",
            ["ziwei", "1990-05-15", value, "-g", "male"],
            refuse=refuse,
        )
        yield cli_case(
            f"bazi time {_short(value, 30)!r}",
            ["bazi", "1990-05-15", value, "-g", "male"],
            refuse=refuse,
        )
    for value, refuse in BAD_GENDERS:
        yield cli_case(
            f"ziwei gender {_short(value, 30)!r}",
            ["ziwei", "1990-05-15", "10:30", "-g", value],
            refuse=refuse,
        )
        yield cli_case(
            f"bazi gender {_short(value, 30)!r}",
            ["bazi", "1990-05-15", "10:30", "-g", value],
            refuse=refuse,
        )
    for value, refuse in BAD_ZONES:
        for cmd in ("ziwei", "bazi"):
            yield cli_case(
                f"{cmd} --tz {_short(value, 30)!r}",
                [cmd, "1990-05-15", "10:30", "-g", "male", "--tz", value],
                refuse=refuse,
            )
    for value, refuse in BAD_LONGITUDES:
        for cmd in ("ziwei", "bazi"):
            yield cli_case(
                f"{cmd} --longitude {_short(value, 30)!r}",
                [cmd, "1990-05-15", "10:30", "-g", "male", "--tz", "Asia/Shanghai", "--longitude", value,
                 "--true-solar-time"],
                refuse=refuse,
            )  # fmt: skip
    for value, refuse in [*BAD_INTS, ("2", True), ("-1", True), ("1", False)]:
        for cmd in ("ziwei", "bazi"):
            yield cli_case(f"{cmd} --fold {_short(value, 20)!r}",
                           [cmd, "2021-11-07", "01:30", "-g", "male", "--tz", "America/New_York", "--fold", value],
                           refuse=(refuse or value in ("-1", "2")) and value != "１")  # fmt: skip
    for value, refuse in [*BAD_INTS, ("13", True), ("12", False)]:
        yield cli_case(f"ziwei --time-index {_short(value, 20)!r}", ["ziwei", "1990-05-15", "-g", "male", "--time-index", value],
                       refuse=refuse or value == "-1")  # fmt: skip
    z = ["ziwei", "1990-05-15", "10:30", "-g", "male"]
    b = ["bazi", "1990-05-15", "10:30", "-g", "male"]
    for value, refuse in (("1989-01-01", True), ("1990-05-15T08:00", True), ("1990-02-30", True),
                          ("x", True), ("", True), ("2026-01-01T25:00", True), ("2651-01-01", True),
                          ("2026-01-01", False), ("2026-01-01T10:30", False), ("2026-1-1", False),
                          (HUGE, True), ("\udcff", True)):  # fmt: skip
        yield cli_case(f"ziwei --at {_short(value, 20)!r}", [*z, "--at", value], refuse=refuse)
    # Settings that do not fit together, or an option that does not apply to the mode.
    for label, args in (
        ("fold 1 without a zone", [*z, "--fold", "1"]),
        ("time and --time-index", [*z, "--time-index", "3"]),
        ("--leap without --lunar", [*z, "--leap"]),
        ("bazi --leap without --lunar", [*b, "--leap"]),
        (
            "--lunar --leap of a month with no leap",
            ["ziwei", "2023-03-01", "10:30", "-g", "male", "--lunar", "--leap"],
        ),
        (
            "bazi lunar day 30 of a short month",
            ["bazi", "2023-01-30", "10:30", "-g", "male", "--lunar"],
        ),
        (
            "--true-solar-time without --longitude",
            [*z, "--tz", "Asia/Shanghai", "--true-solar-time"],
        ),
        ("--true-solar-time without --tz", [*z, "--longitude", "116.4", "--true-solar-time"]),
        ("--svg-layout without --svg", [*z, "--svg-layout", "column"]),
        ("--analysis without --batch", [*z, "--analysis"]),
        ("--out without --batch", [*z, "--out", str(w.fresh("o"))]),
        ("--batch with a date", [*z, "--batch", str(w.file(b""))]),
        (
            "--school quanshu --algorithm zhongzhou",
            [*z, "--school", "quanshu", "--algorithm", "zhongzhou"],
        ),
        ("--lang and --names", [*z, "--lang", "en-US", "--names", "pinyin"]),
        (
            "--mutagen twice for one stem",
            [*z, "--mutagen", "庚=太阳,武曲,天府,天同", "--mutagen", "庚=太阳,武曲,天府,天同"],
        ),
        (
            "--mutagen 庚 and geng",
            [*z, "--mutagen", "庚=太阳,武曲,天府,天同", "--mutagen", "geng=太阳,武曲,天府,天同"],
        ),
        (
            "--brightness twice for one star",
            [
                *z,
                "--brightness",
                "紫微=" + ",".join(["庙"] * 12),
                "--brightness",
                "zi_wei=" + ",".join(["旺"] * 12),
            ],
        ),
        ("--star twice for one star", [*b, "--star", "wen_chang=w1", "--star", "wen_chang=w2"]),
        ("--profile unknown", [*b, "--profile", "nope"]),
        ("bazi --tz missing value", [*b, "--tz"]),
        ("ziwei extra argument", [*z, "extra"]),
        ("bazi no date", ["bazi"]),
        ("ziwei no gender", ["ziwei", "1990-05-15", "10:30"]),
        ("ziwei -g missing value", ["ziwei", "1990-05-15", "10:30", "-g"]),
        ("bazi --year before the birth year", [*b, "--year", "1800"]),
        ("bazi --year past 150 years", [*b, "--year", "2200"]),
        ("bazi --year before birth", [*b, "--year", "1980"]),
        ("bazi --luck-steps 0", [*b, "--luck-steps", "0"]),
        ("bazi --luck-steps -1", [*b, "--luck-steps", "-1"]),
        ("bazi --luck-steps 1000", [*b, "--luck-steps", "1000"]),
    ):
        refuse = label not in ("bazi --year before birth", "--lang and --names", "bazi --luck-steps 1000",
                               "bazi --luck-steps 0", "--true-solar-time without --longitude")  # fmt: skip
        yield cli_case(f"mode: {label}", args, refuse=refuse)
    for value, refuse in (("庚=太阳", True), ("x=太阳,武曲,天府,天同", True), ("庚", True), ("", True),
                          ("庚=太阳,太阳,太阳,太阳", True), ("庚=太阳,武曲,天府,天同,紫微", True),
                          ("庚=nope,武曲,天府,天同", True), ("=", True), ("庚=太阳,武曲,天府,天同", False),
                          ("geng=tai_yang,wu_qu,tian_fu,tian_tong", False), ("\udcff=x", True), ("庚=" + "x," * 3000, True)):  # fmt: skip
        yield cli_case(
            f"ziwei --mutagen {_short(value, 30)!r}", [*z, "--mutagen", value], refuse=refuse
        )
    grades = ",".join(["庙"] * 12)
    for value, refuse in (("紫微=庙", True), ("nope=" + grades, True), ("紫微", True), ("", True),
                          ("紫微=" + ",".join(["x"] * 12), True), ("紫微=" + ",".join(["庙"] * 13), True),
                          ("紫微=" + grades, False), ("紫微=" + ",".join(["-"] * 12), False)):  # fmt: skip
        yield cli_case(
            f"ziwei --brightness {_short(value, 30)!r}", [*z, "--brightness", value], refuse=refuse
        )
    for value, refuse in (("wen_chang=nope", True), ("nope=w1", True), ("wen_chang", True), ("", True),
                          ("=", True), ("wen_chang=w2", False), ("文昌贵人=w2", False), ("\udcff=w1", True)):  # fmt: skip
        yield cli_case(f"bazi --star {_short(value, 30)!r}", [*b, "--star", value], refuse=refuse)
    for value, refuse in (("tai_ji=nope", True), ("nope=year_stem", True), ("tai_ji", True), ("", True),
                          ("tai_ji=year_stem", False), ("tian_yi=day_stem+year_stem", False),
                          ("tian_yi=day_stem+day_stem", True), ("tian_yi=+", True)):  # fmt: skip
        yield cli_case(
            f"bazi --star-basis {_short(value, 30)!r}", [*b, "--star-basis", value], refuse=refuse
        )
    for value, refuse in (("1800", True), ("x", True), ("", True), (HUGE, True), ("2026", False)):
        yield cli_case(f"bazi --year {_short(value, 20)!r}", [*b, "--year", value], refuse=refuse)
    for value in ("hans", "hant", "pinyin", "english", "nope", "", "HANS"):
        yield cli_case(
            f"ziwei --names {value!r}", [*z, "--names", value], refuse=value in ("nope", "")
        )
    for value in ("zh-CN", "en-US", "ja-JP", "pinyin", "nope", "", "zh", "EN-us"):
        yield cli_case(
            f"ziwei --lang {value!r}", [*z, "--lang", value], refuse=value in ("nope", "")
        )
    svg = str(w.fresh("svg"))
    for value in ("board", "column", "nope", ""):
        yield cli_case(f"ziwei --svg-layout {value!r}", [*z, "--svg", svg + value, "--svg-layout", value],
                       refuse=value in ("nope", ""))  # fmt: skip


def _setting_word_cases() -> Iterator[Case]:
    """Every word option of ziwei, bazi and the sweeps, with words that are no choice."""
    from mingshu.options import BAZI, ZIWEI

    z = ["ziwei", "1990-05-15", "10:30", "-g", "male"]
    b = ["bazi", "1990-05-15", "10:30", "-g", "male"]
    for table, base in ((ZIWEI, z), (BAZI, b)):
        for setting in table:
            words = getattr(setting, "words", None)
            option = getattr(setting, "option", None) or "--" + setting.name.replace("_", "-")
            if not words:
                continue
            for word, refuse in BAD_WORDS:
                yield cli_case(
                    f"{base[0]} {option} {_short(word, 20)!r}", [*base, option, word], refuse=refuse
                )
            for word in list(words)[:6]:
                text = word if isinstance(word, str) else getattr(word, "key", str(word))
                yield cli_case(f"{base[0]} {option} {text!r}", [*base, option, text], refuse=False)


def _sweep_cases(w: Workplace, ds: Path) -> Iterator[Case]:
    def sweep(kind: str, *more: str, first: str = "2000", last: str = "2000") -> list[str]:
        return [
            "sweep",
            kind,
            "--from",
            first,
            "--to",
            last,
            "--workers",
            "1",
            "--out",
            str(w.fresh("sw")),
            *more,
        ]

    for kind in ("ziwei", "bazi"):
        for first, last in (("1582", "1583"), ("2650", "2651"), ("2001", "2000"), ("x", "2000"),
                            ("", "2000"), (HUGE, HUGE), ("-2000", "2000"), ("2000.0", "2000"),
                            ("99999999999999999999", "2000")):  # fmt: skip
            yield cli_case(f"sweep {kind} --from {_short(first, 20)} --to {_short(last, 20)}",
                           sweep(kind, first=first, last=last), refuse=True)  # fmt: skip
        for workers, refuse in (
            ("0", True),
            ("-1", True),
            ("x", True),
            ("1000000", False),
            ("", True),
        ):
            args = sweep(kind)
            args[args.index("--workers") + 1] = workers
            yield cli_case(f"sweep {kind} --workers {workers!r}", args, refuse=refuse)
        for backend in ("nope", "", "NUMPY", "\udcff"):
            yield cli_case(f"sweep {kind} --backend {backend!r}", sweep(kind, "--backend", backend),
                           refuse=backend != "NUMPY")  # fmt: skip
        yield cli_case(f"sweep {kind} --from twice", [*sweep(kind), "--from", "2001"], refuse=True)
        yield cli_case(
            f"sweep {kind} no --out", ["sweep", kind, "--from", "2000", "--to", "2000"], refuse=True
        )
    for sched in ("nope", "", "tcp://", "tcp://127.0.0.1:notaport", "http://127.0.0.1:1", "\udcff"):
        yield cli_case(
            f"sweep ziwei --scheduler {sched!r}", sweep("ziwei", "--scheduler", sched), refuse=True
        )
    for word in ("nope", "", "next_day,same_day"):
        yield cli_case(
            f"sweep bazi --late-rat-hour {word!r}",
            sweep("bazi", "--late-rat-hour", word),
            refuse=True,
        )
    yield cli_case("sweep ziwei --school quanshu --algorithm zhongzhou",
                   sweep("ziwei", "--school", "quanshu", "--algorithm", "zhongzhou"), refuse=True)  # fmt: skip
    yield cli_case(
        "sweep ziwei --age-count (horoscope only)",
        sweep("ziwei", "--age-count", "birthday"),
        refuse=True,
    )
    # Resuming into a dataset swept with other settings would mix two spaces.
    for more in (
        ["--late-rat-hour", "same_day"],
        ["--algorithm", "zhongzhou"],
        ["--year-boundary", "spring_begins"],
    ):
        yield cli_case(
            f"sweep ziwei resume with {more[0]} {more[1]}",
            [
                "sweep",
                "ziwei",
                "--from",
                "2000",
                "--to",
                "2001",
                "--workers",
                "1",
                "--out",
                str(ds),
                *more,
            ],
            refuse=True,
        )
    yield cli_case("sweep bazi into a Zi Wei dataset",
                   ["sweep", "bazi", "--from", "2000", "--to", "2000", "--workers", "1", "--out", str(ds)],
                   refuse=True)  # fmt: skip


def _misc_cases(w: Workplace) -> Iterator[Case]:
    for args in (["nope"], ["--nope"], ["ziwei", "--nope"], [""], ["\udcff"], ["ZIWEI"],
                 ["library", "nope"], ["sweep", "nope"], ["feedback", "nope"], ["library", "show"],
                 ["query"], ["find", "x"], ["crosscheck"], ["--version", "--version"], ["-"], ["--"]):  # fmt: skip
        yield cli_case(f"command {args!r}", args, refuse=args not in (["--version", "--version"],))
    for article, refuse in (("nope", True), ("", True), ("../../etc/passwd", True), ("ZW-AUX-17\x00", True),
                            ("z" * 5000, True), ("\udcff", True), ("zw-aux-17", False), ("ZW-AUX-17", False),
                            (" ZW-AUX-17 ", False), ("ZW-AUX-99", True)):  # fmt: skip
        yield cli_case(
            f"library show {_short(article, 20)!r}", ["library", "show", article], refuse=refuse
        )
    for engine, names, refuse in (("nope", "hans", True), ("", "hans", True), ("\udcff", "hans", True),
                                  ("z" * 5000, "hans", True), ("ziwei\x00", "hans", True), ("bazi", "x", True),
                                  ("bazi", "\udcff", True), ("ZIWEI", "hans", False), (" bazi ", "English", False)):  # fmt: skip
        yield cli_case(
            f"library stars {_short(engine, 20)!r} --names {_short(names, 10)!r}",
            ["library", "stars", engine, "--names", names], refuse=refuse,
        )  # fmt: skip
    for host, refuse in (("not a host", True), ("", True), ("256.0.0.1", True), ("127.0.0.1:80", True),
                         ("h" * 300, True), ("\udcff", True), ("-1", True), ("[::1]", True),
                         ("http://127.0.0.1", True), ("127.0.0.1\x00", True), ("127.0.0.1", False),
                         ("localhost", False), ("::1", False)):  # fmt: skip
        yield cli_case(
            f"serve --host {_short(host, 20)!r}",
            ["serve", "--host", host, "--port", "18999"],
            refuse=refuse,
        )
    for port, refuse in (
        ("0", True),
        ("65536", True),
        ("-1", True),
        ("x", True),
        ("", True),
        (HUGE, True),
    ):
        yield cli_case(
            f"serve --port {_short(port, 20)!r}", ["serve", "--port", port], refuse=refuse
        )
    for workers, refuse in (("0", True), ("65", True), ("-1", True), ("x", True), ("", True)):
        yield cli_case(
            f"serve --workers {workers!r}", ["serve", "--workers", workers], refuse=refuse
        )
    yield cli_case(
        "serve --port twice", ["serve", "--port", "18999", "--port", "18998"], refuse=True
    )
    for last, refuse in (("-1", True), ("x", True), (HUGE, True), ("0", False), ("5", False)):
        yield cli_case(
            f"feedback list --last {_short(last, 20)!r}",
            ["feedback", "list", "--last", last],
            refuse=refuse,
        )
    for article in ("", "\udcff", "z" * 5000, "ZW-AUX-17", "'; DROP TABLE feedback; --"):
        yield cli_case(
            f"feedback list --article {_short(article, 20)!r}",
            ["feedback", "list", "--article", article],
            refuse=False,
        )
    for url in ("sqlite:////nonexistent-hostile-dir/x.db", "nope://", "sqlite:///" + str(w.folder()),
                "postgresql://u:pw@127.0.0.1:1/db", "\x00", "mysql://127.0.0.1:1/x"):  # fmt: skip
        yield cli_case(f"feedback list database {_short(url, 40)!r}", ["feedback", "list"], refuse=True,
                       env={"MINGSHU_DATABASE_URL": url})  # fmt: skip


def _command_tree() -> list[tuple[list[str], Any]]:
    """Every leaf command of the Typer app with the words that call it."""
    import typer.main

    from mingshu.cli import app

    found: list[tuple[list[str], Any]] = []

    def walk(command: Any, words: list[str]) -> None:
        if isinstance(getattr(command, "commands", None), dict):  # a group
            for name, sub in command.commands.items():
                walk(sub, [*words, name])
        else:
            found.append((words, command))

    walk(typer.main.get_command(app), [])
    return found


def _every_option_cases(w: Workplace, ds: Path, iztro: Path) -> Iterator[Case]:
    """Every option of every command (read from the app): repeated, empty, undecodable,
    huge; a number option with a value that is no number."""

    def one_year_sweep() -> list[str]:  # both sweeps take the same options
        return ["--from", "2000", "--to", "2000", "--workers", "1", "--out", str(w.fresh("sw"))]

    bases: dict[str, Callable[[], list[str]]] = {
        "ziwei": lambda: ["1990-05-15", "10:30", "-g", "male"],
        "bazi": lambda: ["1990-05-15", "10:30", "-g", "male"],
        "sweep ziwei": one_year_sweep,
        "sweep bazi": one_year_sweep,
        "query": lambda: [str(ds), "SELECT count(*) FROM charts"],
        "find": lambda: [str(ds), "tai_fu = 午"],
        "claims": lambda: [str(ds)],
        "crosscheck": lambda: [str(iztro), "--no-progress"],
        "library show": lambda: ["ZW-AUX-17"],
        "library build": lambda: ["--out", str(w.fresh("site"))],
        "serve": lambda: ["--port", "18999"],
        "feedback list": lambda: [],
    }
    # Options whose good value is not their default, or that need a partner.
    needs: dict[str, list[str]] = {
        "--svg-layout": ["--svg", "SVG"], "--analysis": ["--batch", "BATCH"],
        "--out": ["--batch", "BATCH"], "--leap": ["--lunar"], "--equation-of-time": ["--true-solar-time"],
        "--longitude": ["--tz", "Asia/Shanghai"], "--report": [],
    }  # fmt: skip
    value_of: dict[str, str] = {"--svg": "SVG", "--batch": "BATCH", "--report": "REPORT", "--out": "OUT",
                                "--at": "2026-01-01", "--longitude": "116.4", "--tz": "Asia/Shanghai",
                                "--star": "wen_chang=w2", "--star-basis": "tai_ji=year_stem",
                                "--profile": "bazi-2.3.0", "--year": "2026", "--article": "ZW-AUX-17",
                                "--mutagen": "庚=太阳,武曲,天府,天同", "--lang": "en-US",
                                "--brightness": "紫微=" + ",".join(["庙"] * 12), "--time-index": "4",
                                "--root": "ROOT", "--scheduler": "tcp://127.0.0.1:1"}  # fmt: skip
    line = b'{"id": "a", "date": "2000-8-16", "time": 2, "gender": "male"}\n'

    def fill(args: list[str], out_name: str) -> list[str]:
        filled = []
        for a in args:
            if a == "SVG":
                filled.append(str(w.fresh("svg")))
            elif a == "BATCH":
                filled.append(str(w.file(line)))
            elif a in ("REPORT", "OUT"):
                filled.append(str(w.fresh(out_name)))
            elif a == "ROOT":
                filled.append(str(w.folder()))
            else:
                filled.append(a)
        return filled

    for words, command in _command_tree():
        key = " ".join(words)
        if key not in bases:  # library check: a good run sweeps a whole space
            continue
        for param in command.params:
            opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
            if not opts or param.name == "help":
                continue
            opt = opts[0]
            multiple = getattr(param, "multiple", False)
            is_flag = getattr(param, "is_flag", False)
            partner = needs.get(opt, [])
            if key.startswith("ziwei") and opt in ("--out", "--analysis"):
                base = fill(["--batch", "BATCH"], "o")
            elif key == "ziwei" and opt == "--time-index":
                base = ["1990-05-15", "-g", "male"]
            else:
                base = bases[key]()
            if key == "library build" and opt != "--root":
                base += ["--root", str(w.one_article)]
            args0 = [*words, *base, *fill(partner, "p")]
            if opt == "--scheduler":
                continue  # a good value would reach for a cluster
            if is_flag:
                yield cli_case(f"{key} {opt} {opt}", [*args0, opt, opt], refuse=False)
                continue
            good = value_of.get(opt)
            if good is None:
                default = param.default
                good = None if default is None or callable(default) else str(default)
            if good is not None and not multiple:
                g1, g2 = fill([good], "r"), fill([good], "r")
                yield cli_case(
                    f"{key} {opt} given twice", [*args0, opt, *g1, opt, *g2], refuse=True
                )
            if opt in ("--out",) and key.startswith("sweep"):
                continue  # the sweeps' --out is tried above
            numeric = getattr(param.type, "name", "") in ("integer", "float")
            for value in ANY_TEXT:
                refuse = numeric or value in ("\udcff", "\x00")
                if key == "feedback list" and opt == "--article":
                    refuse = False  # any text may be searched for
                if opt in ("--svg", "--report", "--out") and value == "-":
                    refuse = False  # standard output
                if opt in ("--svg", "--report", "--out", "--root", "--batch") and value == "\udcff":
                    refuse = False  # a file name that is not UTF-8 is still a file name
                yield cli_case(
                    f"{key} {opt} {_short(value, 12)!r}", [*args0, opt, value], refuse=refuse
                )
            if numeric:
                for value, refuse in BAD_INTS:
                    if param.type.name == "float" and value in ("1.5", "1e3"):
                        refuse = False  # a number of seconds, e.g. --timeout, may be 1.5 or 1e3
                    yield cli_case(
                        f"{key} {opt} {_short(value, 12)!r}", [*args0, opt, value], refuse=refuse
                    )


def cli_cases(w: Workplace, ds: Path, bz: Path, iztro: Path) -> Iterator[Case]:
    yield from _ziwei_cases(w)
    yield from _setting_word_cases()
    yield from _path_cases(w, iztro)
    yield from _dataset_cases(w, ds, bz)
    yield from _sweep_cases(w, ds)
    yield from _misc_cases(w)
    yield from _every_option_cases(w, ds, iztro)
    yield from _subprocess_cases(w, ds)


# --------------------------------------------------------------------------- real processes


def process_case(
    w: Workplace,
    name: str,
    args: list[str | bytes],
    *,
    refuse: bool,
    full: bool = False,
    extra: dict[str, str] | None = None,
    answers: tuple[int, ...] = (0,),
    timeout: float = 120,
) -> Case:
    """``mingshu ARGS`` as a real process (standard output to /dev/full with ``full``): for
    what an in-process run cannot show (encodings, a full disk) or survive (a command that
    blocks for ever on a FIFO is killed after ``timeout`` seconds and counted as a failure)."""
    entry = "import sys; from mingshu.cli import main; sys.argv[0] = 'mingshu'; main()"

    def go() -> Outcome:
        path = str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")
        run_env = {**os.environ, "PYTHONPATH": path, **(extra or {})}
        stdout: Any = subprocess.PIPE
        with contextlib.ExitStack() as stack:
            if full:
                if not os.path.exists("/dev/full"):
                    return Outcome("accepted", "no /dev/full here: not tried")
                stdout = stack.enter_context(open("/dev/full", "wb"))  # standard output only
            try:
                done = subprocess.run(
                    [sys.executable, "-c", entry, *args], stdout=stdout, stderr=subprocess.PIPE,
                    stdin=subprocess.DEVNULL, env=run_env, timeout=timeout, cwd=w.root, check=False,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                return Outcome("bad error", f"no answer within {timeout:.0f} s (blocked?)")
        out = done.stdout.decode(errors="replace") if isinstance(done.stdout, bytes) else ""
        err = done.stderr.decode(errors="replace")
        if "Exception ignored" in err:
            return Outcome("traceback", _short(err.strip(), 300))
        return judge_cli(done.returncode, out, err, None, refuse=refuse, answers=answers)

    return Case("cli", name, go)


def _subprocess_cases(w: Workplace, ds: Path) -> Iterator[Case]:
    """A few real processes: output to a full disk, an ASCII-only standard output, arguments
    that are not UTF-8."""

    def proc(name: str, args: list[str | bytes], **how: Any) -> Case:
        return process_case(w, name, args, **how)

    z = ["ziwei", "1990-05-15", "10:30", "-g", "male"]
    for label, args in (
        ("ziwei", z), ("ziwei --json", [*z, "--json"]), ("bazi", ["bazi", "1990-05-15", "10:30", "-g", "male"]),
        ("--help", ["--help"]), ("ziwei --help", ["ziwei", "--help"]), ("--version", ["--version"]),
        ("query", ["query", str(ds), "SELECT 1"]), ("library show", ["library", "show", "ZW-AUX-17"]),
        ("ziwei --svg -", [*z, "--svg", "-"]),
    ):  # fmt: skip
        yield proc(f"process {label} > /dev/full", list(args), full=True, refuse=True)
    for label, args in (("ziwei", z), ("bazi", ["bazi", "1990-05-15", "10:30", "-g", "male"]),
                        ("library show", ["library", "show", "ZW-AUX-17"]),
                        ("query", ["query", str(ds), "SELECT '男' AS g"])):  # fmt: skip
        yield proc(f"process PYTHONIOENCODING=ascii {label}", list(args), extra={"PYTHONIOENCODING": "ascii"},
                   refuse=False)  # fmt: skip
    for label, args in (
        ("ziwei date", ["ziwei", b"1990-05-\xff", "10:30", "-g", "male"]),
        ("ziwei gender", ["ziwei", "1990-05-15", "10:30", "-g", b"\xe7\x94"]),
        ("query SQL", ["query", str(ds), b"SELECT '\xff'"]),
        ("library show", ["library", "show", b"ZW-\xff"]),
    ):
        yield proc(f"process non-UTF-8 {label}", list(args), refuse=label != "query SQL")


# --------------------------------------------------------------------------- the Python API


class _Odd:
    """An object of no type the API knows, whose str() lies."""

    def __str__(self) -> str:
        return "1990-05-15"


WRONG: list[tuple[str, Any, bool]] = [
    # (label, value, refuse): refuse marks values no public parameter takes.
    ("None", None, False), ("True", True, False), ("0", 0, False), ("-1", -1, False),
    ("2.5", 2.5, False), ("nan", math.nan, True), ("inf", math.inf, True), ("10**30", 10**30, True),
    ("''", "", False), ("'x'", "x", False), ("surrogate", "\udcff", True), ("bytes", b"\xff", True),
    ("[]", [], False), ("{}", {}, False), ("object()", object(), True), ("odd", _Odd(), True),
    ("huge str", "h" * 100_000, False), ("date", dt.date(1990, 5, 15), False),
]  # fmt: skip


# (call, parameter, WRONG label) whose answer keeps the meaning of the value given.
_MEANT_AS_GIVEN: set[tuple[str, str, str]] = {
    ("space.query", "limit", "10**30"),  # at most 10**30 rows: every row, as asked
}


def api_case(name: str, call: Callable[[], Any], *, refuse: bool,
             check: Callable[[Any], str | None] | None = None) -> Case:  # fmt: skip
    from mingshu.errors import InputError

    def go() -> Outcome:
        try:
            with contextlib.redirect_stderr(io.StringIO()):  # a sweep's progress bar
                value = call()
        except InputError as e:
            if isinstance(e.field, str) and e.field:
                return Outcome("clean", _short(str(e), 160))
            return Outcome("bad error", f"InputError with field {e.field!r}")
        except _WouldServe:
            return Outcome("accepted", "would serve")
        except Exception as e:
            return Outcome("wrong type", f"{type(e).__name__}: {_short(str(e), 200)}")
        if refuse:
            return Outcome("silent change", f"returned {_short(value, 120)}")
        if check is not None and (problem := check(value)):
            return Outcome("silent change", problem)
        return Outcome("accepted")

    return Case("api", name, go)


def _signature_cases(name: str, fn: Callable[..., Any], good: dict[str, Any],
                     skip: tuple[str, ...] = ()) -> Iterator[Case]:  # fmt: skip
    """``fn`` called with each parameter in turn given each WRONG value, the others good."""
    import inspect

    params = inspect.signature(fn).parameters
    given = {k.lstrip("_") for k in good}
    required = {
        p
        for p, q in params.items()
        if q.default is q.empty and q.kind not in (q.VAR_POSITIONAL, q.VAR_KEYWORD)
    }
    if required - given:  # the table above lacks a good value: a battery bug, shown as one
        raise RuntimeError(f"{name}: no good value for {sorted(required - given)}")
    for pname, param in params.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or pname in skip:
            continue
        for label, value, refuse in WRONG:
            args = {k: v() if callable(v) and k.startswith("_") else v for k, v in good.items()}
            args = {k.lstrip("_"): v for k, v in args.items()}
            args[pname] = value
            if (name, pname, label) in _MEANT_AS_GIVEN:
                refuse = False
            positional = [
                args.pop(p) for p, q in params.items() if q.kind == q.POSITIONAL_ONLY and p in args
            ]
            yield api_case(
                f"{name}({pname}={label})", lambda a=args, p=positional: fn(*p, **a), refuse=refuse
            )


def api_cases(w: Workplace, ds: Path) -> Iterator[Case]:
    from mingshu import bazi, present, space, ziwei
    from mingshu.birth import Birth
    from mingshu.cycles import Branch, Stem
    from mingshu.gender import Gender
    from mingshu.ziwei import locale

    z = ziwei.chart("1990-05-15", "10:30", "male")
    h = z.horoscope("2026-01-01")
    b = bazi.chart("1990-05-15", "10:30", "male")
    moment = dt.datetime(1990, 5, 15, 10, 30)
    jia, zi, wu = Stem.parse("甲"), Branch.parse("子"), Branch.parse("午")
    pillar = b.pillars.day
    natal = (b.pillars.year, b.pillars.month, b.pillars.day, b.pillars.hour)
    palace = z.life_palace
    zs, bs = ziwei.ZiweiSettings(), bazi.BaziSettings()
    birth = z.birth

    specs: list[tuple[str, Callable[..., Any], dict[str, Any]]] = [
        ("ziwei.chart", ziwei.chart, {"birth_date": "1990-05-15", "birth_time": "10:30", "gender": "male"}),
        ("bazi.chart", bazi.chart, {"birth_date": "1990-05-15", "birth_time": "10:30", "gender": "male"}),
        ("ziwei.by_solar", ziwei.by_solar, {"date": "1990-05-15", "time": "10:30", "gender": "male"}),
        ("ziwei.by_lunar", ziwei.by_lunar, {"date": "1990-04-21", "time": "10:30", "gender": "male"}),
        ("ziwei.from_birth", ziwei.from_birth, {"birth": birth}),
        ("bazi.from_birth", bazi.from_birth, {"birth": b.birth}),
        ("bazi.chart_at", bazi.chart_at, {"moment": moment, "gender": "male"}),
        ("ziwei.horoscope", ziwei.horoscope, {"chart": z, "at": "2026-01-01"}),
        ("ziwei.decades", ziwei.decades, {"chart": z}),
        ("ziwei.years", ziwei.years, {"chart": z, "decade": 0}),
        ("ziwei.months", ziwei.months, {"chart": z, "year": 2026}),
        ("ziwei.star", ziwei.star, {"name": "紫微"}),
        ("ziwei.flowing_star", ziwei.flowing_star, {"name": "运禄"}),
        ("ziwei.zi_wei_branch", ziwei.zi_wei_branch, {"five_elements_class": 2, "day": 1}),
        ("ziwei.ZiweiSettings", ziwei.ZiweiSettings, {}),
        ("ZiweiSettings.from_iztro", ziwei.ZiweiSettings.from_iztro, {}),
        ("bazi.BaziSettings", bazi.BaziSettings, {}),
        ("Birth", Birth, {"solar_date": dt.date(1990, 5, 15), "time_index": 5, "gender": Gender.MALE}),
        ("Birth.solar", Birth.solar, {"date": "1990-05-15", "time": "10:30", "gender": "male"}),
        ("Birth.lunar", Birth.lunar, {"date": "1990-04-21", "time": "10:30", "gender": "male"}),
        ("bazi.arriving", bazi.arriving, {"natal": natal, "incoming": pillar}),
        ("bazi.four_pillars", bazi.four_pillars, {"moment": moment}),
        ("bazi.detail", bazi.detail, {"position": b.details[0].position, "day_master": jia, "pillar": pillar}),
        ("bazi.equation_of_time", bazi.equation_of_time, {"utc": dt.datetime(1990, 5, 15, tzinfo=dt.UTC)}),
        ("bazi.is_forward", bazi.is_forward, {"year_stem": jia, "gender": Gender.MALE}),
        ("bazi.ming_gong", bazi.ming_gong, {"year_stem": jia, "month_branch": zi, "hour_branch": wu}),
        ("bazi.shen_gong", bazi.shen_gong, {"year_stem": jia, "month_branch": zi, "hour_branch": wu}),
        ("bazi.nayin", bazi.nayin, {"pillar": pillar}),
        ("bazi.stage", bazi.stage, {"stem": jia, "branch": zi}),
        ("bazi.star", bazi.star, {"name": "tian_yi"}),
        ("bazi.stars_in", bazi.stars_in, {"year": natal[0], "month": natal[1], "day": natal[2], "hour": natal[3]}),
        ("bazi.tai_xi", bazi.tai_xi, {"day": pillar}),
        ("bazi.tai_yuan", bazi.tai_yuan, {"month": pillar}),
        ("bazi.ten_god", bazi.ten_god, {"day_master": jia, "stem": jia}),
        ("NatalChart.palace", z.palace, {"which": "命宫"}),
        ("NatalChart.palace_at", z.palace_at, {"branch": "子"}),
        ("NatalChart.palace_named", z.palace_named, {"name": "命宫"}),
        ("NatalChart.palace_by_index", z.palace_by_index, {"index": 0}),
        ("NatalChart.star", z.star, {"name": "紫微"}),
        ("NatalChart.palace_of", z.palace_of, {"name": "紫微"}),
        ("NatalChart.horoscope", z.horoscope, {"at": "2026-01-01"}),
        ("NatalChart.surrounded", z.surrounded, {"which": "命宫"}),
        ("NatalChart.flanking", z.flanking, {"which": "命宫"}),
        ("NatalChart.flies", z.flies, {"which": "命宫"}),
        ("NatalChart.self_mutagens", z.self_mutagens, {"which": "命宫"}),
        ("Palace.has", palace.has, {"stars": ["紫微"]}),
        ("Palace.not_have", palace.not_have, {"stars": ["紫微"]}),
        ("Palace.has_one_of", palace.has_one_of, {"stars": ["紫微"]}),
        ("Palace.has_mutagen", palace.has_mutagen, {"mutagen": "禄"}),
        ("Horoscope.palace", h.palace, {"name": "命宫", "scope": "yearly"}),
        ("Horoscope.surrounded", h.surrounded, {"name": "命宫", "scope": "yearly"}),
        ("Horoscope.has_stars", h.has_stars, {"name": "命宫", "scope": "yearly", "stars": ["紫微"]}),
        ("Horoscope.has_mutagen", h.has_mutagen, {"name": "命宫", "scope": "yearly", "mutagen": "禄"}),
        ("bazi Chart.annual", b.annual, {"year": 2026}),
        ("bazi Chart.arriving", b.arriving, {"pillar": pillar}),
        ("bazi Chart.detail", b.detail, {"position": "day"}),
        ("bazi Chart.star", b.star, {"name": "tian_yi"}),
        ("BaziSettings.variant_of", bs.variant_of, {"star_key": "wen_chang"}),
        ("BaziSettings.bases_of", bs.bases_of, {"star_key": "tai_ji"}),

        ("luck.annuals", b.luck.annuals, {"first": 2000}),
        ("locale.name", locale.name, {"thing": ziwei.star("紫微"), "lang": "en-US"}),
        ("locale.iztro_name", locale.iztro_name, {"thing": ziwei.star("紫微"), "lang": "en-US"}),
        ("locale.language", locale.language, {"value": "en-US"}),
        ("present.chart_to_dict", present.chart_to_dict, {"chart": z}),
        ("present.horoscope_to_dict", present.horoscope_to_dict, {"horoscope": h}),
        ("present.settings_to_dict", present.settings_to_dict, {"settings": zs}),
        ("present.annual_to_dict", present.annual_to_dict, {"annual": b.annual(2026)}),
        ("present.chart_svg", present.chart_svg, {"chart": z}),
        ("present.to_json", present.to_json, {"obj": {"a": 1}}),
        ("space.check_sql", space.check_sql, {"sql": "SELECT 1"}),
        ("space.query", space.query, {"path": str(ds), "sql": "SELECT 1"}),
        ("space.open", space.open, {"path": str(ds)}),
        ("space.connect", space.connect, {"path": str(ds)}),
        ("space.find", space.find, {"dataset": str(ds), "expr": "tai_fu = 午"}),
        ("space.sweep_ziwei", space.sweep_ziwei,
         {"_out": lambda: str(w.fresh("sw")), "first_year": 2000, "last_year": 2000, "settings": zs,
          "workers": 1, "progress": False}),
        ("space.sweep_bazi", space.sweep_bazi,
         {"_out": lambda: str(w.fresh("sw")), "first_year": 2000, "last_year": 2000, "workers": 1,
          "progress": False}),
    ]  # fmt: skip
    import inspect

    for name, fn, good in specs:
        try:
            inspect.signature(fn)
        except (TypeError, ValueError):
            continue
        yield from _signature_cases(name, fn, good, skip=("scheduler",))
    try:
        from mingshu import library
        from mingshu.library import build, render

        lib = library.load()
        article = lib.articles[0]
        more = [
            ("library.load", library.load, {}),
            ("Library.get", lib.get, {"article_id": article.id}),
            ("Library.exists", lib.exists, {"article_id": article.id}),
            ("Library.title_of", lib.title_of, {"article_id": article.id}),
            (
                "render.article_html",
                render.article_html,
                {"article": article, "library": lib, "link": str},
            ),
            ("render.index_html", render.index_html, {"library": lib, "link": str}),
            (
                "build.build_site",
                build.build_site,
                {"library": lib, "_out": lambda: w.fresh("site")},
            ),
        ]
        for name, fn, good in more:
            yield from _signature_cases(name, fn, good)
        yield from _signature_cases(
            "BaziSettings.with_bases", lambda tai_ji="year_stem": bs.with_bases(tai_ji=tai_ji), {}
        )
    except ImportError:
        pass
    yield from _targeted_api_cases(z, b)


def _targeted_api_cases(z: Any, b: Any) -> Iterator[Case]:
    """The silent changes issue 20 names, and their neighbours."""
    import zoneinfo

    from mingshu import bazi, ziwei
    from mingshu.cycles import Branch

    yield api_case(
        "palace_by_index(Branch.ZI)", lambda: z.palace_by_index(Branch.parse("子")), refuse=True
    )
    yield api_case(
        "palace_by_index(PalaceName)", lambda: z.palace_by_index(z.life_palace.name), refuse=True
    )
    yield api_case("palace_by_index(1.0)", lambda: z.palace_by_index(1.0), refuse=True)
    yield api_case("palace_by_index('1')", lambda: z.palace_by_index("1"), refuse=True)
    for word in ("False", "false", "0", "", "no", 0.0, None):
        yield api_case(f"bazi.arriving(backward={word!r})",
                       lambda v=word: bazi.arriving(tuple(b.pillars), b.pillars.day, backward=v), refuse=True)  # fmt: skip
        yield api_case(f"bazi.stars_in(backward={word!r})",
                       lambda v=word: bazi.stars_in(*b.pillars, backward=v), refuse=True)  # fmt: skip
    yield api_case("ziwei.months(chart, 1900)", lambda: ziwei.months(z, 1900), refuse=True)
    yield api_case("ziwei.months(chart, 1989)", lambda: ziwei.months(z, 1989), refuse=True)
    yield api_case("ziwei.years(chart, 12)", lambda: ziwei.years(z, 12), refuse=True)
    yield api_case("horoscope before birth", lambda: z.horoscope("1989-01-01"), refuse=True)
    for fold_on in ("ziwei", "bazi"):
        engine = ziwei if fold_on == "ziwei" else bazi
        kwargs = {} if fold_on == "ziwei" else {"tz": None}
        yield api_case(f"{fold_on}.chart fold=1 without a zone",
                       lambda e=engine, k=kwargs: e.chart("1990-05-15", "10:30", "male", fold=1, **k),
                       refuse=True)  # fmt: skip
        for zone in (
            "localtime",
            "Factory",
            "posixrules",
            "/etc/localtime",
            "../x",
            "Asia/Shanghai\x00",
        ):
            yield api_case(f"{fold_on}.chart tz={zone!r}",
                           lambda e=engine, zn=zone: e.chart("1990-05-15", "10:30", "male", tz=zn), refuse=True)  # fmt: skip
        for lon in ("1_16", "116_4", " 1_1_6 ", "0x10", "nan", "inf", 181, -181, True):
            yield api_case(f"{fold_on}.chart longitude={lon!r}",
                           lambda e=engine, ln=lon: e.chart("1990-05-15", "10:30", "male", tz="Asia/Shanghai",
                                                            longitude=ln), refuse=True)  # fmt: skip
        for flag in ("False", "true", 1, 0.0, "yes"):
            yield api_case(f"{fold_on}.chart lunar={flag!r}",
                           lambda e=engine, f=flag: e.chart("1990-04-21", "10:30", "male", lunar=f), refuse=True)  # fmt: skip
    yield api_case("ZoneInfo object", lambda: ziwei.chart("1990-05-15", "10:30", "male",
                                                          tz=zoneinfo.ZoneInfo("Asia/Shanghai")), refuse=False)  # fmt: skip
    yield api_case("fixed-offset tzinfo", lambda: bazi.chart("1990-05-15", "10:30", "male",
                                                             tz=dt.timezone(dt.timedelta(hours=8))), refuse=False)  # fmt: skip

    class DstZone(dt.tzinfo):
        """A tzinfo that is not a ZoneInfo and reports an hour of DST (as pytz, dateutil)."""

        def utcoffset(self, when: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(hours=9)

        def dst(self, when: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(hours=1)

        def tzname(self, when: dt.datetime | None) -> str:
            return "CDT"

    def dst_kept() -> Any:
        chart = ziwei.chart("1988-07-01", "10:30", "male", tz=DstZone())
        return chart

    def dst_check(chart: Any) -> str | None:
        if (
            chart.birth.time_index != 4
        ):  # 09:30 standard time: the Dragon hour, 07-09 is 4? 09-11 is 5
            pass
        text = " ".join(n.message for n in chart.notices)
        if "fixed offset" in text and "daylight" not in text:
            return f"a tzinfo reporting DST is read as a fixed offset: {text!r}"
        return None

    yield api_case("tzinfo reporting DST", dst_kept, refuse=False, check=dst_check)
    yield api_case(
        "BaziSettings.variant_of('nope')",
        lambda: bazi.BaziSettings().variant_of("nope"),
        refuse=True,
    )
    yield api_case(
        "BaziSettings.bases_of('nope')", lambda: bazi.BaziSettings().bases_of("nope"), refuse=True
    )
    yield api_case("luck.annuals('2000')", lambda: b.luck.annuals("2000"), refuse=True)
    yield api_case("luck.annuals(2000, -3)", lambda: b.luck.annuals(2000, -3), refuse=True)
    for value in (0, None, 2.0, 7, -1, True):
        yield api_case(
            f"zi_wei_branch({value!r}, 1)", lambda v=value: ziwei.zi_wei_branch(v, 1), refuse=True
        )
    for value in (0, 31, None, 2.0, True):
        yield api_case(
            f"zi_wei_branch(2, {value!r})", lambda v=value: ziwei.zi_wei_branch(2, v), refuse=True
        )
    yield api_case("Birth(notices='abc')",
                   lambda: ziwei.Birth(z.birth.solar_date, 5, z.birth.gender, notices="abc"), refuse=True)  # fmt: skip
    yield api_case("Birth clock contradicting time_index",
                   lambda: ziwei.Birth(z.birth.solar_date, 1, z.birth.gender, clock_time=dt.time(10, 30)),
                   refuse=True)  # fmt: skip
    for name in ("疾厄宫", "交友", "奴仆", "命宫", "身宫"):
        yield api_case(f"palace({name!r})", lambda n=name: z.palace(n), refuse=False)


# --------------------------------------------------------------------------- batch lines


def batch_cases(w: Workplace) -> Iterator[Case]:
    good: dict[str, Any] = {"id": "a", "date": "2000-8-16", "time": 2, "gender": "女"}

    def line_case(name: str, raw: bytes, *, refuse: bool, id_text: str | None = None) -> Case:
        def go() -> Outcome:
            path = w.file(raw)
            code, out, err, escaped = run_cli(["ziwei", "--batch", str(path)])
            if escaped is not None or "Traceback (most recent" in out + err:
                return judge_cli(code, out, err, escaped, refuse=refuse)
            rows = [
                r for r in out.split("\n") if r.strip()
            ]  # not splitlines: U+2028 is no line end
            verdicts: list[Outcome] = []
            for row in rows:
                try:
                    item = json.loads(row)
                except ValueError:
                    return Outcome("bad error", f"an output line is not JSON: {_short(row, 120)!r}")
                if "error" in item:
                    e = item["error"]
                    if not (isinstance(e, dict) and isinstance(e.get("field"), str) and e["field"]):
                        return Outcome("bad error", f"error names no field: {_short(row, 160)!r}")
                    if code != 2 or not ERROR_LINE.match(
                        err.strip().splitlines()[-1] if err.strip() else ""
                    ):
                        return Outcome("bad error", f"exit {code}; stderr {_short(err, 160)!r}")
                    verdicts.append(
                        Outcome("clean", _short(f"{e['field']}: {e.get('message')}", 160))
                    )
                elif "chart" in item:
                    if refuse:
                        return Outcome("silent change", f"charted: {_short(raw, 80)!r}")
                    if id_text is not None:
                        echoed = re.search(r'"id":\s*([^,}]+)', row)
                        if not echoed or echoed.group(1).strip() != id_text:
                            return Outcome(
                                "silent change",
                                f"id {id_text} came back as {echoed and echoed.group(1)}",
                            )
                    verdicts.append(Outcome("accepted"))
                else:
                    return Outcome(
                        "bad error", f"a line with neither chart nor error: {_short(row, 120)!r}"
                    )
            if not rows:
                if code == 0 and refuse:
                    return Outcome("silent change", "no output line and exit 0")
                return judge_cli(code, out, err, None, refuse=refuse)
            bad = [v for v in verdicts if v.verdict != "accepted"]
            return bad[0] if bad else verdicts[0]

        return Case("batch", name, go)

    def js(obj: Any) -> bytes:
        return (json.dumps(obj, ensure_ascii=False) + "\n").encode()

    yield line_case("good line", js(good), refuse=False)
    for raw, label in ((b"{nope\n", "not JSON"), (b"[]\n", "a list"), (b"1\n", "a number"), (b'"x"\n', "a string"),
                       (b"null\n", "null"), (b"\xff\xfe\x00\x01\n", "binary"), (bytes(range(1, 256)) + b"\n", "all bytes"),
                       (b'{"id": "\xff"}\n', "invalid UTF-8 in a string"), (b"{" * 50_000 + b"\n", "deep"),
                       (b'{"date": "2000-8-16", "date": "2000-8-17", "time": 2, "gender": "male"}\n', "a key twice"),
                       (b"\x00\n", "NUL"), (b'{"id": "a", "date": "2000-8-16", "time": 2, "gender": "male"} trailing\n', "trailing text"),
                       ((json.dumps(good)[:-1] + ', "x": "' + "y" * 2_000_000 + '"}\n').encode(), "a 2 MB line")):  # fmt: skip
        yield line_case(f"line {label}", raw, refuse=True)
    for key in ("date", "time", "gender"):
        yield line_case(
            f"missing {key}", js({k: v for k, v in good.items() if k != key}), refuse=True
        )
    values: dict[str, list[tuple[Any, bool]]] = {
        "date": [("2000-2-30", True), ("", True), (20000816, True), (None, True), ([2000, 8, 16], True),
                 ("1582-12-31", True), ("2651-1-1", True), ("2000-08-16", False), ("2000/8/16", False),
                 (True, True), ({"y": 2000}, True), ("x" * 100_000, True), (1e999, True)],
        "time": [(13, True), (-1, True), ("2", False), (2.0, True), (2.5, True), (True, True), (None, True),
                 ("10:30", False), ("", True), (10**30, True), ([2], True), ("午", False), (1e999, True)],
        "gender": [("x", True), ("", True), (1, True), (None, True), (True, True), ("男", False),
                   ("male", False), ("F", False), (["女"], True)],
        "by": [("lunar", False), ("solar", False), ("nope", True), ("", True), (1, True), (None, True)],
        "leap": [(True, True), ("true", True), (1, True), ("False", True), (None, False), (False, False)],
        "fix_leap": [("true", True), (2, True), (None, False), (True, False), ("x", True)],
        "horoscope": [("2000-2-30", True), ("x", True), (1, True), ("1999-1-1", True), ("2026-1-1", False),
                      (None, False), ("", True), (True, True)],
        "horoscope_time": [(13, True), (-1, True), ("x", True), (None, False), (2, False), (2.5, True)],
        "astro_type": [("earth", False), ("human", False), ("heaven", False), ("nope", True), ("", True), (1, True)],
        "config": [({"algorithm": "nope"}, True), ({"yeardivide": "exact"}, True), ("x", True), ([], True),
                   ({"yearDivide": "exact"}, False), ({"dayDivide": "current"}, False),
                   ({"algorithm": "zhongzhou"}, False), ({"mutagens": "x"}, True), ({"brightness": 5}, True)],
        "settings": [({"school": "quanshu"}, False), ({"school": "nope"}, True), ({"nope": 1}, True), ("x", True),
                     ({"late_rat_hour": "same_day"}, False), ({"late_rat_hour": ["same_day"]}, True),
                     ({"leap_month": "split", "school": "quanshu"}, False), ([], True), (None, False)],
        "lang": [("en-US", False), ("nope", False), (1, False)],
        "analysis": [(True, False), ("x", False)],
        "id": [(None, False), ("", False), (1, False), ([1], False), ({"a": 1}, False), ("\u2028", False)],
    }  # fmt: skip
    for key, cases in values.items():
        for value, refuse in cases:
            line = {**good, key: value}
            if key == "leap" and value is True:
                refuse = True  # a solar date with a leap flag
            if key in ("horoscope_time",) and value is not None:
                line["horoscope"] = "2026-1-1"
            try:
                raw = js(line)
            except (ValueError, OverflowError):
                continue
            if isinstance(value, float) and math.isinf(value):
                raw = raw.replace(b"Infinity", b"1e999")
            yield line_case(f"{key}={_short(value, 30)!r}", raw, refuse=refuse)
    for key, value in (
        ("nope", 1),
        ("Date", "2000-8-16"),
        ("", 1),
        ("horoscopeTime", 2),
        ("fixLeap", True),
    ):
        yield line_case(f"unknown key {key!r}", js({**good, key: value}), refuse=True)
    for id_text in ("123456789012345678901234567890", "-123456789012345678901234567890", "1e400",
                    "12345678901234567890", "9007199254740993", "0.1", "1.0"):  # fmt: skip
        raw = (json.dumps(good)[:-1].replace('"id": "a"', f'"id": {id_text}') + "}\n").encode()
        yield line_case(f"id {id_text}", raw, refuse=False, id_text=id_text)
    lunar = {**good, "by": "lunar", "date": "2023-3-1", "leap": True}
    yield line_case("lunar leap of a month with no leap", js(lunar), refuse=True)
    yield line_case(
        "lunar day 30 of a 29-day month",
        js({**good, "by": "lunar", "date": "2023-1-30"}),
        refuse=True,
    )
    # Through standard input and with the run's options.
    yield cli_case(
        "batch from stdin", ["ziwei", "--batch", "-"], refuse=False, stdin=js(good), area="batch"
    )
    yield cli_case("batch from stdin, binary", ["ziwei", "--batch", "-"], refuse=True,
                   stdin=b"\xff\xfe\n", area="batch")  # fmt: skip
    for more, refuse in ((["--lang", "nope"], True), (["--school", "nope"], True), (["--analysis"], False),
                         (["--names", "pinyin"], False), (["--svg", "x.svg"], True), (["--at", "2026-1-1"], True),
                         (["--tz", "Asia/Shanghai"], False), (["--json"], False)):  # fmt: skip
        yield cli_case(
            f"batch with {' '.join(more)}",
            ["ziwei", "--batch", str(w.file(js(good))), *more],
            refuse=refuse,
            area="batch",
        )


# --------------------------------------------------------------------------- the web


def web_cases(w: Workplace) -> Iterator[Case]:
    try:
        from fastapi.testclient import TestClient

        from mingshu.web import create_app
    except ImportError:
        return
    client_box: list[Any] = []

    def client() -> Any:
        if not client_box:
            app = create_app(f"sqlite:///{w.root / 'web.sqlite3'}")
            c = TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1")
            c.__enter__()
            client_box.append(c)
        return client_box[0]

    def web_case(name: str, method: str, url: str, *, refuse: bool, data: dict[str, str] | None = None,
                 body: bytes | None = None, fields: tuple[str, ...] = ()) -> Case:  # fmt: skip
        def go() -> Outcome:
            try:
                if body is not None:
                    form = {"content-type": "application/x-www-form-urlencoded"}
                    r = client().request(method, url, content=body, headers=form)
                else:
                    r = (
                        client().request(method, url, data=data)
                        if data
                        else client().request(method, url)
                    )
            except Exception as e:
                return Outcome("traceback", f"{type(e).__name__}: {_short(str(e), 200)}")
            if r.status_code >= 500:
                return Outcome("5xx", f"{r.status_code} {_short(r.text, 160)!r}")
            if "Traceback (most recent" in r.text:
                return Outcome("traceback", _short(r.text, 160))
            if 400 <= r.status_code < 500:
                if url.startswith("/api") and r.status_code == 422:
                    try:
                        detail = r.json()["detail"]
                        named = [str(d["loc"][-1]) for d in detail if len(d.get("loc", ())) >= 2]
                    except (ValueError, KeyError, TypeError, IndexError):
                        return Outcome(
                            "bad error",
                            f"422 without a detail naming a field: {_short(r.text, 160)!r}",
                        )
                    if not named:
                        return Outcome("bad error", f"422 names no field: {_short(r.text, 160)!r}")
                    if fields and not set(fields) & set(named):
                        return Outcome("bad error", f"names {named}, not {list(fields)}")
                    return Outcome("clean", f"422 {named}")
                return Outcome("clean", f"{r.status_code}")
            if refuse and r.status_code < 300:
                return Outcome("silent change", f"{r.status_code} for {_short(url, 120)}")
            return Outcome("accepted", str(r.status_code))

        return Case("web", name, go)

    birth = "date=1990-05-15&time=10:30&gender=male"
    api_paths = (
        "/api/ziwei",
        "/api/ziwei/horoscope",
        "/api/bazi",
        "/api/ziwei/hours",
        "/chart",
        "/chart.svg",
    )
    for path in api_paths:
        extra = "&at=2026-01-01" if path == "/api/ziwei/horoscope" else ""
        ok = f"{path}?{birth}{extra}"
        yield web_case(f"{path} good", "GET", ok, refuse=False)
        for key, value in (("lunar", "true"), ("longitude", "116"), ("true_solar_time", "1"), ("nope", "1"),
                           ("Date", "1990-05-16"), ("gender ", "female"), ("", "x"), ("date[]", "1990-05-16"),
                           ("\udcff", "1"), ("callback", "x")):  # fmt: skip
            if key in ("lunar", "longitude", "true_solar_time") and path != "/api/ziwei/hours":
                continue  # these are parameters of the chart routes
            from urllib.parse import quote

            yield web_case(f"{path} unknown {key!r}", "GET", f"{ok}&{quote(key, errors='surrogateescape')}={value}",
                           refuse=True)  # fmt: skip
        for key in ("date", "time", "gender", "tz", "late_rat_hour"):
            yield web_case(f"{path} {key} twice", "GET", f"{ok}&{key}=x", refuse=True)
        for key, values in (
            (
                "date",
                [
                    "1990-02-30",
                    "",
                    "x",
                    "1582-12-31",  # one day either side of the calendar's range
                    "2651-01-01",
                    "%ff",
                    "%00",
                    "9" * 3000,
                    "99999999999999999999-01-01",
                    "1990-05-15%0A",
                    "1987/05/16",
                ],
            ),
            ("time", ["25:00", "", "x", "%ff", "9" * 3000, "-1", "13", "10:30:61", "%00"]),
            ("gender", ["x", "", "%E7%94", "%ff", "2", "男", "女"]),
            (
                "tz",
                [
                    "Mars/Phobos",
                    "localtime",
                    "Factory",
                    "posixrules",
                    "",
                    "%00",
                    "../x",
                    "x" * 3000,
                ],
            ),
            ("longitude", ["1_16", "nan", "inf", "181", "", "x", "9" * 3000]),
            ("fold", ["2", "-1", "x", "1.0", ""]),
            ("year_boundary", ["nope", "", "exact", "normal"]),
            ("late_rat_hour", ["nope", "", "current", "forward", "split"]),
            ("leap_month", ["nope", "", "split"]),
            ("school", ["nope", "", "quanshu"]),
            ("at", ["1989-01-01", "x", "", "2026-02-30", "%ff"]),
            ("year", ["1800", "x", "", "9" * 3000]),
            ("star", ["wen_chang=nope", "nope", "", "wen_chang=w2"]),
            ("names", ["nope", "", "hant"]),
            ("lang", ["nope", "", "en-US"]),
        ):
            for value in values:
                valid = value in ("男", "女", "1987/05/16", "exact", "normal", "current", "forward", "split",
                                  "quanshu", "wen_chang=w2", "hant", "en-US", "1990-05-15%0A")  # fmt: skip
                # A form sends an empty field for an option left alone: the default, not a change.
                valid = valid or (value == "" and key not in ("date", "time", "gender"))
                params = dict(p.split("=", 1) for p in birth.split("&"))
                params[key] = value
                query = "&".join(f"{k}={v}" for k, v in params.items()) + extra
                # A word this route does not take is refused as unknown: clean either way.
                yield web_case(f"{path} {key}={_short(value, 20)!r}", "GET", f"{path}?{query}",
                               refuse=not valid)  # fmt: skip
    for q, refuse in (("", True), ("x" * 100, True), ("%ff", False), ("北京", False), ("%00", False),
                      ("Beijing&limit=0", True), ("Beijing&limit=51", True), ("Beijing&limit=x", True),
                      ("Beijing&limit=5&limit=6", True), ("Beijing&nope=1", True), ("'; DROP TABLE x", False)):  # fmt: skip
        yield web_case(
            f"/api/cities q={_short(q, 30)!r}", "GET", f"/api/cities?q={q}", refuse=refuse
        )
    for article in (
        "nope",
        "%ff",
        "..%2F..%2Fetc%2Fpasswd",
        "ZW-AUX-17%00",
        "z" * 3000,
        "ZW-AUX-17",
    ):
        valid = article == "ZW-AUX-17"
        yield web_case(
            f"/api/articles/{_short(article, 20)}",
            "GET",
            f"/api/articles/{article}",
            refuse=not valid,
        )
        yield web_case(
            f"/library/{_short(article, 20)}", "GET", f"/library/{article}", refuse=not valid
        )
        yield web_case(
            f"/library/{_short(article, 20)}/card.png",
            "GET",
            f"/library/{article}/card.png",
            refuse=not valid,
        )
    for key in ("nope", "zi_wei", "%ff", "x" * 3000, ""):
        yield web_case(
            f"/chart/star/{_short(key, 20)}",
            "GET",
            f"/chart/star/{key}?{birth}",
            refuse=key != "zi_wei",
        )
    for q in ("x" * 101, "%ff", "%00", "紫微"):
        yield web_case(f"/library?q={_short(q, 20)}", "GET", f"/library?q={q}", refuse=len(q) > 100)
    for form, refuse in (({"helpful": "maybe"}, True), ({}, True), ({"helpful": "yes", "comment": "x" * 100_000}, True),
                         ({"helpful": "yes", "version": "nope"}, False)):  # fmt: skip
        yield web_case(f"feedback form {_short(form, 40)}", "POST", "/library/ZW-AUX-17/feedback", refuse=refuse,
                       data=form)  # fmt: skip
    for raw, refuse in ((b"helpful=%ff", True), (b"helpful=yes&comment=%ff%fe", False), (b"\xff\xfe", True),
                        (b"helpful=yes&helpful=no", True)):  # fmt: skip
        yield web_case(
            f"feedback body {raw!r}", "POST", "/library/ZW-AUX-17/feedback", refuse=refuse, body=raw
        )
    for path in ("/nope", "/api/nope", "/api/ziwei/", "/%ff", "/settings?nope=1", "/?nope=1"):
        yield web_case(f"GET {path}", "GET", path, refuse=False)
    for path in ("/api/ziwei", "/chart"):
        yield web_case(f"POST {path}", "POST", f"{path}?{birth}", refuse=True, data={"x": "1"})


# --------------------------------------------------------------------------- running


def prepare(w: Workplace) -> tuple[Path, Path, Path]:
    """A Zi Wei dataset of 2000-2001, a BaZi dataset of 2000 and a small iztro record file."""
    ds, bz = w.root / "ds", w.root / "bz"
    for args in (
        ["sweep", "ziwei", "--from", "2000", "--to", "2001", "--workers", "1", "--out", str(ds)],
        ["sweep", "bazi", "--from", "2000", "--to", "2000", "--workers", "1", "--out", str(bz)],
    ):
        code, _, err, escaped = run_cli(args)
        if code != 0 or escaped is not None:
            raise RuntimeError(f"cannot prepare {args}: {code} {err} {escaped!r}")
    with gzip.open(FIXTURES / "edges.jsonl.gz", "rt") as f:
        records = [next(f) for _ in range(3)]
    iztro = w.root / "iztro.jsonl"
    iztro.write_text("".join(records))
    return ds, bz, iztro


def cases(w: Workplace, areas: tuple[str, ...] = AREAS) -> list[Case]:
    ds, bz, iztro = prepare(w)
    found: list[Case] = []
    if "cli" in areas:
        found += cli_cases(w, ds, bz, iztro)
    if "api" in areas:
        found += api_cases(w, ds)
    if "batch" in areas:
        found += batch_cases(w)
    if "web" in areas:
        found += web_cases(w)
    return found


def run_battery(
    areas: tuple[str, ...] = AREAS, sample: int = 1, *, quiet: bool = True
) -> list[Result]:
    """Every case of ``areas`` (every ``sample``-th of each area), run in a temporary folder
    that is also the working directory meanwhile; the environment points the web store and
    the caches there."""
    w = Workplace()
    home = {
        "MINGSHU_DATABASE_URL": f"sqlite:///{w.root / 'feedback.sqlite3'}",
        "XDG_DATA_HOME": str(w.root / "data"), "XDG_CACHE_HOME": str(w.root / "cache"),
        "MINGSHU_CACHE": str(w.root / "cache"), "COLUMNS": "120", "NO_COLOR": "1",
    }  # fmt: skip
    cwd = os.getcwd()
    results: list[Result] = []
    try:
        os.chdir(w.root)
        with _environment(home):
            every = [c for c in cases(w, areas) if c.reachable]
            seen: Counter[str] = Counter()
            for case in every:
                seen[case.area] += 1
                if (seen[case.area] - 1) % sample:
                    continue
                started = time.perf_counter()
                try:
                    outcome = case.run()
                except Exception as e:
                    outcome = Outcome(
                        "traceback", f"in the battery: {type(e).__name__}: {_short(str(e))}"
                    )
                results.append(Result(case.area, case.name, outcome))
                if not quiet and len(results) % 200 == 0:
                    print(
                        f"  {len(results)} of about {len(every) // sample} inputs", file=sys.stderr
                    )
                if not quiet and time.perf_counter() - started > 5:
                    print(
                        f"  slow: {case.area} {case.name} {time.perf_counter() - started:.1f} s",
                        file=sys.stderr,
                    )
    finally:
        os.chdir(cwd)
        w.close()
    return results


def summary(results: list[Result]) -> str:
    lines = [
        f"{'area':<6} {'tried':>6} {'clean':>6} {'accepted':>8} "
        + " ".join(f"{f:>13}" for f in FAILURES)
    ]
    for area in (*AREAS, "all"):
        mine = [r for r in results if area in ("all", r.area)]
        if not mine:
            continue
        count = Counter(r.outcome.verdict for r in mine)
        lines.append(f"{area:<6} {len(mine):>6} {count['clean']:>6} {count['accepted']:>8} "
                     + " ".join(f"{count[f]:>13}" for f in FAILURES))  # fmt: skip
    failures = [r for r in results if r.outcome.verdict in FAILURES]
    if failures:
        lines.append("")
        lines.append(f"{len(failures)} failure(s):")
        for r in failures:
            lines.append(f"  [{r.area}] {r.outcome.verdict}: {r.name}: {r.outcome.detail}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--area", action="append", choices=AREAS, help="only this area (repeatable)"
    )
    parser.add_argument("--sample", type=int, default=1, help="run every Nth input of each area")
    parser.add_argument("--verbose", action="store_true", help="every input and its verdict")
    ns = parser.parse_args(argv)
    if ns.sample < 1:
        parser.error("--sample is 1 or more")
    started = time.perf_counter()
    results = run_battery(tuple(ns.area or AREAS), ns.sample, quiet=False)
    if ns.verbose:
        for r in results:
            print(f"[{r.area}] {r.outcome.verdict}: {r.name}: {r.outcome.detail}")
    print(summary(results))
    print(f"{time.perf_counter() - started:.1f} s")
    return 1 if any(r.outcome.verdict in FAILURES for r in results) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
