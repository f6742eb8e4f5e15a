"""The seed articles' engine facts, as claims, hold over every row of the swept year; a planted
false claim fails with counterexamples; a claim whose SQL is not one read-only query is
refused; ``mingshu claims`` exits 0, 1 or 2 and never prints a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.library.claims import load_claims
from mingshu.space import claims
from mingshu.space.claims import Claim, check

runner = CliRunner()
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
ARTICLES = Path(__file__).resolve().parents[2] / "src" / "mingshu" / "library" / "articles"
ROWS = 9490  # 365 days x 13 time indices x 2 genders (docs/space.md)
# Every SQL claim of every article (the articles' *.claims.toml), and the BaZi space's.
CLAIMS = tuple(c.sql_claim() for c in load_claims().values() if c.runs_sql)
BAZI_CLAIMS = tuple(c for c in CLAIMS if c.schema != claims.SCHEMA)


def test_every_seed_claim_holds_over_every_row_of_the_year(
    dataset: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = check(dataset, CLAIMS)
    with capsys.disabled():
        print()
        for r in results:
            print(f"  {r.claim.key}: {r.counterexamples} counterexamples in N = {r.rows}")
    assert [r.claim.key for r in results] == [c.key for c in CLAIMS]
    # The year is swept with the default settings (leap months split), so only the
    # whole-leap-month variants do not apply, and the Literary Star's are about BaZi.
    skipped = {r.claim.key: r.reason for r in results if not r.applies}
    assert skipped == {
        **{
            c.key: "settings"
            for c in CLAIMS
            if ("leap_month", "whole") in c.settings or ("late_rat_hour", "same_day") in c.settings
        },
        **{c.key: "space" for c in BAZI_CLAIMS},
        **{c.key: "other" for c in CLAIMS if c.other_settings},
    }
    assert "di_kong_palace_by_month_whole" in skipped
    failing = {r.claim.key: r.counterexamples for r in results if r.applies and not r.holds}
    assert failing == {}
    for r in results:
        if r.applies:
            # A claim over some years only (a stem's, or pairs of years) may find none of
            # its rows in the one year; the whole-space record counts them
            # (tests/library/test_check.py).
            lower = 1 if r.claim.total_sql == claims.TOTAL_SQL else 0
            assert r.rows is not None and lower <= r.rows <= ROWS, r.claim.key
            if r.claim.total_sql == claims.TOTAL_SQL:
                assert r.rows == ROWS


# A claim comes from a seed file, or (written after the seeds) from a library article: it then
# quotes the article's sentence ('…', checked below) or names the book line or data table.
_SEED_SOURCE = r"00[0-4]_[0-9a-f]{16}\.txt "
_ARTICLE_SOURCE = r"[A-Z]{2}-[A-Z]{2,3}-\d\d(/\d\d)*( \(.+?\))?: ('|.*(卷|table))"
# Or, for a claim written with its article, where the fact comes from: a line of the classical
# sources (FILE:LINE, checked to exist below), a data file or doc of the repository, the
# engine's rule (named), iztro, a book by title, or a derivation ("follows from …") from them.
SOURCES = Path(__file__).resolve().parents[3] / "shared" / "sources"
REPO = Path(__file__).resolve().parents[2]
_PROVENANCE = re.compile(
    r"(follows from|engine|iztro|the sweep|the space|over the space|compares|紫微斗数全书|紫微斗數全書|三命通會|"
    r"三命通会|星學大成|星学大成|Quan Shu|Sanming Tonghui|Xingxue Dacheng|[\w./-]+\.(txt|md|toml))"
)
_FILE_LINE = re.compile(r"([\w.-]+\.(?:txt|md)):(\d+)")


def _repo_files() -> set[str]:
    names = {p.name for p in (REPO / "src" / "mingshu").rglob("*") if p.is_file()}
    return names | {p.name for p in (REPO / "docs").glob("*.md")}


def _source_file(name: str) -> Path:
    """A claim's source: a seed file, or a library article by id."""
    return ARTICLES / f"{name}.md" if name.startswith(("ZW-", "BZ-")) else SEEDS / name


