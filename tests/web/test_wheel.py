"""The site as a user installs it: the wheel built from this checkout, installed in a venv
outside the checkout, serving every page from an empty folder.

Each page must find what it reads (templates, static files, the font, rule tables, articles,
the iztro reference charts MS-LIB-01 crosschecks) inside the installed package: the server
runs with its working directory in tmp_path and no PYTHONPATH, and the test checks that
``mingshu`` is imported from the venv.  No network: the wheel is built with the shared
venv's hatchling (``--no-build-isolation``) and installed with ``--no-deps``; the new venv
sees the shared venv's packages (FastAPI, uvicorn, ...) through a ``.pth`` line, which adds
that folder alone: the checkout's editable ``mingshu`` there is not activated.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from .pg import free_port

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
BIRTH = "date=1987-05-16&time=10:30&gender=female"


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> str:
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{cmd[:4]} failed:\n{r.stdout}\n{r.stderr}"
    return r.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """(the venv's bin folder, an environment without the checkout) with the wheel in."""
    root = tmp_path_factory.mktemp("wheel")
    (root / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MINGSHU_"))}
    env |= {
        "HOME": str(root), "XDG_DATA_HOME": str(root / "data"), "TMPDIR": str(root / "tmp"),
        "PIP_NO_CACHE_DIR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INDEX": "1",
    }  # fmt: skip
    pip = [sys.executable, "-m", "pip"]
    _run([*pip, "wheel", str(REPO), "-w", str(root / "dist"), "--no-deps",
          "--no-build-isolation", "-q"], env, root)  # fmt: skip
    (wheel,) = (root / "dist").glob("mingshu-*.whl")
    _run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], env, root)
    python = root / "venv" / "bin" / "python"
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                env, root).strip()  # fmt: skip
    shared = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "shared-venv.pth").write_text("".join(f"{p}\n" for p in sorted(shared)))
    _run([*pip, "--python", str(python), "install", "--no-deps", f"{wheel}[web]", "-q"],
         env, root)  # fmt: skip
    empty = root / "empty"
    empty.mkdir()
    yield root / "venv" / "bin", env


def test_the_wheel_is_what_runs(venv: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = venv
    code = (
        "import mingshu, mingshu.web\n"
        "from mingshu.library.selfcheck import fixtures_folder\n"
        "print(mingshu.__file__); print(fixtures_folder())"
    )
    where, fixtures = _run([str(bin_dir / "python"), "-c", code], env, tmp_path).split()
    venv_root = bin_dir.parent.resolve()
    assert Path(where).resolve().is_relative_to(venv_root), where
    assert not Path(where).resolve().is_relative_to(REPO)
    # MS-LIB-01's reference charts: the copy inside the installed package
    assert Path(fixtures).resolve().is_relative_to(venv_root), fixtures
    assert len(list(Path(fixtures).glob("*.jsonl.gz"))) == 4


def test_library_show_ms_lib_01_from_the_wheel(
    venv: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """The article prints the same from the wheel as from the checkout (the crosscheck ran
    over the same reference charts with the same engine)."""
    bin_dir, env = venv
    wheel = _run([str(bin_dir / "mingshu"), "library", "show", "MS-LIB-01"], env, tmp_path)
    checkout = _run(
        [str(Path(sys.executable).with_name("mingshu")), "library", "show", "MS-LIB-01"],
        {**os.environ, "PYTHONPATH": str(REPO / "src")}, REPO,
    )  # fmt: skip
    assert "random" in wheel and "astro-types" in wheel
    assert wheel == checkout


def _get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read(), r.headers.get("content-type", "")
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers.get("content-type", "")


def _links(html: str) -> set[str]:
    """The site's own static files a page (or stylesheet) reads."""
    found = re.findall(r"""(?:href|src)=["'](/(?:static|fonts)/[^"'?#]+)""", html)
    found += re.findall(r"""url\(["']?(/(?:static|fonts)/[^"')?#]+)""", html)
    return set(found)


def test_the_wheel_serves_every_page(venv: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    bin_dir, env = venv
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [str(bin_dir / "mingshu"), "serve", "--port", str(port)], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        for _ in range(1200):  # bounded: two minutes on a loaded machine
            try:
                status, body, _type = _get(f"{base}/api/health")
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.1)
        assert proc.poll() is None, "the server died at start-up"
        assert status == 200 and b'"ok":true' in body

        status, body, _type = _get(f"{base}/api/articles")
        ids = [a["id"] for a in json.loads(body)]
        assert "MS-LIB-01" in ids and len(ids) >= 20
        pages = ["/", f"/chart?{BIRTH}", f"/chart?{BIRTH}&at=2026-11-29T10:00",
                 f"/chart/star/wen_chang?{BIRTH}", "/settings", "/library",
                 f"/api/ziwei?{BIRTH}", f"/api/bazi?{BIRTH}", f"/chart.svg?{BIRTH}",
                 "/openapi.json", f"/library/{ids[0]}/card.png",
                 f"/library/{ids[0]}/summary.webp"]  # fmt: skip
        pages += [f"/library/{urllib.parse.quote(i)}" for i in ids]
        assets: set[str] = set()
        for path in pages:
            status, body, kind = _get(base + path)
            assert status == 200, f"{path}: {status} {body[:300]!r}"
            assert body
            if "text/html" in kind:
                assets |= _links(body.decode())
        assert any(a.endswith(".css") for a in assets)
        css = [a for a in assets if a.endswith(".css")]
        for sheet in css:
            assets |= _links(_get(base + sheet)[1].decode())
        assert any(a.startswith("/fonts/") for a in assets), assets
        for path in sorted(assets):
            status, body, _type = _get(base + path)
            assert status == 200 and body, f"{path}: {status}"
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the server and its workers
            _, err = proc.communicate(timeout=10)
    assert "Traceback" not in err, err
