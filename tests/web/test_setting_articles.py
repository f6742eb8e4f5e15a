"""The chart form links a setting's help to the article whose front matter says it explains
that setting (``explains``): no module keeps a setting -> article id table."""

from __future__ import annotations

import shutil
from pathlib import Path

from mingshu.library import load
from mingshu.library.model import _ROOT
from mingshu.web.library import article_for_setting


def test_each_setting_links_the_article_that_explains_it() -> None:
    # the links the form had when a table in web/settings_help.py held them
    want = {
        "late_rat_hour": "ZW-SET-01",
        "leap_month": "ZW-SET-01",
        "bz_late_rat_hour": "ZW-SET-01",
        "star": "BZ-SS-02",
        "school": "ZW-BK-01",
    }
    assert {s: a.id for a in load().articles for s in a.explains} == want
    for setting, article in want.items():
        assert article_for_setting(setting) == article
    assert article_for_setting("algorithm") is None  # no article explains it yet


def test_explains_must_be_a_list_of_setting_names(tmp_path: Path) -> None:
    folder = tmp_path / "articles"
    folder.mkdir()
    shutil.copy(_ROOT / "_planned.yaml", folder)
    text = (_ROOT / "ZW-BK-01.md").read_text(encoding="utf-8")
    assert "explains: [school]" in text
    (folder / "ZW-BK-01.md").write_text(
        text.replace("explains: [school]", "explains: school"), encoding="utf-8"
    )
    (article,) = load(folder).articles
    assert article.explains == ()
    assert "explains (a list of setting names)" in article.missing
