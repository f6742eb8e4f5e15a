"""The presentation layer: charts as text, JSON and SVG, for the CLI, the web and callers.

It reads the engines (``mingshu.ziwei``, ``mingshu.bazi``); the engines never import it.

* :func:`chart_to_dict`, :func:`horoscope_to_dict`, :func:`annual_to_dict`,
  :func:`settings_to_dict`, :func:`to_json`: one JSON dialect for both engines
  (docs/ziwei-json.md, docs/bazi.md).
* :func:`chart_svg`: the Zi Wei 4×4 board as SVG.
* :func:`to_markdown`: a Zi Wei chart (and horoscope) as Markdown, in any of its languages.
* ``mingshu.present.ziwei_text.ChartGrid`` and ``mingshu.present.bazi_text``: the terminal
  renderings (Rich), loaded only when used.

See docs/presentation.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mingshu.present.export import (
    annual_to_dict,
    chart_to_dict,
    horoscope_to_dict,
    settings_to_dict,
    to_json,
)

if TYPE_CHECKING:
    from mingshu.present.ziwei_markdown import to_markdown
    from mingshu.present.ziwei_svg import chart_svg

__all__ = [
    "annual_to_dict",
    "chart_svg",
    "chart_to_dict",
    "horoscope_to_dict",
    "settings_to_dict",
    "to_json",
    "to_markdown",
]


def __getattr__(name: str) -> Any:
    # The SVG board needs the Zi Wei engine; load it only when asked for, so that BaZi's
    # JSON does not pay for it.
    if name == "chart_svg":
        from mingshu.present.ziwei_svg import chart_svg

        return chart_svg
    if name == "to_markdown":
        from mingshu.present.ziwei_markdown import to_markdown

        return to_markdown
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