def test_claim_keys_are_unique_and_every_claim_names_its_seed_or_article() -> None:
    assert len({c.key for c in CLAIMS}) == len(CLAIMS)
    repo = _repo_files()
    for c in CLAIMS:
        if re.match(_SEED_SOURCE, c.source) or re.match(_ARTICLE_SOURCE, c.source):
            continue
        assert _PROVENANCE.search(c.source), (c.key, c.source)
        for name, line in _FILE_LINE.findall(c.source):
            if name in repo:
                continue
            path = SOURCES / name
            if SOURCES.is_dir():  # ../shared/sources beside the checkout: the line exists
                assert path.is_file(), (c.key, name)
                lines = path.read_text(encoding="utf-8").count("\n") + 1
                assert 1 <= int(line) <= lines, (c.key, name, line)


@pytest.mark.skipif(
    not SEEDS.is_dir(),
    reason="the seed articles are not beside the repository (../shared/seeds; the project "
    "does not ship their text), so the sentences the claims quote from them cannot be read",
)
def test_every_quoted_seed_sentence_is_in_its_seed_file() -> None:
    """Each claim quotes its seed, or the library article it was written for, verbatim."""

    def plain(text: str) -> str:
        """As a reader reads it: a link's words without its target, no emphasis marks."""
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
        return " ".join(text.replace("**", "").replace("`", "").split())

    for c in (c for c in CLAIMS if ": '" in c.source):
        name, _, rest = c.source.partition(" ")
        name = name.removesuffix(":")
        seed = plain(_source_file(name).read_text(encoding="utf-8"))
        quoted = rest.partition(": '")[2].removesuffix("'")
        for sentence in quoted.split("' / '"):
            assert plain(sentence) in seed, (c.key, sentence)


def planted(key: str, sql: str) -> Claim:
    return Claim(key=key, statement="planted false claim", source="test", sql=sql)


def test_a_planted_false_claim_fails_with_the_counterexamples_the_seed_predicts(
    dataset: Path,
) -> None:
    # "En Guang and Tian Gui are always in one palace": by the seed they share one only at
    # the Rabbit and Rooster hours, 2 of 12 hour numbers (730 rows each: 365 days x 2).
    always = planted("always_together", "SELECT count(*) FROM charts WHERE en_guang <> tian_gui")
    # Di Kong one palace *before* Wen Chang: the wrong direction is never right.
    before = planted(
        "di_kong_before_wen_chang",
        "SELECT count(*) FROM charts WHERE di_kong <> (wen_chang + 11) % 12",
    )
    (a, b) = check(dataset, [always, before])
    assert (a.holds, a.counterexamples, a.rows) == (False, ROWS - 2 * 730, ROWS)
    assert (b.holds, b.counterexamples) == (False, ROWS)


def test_a_wrong_brightness_cell_fails_on_exactly_its_hour(dataset: Path) -> None:
    # ZW-AUX-06: Wen Qu graded Fallen on Tiger (the book's 平和 cell read as 落陷) is wrong
    # only where Wen Qu stands on Tiger, the Dog hour: 365 days x 2 genders.
    (graded,) = (c for c in CLAIMS if c.key == "wen_qu_brightness_book")
    tiger_fallen = graded.sql.replace("[2, 0, 4, 1, 2,", "[2, 0, 6, 1, 2,")
    assert tiger_fallen != graded.sql
    (r,) = check(dataset, [planted("wen_qu_fallen_on_tiger", tiger_fallen)])
    assert (r.holds, r.counterexamples) == (False, 730)


def test_the_late_rat_day_change_matters(dataset: Path) -> None:
    # En Guang's table read with the lunar day as it is, without the late Rat hour's day
    # change: it can only go wrong at time index 12 (730 rows), and it does.
    same_day = planted(
        "en_guang_table_without_day_change",
        "SELECT count(*) FROM charts WHERE en_guang <> "
        "[8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7][((lunar_day - time_index % 12) % 12 + 12) % 12 + 1]",
    )
    (r,) = check(dataset, [same_day])
    assert r.counterexamples is not None and 0 < r.counterexamples <= 730


@pytest.mark.parametrize(
    ("sql", "total_sql"),
    [
        ("DROP VIEW charts", claims.TOTAL_SQL),
        ("SELECT 1; SELECT 2", claims.TOTAL_SQL),
        ("SELECT count(*) FROM charts", "COPY (SELECT * FROM charts) TO 'out.csv'"),
        ("SET enable_external_access = true", claims.TOTAL_SQL),
        ("", claims.TOTAL_SQL),
    ],
)
def test_a_claim_that_is_not_one_read_only_query_is_refused(
    dataset: Path, sql: str, total_sql: str
) -> None:
    bad = Claim("bad_sql", "x", "test", sql, total_sql)
    with pytest.raises(InputError) as e:
        check(dataset, [CLAIMS[0], bad])
    assert e.value.field == "sql"
    assert "bad_sql" in e.value.message


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("SELECT count(*) FROM charts WHERE en_gaung = 0", "en_gaung"),
        ("SELECT 1, 2", "one integer"),
        ("SELECT time_index FROM charts", "one integer"),
    ],
)
def test_a_claim_must_count_with_known_columns(dataset: Path, sql: str, words: str) -> None:
    with pytest.raises(InputError) as e:
        check(dataset, [planted("odd", sql)])
    assert e.value.field == "sql" and words in e.value.message


