"""``mingshu ziwei --batch IN.jsonl``: many charts in one process, one JSON line each.

Each input line is a JSON object with the iztro oracle's fields (tools/iztro-oracle,
tests/fixtures/iztro-2.6.0/README.md)::

    {"id": "a", "date": "2000-8-16", "time": 2, "gender": "女"}
    {"id": "b", "date": "2023-2-20", "time": 4, "gender": "male", "by": "lunar", "leap": true,
     "fix_leap": true, "horoscope": "2024-5-1", "horoscope_time": 6,
     "astro_type": "earth", "config": {"algorithm": "zhongzhou"}}

``date`` (solar, or lunar with ``"by": "lunar"``), ``time`` (iztro's time index 0..12),
``gender`` (男 / 女 / male / female) are required; ``leap`` marks a lunar leap month;
``fix_leap``, ``astro_type`` and ``config`` are iztro's settings (``ZiweiSettings.from_iztro``),
or ``settings`` gives ``ZiweiSettings`` fields by our names (``{"school": "quanshu"}``);
``horoscope`` and ``horoscope_time`` add the horoscope of that date and hour.  ``lang``
and ``analysis`` (oracle keys) are accepted and ignored: the run's options decide.
``--lang L`` adds ``"locale"``, the names in language L (``mingshu.present.ziwei_locale``).

Each output line is ``{"line": n, "id": …, "chart": {…}}`` (the ``mingshu.ziwei.chart/1``
export), with ``"horoscope"`` when asked and ``"analysis"`` with ``--analysis``
(docs/ziwei-json.md, "Analysis"), in input order.  A bad line gives
``{"line": n, "id": …, "error": {"field": …, "message": …}}`` and the run goes on; at the
end, if any line was bad, one ``error: batch: …`` line on stderr and exit code 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

import orjson

from mingshu.cli._errors import clip as clip_text
from mingshu.errors import InputError
from mingshu.named import clip

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = ["BatchResult", "batch_command", "batch_lines", "run_batch"]

_KEYS: Final = frozenset(
    {
        "id",
        "date",
        "time",
        "gender",
        "by",
        "leap",
        "fix_leap",
        "horoscope",
        "horoscope_time",
        "astro_type",
        "config",
        "settings",
        "lang",
        "analysis",
    }
)
_MESSAGE_LIMIT: Final = 400
# Output lines written at a time: about 1.4 MB of charts, which malloc hands back and reuses
# from one chunk to the next; 2,000 lines (44 MB) were mapped afresh each time, and the
# kernel's zeroing of those pages cost more CPU than writing them out.
_CHUNK: Final = 64


class BatchResult:
    """What a run did: lines read, charts written, bad lines (and the first one)."""

    def __init__(self) -> None:
        self.lines = 0
        self.bad = 0
        self.first_bad: tuple[int, str, str] | None = None

    def fail(self, line: int, field: str, message: str) -> None:
        self.bad += 1
        if self.first_bad is None:
            self.first_bad = (line, field, message)


# Settings by (config or settings as sorted JSON, fix_leap, astro_type): most runs use a
# handful.
_SETTINGS: dict[tuple[bytes | None, object, object], ZiweiSettings] = {}
# iztro's settings keys: a line gives them or "settings", not both.
_IZTRO_SETTINGS: Final = ("config", "fix_leap", "astro_type")


def _settings(inp: dict[str, Any]) -> ZiweiSettings:
    if "settings" in inp:
        return _own_settings(inp)
    config, fix_leap, astro_type = inp.get("config"), inp.get("fix_leap"), inp.get("astro_type")
    if config is not None and not isinstance(config, dict):
        raise InputError("config", f"must be a JSON object, not {clip(config)}")
    if fix_leap is not None and not isinstance(fix_leap, bool):
        raise InputError("fix_leap", f"{clip(fix_leap)} is not true or false")
    if astro_type is not None and not isinstance(astro_type, str):
        raise InputError("astro_type", f"{clip(astro_type)} is not a chart type")
    # Most lines give no config: no encoding for them (orjson's result takes 4 kB).
    options = None if config is None else orjson.dumps(config, option=orjson.OPT_SORT_KEYS)
    key = (options, fix_leap, astro_type)
    found = _SETTINGS.get(key)
    if found is None:
        # Imported here, on a miss only: a `from package import name` runs importlib's
        # Python-level _handle_fromlist each time.
        from mingshu.ziwei import ZiweiSettings

        found = ZiweiSettings.from_iztro(
            config,
            fix_leap=True if fix_leap is None else fix_leap,
            astro_type="heaven" if astro_type is None else astro_type,  # "" is refused
        )
        if len(_SETTINGS) >= 1000:
            _SETTINGS.clear()
        _SETTINGS[key] = found
    return found


def _own_settings(inp: dict[str, Any]) -> ZiweiSettings:
    """``"settings": {…}``: any ``ZiweiSettings`` fields by their names and words (the
    ``school`` and the true-solar-time flags included, which iztro's config has not)."""
    own = inp["settings"]
    if not isinstance(own, dict):
        raise InputError("settings", f"must be a JSON object, not {clip(own)}")
    for iztro_key in _IZTRO_SETTINGS:
        if iztro_key in inp:
            raise InputError("settings", f'give "settings" or iztro\'s "{iztro_key}", not both')
    key = (b"settings:" + orjson.dumps(own, option=orjson.OPT_SORT_KEYS), None, None)
    found = _SETTINGS.get(key)
    if found is None:
        from mingshu.options import ZIWEI
        from mingshu.ziwei import ZiweiSettings

        known = [s.name for s in ZIWEI]
        for name in own:
            if name not in known:
                raise InputError("settings", f"no setting {clip(name)} (known: {', '.join(known)})")
        found = ZiweiSettings(**own)
        if len(_SETTINGS) >= 1000:
            _SETTINGS.clear()
        _SETTINGS[key] = found
    return found


def _time_index(inp: dict[str, Any], key: str) -> int:
    value = inp[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 12:
        raise InputError(key, f"{clip(value)} is not a time index 0..12")
    return value


def _record(
    line: int,
    inp: object,
    ident: Any,
    analysis: Any,
    horoscope_json: Any,
    chart_json: Any,
    lang: str | None = None,
) -> bytes:
    """One output line; ``analysis`` is the analysis encoder, or None without --analysis;
    ``ident`` is the line's id as it is written back (:func:`_ident`)."""
    # Not `from mingshu import ziwei`: on a package that runs importlib's Python-level
    # _handle_fromlist at every line.
    import mingshu.ziwei as ziwei

    if not isinstance(inp, dict):
        raise InputError("input", f"expected a JSON object, not {type(inp).__name__}")
    if not _KEYS.issuperset(inp):
        key = min(k for k in inp if k not in _KEYS)
        if key.strip() and key.isprintable() and len(key) <= 40:
            raise InputError(key, "unknown input key")
        # An empty or unprintable key cannot name the field the error points at.
        raise InputError("input", f"unknown input key {clip(key)}")
    for key in ("date", "time", "gender"):
        if key not in inp:
            raise InputError(key, "missing")
    date, gender, by = inp["date"], inp["gender"], inp.get("by", "solar")
    if not isinstance(date, str):
        raise InputError("date", f"{clip(date)} is not a date (YYYY-M-D)")
    if not isinstance(gender, str):
        raise InputError("gender", f"{clip(gender)} is not 男, 女, male or female")
    if by not in ("solar", "lunar"):
        raise InputError("by", f"{clip(by)} is not 'solar' or 'lunar'")
    leap = inp.get("leap", False)
    if not isinstance(leap, bool):
        raise InputError("leap", f"{clip(leap)} is not true or false")
    if leap and by != "lunar":
        raise InputError("leap", 'marks a lunar leap month: give it with "by": "lunar"')
    chart = ziwei.chart(
        date,
        _time_index(inp, "time"),
        gender,
        lunar=by == "lunar",
        leap=leap,
        settings=_settings(inp),
    )
    out: dict[str, Any] = {"line": line, "id": ident, "chart": chart_json(chart)}
    horoscope = None
    if "horoscope" in inp:
        target = inp["horoscope"]
        if not isinstance(target, str):
            raise InputError("horoscope", f"{clip(target)} is not a date (YYYY-M-D)")
        hour = _time_index(inp, "horoscope_time") if "horoscope_time" in inp else 0
        # iztro reads `time || hourOf(date)`: an explicit 0 and no time are the same.
        try:
            horoscope = ziwei.horoscope(chart, target, hour or None)
        except InputError as e:  # the engine's names for what this line calls otherwise
            field = {"at": "horoscope", "time": "horoscope_time"}.get(e.field, e.field)
            raise InputError(field, e.message) from None
        out["horoscope"] = horoscope_json(horoscope)
    elif "horoscope_time" in inp:
        raise InputError("horoscope_time", 'given without "horoscope"')
    if analysis is not None:
        out["analysis"] = orjson.Fragment(analysis(chart))
    if lang is not None:
        from mingshu.present.ziwei_locale import locale_to_dict

        out["locale"] = locale_to_dict(chart, lang, horoscope)
    return orjson.dumps(out)


def batch_lines(
    lines: Iterable[bytes],
    result: BatchResult,
    *,
    analysis: bool = False,
    lang: str | None = None,
) -> Iterator[bytes]:
    """One output line (without its newline) per non-blank input line, in order."""
    # Imported once here rather than per line in _record (each import statement costs).
    from mingshu.present.ziwei_analysis import analysis_json
    from mingshu.present.ziwei_json import chart_document, horoscope_to_dict

    encode_analysis = analysis_json if analysis else None
    loads, dumps = orjson.loads, orjson.dumps
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        result.lines += 1
        inp: object = None
        ident: Any = None
        try:
            try:
                inp = loads(raw)
            except orjson.JSONDecodeError as e:
                raise InputError("json", _not_json(raw, e)) from None
            # Each key of a line has one colon outside its strings: as many colons as
            # top-level keys proves there is no key twice (and no nested object).
            if isinstance(inp, dict) and raw.count(b":") != len(inp):
                _no_key_twice(raw)
            ident = _ident(inp, raw)
            yield _record(
                number, inp, ident, encode_analysis, horoscope_to_dict, chart_document, lang
            )
        except InputError as e:
            message = clip_text(e.message, _MESSAGE_LIMIT)
            result.fail(number, e.field, message)
            if not isinstance(ident, str | int | float | bool | orjson.Fragment | None):
                ident = None
            error = {"field": clip_text(e.field), "message": message}
            yield dumps({"line": number, "id": ident, "error": error})


def _no_key_twice(raw: bytes) -> None:
    """An :class:`InputError` on ``json`` if an object of the line gives a key twice (orjson,
    as JSON readers do, keeps the last silently).  The slow reading: only for lines whose
    colons do not match their keys (nested objects, colons in strings, a key twice)."""
    import json

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, value in items:
            if key in found:
                raise InputError("json", f"the key {clip(key)} is given twice in one object")
            found[key] = value
        return found

    try:
        json.loads(raw, object_pairs_hook=pairs)
    except RecursionError:
        raise InputError("json", "the line's objects are nested too deeply") from None


def _ident(inp: object, raw: bytes) -> Any:
    """The line's ``id`` as it is written back.  orjson reads an integer beyond 64 bits as a
    float (a 30-digit id would come back rounded): such an id is read again exactly and
    written back as the very number it was."""
    ident = inp.get("id") if isinstance(inp, dict) else None
    if isinstance(ident, float):
        import json
        from decimal import Decimal

        exact = json.loads(raw, parse_float=Decimal).get("id")
        if isinstance(exact, int | Decimal):
            return orjson.Fragment(str(exact).encode())
    return ident


def _not_json(raw: bytes, error: orjson.JSONDecodeError) -> str:
    """Why a line is not JSON, in words (orjson says "surrogates not allowed" of bytes
    that are not UTF-8)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return (
            f"not JSON text: byte {e.start + 1} (0x{raw[e.start]:02x}) is not UTF-8; "
            "the batch file must be UTF-8 text"
        )
    return f"not JSON: {error}"


def _open(path: str) -> IO[bytes]:
    if path == "-":
        return sys.stdin.buffer
    try:
        return Path(path).open("rb")  # closed by run_batch
    except OSError as e:
        raise InputError("batch", f"cannot read {clip_text(path)}: {e.strerror or e}") from None


def _read(source: IO[bytes], path: str) -> Iterator[bytes]:
    """The lines of ``source``; a failure to read is an error naming the batch file (so
    that one while writing, caught in _write_all, is never taken for it)."""
    try:
        yield from source
    except OSError as e:
        raise InputError("batch", f"cannot read {clip_text(path)}: {e.strerror or e}") from None


def _chunks(lines: Iterator[bytes]) -> Iterator[list[bytes]]:
    """The lines _CHUNK at a time, each followed by its newline."""
    chunk: list[bytes] = []
    for line in lines:
        chunk += (line, b"\n")
        if len(chunk) >= 2 * _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _file_number(buffer: object) -> int | None:
    try:
        return int(buffer.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def _write_all(pieces: Iterator[list[bytes]], handle: IO[str], target: str) -> None:
    """Write chunks of UTF-8 lines to a text stream: to its file descriptor with one
    ``writev`` a chunk when it has one (the 1.4 MB of a chunk is never joined into one
    more copy), else to its byte buffer, else as text.  A reader that goes away (``| head``)
    ends the run quietly; any other failure to write is an error naming ``target``."""
    buffer: Any = getattr(handle, "buffer", None)
    try:
        handle.flush()
        # os.writev is POSIX only: elsewhere the chunks are joined and written to the buffer.
        fd = None if buffer is None or not hasattr(os, "writev") else _file_number(buffer)
        if fd is not None:
            buffer.flush()
        for chunk in pieces:
            if fd is not None:
                written = os.writev(fd, chunk)
                if written < sum(map(len, chunk)):  # a pipe may take part: write the rest
                    rest = memoryview(b"".join(chunk))[written:]
                    while rest:
                        rest = rest[os.write(fd, rest) :]
            elif buffer is not None:
                buffer.write(b"".join(chunk))
            else:
                handle.write(b"".join(chunk).decode())
        if buffer is not None:
            buffer.flush()
        handle.flush()
    except BrokenPipeError:
        if handle is sys.stdout:  # nothing more can reach it, not even at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as e:
        raise InputError("out", f"cannot write {target}: {e.strerror or e}") from None


def run_batch(
    path: str, *, out: str | None = None, analysis: bool = False, lang: str | None = None
) -> BatchResult:
    """Chart every line of ``path`` (``-``: standard input) to ``out`` (written whole, or
    not at all; ``None``: standard output)."""
    if lang is not None:
        from mingshu.ziwei.locale import language

        lang = language(lang)  # a bad tag is one error, not one per line
    result = BatchResult()
    if out == "-":
        out = None
    if out is not None:  # before reading a line: the output must not replace the input
        from mingshu.files import check_not_input, check_target

        if path != "-":
            check_not_input(out, "out", path, f"batch file {clip_text(path)}")
        elif (stdin := _file_number(sys.stdin)) is not None:
            check_not_input(out, "out", stdin, "piped in on standard input")
        check_target(out, "out")
    source = _open(path)
    try:
        lines = _read(source, path)
        pieces = _chunks(batch_lines(lines, result, analysis=analysis, lang=lang))
        if out is None:
            _write_all(pieces, sys.stdout, "standard output")
            return result
        from mingshu.files import replacing

        with replacing(out, "out") as handle:
            _write_all(pieces, handle, clip_text(out))
        return result
    finally:
        if source is not sys.stdin.buffer:
            source.close()


def batch_command(
    batch: str | None,
    birth_date: str | None,
    birth_time: str | None,
    *,
    analysis: bool,
    out: str | None,
    lang: str | None = None,
) -> None:
    """The ``--batch`` branch of ``mingshu ziwei``: run, then report bad lines (exit 2)."""
    import typer

    from mingshu.cli._errors import error_line, fail

    raw = [batch or "", birth_date or "", birth_time or "", out or ""]
    if batch is None:
        fail(InputError("batch", "--analysis and --out go with --batch IN.jsonl"), raw)
    if birth_date is not None or birth_time is not None:
        fail(InputError("batch", "give DATE and TIME on each line of the batch file, not here"))
    try:
        result = run_batch(batch, out=out, analysis=analysis, lang=lang)
    except InputError as e:
        fail(e, raw)
    if result.first_bad is not None:
        line, field, message = result.first_bad
        what = (
            f"{result.bad} of {result.lines} lines were bad; first, line {line}: {field}: {message}"
        )
        typer.echo(error_line("batch", what, raw), err=True)
        raise typer.Exit(2)
