"""`mingshu library check`: the shipped articles pass, and each kind of planted error fails
with a message that names it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from mingshu import bazi, ziwei
from mingshu.errors import InputError
from mingshu.library import claims as C
from mingshu.library import load
from mingshu.library.check import check, normalise_quote
from mingshu.library.model import _ROOT

ARTICLE = "ZW-AUX-17"


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    """A copy of the shipped articles (with the planned list and the record)."""
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    return folder


def _edit(folder: Path, article_id: str, old: str, new: str) -> None:
    path = folder / f"{article_id}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {article_id}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow  # several seconds of CPU: the slow tier (CONTRIBUTING.md)
def test_shipped_articles_pass(space: Path, sources: Path) -> None:
    report = check(load(), space=space, sources=sources)
    assert report.errors == []
    assert report.articles >= 1 and report.claims > 0 and report.rows > 0
    assert report.quotations > 0 and report.problems >= 2 * report.articles
    print(report.summary())


def test_every_cited_claim_has_a_whole_space_record() -> None:
    """The counts the pages print come from a run over 1900–2100 with the current queries."""
    record = C.read_record(_ROOT)
    report_keys: set[str] = set()
    from mingshu.library.check import claim_keys, directives
    from mingshu.library.tables import table_claims

    counts: set[str] = set()  # a count table's cell may rightly be 0 (Di Kong never moves)
    for article in load().articles:
        report_keys.update(claim_keys(article))
        for d in directives(article):
            counts.update(table_claims(d.arg, d.options) if d.name == "table" else [])
    for key in report_keys:
        entry = record[key]
        assert entry["digest"] == C.digest(C.load_claims()[key])
        assert entry["counterexamples"] == 0
        if C.load_claims()[key].runs_sql:
            assert "every Zi Wei chart 1900–2100" in entry["space"], entry
            assert entry["rows"] > 0 or key in counts


def test_wrong_table_cell_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, "[Day 5, Ox, Rat, Pig", "[Day 5, Ox, Ox, Pig")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any("table differs from the engine: row 5 column 3" in e for e in errors), errors


def test_wrong_brightness_cell_fails(copy: Path, space: Path, sources: Path) -> None:
    # ZW-AUX-05's hour_brightness table: Wen Chang on Rat (the Dog hour) is 得, not 庙.
    _edit(copy, "ZW-AUX-05", "[Dog, Rat, Gaining]", "[Dog, Rat, Temple]")
    errors = check(load(copy), space=space, sources=sources, only=["ZW-AUX-05"]).errors
    assert any(
        "{table}: table differs from the engine: row 11 column 3: stated 'Temple', engine "
        "'Gaining'" in e
        for e in errors
    ), errors


def test_wrong_problem_answer_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, 'answer: "Dog"', 'answer: "Pig"')
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any("prints 'Pig', the engine says 'Dog'" in e for e in errors), errors


def test_false_claim_fails(copy: Path, space: Path, sources: Path) -> None:
    with (copy / f"{ARTICLE}.claims.toml").open("a", encoding="utf-8") as out:
        out.write(
            '\n[[claim]]\nkey = "en_guang_always_on_wen_chang"\nkind = "count_where"\n'
            'statement = "En Guang is always in Wen Chang\'s palace"\n'
            'where = "en_guang <> wen_chang"\n'
        )
    _edit(
        copy,
        ARTICLE,
        "{claim}`en_guang_no_month, six_hour_stars_hour_only`",
        "{claim}`en_guang_always_on_wen_chang, six_hour_stars_hour_only`",
    )
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any(
        re.search(r"claim en_guang_always_on_wen_chang is false: [\d,]+ counter", e) for e in errors
    ), errors


def test_unknown_claim_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, "{claim}`en_guang_from_wen_chang`", "{claim}`en_guang_from_wen_qu`")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any("unknown claim 'en_guang_from_wen_qu'" in e for e in errors), errors


def test_broken_link_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, "(ZW-AUX-05)", "(ZW-AUX-99)")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any("link to ZW-AUX-99, which does not exist and is not planned" in e for e in errors), (
        errors
    )


def test_misquoted_classic_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, "旺夫益子受恩光", "旺夫益子得恩光")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any("quotation not found verbatim in ziwei-quanshu.juan1.md" in e for e in errors), (
        errors
    )


def test_unknown_directive_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, "```{table} remainder", "```{tabel} remainder")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert any("{tabel}: unknown directive" in e for e in errors), errors


def test_missing_part_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, ARTICLE, "read_first: ZW-BAS-01\n", "")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert f"{ARTICLE}: missing part read_first" in errors, errors


def test_quote_normalisation_ignores_only_layout() -> None:
    assert (
        normalise_quote("有文昌貴甲人¶\n　寅辛未<pb:KR3g0042_WYG_003-37a>¶") == "有文昌貴甲人寅辛未"
    )
    assert normalise_quote("甲乙") != normalise_quote("甲丙")


def test_cli_check_prints_the_summary_line(space: Path, sources: Path) -> None:
    from typer.testing import CliRunner

    from mingshu.cli import app

    # One article (--article): the whole library's check runs in-process in the test below.
    args = ["library", "check", "--space", str(space), "--years", "2000:2000", "--quiet"]
    result = CliRunner().invoke(app, [*args, "--sources", str(sources), "--article", ARTICLE])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{ARTICLE}: ")
    last = result.output.strip().splitlines()[-1]
    assert re.fullmatch(
        r"library check ok: \d+ articles, \d+ claims over [\d,]+ rows, \d+ tables \(\d+ cells\), "
        r"\d+ problems, \d+ quotations, \d+ links \(\d+ planned\), [\d.]+ s",
        last,
    ), last
    # Above it, the stars the whole library covers, counted here from every article's covers
    # against the engines' own star lists.
    named = {e for a in load().articles for e in a.covers}
    zw = sum(f"ziwei:{s.key}" in named for s in ziwei.STARS)
    bz = sum(f"bazi:{s.key}" in named for s in bazi.STARS)
    stars_line = f"stars covered: Zi Wei {zw}/{len(ziwei.STARS)}, BaZi {bz}/{len(bazi.STARS)}"
    assert result.output.strip().splitlines()[-2] == stars_line
    # The planned line lists the linked, unwritten ids; with none (every link written) it is
    # left out and the summary says "(0 planned)".
    planned = [line for line in result.output.splitlines() if line.startswith("planned")]
    linked_planned = re.search(r"\((\d+) planned\)", last)
    assert linked_planned is not None
    if planned:
        assert planned[0].startswith("planned (linked, not yet written): ")
        listed = planned[0].split(": ", 1)[1].split(", ")
        assert set(listed) <= set(load().planned)
        assert len(listed) == int(linked_planned.group(1))
    else:
        assert linked_planned.group(1) == "0"
    bad = CliRunner().invoke(app, ["library", "check", "--years", "2200:2300"])
    assert bad.exit_code == 2
    assert (
        bad.output.strip() == "error: years: years are 1900 … 2100, first ≤ last, not '2200:2300'"
    )


def test_absence_that_is_not_absent_fails(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, "ZW-AUX-18", 'terms: ["天贵", "天貴"]', 'terms: ["天贵", "文曲"]')
    errors = check(load(copy), space=space, sources=sources, only=["ZW-AUX-18"]).errors
    assert any("'文曲' does occur in" in e for e in errors), errors


def test_cli_check_fails_with_exit_1_naming_the_error(
    copy: Path, space: Path, sources: Path
) -> None:
    from typer.testing import CliRunner

    from mingshu.cli import app

    _edit(copy, ARTICLE, 'answer: "Dog"', 'answer: "Pig"')
    args = ["library", "check", "--space", str(space), "--years", "2000:2000", "--quiet"]
    where = ["--sources", str(sources), "--root", str(copy), "--article", ARTICLE]
    result = CliRunner().invoke(app, [*args, *where])
    assert result.exit_code == 1
    assert "FAIL ZW-AUX-17: problem 'Forward: which branch?' prints 'Pig'" in result.output
    assert "library check 1 error:" in result.output


def test_an_article_without_an_engine_table_or_diagram_fails(
    copy: Path, space: Path, sources: Path
) -> None:
    path = copy / f"{ARTICLE}.md"
    text = path.read_text(encoding="utf-8")
    # Drop every table and every diagram but the layers figure.
    stripped = re.sub(r"```\{(table|diagram)\} (?!layers)\w+\n.*?```\n", "", text, flags=re.S)
    assert "{table}" not in stripped and "{diagram} layers" in stripped
    path.write_text(stripped, encoding="utf-8")
    errors = check(load(copy), space=space, sources=sources, only=[ARTICLE]).errors
    assert f"{ARTICLE}: needs at least one engine table or diagram besides the layers" in errors


def test_the_check_counts_each_articles_claims_rows_and_parts(space: Path, sources: Path) -> None:
    # Two articles (the whole library is checked in the slow tier, test_shipped_articles_pass).
    chosen = [ARTICLE, "ZW-AUX-05"]
    report = check(load(), space=space, sources=sources, only=chosen)
    assert report.ok, report.errors
    lines = report.article_lines()
    in_order = [a.id for a in load().articles if a.id in chosen]
    assert [line.split(":")[0] for line in lines] == in_order
    by_id = dict(zip(in_order, lines, strict=True))
    # En Guang: its two tables (day × hour, remainder), two problems, one quotation.
    assert re.fullmatch(
        rf"{ARTICLE}: \d+ claims over [\d,]+ rows, 2 tables, 2 problems, 1 quotations",
        by_id[ARTICLE],
    ), by_id[ARTICLE]
    assert sum(c.tables for c in report.by_article.values()) == report.tables
    assert sum(c.problems for c in report.by_article.values()) == report.problems
    assert sum(c.quotations for c in report.by_article.values()) == report.quotations


def test_only_checks_the_articles_it_names(copy: Path, space: Path, sources: Path) -> None:
    _edit(copy, "ZW-AUX-05", "[Dog, Rat, Gaining]", "[Dog, Rat, Temple]")
    report = check(load(copy), space=space, sources=sources, only=[ARTICLE])
    assert report.ok and report.articles == 1, report.errors
    assert [line.split(":")[0] for line in report.article_lines()] == [ARTICLE]
    both = check(load(copy), space=space, sources=sources, only=[ARTICLE, "ZW-AUX-05"])
    assert any(e.startswith("ZW-AUX-05 ") for e in both.errors), both.errors
    with pytest.raises(InputError) as e:
        check(load(copy), space=space, sources=sources, only=["ZW-AUX-99"])
    assert e.value.field == "article"
    with pytest.raises(InputError) as e2:
        check(load(copy), space=space, sources=sources, only=[ARTICLE], record=True)
    assert e2.value.field == "record"
