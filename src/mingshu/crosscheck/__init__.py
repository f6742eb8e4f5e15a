"""Compare our charts with iztro 2.6.0 reference records (``tests/fixtures/iztro-2.6.0``).

- :mod:`~mingshu.crosscheck.records` reads the JSON Lines files (plain or gzip) into cases,
  and lines that are not records into bad records (:class:`BadRecord`);
- :mod:`~mingshu.crosscheck.compare` lists the fields where our record differs from iztro's;
- :mod:`~mingshu.crosscheck.runner` runs an engine over a file and counts passed, failed,
  skipped (iztro's own errors) and known differences (documented places where iztro is wrong);
- :mod:`~mingshu.crosscheck.iztro` charts a fixture input with our engine (``record_for_input``).

``mingshu crosscheck FILE`` is the command line front end.
"""

from mingshu.crosscheck.compare import Mismatch, collapse_path, compare
from mingshu.crosscheck.records import (
    BadRecord,
    Case,
    RecordFormatError,
    count_cases,
    read_cases,
    read_records,
)
from mingshu.crosscheck.runner import CaseResult, Classify, MakeRecord, Summary, check_case, run

__all__ = [
    "BadRecord",
    "Case",
    "CaseResult",
    "Classify",
    "MakeRecord",
    "Mismatch",
    "RecordFormatError",
    "Summary",
    "check_case",
    "collapse_path",
    "compare",
    "count_cases",
    "read_cases",
    "read_records",
    "run",
]
