"""How the command line reports bad input: one line, ``error: <field>: <message>``, exit 2.

Error messages echo the value that was wrong, and a value can be any length (a pasted file,
a runaway shell variable).  Every value a message echoes is clipped to :data:`ECHO_LIMIT`
characters with an ellipsis, so a 100,000-character argument never floods the terminal.
Imports nothing heavy: this runs before (or instead of) any engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, NoReturn

if TYPE_CHECKING:
    from mingshu.errors import InputError

__all__ = ["ECHO_LIMIT", "clip", "error_line", "fail"]

ECHO_LIMIT: Final = 80
"""The most characters of one input value an error message shows."""
_MESSAGE_LIMIT: Final = 400
"""A last cap on a whole message, for echoes the clipping below could not recognise."""
_PART_SEPARATORS: Final = re.compile(r"[=,，、]")
_LONG_WORD: Final = re.compile(rf"\S{{{ECHO_LIMIT + 1},}}")


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` if it is at most ``limit`` characters, else its start and an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _echo_forms(raw: Iterable[str]) -> list[str]:
    """The long strings a message may echo from the raw arguments: each argument, its
    ``KEY=V1,V2`` parts, stripped, as written and as ``repr`` writes them (``\\x00``)."""
    forms: set[str] = set()
    for value in raw:
        for piece in (value, *_PART_SEPARATORS.split(value)):
            for text in (piece, piece.strip()):
                if len(text) > ECHO_LIMIT:
                    forms.add(text)
                    forms.add(repr(text)[1:-1])
    return sorted(forms, key=len, reverse=True)  # longest first: parts lie inside wholes


def error_line(field: str, message: str, raw: Iterable[str] = ()) -> str:
    """``error: <field>: <message>`` with every long echoed value clipped."""
    for form in _echo_forms(raw):
        if form in message:
            message = message.replace(form, clip(form))
    message = _LONG_WORD.sub(lambda m: clip(m[0]), message)
    return f"error: {clip(field, ECHO_LIMIT)}: {clip(message, _MESSAGE_LIMIT)}"


def fail(error: InputError, raw: Iterable[str] = ()) -> NoReturn:
    """Print ``error`` as the one error line on stderr and exit with code 2."""
    import typer

    typer.echo(error_line(error.field, error.message, raw), err=True)
    raise typer.Exit(2)
