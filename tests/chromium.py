"""Debian's Chromium for the browser tests (tests/web/test_web_browser.py and
tests/library/test_browser.py), launched one way.

Each test runs its Playwright script in a child process (:func:`isolated` builds the
command): inside a loopback-only network namespace when the machine allows one
(``unshare -n``, loopback brought up), and the script opens the browser with :func:`launch`,
whose resolver rules map every host name but 127.0.0.1 to nothing, so Chromium stays off the
network either way.  Playwright cannot download a browser here; Debian's is used.

The scripts import this module by path (they run as ``python tests/.../script.py``)::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from chromium import launch
"""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["ARGS", "CHROMIUM", "DEJAVU", "dejavu_only", "installed", "isolated", "launch"]

CHROMIUM = Path("/usr/lib/chromium/chromium")
ARGS = (
    # Every host name but the loopback address resolves to nothing.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    # The tests run as root in a container, where Chromium's sandbox cannot start.
    "--no-sandbox",
)


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
"""Debian's DejaVu fonts: a machine with no CJK font at all, as many readers' are."""


def dejavu_only(folder: Path) -> dict[str, str]:
    """The variable (a fontconfig file written in ``folder``) that makes a Chromium's
    fontconfig know only DejaVu, so CJK text can come only from our fonts.  Pass it to
    :func:`launch` as ``env`` (which keeps the browser's own home), or add it to a script's
    environment."""
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{DEJAVU}</dir>\n  <cachedir>{folder / 'fontconfig'}</cachedir>\n"
        "</fontconfig>\n",
        encoding="utf-8",
    )
    return {"FONTCONFIG_FILE": str(conf)}


def installed() -> bool:
    """Whether Debian's chromium is here (the browser tests skip, saying so, when not)."""
    return CHROMIUM.exists()


def launch(playwright: Any, **options: Any) -> Any:
    """A headless Debian Chromium under PLAYWRIGHT (``sync_playwright()``'s object), with a
    home of its own (Chromium writes ~/.config/chromium and ~/.cache even headless), removed
    when the script ends."""
    home = tempfile.mkdtemp(prefix="mingshu-chromium-home-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    env = {
        **os.environ,
        "HOME": home,
        "XDG_CONFIG_HOME": f"{home}/.config",
        "XDG_CACHE_HOME": f"{home}/.cache",
        **options.pop("env", {}),
    }
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=list(ARGS), headless=True, env=env, **options
    )


def isolated(command: list[str]) -> list[str]:
    """COMMAND run inside a loopback-only network namespace when ``unshare -n`` works here,
    else COMMAND unchanged."""
    if shutil.which("unshare") and shutil.which("ip"):
        probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, check=False)
        if probe.returncode == 0:
            inner = "ip link set lo up && exec " + shlex.join(command)
            return ["unshare", "-n", "--", "sh", "-c", inner]
    return command
