"""The whole chart space as data: every natal Zi Wei chart (and every BaZi pillar set with its
symbolic stars) of a range of years swept into a Parquet dataset, and read-only DuckDB SQL
over it (see docs/space.md).

::

    from mingshu import space, ziwei
    report = space.sweep_ziwei("charts", 2000, 2000, ziwei.ZiweiSettings())
    space.open("charts").filter("en_guang = tian_gui").count("*")
    space.query("charts", "SELECT time_index, count(*) FROM charts GROUP BY 1")
    space.find("charts", "en_guang = tian_gui", by="hour")
    space.find_years("en_guang = tian_gui", 1800, 1850)   # no dataset: drawn in memory

pyarrow and duckdb (the ``space`` extra) are imported inside the functions that need them.
"""

from mingshu.space.bazi_sweep import sweep_bazi
from mingshu.space.find import FindGroup, FindResult, find, find_years
from mingshu.space.sql import check_sql, connect, query
from mingshu.space.sql import open_dataset as open
from mingshu.space.ziwei_sweep import METADATA, SCHEMA, SweepReport, sweep_ziwei

__all__ = [
    "METADATA",
    "SCHEMA",
    "FindGroup",
    "FindResult",
    "SweepReport",
    "check_sql",
    "connect",
    "find",
    "find_years",
    "open",
    "query",
    "sweep_bazi",
    "sweep_ziwei",
]