def test_cli_exit_0_when_every_claim_holds(dataset: Path) -> None:
    result = runner.invoke(app, ["claims", str(dataset)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "di_kong_one_after_wen_chang" in result.output
    assert "9,490" in result.output


def test_cli_json(dataset: Path) -> None:
    result = runner.invoke(app, ["claims", str(dataset), "--json"])
    assert result.exit_code == 0, result.output
    objects = json.loads(result.stdout)
    # every claim of every article: the SQL ones run, the engine ones listed as not run
    assert sorted(o["key"] for o in objects) == sorted(load_claims())
    assert {o["key"] for o in objects if o["applies"] is False and o["rows"] is None} >= {
        k for k, c in load_claims().items() if not c.runs_sql
    }
    tian_gui = next(o for o in objects if o["key"] == "tian_gui_en_guang_apart_by_hour")
    assert (tian_gui["holds"], tian_gui["counterexamples"], tian_gui["rows"]) == (True, 0, ROWS)


def test_cli_exit_1_names_the_failing_claim(dataset: Path, tmp_path: Path) -> None:
    false = planted(
        "planted_always_together", "SELECT count(*) FROM charts WHERE en_guang <> tian_gui"
    )
    articles = tmp_path / "articles"
    articles.mkdir()
    (articles / "ZW-AUX-99.claims.toml").write_text(
        "[[claim]]\n"
        f'key = "{false.key}"\nkind = "sql"\nstatement = "planted"\nsql = "{false.sql}"\n',
        encoding="utf-8",
    )
    result = runner.invoke(
        app, ["claims", str(dataset), "--articles", str(articles)], env={"COLUMNS": "120"}
    )
    assert result.exit_code == 1
    assert "failed: planted_always_together" in result.stderr
    assert "Traceback" not in result.output


def test_cli_exit_2_on_a_missing_dataset(tmp_path: Path) -> None:
    result = runner.invoke(app, ["claims", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: dataset: ")
    assert "Traceback" not in result.output


def test_the_leap_month_setting_and_the_late_rat_hour_matter_for_the_day_stars(
    dataset: Path,
) -> None:
    """ZW-AUX-15/16: Zuo Fu read with the leap month whole, over a year swept with it split,
    is wrong exactly on the days 16 on of the leap month outside the late Rat hour; San Tai
    counted without the late Rat hour's extra day is wrong exactly at time index 12."""
    whole_reading = planted(
        "zuo_fu_leap_month_whole_on_split",
        "SELECT count(*) FROM charts WHERE zuo_fu <> (4 + lunar_month - 1) % 12",
    )
    same_day = planted(
        "san_tai_without_day_change",
        "SELECT count(*) FROM charts WHERE san_tai <> (zuo_fu + lunar_day - 1) % 12",
    )
    second_half = planted(
        "leap_second_half_rows",
        "SELECT count(*) FROM charts WHERE lunar_leap AND lunar_day > 15 AND time_index <> 12",
    )
    late_rat = planted("late_rat_rows", "SELECT count(*) FROM charts WHERE time_index = 12")
    leap, late, n_leap, n_late = check(dataset, [whole_reading, same_day, second_half, late_rat])
    assert n_leap.counterexamples and leap.counterexamples == n_leap.counterexamples
    assert n_late.counterexamples and late.counterexamples == n_late.counterexamples


def test_a_long_query_draws_no_progress_bar_into_the_output(dataset: Path) -> None:
    """DuckDB draws its progress bar on file descriptor 1 (past the CLI's own output) once a
    query runs over 2 s, as the two-dataset claims over the whole space do: `mingshu claims
    --json` printed bars before its JSON.  The connection has it off."""
    from mingshu.space.sql import connect

    con = connect(dataset)
    try:
        row = con.execute("SELECT current_setting('enable_progress_bar')").fetchone()
    finally:
        con.close()
    assert row == (False,)
