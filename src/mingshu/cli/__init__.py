"""The ``mingshu`` command line (Typer + Rich).

Each command lives in its own module under ``mingshu.cli`` and defines
``register(app: typer.Typer) -> None``; adding a command module is one line in
``_COMMAND_MODULES``.  Command modules import nothing but Typer at the top: their options
are plain strings, numbers and flags (choices are coerced inside the command by the
engines' settings types), and engines, Rich and the JSON export load inside the command,
so ``mingshu --help`` stays fast.

Bad input of any kind, Click's own usage errors included, prints one line,
``error: <field>: <message>``, on stderr and exits with code 2 (see ``_errors``).  Output that
cannot be written (a full disk, a standard output whose encoding cannot hold the text) is
one such line too, ``error: out: …``, caught here for every command so that no command can
forget it; it exits with code 2 as well (1 means "a claim or a case failed" to ``claims``
and ``crosscheck``), as ``ziwei --batch`` always did.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, Final, NoReturn

import typer
from typer._click.core import Context
from typer._click.exceptions import (
    BadOptionUsage,
    BadParameter,
    ClickException,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperCommand, TyperGroup, TyperOption

from mingshu import __version__
from mingshu.cli._errors import error_line

__all__ = ["app", "main"]

# Parameter names whose field, in the engines' errors, is called otherwise.
_FIELDS: Final = {
    "birth_date": "date",
    "birth_time": "time",
    "time_index": "time",
    "as_json": "json",
}


def _usage_field(e: UsageError) -> tuple[str, str]:
    """The field and message of one of Click's usage errors, in the project's words."""
    if isinstance(e, BadParameter) and e.param is not None and e.param.name:
        field = _FIELDS.get(e.param.name, e.param.name)
        if isinstance(e, MissingParameter) or not e.message:
            return field, e.format_message()
        return field, e.message.removeprefix("Value error, ")
    if isinstance(e, NoSuchOption):
        return "option", e.format_message()
    if isinstance(e, BadOptionUsage):  # `--at` with no value
        name = e.option_name.lstrip("-").replace("-", "_")
        return _FIELDS.get(name, name), e.format_message()
    if e.ctx is not None and e.ctx.parent is None:  # the top level: `mingshu nope`
        return "command", e.format_message()
    return "arguments", e.format_message()


class _Command(TyperCommand):
    """Typer's command, with one rule for every option: an option that takes one value (or
    a flag) may be given once.  Click keeps the last of a repeated ``--tz`` silently; the
    repeatable options (``--mutagen``, ``--star``, ``--year`` …) are lists and stay so."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            _refuse_repeats(self, ctx, args)
        return super().parse_args(ctx, args)


def _refuse_repeats(command: TyperCommand, ctx: Context, args: list[str]) -> None:
    try:  # a first pass over a copy; the real one reports any other usage error
        _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    except UsageError:
        return
    seen: dict[str, int] = {}
    for param in order:
        if isinstance(param, TyperOption) and not param.multiple and not param.is_eager:
            name = param.name or ""
            seen[name] = seen.get(name, 0) + 1
            if seen[name] == 2:
                given = "/".join([*param.opts, *param.secondary_opts])
                raise BadOptionUsage(
                    param.opts[0], f"{given} is given more than once: give it once", ctx
                )


class _Group(TyperGroup):
    """Typer's group, with Click's boxed usage errors replaced by the project's error line."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        raw = list(sys.argv[1:] if args is None else args)
        try:
            code = super().main(raw, prog_name, complete_var, False, windows_expand_args, **extra)
        except NoArgsIsHelpError:  # `mingshu` alone: the help, shown the usual way
            return super().main(raw, prog_name, complete_var, True, windows_expand_args, **extra)
        except UsageError as e:
            typer.echo(error_line(*_usage_field(e), raw), err=True)
            sys.exit(2)
        except ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        except UnicodeEncodeError as e:
            text = e.object[e.start : e.start + 1]
            if "\ud800" <= text <= "\udfff":  # bytes that were not UTF-8 (or a lone half)
                _output_failed(f"{text!r} is a byte that is not UTF-8 text: it cannot be used")
            _output_failed(
                f"standard output's encoding ({e.encoding}) cannot write {text!r}: "
                "set PYTHONIOENCODING=utf-8 (or a UTF-8 locale)"
            )
        except OSError as e:
            if e.filename is not None:  # a file a command reads or writes, named
                _output_failed(f"{e.filename}: {e.strerror or e}", "file")
            _output_failed(f"cannot write standard output: {e.strerror or e}")
        sys.exit(code if isinstance(code, int) else 0)


def _output_failed(message: str, field: str = "out") -> NoReturn:
    """The one error line for output that cannot be written, then exit 2.  Whatever is still
    buffered for standard output goes to the null device, so the interpreter's flush at exit
    fails no second time (with a traceback-like "Exception ignored" message)."""
    # No real file descriptor (a test's captured output): nothing is flushed at exit.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    with contextlib.suppress(OSError, UnicodeEncodeError):  # standard error is broken too
        typer.echo(error_line(field, message), err=True)
    sys.exit(2)


app = typer.Typer(
    name="mingshu",
    help="命书 mingshu: Zi Wei Dou Shu and BaZi charts computed exactly, with sourced tables.",
    no_args_is_help=True,
    add_completion=False,
    cls=_Group,
    # Click's plain help: Typer's Rich help imports rich.markdown and markdown-it (~60 ms).
    rich_markup_mode=None,
)

# One line per command module; each defines register(app).
_COMMAND_MODULES: tuple[str, ...] = (
    "mingshu.cli.crosscheck",
    "mingshu.cli.bazi",
    "mingshu.cli.library",
    "mingshu.cli.space",
    "mingshu.cli.ziwei",
    "mingshu.cli.web",
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"mingshu {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        help="Show the version and exit.",
        callback=_show_version,
        is_eager=True,
    ),
) -> None:
    """命书 mingshu: Zi Wei Dou Shu and BaZi charts computed exactly, with sourced tables."""


for _module in _COMMAND_MODULES:
    importlib.import_module(_module).register(app)
# Every command, in the sub-groups (sweep) too, with the one rule for repeated options.
for _typer in (app, *(group.typer_instance for group in app.registered_groups)):
    for _info in _typer.registered_commands if _typer is not None else ():
        if _info.cls in (None, TyperCommand):  # Typer fills in its own class
            _info.cls = _Command


def main() -> None:
    """Entry point of the ``mingshu`` script."""
    # A path or argument with bytes that are not UTF-8 is echoed as those bytes, as ls and
    # cat do (Python keeps them as surrogates, which "strict" refuses to write).
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]
    app()
