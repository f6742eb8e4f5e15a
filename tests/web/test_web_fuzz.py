"""Any value in any field of the chart page: a page or a message, never a server error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mingshu.web.query import BAZI_CHOICES, CHOICES

FIELDS = [
    "date", "time", "gender", "calendar", "leap", "unknown_hour", "tz", "city", "lon",
    "true_solar", "fold", "names", "at", "year", "place", "star", *CHOICES, *BAZI_CHOICES,
]  # fmt: skip
GOOD = {"date": "1987-05-16", "time": "10:30", "gender": "female"}
values = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", "1", "0", "23:59", "1900-01-31", "2100-12-31", "Asia/Shanghai",
                     "1816670", "-180", "lunar", "same_day", "wen_chang:w2", "x" * 200]),
)  # fmt: skip


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from mingshu.web import create_app

    db = tmp_path_factory.mktemp("fuzz") / "web.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}"), raise_server_exceptions=False) as c:
        yield c


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(changes=st.dictionaries(st.sampled_from(FIELDS), values, max_size=4))
def test_chart_page_never_fails(fuzz_client: TestClient, changes: dict[str, str]) -> None:
    params = {**GOOD, **changes}
    for path in ("/chart", "/api/ziwei", "/api/bazi", "/chart/star/zi_wei"):
        r = fuzz_client.get(path, params=params, follow_redirects=False)
        assert r.status_code in (200, 303, 404, 422), (path, params, r.status_code)
        assert "Traceback" not in r.text
