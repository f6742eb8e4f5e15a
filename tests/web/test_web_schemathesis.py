"""A property-based run over the API's OpenAPI document (schemathesis): no server error and
no response outside the documented schema, for a bounded number of examples per operation.

The counts of the last run are printed in the terminal summary."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from mingshu.web import create_app

SUMMARY_PREFIX = "terminal_summary:"  # read by tests/conftest.py

EXAMPLES = 60
"""Examples per operation: enough to reach every parameter, within the CI time limit."""

_tmp = Path(__import__("tempfile").mkdtemp(prefix="mingshu-schemathesis-"))
APP = create_app(f"sqlite:///{_tmp / 'web.sqlite3'}")
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
STATUS: Counter[str] = Counter()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_has_no_server_error_and_keeps_its_schema(case: schemathesis.Case) -> None:
    response = case.call()
    STATUS[f"{case.operation.label} {response.status_code}"] += 1
    case.validate_response(
        response,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )


def test_zz_report_counts(record_property: object) -> None:
    """Not a check: puts the per-operation status counts of the run above in the summary."""
    total = sum(STATUS.values())
    lines = [f"{total} requests"] + [f"  {k}: {v}" for k, v in sorted(STATUS.items())]
    record_property(f"{SUMMARY_PREFIX}schemathesis", "\n".join(lines))  # type: ignore[operator]
