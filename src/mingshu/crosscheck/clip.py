"""Keep long values out of messages: a 100,000-character field is echoed at most 80 long."""

from __future__ import annotations

import re
from typing import Final

from mingshu.named import clip_text as clip

__all__ = ["MAX_ECHO", "MAX_MESSAGE", "clip", "clip_message"]

MAX_ECHO: Final = 80  # longest value echoed back in a message
MAX_MESSAGE: Final = 240  # longest message, whatever it is made of
_LONG_RUN: Final = re.compile(rf"\S{{{MAX_ECHO + 1},}}")


def clip_message(text: str) -> str:
    """A message made by other code, with every long unbroken run (an echoed value) clipped
    to :data:`MAX_ECHO` and the whole to :data:`MAX_MESSAGE` characters."""
    text = _LONG_RUN.sub(lambda m: clip(m[0]), text)
    return clip(text, MAX_MESSAGE)
