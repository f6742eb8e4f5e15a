"""The ``mingshu`` command line (Typer + Rich).

Each command lives in its own module under ``mingshu.cli`` and defines
``register(app: typer.Typer) -> None``; adding a command module is one line in
``_COMMAND_MODULES``.  Command modules import their heavy dependencies inside the command,
so ``mingshu --help`` stays fast.
"""

from __future__ import annotations

import importlib

import typer

from mingshu import __version__

__all__ = ["app", "main"]

app = typer.Typer(
    name="mingshu",
    help="命书 mingshu: Zi Wei Dou Shu and BaZi charts computed exactly, with sourced tables.",
    no_args_is_help=True,
    add_completion=False,
)

# One line per command module; each defines register(app).
_COMMAND_MODULES: tuple[str, ...] = (
    "mingshu.cli.crosscheck",
    "mingshu.cli.bazi",
    "mingshu.cli.ziwei",
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


def main() -> None:
    """Entry point of the ``mingshu`` script."""
    app()
