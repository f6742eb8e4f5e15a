"""The settings options of the chart commands, built from the one table in
:mod:`mingshu.options` (so ``ziwei``, ``bazi`` and ``sweep ziwei`` cannot drift apart).

:func:`setting_options` adds one Typer option per setting to a command whose signature ends
in ``**settings``; :func:`chosen` turns what the user gave into keyword arguments of the
settings type.  A setting left out is left out there too, so the settings type's own
default applies (the 全书 school's own leap month included).  The words stay plain strings
here: the settings type coerces and checks them, and a bad word is its ``InputError``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, TypeVar

import typer
from typer._click.core import ParameterSource

from mingshu.options import Choice, Flag, Pairs, Setting

__all__ = ["chosen", "given", "option_name", "pairs", "setting_options"]

F = TypeVar("F", bound=Callable[..., Any])


def option_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def _parameter(setting: Setting) -> inspect.Parameter:
    annotation: Any
    default: Any
    if isinstance(setting, Choice):
        annotation = Annotated[
            str, typer.Option(option_name(setting.name), metavar="WORD", help=setting.help)
        ]
        default = setting.default
    elif isinstance(setting, Flag):
        flag = option_name(setting.name)
        declared = f"{flag}/--no-{flag[2:]}" if setting.default else flag
        annotation = Annotated[bool, typer.Option(declared, help=setting.help)]
        default = setting.default
    else:
        annotation = Annotated[
            list[str] | None,
            typer.Option(setting.option, metavar=setting.metavar, help=setting.help),
        ]
        default = None
    return inspect.Parameter(
        setting.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def setting_options(settings: Iterable[Setting]) -> Callable[[F], F]:
    """Give the command one option per setting, received in its ``**settings``."""

    def add(command: F) -> F:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        extra = [_parameter(s) for s in settings]
        command.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*own, *extra]
        )
        return command

    return add


def given(ctx: typer.Context, name: str) -> bool:
    """Whether the user gave the option of parameter ``name`` (not its default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source is not ParameterSource.DEFAULT


def chosen(
    ctx: typer.Context, settings: Iterable[Setting], values: Mapping[str, Any]
) -> dict[str, Any]:
    """The settings the user gave, as keyword arguments of the settings type."""
    out: dict[str, Any] = {}
    for s in settings:
        if not given(ctx, s.name):
            continue
        value = values[s.name]
        out[s.name] = pairs(value or [], s.name, s.example) if isinstance(s, Pairs) else value
    return out


def _split_values(text: str) -> list[str]:
    return [v.strip() for v in text.replace("，", ",").replace("、", ",").split(",")]


def pairs(items: Sequence[str], field: str, example: str) -> dict[str, list[str]]:
    """``KEY=V1,V2,…`` options as a dict; a key given twice is an error."""
    from mingshu.cli._errors import clip
    from mingshu.errors import InputError

    out: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise InputError(field, f"{clip(item)!r} is not {example}")
        if key in out:
            raise InputError(field, f"{clip(key)} is given twice")
        out[key] = _split_values(values)
    return out
