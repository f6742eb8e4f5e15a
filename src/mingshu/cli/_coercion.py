"""Plain coercion of the command-line options, without pydantic.

Typer 0.2x turns every option's text into its annotated type through a pydantic
``TypeAdapter``, built when a command runs.  Importing pydantic and building twenty adapters
costs about 90 ms, a third of a chart command's start-up, for options that are only ever
``str``, ``int``, ``float``, ``bool`` flags, lists of these, or a ``StrEnum`` of display
choices.  This
module gives exactly those parameters a plain coercion with the same meaning (a bad number
or choice is still Click's ``BadParameter``, which ``mingshu.cli`` prints as
``error: <field>: <message>``).

It reaches into Typer's parameter objects (``_TyperParameter._runtime_param``).  If a Typer
version lacks them, :func:`install` changes nothing and Typer coerces as it always does:
slower, never wrong.  ``tests/cli/test_startup.py`` notices when that happens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, get_args, get_origin

import typer

from mingshu.cli._errors import clip

__all__ = ["install"]

Convert = Callable[[Any], Any]


def _number(kind: type[int] | type[float], words: str) -> Convert:
    def convert(value: Any) -> Any:
        try:
            return kind(value)
        except (TypeError, ValueError):
            raise ValueError(f"{clip(str(value))!r} is not {words}") from None

    return convert


def _choice(enum: type[StrEnum]) -> Convert:
    def convert(value: Any) -> Any:
        try:
            return enum(value)
        except ValueError:
            choices = ", ".join(m.value for m in enum)
            raise ValueError(f"{clip(str(value))!r} is not one of {choices}") from None

    return convert


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{clip(str(value))!r} is not a flag value")
    return value


def _converter(annotation: Any) -> Convert | None:
    """A plain coercion for ``annotation``, or None to leave it to Typer."""
    if annotation is str:
        return str
    if annotation is bool:  # flags: Click has made the bool already
        return _flag
    if annotation is int:
        return _number(int, "a whole number")
    if annotation is float:
        return _number(float, "a number")
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return _choice(annotation)
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        each = _converter(item)
        if each is None:
            return None
        return lambda values: [each(v) for v in values]
    return None


def install(command: Any) -> None:
    """Give each plain parameter of ``command`` (a Click command built by Typer) a plain
    coercion in place of Typer's pydantic one."""
    try:
        from typer._coercion import RuntimeParam
        from typer.core import _TyperParameter
    except ImportError:  # another Typer: keep its own coercion
        return

    @dataclass(frozen=True)
    class Plain(RuntimeParam):
        convert: Convert

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                return self.convert(value)
            except ValueError as e:
                raise typer.BadParameter(str(e), ctx=ctx, param=param) from None

    def plain(param: Any) -> None:
        if not isinstance(param, _TyperParameter) or param._runtime_param is not None:
            return
        descriptor = param.type_descriptor
        convert = _converter(descriptor.annotation)
        if convert is None or descriptor.file_annotation is not None:
            return
        param._runtime_param = Plain(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            convert=convert,
        )

    for param in getattr(command, "params", ()):
        plain(param)
    # --help is a bool option too, made when the command parses its arguments.
    make_help_option = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        plain(option)
        return option

    command.get_help_option = get_help_option
