"""The claim fidelity audit: every claim beside the sentence it badges, and the literal
reading of that sentence checked over the whole space.  Writes docs/claims-audit.md.

    python tools/claims_audit.py SPACE        # SPACE: the folder `mingshu library check`
                                              # sweeps (leap-split, leap-whole, late-rat-same-day)

For every SQL claim it runs the claim itself and, where the claim counts the engine's day or
month (the ``{counted_day}`` and ``{counted_month_split}`` terms), the same claim with those
read as the calendar gives them (the lunar day as printed; the leap month split at day 16
with no late-Rat exception): the counterexamples a reader who reads "day" or "month" as the
calendar's would meet.  A claim whose calendar reading fails must be badged on a sentence
that says "counted day" (or names the late Rat hour).  The changes the audit made are listed
first, each with the old sentence's literal reading measured by the query given here.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from claim_sentences import badged  # noqa: E402
from mingshu.library.check import SPACES, _dataset_for  # noqa: E402
from mingshu.library.claims import TERMS, load_claims  # noqa: E402
from mingshu.space.claims import check  # noqa: E402
from mingshu.space.ziwei_sweep import SCHEMA, read_metadata  # noqa: E402

SAYS_SO = re.compile(r"counted|late Rat|23:00|after 11 pm", re.I)
CALENDAR = {
    "counted_day": "lunar_day",
    "counted_month_split": (
        "(CASE WHEN lunar_leap AND lunar_day > 15 THEN lunar_month % 12 + 1 ELSE lunar_month END)"
    ),
}
"""The terms as a reader of the calendar takes them."""


def _name(star: str) -> str:
    branches = ("zi", "chou", "yin", "mao", "chen", "si", "wu", "wei", "shen", "you", "xu", "hai")
    return (
        "(CASE "
        + star
        + " "
        + " ".join(f"WHEN {i} THEN palace_{b}" for i, b in enumerate(branches))
        + " END)"
    )


def _by_month(star: str) -> str:
    """Charts whose palace name for ``star`` is not the table's row for the month a reader
    takes from the calendar under 'leap month split at day 16' (days 16 on: the next month)."""
    name = _name(star)
    month = CALENDAR["counted_month_split"].replace("lunar_", "c.lunar_")
    mine = name.replace("CASE ", "CASE c.")
    return (
        f"SELECT count(*) FROM charts c JOIN (SELECT lunar_month AS m, min({name}) AS want "
        f"FROM charts WHERE NOT lunar_leap GROUP BY 1) t ON t.m = {month} WHERE {mine} <> t.want"
    )


CHANGES: list[dict[str, Any]] = [
    {
        "claim": "en_guang_on_wen_chang_days_2_14_26",
        "where": "ZW-AUX-17",
        "old": "The pattern repeats every twelve days: on days 2, 14 and 26 En Guang shares Wen "
        "Chang's palace.",
        "sql": "SELECT count(*) FROM charts "
        "WHERE lunar_day IN (2, 14, 26) AND en_guang <> wen_chang",
        "space": "leap-split",
        "new": "The pattern repeats every twelve counted days: on counted days 2, 14 and 26 En "
        "Guang shares Wen Chang's palace, which means calendar days 2, 14 and 26 before 23:00 "
        "and days 1, 13 and 25 after it. (The claim now reads those calendar days and hours; a "
        "new claim, en_guang_late_rat_day_2_moves_on, badges the late-Rat births of days 2, 14 "
        "and 26, where En Guang stands one palace after Wen Chang.)",
    },
    {
        "claim": "en_guang_on_wen_chang_days_2_14_26",
        "where": "ZW-AUX-17 (step 'Test yourself on day 2')",
        "old": "For a day whose remainder on division by 12 is 2 (days 2, 14, 26), your answer "
        "must be Wen Chang's own palace.",
        "sql": "SELECT count(*) FROM charts WHERE lunar_day % 12 = 2 AND en_guang <> wen_chang",
        "space": "leap-split",
        "new": "For a counted day whose remainder on division by 12 is 2 (days 2, 14 and 26 "
        "before 23:00, or days 1, 13 and 25 after it), your answer must be Wen Chang's own "
        "palace.",
    },
    {
        "claim": "di_kong_palace_by_month_split",
        "where": "ZW-AUX-11",
        "old": "Checked over every chart from 1900 to 2100, under each leap-month setting: with "
        "a leap month split at day 16",
        "sql": _by_month("di_kong"),
        "space": "leap-split",
        "new": "… with a leap month split at day 16, where days 16 on read the next month's "
        "row except for a birth after 23:00, which keeps the leap month's row",
    },
    {
        "claim": "wen_chang_palace_by_month_split",
        "where": "ZW-AUX-05",
        "old": "This holds over every chart from 1900 to 2100 under both leap-month settings: "
        "with a leap month split at day 16",
        "sql": _by_month("wen_chang"),
        "space": "leap-split",
        "new": "… with a leap month split at day 16, where days 16 on read the next month's "
        "row except for a birth after 23:00, which keeps the leap month's row",
    },
    {
        "claim": "di_jie_palace_by_month_and_hour_split",
        "where": "ZW-AUX-12 (reader question)",
        "old": "Why is Di Jie in a different palace name each month, when Di Kong is not?",
        "sql": f"SELECT count(*) FROM charts WHERE {_name('di_kong')} <> "
        f"(SELECT min({_name('di_kong')}) FROM charts WHERE lunar_month = 1 AND NOT lunar_leap)",
        "space": "leap-split",
        "new": "Why does Di Jie's palace name change with the hour, when Di Kong's does not? "
        "(the answer: within one month Di Kong keeps the same palace name at every hour). "
        "The count is of the charts whose Di Kong palace name differs from month 1's: the "
        "premise that it is one name in every month fails for them",
    },
    {
        "claim": "di_kong_month_3_health",
        "where": "ZW-AUX-11 (step)",
        "old": "Born in the third lunar month, Di Kong must be in the Health palace whatever the "
        "hour.",
        "sql": f"SELECT count(*) FROM charts WHERE lunar_month = 3 AND {_name('di_kong')} <> 7",
        "space": "leap-split",
        "new": "Born in the third counted lunar month (by default days 16 on of a leap month "
        "count as the next month, except after 23:00), Di Kong must be in the Health palace "
        "whatever the hour.",
    },
    {
        "claim": "en_guang_no_month",
        "where": "MS-LIB-01 (short version)",
        "old": "The rule: every claim badge is a query with zero counterexamples over the whole "
        "space it names. {claim}`en_guang_no_month`",
        "sql": None,
        "space": None,
        "new": "The rule: every badge says what was checked (the whole space of charts, every "
        "case through the engine, the data file, or the quotation's source text), and a check "
        "with one counterexample fails. (No badge: a statement about the library that no "
        "query proves.)",
    },
]


# The rest of the audit: sentences reworded (or badges moved) for the claims the first pass
# left open; each is counted by its claim's calendar reading (the "calendar" column).
CHANGES += [
    {**ch, "sql": "calendar", "space": None}
    for ch in json.loads((ROOT / "tools" / "claims_audit_changes.json").read_text(encoding="utf-8"))
]


def _calendar(sql: str) -> str:
    for name, (expansion, _meaning) in TERMS.items():
        if name in CALENDAR:
            sql = sql.replace(expansion, CALENDAR[name])
    return sql


def _count(dataset: Path, sql: str) -> int:
    from mingshu.space.sql import connect

    con = connect(dataset)
    try:
        row = con.execute(sql).fetchone()
    finally:
        con.close()
    assert row is not None
    return int(row[0])


def main(space: Path) -> str:
    every = load_claims()
    sentences = badged()
    metadata = {n: read_metadata(space / n) or {} for n in SPACES}
    first = int(metadata["leap-split"].get("first_year", 0))
    last = int(metadata["leap-split"].get("last_year", 0))
    out = [
        "# Claim fidelity audit",
        "",
        f"Generated by `python tools/claims_audit.py SPACE` over every Zi Wei chart {first}–{last}",
        "(the three datasets `mingshu library check` sweeps). Issue 21: each claim is read",
        "beside the sentence that carries its badge, and the sentence's literal reading is",
        "checked over the whole space.",
        "",
        'Claims are data (docs/library.md, "Claims"); the first one this audit rewrote reads',
        "the calendar day and the hour:",
        "",
        "```python",
        ">>> from mingshu.library.claims import load_claims",
        '>>> claim = load_claims()["en_guang_on_wen_chang_days_2_14_26"]',
        ">>> claim.kind, claim.badge, claim.article",
        "('count_where', 'space', 'ZW-AUX-17')",
        '>>> "lunar_day IN (1, 13, 25) AND time_index = 12" in claim.sql_claim().sql',
        "True",
        "",
        "```",
        "",
        "## Changes",
        "",
        "| claim | where | old sentence | counterexamples of its literal reading | new sentence |",
        "| --- | --- | --- | --- | --- |",
    ]
    changes_at = len(out)
    out += [
        "",
        "Each new sentence reads true for every chart: its claim has 0 counterexamples in the",
        "table below.",
        "",
        "## Every claim",
        "",
        "*N* is the charts (or cases) the claim ranges over, *false* its counterexamples.",
        "*Calendar* is, for a claim that counts the engine's day or month, the counterexamples",
        'when "day" and "month" are read from the calendar (the lunar day as printed; a leap',
        "month split at day 16 with no late-Rat exception): a claim with a non-zero figure",
        'there must sit on a sentence that says "counted day" or names the late Rat hour.',
        "",
        "| claim | kind | badged in | sentence(s) carrying the badge | N | false | calendar |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    sql = {k: c.sql_claim() for k, c in every.items() if c.runs_sql}
    results: dict[str, tuple[int | None, int | None, int | None]] = {}
    for key, c in sql.items():
        name = _dataset_for(c.settings, metadata)
        other = _dataset_for(c.other_settings, metadata) if c.other_settings else None
        if c.schema != SCHEMA or name is None:
            results[key] = (None, None, None)
            continue
        (r,) = check(space / name, [c], other=space / other if other else None)
        calendar = None
        moved = _calendar(c.sql)
        if moved != c.sql:
            (lit,) = check(
                space / name,
                [type(c)(**{**c.__dict__, "sql": moved, "total_sql": _calendar(c.total_sql)})],
            )
            calendar = lit.counterexamples
        results[key] = (r.rows, r.counterexamples, calendar)
    rows_of_changes = []
    for ch in CHANGES:
        if ch["sql"] is None:
            n = "no query proves it"
        elif ch["sql"] == "calendar":
            n = f"{results[ch['claim']][2] or 0:,} (the claim read from the calendar)"
        else:
            n = f"{_count(space / ch['space'], ch['sql']):,}"
        rows_of_changes.append(
            f"| `{ch['claim']}` | {ch['where']} | {ch['old']} | {n} | {ch['new']} |"
        )
    out[changes_at:changes_at] = rows_of_changes
    open_items = []
    for key, (_rows, _bad, cal) in results.items():
        silent = [s for _a, s in sentences.get(key, []) if not SAYS_SO.search(s)]
        if cal and silent:
            open_items.append(f"* `{key}`: " + " / ".join(silent))
    for key, c in every.items():
        where = sentences.get(key, [])
        articles = ", ".join(sorted({a for a, _ in where})) or "(not cited)"
        said = " / ".join(s.replace("|", "\\|") for _, s in where) or "—"
        rows, bad, cal = results.get(key, (None, None, None))
        if not c.runs_sql:
            rows_s, bad_s, cal_s = "engine" if c.badge == "cases" else "data file", "", ""
        else:
            rows_s = "—" if rows is None else f"{rows:,}"
            bad_s = "—" if bad is None else f"{bad:,}"
            cal_s = "" if cal is None else f"{cal:,}"
        out.append(f"| `{key}` | {c.kind} | {articles} | {said} | {rows_s} | {bad_s} | {cal_s} |")
    at = out.index("## Every claim")
    out[at:at] = [
        "## Open",
        "",
        "Claims whose calendar reading fails and that are still badged on a sentence saying",
        '"day" or "month" without "counted" or the late Rat hour (some are worked',
        "examples that are true as written; each is to be read and reworded where a reader",
        "would apply it to a late-Rat or leap-month birth;",
        "tests/library/test_claim_fidelity.py keeps this list from growing):",
        "",
        *(sorted(open_items) or ["None: every such claim's sentences say so."]),
        "",
    ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    text = main(Path(sys.argv[1]))
    (ROOT / "docs" / "claims-audit.md").write_text(text, encoding="utf-8")
    print(f"wrote docs/claims-audit.md ({text.count(chr(10))} lines)")
