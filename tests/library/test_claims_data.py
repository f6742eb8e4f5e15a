"""Claims as data: every article's ``*.claims.toml`` loads into the one registry of kinds, a
malformed file is one InputError naming the file and the claim, and the SQL a kind builds
reads the named terms and the data files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mingshu.cli import app
from mingshu.errors import InputError
from mingshu.library import claims as C
from mingshu.library.model import _ROOT

_ONE = '[[claim]]\nkey = "k"\nkind = "count_where"\nstatement = "s"\nwhere = "en_guang <> 0"\n'


def test_every_article_claim_loads_and_names_no_unknown_kind() -> None:
    every = C.load_claims()
    assert len(every) >= 140
    assert {c.kind for c in every.values()} == set(C.KINDS)
    # Each file is named for an article that exists, and each claim lives in one file.
    for c in every.values():
        assert (_ROOT / f"{c.article}.md").is_file(), c.key


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[claim]\n", "not TOML"),
        (_ONE.replace("count_where", "count_wehre"), "unknown kind 'count_wehre'"),
        (_ONE.replace('where = "en_guang <> 0"\n', ""), "a count_where claim needs where"),
        (_ONE + 'colour = "red"\n', "a count_where claim unknown colour"),
        (_ONE.replace('statement = "s"\n', ""), "needs statement"),
        ('title = "x"\n', "only [[claim]] tables"),
    ],
)
def test_a_malformed_claims_file_is_one_input_error(text: str, message: str) -> None:
    with pytest.raises(InputError) as e:
        C.parse_claims(text, "ZW-AUX-99", "ZW-AUX-99.claims.toml")
    assert e.value.field == "claims"
    assert message in e.value.message and "ZW-AUX-99.claims.toml" in e.value.message


def test_two_claims_with_one_key_are_refused(tmp_path: Path) -> None:
    (tmp_path / "ZW-AUX-98.claims.toml").write_text(_ONE, encoding="utf-8")
    (tmp_path / "ZW-AUX-99.claims.toml").write_text(_ONE, encoding="utf-8")
    with pytest.raises(InputError, match="claim k is in ZW-AUX-98 and ZW-AUX-99"):
        C.load_claims(tmp_path)


def test_the_terms_expand_to_their_sql() -> None:
    (c,) = C.parse_claims(
        _ONE.replace("en_guang <> 0", "en_guang <> ({counted_day} - {hour}) % 12"), "X"
    )
    sql = c.sql_claim().sql
    day, _ = C.TERMS["counted_day"]
    hour, _ = C.TERMS["hour"]
    assert sql == f"SELECT count(*) FROM charts WHERE en_guang <> ({day} - {hour}) % 12"
    assert "{" not in sql


def test_a_bazi_table_term_reads_the_data_file() -> None:
    """Tian Yi (天乙贵人) V1 for 甲 is 丑 and 未 (三命通会 卷三; bazi/data): Ox 1 and Goat 7."""
    (c,) = C.parse_claims(_ONE.replace("en_guang <> 0", "x <> {bazi_table:tian_yi.v1.1}"), "X")
    listed = re.search(r"\[([\d, ]+)\]", c.sql_claim().sql)
    assert listed is not None
    assert listed.group(1).split(", ")[0] == "7"
    (bad,) = C.parse_claims(_ONE.replace("en_guang <> 0", "{bazi_table:tian_yi.v9.0}"), "X")
    with pytest.raises(InputError, match=re.escape("bazi_table:tian_yi.v9.0")):
        bad.sql_claim()


def test_an_engine_claim_names_a_known_check_with_its_arguments() -> None:
    text = (
        '[[claim]]\nkey = "e"\nkind = "data_tables"\nstatement = "s"\ncheck = "%s"\n'
        'unit = "day stems"\ncases = "every day stem"\nargs = %s\n'
    )
    (unknown,) = C.parse_claims(text % ("no_such_check", "{}"), "X")
    with pytest.raises(InputError, match="no claim check 'no_such_check'"):
        unknown.run()
    (wrong,) = C.parse_claims(text % ("variants_agree", '{ star = "tian_yi" }'), "X")
    with pytest.raises(InputError) as e:
        wrong.run()
    assert e.value.field == "args"
    (stem,) = C.parse_claims(
        text % ("variants_agree", '{ star = "tian_yi", a = "v1", b = "v2", same_at = ["X"] }'),
        "X",
    )
    with pytest.raises(InputError, match="unknown stem"):
        stem.run()


def test_badges_follow_the_kind() -> None:
    every = C.load_claims()
    assert every["tian_yi_tables_differ_at_yang_metal"].badge == "data"
    assert every["en_guang_no_month"].badge == "space"
    assert every["literary_star_searched_in_four_pillars"].badge == "cases"


def test_the_cli_reports_a_bad_claims_folder_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(_ROOT, folder)
    (folder / "ZW-AUX-17.claims.toml").write_text("[[claim]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["claims", str(tmp_path), "--articles", str(folder)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: claims: ZW-AUX-17.claims.toml: not TOML")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.slow  # renders three whole articles: seconds of CPU (CONTRIBUTING.md)
def test_the_rendered_badge_says_what_was_checked() -> None:
    """A data-table claim reads 'checked against the data file', a space claim 'checked over
    N charts' (N from the record), every quotation 'quotation verified verbatim', and the
    library's statement about its own badges carries none."""
    from mingshu.library import load
    from mingshu.library.render import article_html

    library = load()
    bazi = article_html(library.get("BZ-SS-00"), library)
    data = re.search(r"<a class='ms-claim ms-badge-data'[^>]*>(.*?)</a>", bazi)
    assert data is not None and "checked against the data file" in data.group(1)
    assert "checked over" not in data.group(1)
    en_guang = article_html(library.get("ZW-AUX-17"), library)
    space = re.search(r"<a class='ms-claim ms-badge-space'[^>]*>(.*?)</a>", en_guang)
    assert space is not None and re.search(r"checked over [\d,]+ charts", space.group(1))
    assert en_guang.count("quotation verified verbatim") == en_guang.count("ms-quote ")
    assert en_guang.count("ms-quote ") >= 1
    meta = article_html(library.get("MS-LIB-01"), library)
    rule = meta.split("every badge says what was checked", 1)[1].split("</li>", 1)[0]
    assert "ms-claim" not in rule
