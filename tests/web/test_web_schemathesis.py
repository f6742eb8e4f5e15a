"""A property-based run over the API's OpenAPI document (schemathesis) with every check
(``--checks all``): no server error, no response outside the documented schema, every
schema-breaking request refused (negative_data_rejection) and every request the document
calls valid accepted (positive_data_acceptance), for a bounded number of examples per
operation.  "Valid" includes the rules each operation states in ``x-mingshu-rules`` (rules
between parameters, whether a date exists): the hook in schemathesis_hooks.py reads them from
the document and keeps the generated valid requests within them.

Each operation's requests by status code are printed in the terminal summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any, Final

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks

from mingshu.web import create_app

from . import schemathesis_hooks  # noqa: F401  (registers the filter_case hook)

SUMMARY_PREFIX = "terminal_summary:"  # read by tests/conftest.py

# The slow tier: schemathesis builds every operation's coverage cases at collection (about
# 6 s of CPU), so the local loop does not even collect this module (tests/conftest.py).
pytestmark = pytest.mark.slow

EXAMPLES = 60
"""Examples per operation: enough to reach every parameter, within the CI time limit."""

# The operations come from the app's OpenAPI document, read at collection from an app over
# an in-memory database that is never opened (no migration, nothing on disk); the requests go
# to the app of the fixture below.
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app("sqlite://", run_migrations=False)
)
STATUS: Counter[tuple[str, int]] = Counter()
load_all_checks()
CHECK_ALL: Final = CHECKS.get_all()
"""Every check, as schemathesis --checks all runs them."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The app the requests go to, over a fresh SQLite database in a pytest temporary folder."""
    database = tmp_path_factory.mktemp("schemathesis") / "web.sqlite3"
    site = create_app(f"sqlite:///{database}")
    yield site
    site.state.store.dispose()


def _count(request: pytest.FixtureRequest, label: str, status: int) -> None:
    """Keep this operation's requests by status in the terminal summary."""
    STATUS[label, status] += 1
    mine = {code: n for (op, code), n in STATUS.items() if op == label}
    title = f"{SUMMARY_PREFIX}schemathesis {label}"
    props = request.node.user_properties
    props[:] = [p for p in props if p[0] != title]
    counts = ", ".join(f"{code}: {n}" for code, n in sorted(mine.items()))
    props.append((title, f"{sum(mine.values())} requests ({counts})"))


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_has_no_server_error_and_keeps_its_schema(
    case: schemathesis.Case, app: Any, request: pytest.FixtureRequest
) -> None:
    response = case.call(app=app)
    _count(request, case.operation.label, response.status_code)
    case.validate_response(response, checks=CHECK_ALL)
