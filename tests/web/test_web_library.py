"""Library pages on the site: index and search, article pages with the library's renderer,
the share card (a 1200×630 PNG drawn with the shipped font, kept once per article version),
and feedback (stored; CSRF, size and rate limits; never a 500)."""

from __future__ import annotations

import io
import re

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from mingshu import library
from mingshu.library import cards
from mingshu.web.cards import FONT
from mingshu.web.security import CSRF_COOKIE

LIB = library.load()
FIRST = LIB.articles[0]


def test_index_lists_every_article_and_searches(client: TestClient) -> None:
    r = client.get("/library")
    assert r.status_code == 200
    for a in LIB.articles:
        assert f"/library/{a.id}" in r.text
    found = client.get("/library", params={"q": "En Guang"}).text
    results = found.split('id="results"')[1].split("</section>")[0]
    assert "ZW-AUX-17" in results and "BZ-SS-02" not in results


@pytest.mark.parametrize("article", LIB.articles, ids=lambda a: a.id)
def test_article_page_has_every_part(client: TestClient, article: library.Article) -> None:
    r = client.get(f"/library/{article.id}")
    assert r.status_code == 200
    for part in ("ms-short", "ms-summary", "ms-check", "ms-problems", "ms-sources"):
        assert f"class='{part}'" in r.text
    assert article.title.replace("'", "&#39;") in r.text or article.title in r.text
    assert "<svg" in r.text  # diagrams inline
    assert f"/library/{article.id}/card.png" in r.text
    assert 'name="csrf"' in r.text and CSRF_COOKIE in r.headers["set-cookie"]


def test_share_card_is_the_articles_card_and_cached(client: TestClient) -> None:
    r = client.get(f"/library/{FIRST.id}/card.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(r.content))
    assert image.format == "PNG" and image.size == (1200, 630)
    assert r.content == cards.share_card_png(FIRST, font_path=str(FONT))
    store = client.app.state.store  # type: ignore[attr-defined]
    assert store.card(FIRST.id, str(FIRST.version)) == r.content
    assert client.get(f"/library/{FIRST.id}/card.png").content == r.content


def test_shipped_font_covers_every_card_character() -> None:
    from fontTools.ttLib import TTFont

    cmap = TTFont(str(FONT)).getBestCmap()
    for a in LIB.articles:
        text = f"{a.id}{a.title}{a.subtitle}{a.short_version}{a.subject}"
        missing = sorted({c for c in text if ord(c) > 0x7F and ord(c) not in cmap})
        assert not missing, (
            f"{a.id}: the shipped font lacks {missing}: run tools/build_card_font.py"
        )


def _token(client: TestClient, article_id: str) -> str:
    page = client.get(f"/library/{article_id}").text
    m = re.search(r'name="csrf" value="([^"]+)"', page)
    assert m
    return m.group(1)


def test_article_page_is_cached_but_its_csrf_token_is_each_readers(client: TestClient) -> None:
    from mingshu.web.library_pages import FEEDBACK_SLOT, _body
    from mingshu.web.pages import environment
    from mingshu.web.store import MAX_COMMENT

    first, second = client.get(f"/library/{FIRST.id}"), client.get(f"/library/{FIRST.id}")
    tokens = [re.search(r'name="csrf" value="([^"]+)"', r.text) for r in (first, second)]
    assert tokens[0] and tokens[1]
    # A new reader each time (the test client keeps the cookie: drop it between readers).
    client.cookies.clear()
    third = client.get(f"/library/{FIRST.id}")
    token = re.search(r'name="csrf" value="([^"]+)"', third.text)
    assert token and token.group(1) != tokens[0].group(1)
    assert third.cookies[CSRF_COOKIE] == token.group(1)
    assert tokens[0].group(1) == tokens[1].group(1) == first.cookies[CSRF_COOKIE]
    # The cached page is the template rendered for this reader, byte for byte.
    for thanks in (False, True):
        page = client.get(f"/library/{FIRST.id}", params={"thanks": "1"} if thanks else {})
        expected = environment().get_template("article.html").render(
            article=FIRST, body=_body(FIRST), csrf=token.group(1), thanks=thanks,
            max_comment=MAX_COMMENT, slot=FEEDBACK_SLOT,
        )  # fmt: skip
        assert page.content == expected.encode()
    # A cookie that is not a token of ours is replaced, never written into the page.
    client.cookies.clear()
    client.cookies.set(CSRF_COOKIE, "<script>x</script>0123456789")
    r = client.get(f"/library/{FIRST.id}")
    assert "<script>x" not in r.text and CSRF_COOKIE in r.headers["set-cookie"]


def test_a_first_view_is_rendered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Readers who arrive together at an article version no process has shown yet wait for
    one render instead of each drawing the article again."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from mingshu.web import library_pages

    monkeypatch.setattr(library_pages, "_page_parts", {})
    real, calls, start = library_pages._page_parts_of, [], threading.Barrier(8)

    def counted(*key: object) -> tuple[bytes, bytes]:
        calls.append(key)
        return real(*key)  # type: ignore[arg-type]

    monkeypatch.setattr(library_pages, "_page_parts_of", counted)

    def reader(_: int) -> tuple[bytes, bytes]:
        start.wait()
        return library_pages._page_parts_once(FIRST.id, str(FIRST.version), False)

    with ThreadPoolExecutor(8) as pool:
        pages = list(pool.map(reader, range(8)))
    assert len(calls) == 1 and len(set(pages)) == 1


def test_feedback_is_stored(client: TestClient) -> None:
    token = _token(client, FIRST.id)
    r = client.post(
        f"/library/{FIRST.id}/feedback",
        data={"csrf": token, "helpful": "no", "comment": "  a table for 闰月 please "},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"].endswith("thanks=1#feedback")
    rows = client.app.state.store.feedback(FIRST.id)  # type: ignore[attr-defined]
    assert [(x.helpful, x.comment, x.article_version) for x in rows] == [
        (False, "a table for 闰月 please", str(FIRST.version))
    ]
    assert 'id="feedback-thanks"' in client.get(r.headers["location"]).text


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"helpful": "yes"}, 403),  # no token
        ({"helpful": "yes", "csrf": "forged-token-value-123"}, 403),
        ({"helpful": "maybe", "csrf": None}, 422),
        ({"helpful": "yes", "comment": "x" * 2001, "csrf": None}, 422),
        ({"helpful": "yes", "comment": "x" * 9000, "csrf": None}, 422),
        ({"helpful": "yes", "comment": "x" * 70_000, "csrf": None}, 413),
    ],
)
def test_bad_feedback_is_refused(client: TestClient, data: dict, status: int) -> None:
    token = _token(client, FIRST.id)
    if "csrf" in data and data["csrf"] is None:
        data = {**data, "csrf": token}
    r = client.post(f"/library/{FIRST.id}/feedback", data=data, follow_redirects=False)
    assert r.status_code == status
    assert "Traceback" not in r.text
    assert client.app.state.store.feedback() == []  # type: ignore[attr-defined]


def test_feedback_from_another_origin_is_refused(client: TestClient) -> None:
    token = _token(client, FIRST.id)
    r = client.post(
        f"/library/{FIRST.id}/feedback", data={"csrf": token, "helpful": "yes"},
        headers={"Origin": "https://evil.example"}, follow_redirects=False,
    )  # fmt: skip
    assert r.status_code == 403


def test_feedback_rate_limit(sqlite_url: str) -> None:
    from mingshu.web import create_app

    with TestClient(create_app(sqlite_url, feedback_rate=2)) as c:
        token = _token(c, FIRST.id)
        codes = [
            c.post(f"/library/{FIRST.id}/feedback", data={"csrf": token, "helpful": "yes"},
                   follow_redirects=False).status_code
            for _ in range(3)
        ]  # fmt: skip
        assert codes == [303, 303, 429]
        assert len(c.app.state.store.feedback()) == 2  # type: ignore[attr-defined]


def test_unknown_article(client: TestClient) -> None:
    assert client.get("/library/ZW-NOPE-99").status_code == 404
    assert client.get("/library/ZW-NOPE-99/card.png").status_code == 404
    assert client.get("/api/articles/ZW-NOPE-99").status_code == 404
    assert client.post("/library/ZW-NOPE-99/feedback", data={"helpful": "yes"}).status_code == 404


def test_articles_api(client: TestClient) -> None:
    data = client.get("/api/articles").json()
    assert [a["id"] for a in data] == [a.id for a in LIB.articles]
    one = client.get(f"/api/articles/{FIRST.id}").json()
    assert one["title"] == FIRST.title and "<article" in one["html"]


def test_star_page_links_its_article(client: TestClient) -> None:
    r = client.get("/chart/star/en_guang?date=1987-05-16&time=10:30&gender=female")
    assert 'href="/library/ZW-AUX-17"' in r.text


def test_feedback_through_the_site_on_each_database(db_url: str) -> None:
    from mingshu.web import create_app

    with TestClient(create_app(db_url)) as c:
        token = _token(c, FIRST.id)
        r = c.post(
            f"/library/{FIRST.id}/feedback",
            data={"csrf": token, "helpful": "yes", "comment": "清楚"},
            follow_redirects=False,
        )
        assert r.status_code == 303
        card = c.get(f"/library/{FIRST.id}/card.png").content
        store = c.app.state.store  # type: ignore[attr-defined]
        assert [(x.helpful, x.comment) for x in store.feedback(FIRST.id)] == [(True, "清楚")]
        assert store.card(FIRST.id, str(FIRST.version)) == card


def test_bazi_star_links_its_article(client: TestClient) -> None:
    r = client.get("/chart?date=1987-05-16&time=10:30&gender=female&tz=Asia/Shanghai")
    stars = r.text.split('id="bazi-stars"')[1].split("</details>")[0]  # present and absent
    line = next(li for li in stars.split("<li") if "Literary Star" in li)
    assert 'href="/library/BZ-SS-02"' in line


def test_an_article_that_cannot_render_is_an_error_on_its_page_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A wheel without what an article reads used to kill the server at start-up; now that
    article's page is a 500 naming the reason (and logged), and every other page works."""
    from mingshu.errors import InputError
    from mingshu.library import render as library_render
    from mingshu.web import library_pages

    broken, fine = LIB.articles[0], LIB.articles[1]
    real = library_render.article_html

    def article_html(article: library.Article, *args: object, **kw: object) -> str:
        if article.id == broken.id:
            raise InputError("fixtures", "the iztro reference files are not here")
        return real(article, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(library_render, "article_html", article_html)
    monkeypatch.setattr(library_pages, "_page_parts", {})
    library_pages._body_of.cache_clear()
    try:
        r = client.get(f"/library/{broken.id}")
        assert r.status_code == 500
        assert f"Article {broken.id} could not be drawn" in r.text
        assert "fixtures: the iztro reference files are not here" in r.text
        assert "Traceback" not in r.text
        assert any(broken.id in rec.getMessage() and rec.exc_info for rec in caplog.records)
        api = client.get(f"/api/articles/{broken.id}")
        assert api.status_code == 500 and broken.id in api.json()["detail"]
        assert client.get(f"/library/{fine.id}").status_code == 200
        assert client.get("/library").status_code == 200
        assert client.get("/api/health").status_code == 200
    finally:
        library_pages._body_of.cache_clear()


def test_a_slow_first_render_holds_up_only_its_own_article(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two articles are drawn at once: while one is still being drawn (here: held until
    the test lets it go), another article's first reader gets their page."""
    import threading

    from mingshu.web import library_pages

    monkeypatch.setattr(library_pages, "_page_parts", {})
    slow, other = LIB.articles[0], LIB.articles[1]
    release, started = threading.Event(), threading.Event()
    real = library_pages._page_parts_of

    def held(article_id: str, version: str, thanks: bool) -> tuple[bytes, bytes]:
        if article_id == slow.id:
            started.set()
            assert release.wait(60)
        return real(article_id, version, thanks)

    monkeypatch.setattr(library_pages, "_page_parts_of", held)
    first = threading.Thread(
        target=library_pages._page_parts_once, args=(slow.id, str(slow.version), False)
    )
    first.start()
    try:
        assert started.wait(60)
        done: list[tuple[bytes, bytes]] = []
        second = threading.Thread(
            target=lambda: done.append(
                library_pages._page_parts_once(other.id, str(other.version), False)
            )
        )
        second.start()
        second.join(60)
        assert done, "the other article waited for the slow one"
        assert first.is_alive()  # the slow one was still being drawn
    finally:
        release.set()
        first.join(60)


@pytest.mark.parametrize(
    "comment",
    [
        "命" * 2000,  # 9 bytes each form-encoded: 18,000 bytes (8 KiB was the limit)
        "𠀀" * 2000,  # 4-byte UTF-8, 12 bytes each form-encoded
        "\r\n".join(["段落"] * 667),  # a browser sends CRLF and counts it as one character
    ],
)
def test_a_comment_of_2000_characters_of_any_script_is_kept(
    client: TestClient, comment: str
) -> None:
    token = _token(client, FIRST.id)
    r = client.post(
        f"/library/{FIRST.id}/feedback",
        data={"csrf": token, "helpful": "yes", "comment": comment},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text[:300]
    (row,) = client.app.state.store.feedback(FIRST.id)  # type: ignore[attr-defined]
    assert row.comment == comment.replace("\r\n", "\n")
    assert len(row.comment) == 2000 or "\n" in row.comment


def _form(page: str) -> str:
    return page.split('id="feedback"')[1].split("</form>")[0]


def test_a_refused_comment_stays_on_the_page(client: TestClient) -> None:
    import html

    token = _token(client, FIRST.id)
    text = "太长了 <b>&" + "长" * 2100
    r = client.post(
        f"/library/{FIRST.id}/feedback",
        data={"csrf": token, "helpful": "no", "comment": text},
        follow_redirects=False,
    )
    assert r.status_code == 422
    form = _form(r.text)
    assert html.escape(text, quote=False) in form and "<b>&" not in form
    assert 'value="no" checked' in form and "at most 2000 characters" in form
    assert client.app.state.store.feedback() == []  # type: ignore[attr-defined]


def test_an_expired_form_keeps_the_text_and_sends_on_the_second_try(client: TestClient) -> None:
    _token(client, FIRST.id)
    client.cookies.clear()  # the cookie is gone (a new browser session): the token fails
    r = client.post(
        f"/library/{FIRST.id}/feedback",
        data={"csrf": "x" * 48, "helpful": "yes", "comment": "保留这段话"},
        follow_redirects=False,
    )
    assert r.status_code == 403
    form = _form(r.text)
    assert "保留这段话</textarea>" in form and 'value="yes" checked' in form
    fresh = re.search(r'name="csrf" value="([^"]+)"', form)
    assert fresh and r.cookies[CSRF_COOKIE] == fresh.group(1)
    again = client.post(
        f"/library/{FIRST.id}/feedback",
        data={"csrf": fresh.group(1), "helpful": "yes", "comment": "保留这段话"},
        follow_redirects=False,
    )
    assert again.status_code == 303
    rows = client.app.state.store.feedback()  # type: ignore[attr-defined]
    assert [x.comment for x in rows] == ["保留这段话"]


def test_an_unsigned_token_is_refused_even_when_cookie_and_form_agree(client: TestClient) -> None:
    """A double-submit pair made up elsewhere (a cookie planted by a sibling subdomain, say)
    is not one of ours: the token must carry the site's signature."""
    from mingshu.web.security import new_csrf_token

    for made_up in ("A" * 48, "forged-token-value-123", new_csrf_token("another site's secret")):
        client.cookies.clear()
        client.cookies.set(CSRF_COOKIE, made_up)
        r = client.post(
            f"/library/{FIRST.id}/feedback", data={"csrf": made_up, "helpful": "yes"},
            follow_redirects=False,
        )  # fmt: skip
        assert r.status_code == 403, made_up
    assert client.app.state.store.feedback() == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("http://testserver", 303),
        ("HTTP://TestServer", 303),
        ("https://testserver", 403),  # the same host, another scheme
        ("http://testserver:8080", 403),
        ("http://testserver.evil.example", 403),
        ("null", 403),
    ],
)
def test_the_origin_must_be_this_sites_scheme_and_host(
    client: TestClient, origin: str, status: int
) -> None:
    token = _token(client, FIRST.id)
    r = client.post(
        f"/library/{FIRST.id}/feedback", data={"csrf": token, "helpful": "yes"},
        headers={"Origin": origin}, follow_redirects=False,
    )  # fmt: skip
    assert r.status_code == status


def test_tokens_hold_across_apps_that_share_the_database(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers over one database read one secret: a token from one is good on the
    other.  A new secret makes old tokens fail (and the page hands out a new one)."""
    from mingshu.web import create_app

    monkeypatch.delenv("MINGSHU_SECRET", raising=False)
    with TestClient(create_app(sqlite_url)) as one, TestClient(create_app(sqlite_url)) as two:
        token = _token(one, FIRST.id)
        two.cookies.set(CSRF_COOKIE, token)
        r = two.post(
            f"/library/{FIRST.id}/feedback", data={"csrf": token, "helpful": "yes"},
            follow_redirects=False,
        )  # fmt: skip
        assert r.status_code == 303
    monkeypatch.setenv("MINGSHU_SECRET", "a-new-secret-for-this-site-0123")
    with TestClient(create_app(sqlite_url)) as three:
        three.cookies.set(CSRF_COOKIE, token)
        r = three.post(
            f"/library/{FIRST.id}/feedback", data={"csrf": token, "helpful": "yes"},
            follow_redirects=False,
        )  # fmt: skip
        assert r.status_code == 403 and r.cookies[CSRF_COOKIE] != token
        three.cookies.clear()
        three.cookies.set(CSRF_COOKIE, token)
        assert three.get(f"/library/{FIRST.id}").cookies[CSRF_COOKIE] != token


def _chunked(body: bytes, size: int = 1000) -> object:
    """The body as a generator: httpx sends it chunked, with no Content-Length."""

    def chunks() -> object:
        for i in range(0, len(body), size):
            yield body[i : i + size]

    return chunks()


def test_a_chunked_post_is_judged_on_its_real_size(client: TestClient) -> None:
    """A body sent chunked (no Content-Length, as a proxy or a script may send it) was
    refused 413 whatever its size: now a small one is read and stored, and one past the
    limit is refused once the limit is passed, never read whole."""
    from urllib.parse import urlencode

    from mingshu.web.library_pages import MAX_FORM_BYTES

    token = _token(client, FIRST.id)
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    small = urlencode({"csrf": token, "helpful": "yes", "comment": "分块 sent"}).encode()
    r = client.post(
        f"/library/{FIRST.id}/feedback", content=_chunked(small), headers=form,  # type: ignore[arg-type]
        follow_redirects=False,
    )  # fmt: skip
    assert r.status_code == 303, r.text[:300]
    (row,) = client.app.state.store.feedback(FIRST.id)  # type: ignore[attr-defined]
    assert row.comment == "分块 sent"
    big = urlencode({"csrf": token, "helpful": "yes", "comment": "x" * MAX_FORM_BYTES}).encode()
    r = client.post(
        f"/library/{FIRST.id}/feedback", content=_chunked(big), headers=form,  # type: ignore[arg-type]
        follow_redirects=False,
    )  # fmt: skip
    assert r.status_code == 413 and "Traceback" not in r.text
    assert len(client.app.state.store.feedback()) == 1  # type: ignore[attr-defined]


def test_a_refused_post_to_an_article_that_cannot_render_is_its_error_page(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page answering a refused post draws the article again: when the article cannot
    be drawn, that is the article's 500 page (as a view of it gives), not an unhandled
    error."""
    from mingshu.errors import InputError
    from mingshu.library import render as library_render
    from mingshu.web import library_pages

    token = _token(client, FIRST.id)  # the page drawn while it still could be

    def article_html(*args: object, **kw: object) -> str:
        raise InputError("fixtures", "the iztro reference files are not here")

    monkeypatch.setattr(library_render, "article_html", article_html)
    library_pages._body_of.cache_clear()
    try:
        for data in (
            {"csrf": token, "helpful": "maybe"},  # 422
            {"csrf": "x" * 48, "helpful": "yes", "comment": "kept"},  # 403, expired
        ):
            r = client.post(f"/library/{FIRST.id}/feedback", data=data, follow_redirects=False)
            assert r.status_code == 500, r.text[:300]
            assert f"Article {FIRST.id} could not be drawn" in r.text
            assert "Traceback" not in r.text
    finally:
        library_pages._body_of.cache_clear()


# ------------------------------------------------------------------ the star catalogues

BIRTH = "date=1987-05-16&time=10:30&gender=female"


@pytest.mark.parametrize(("engine", "stars"), [("ziwei", 70), ("bazi", 46)])
@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_star_catalogue_lists_every_star_in_both_languages(
    client: TestClient, engine: str, stars: int, lang: str
) -> None:
    from mingshu import bazi, ziwei

    r = client.get(f"/library/stars/{engine}", params={"lang": lang})
    assert r.status_code == 200
    assert f'<html lang="{lang}">' in r.text
    engine_stars = ziwei.STARS if engine == "ziwei" else bazi.STARS
    assert len(engine_stars) == stars
    for s in engine_stars:  # each star's row, its Chinese name marked as Chinese
        row = r.text.split(f"<tr id='star-{s.key}'>")[1].split("</tr>")[0]
        assert f"<strong class='names' lang='zh-Hans'>{s.names.hans}</strong>" in row, s.key
        assert f"<span lang='zh-Hant'>{s.names.hant}</span>" in row or s.names.hant == s.names.hans
    title = "Zi Wei star catalogue" if engine == "ziwei" else "BaZi star catalogue"
    chinese = "紫微星曜总表" if engine == "ziwei" else "八字神煞总表"
    assert (chinese if lang == "zh-Hans" else title) in r.text
    missing = "尚无文章" if lang == "zh-Hans" else "no article yet"
    from mingshu.library import load
    from mingshu.library.catalogue import catalogue

    assert (missing in r.text) == any(not e.articles for e in catalogue(load(), engine))


def test_star_catalogue_links_each_covered_star_to_its_article(client: TestClient) -> None:
    page = client.get("/library/stars/ziwei").text
    row = page.split("<tr id='star-en_guang'>")[1].split("</tr>")[0]
    assert "href='/library/ZW-AUX-17'" in row
    rules = page.split("<tr id='star-zuo_fu'>")[1].split("</tr>")[0]
    assert "Counted forward (子→丑→寅) from 辰 by the lunar month." in rules
    zh = client.get("/library/stars/ziwei", params={"lang": "zh-Hans"}).text
    assert "从辰起，按农历月顺行（子→丑→寅）。" in zh.split("<tr id='star-zuo_fu'>")[1]


def test_star_catalogue_names_switch_and_language_switch(client: TestClient) -> None:
    page = client.get("/library/stars/bazi", params={"names": "english", "lang": "zh-Hans"}).text
    row = page.split("<tr id='star-tian_yi'>")[1].split("</tr>")[0]
    assert "<strong class='names' lang='en'>Heavenly Nobleman</strong>" in row
    assert "<span lang='zh-Hans'>天乙贵人</span>" in row
    # the switches keep the other choice
    assert 'href="/library/stars/bazi?names=english"' in page  # to English
    assert 'href="/library/stars/bazi?lang=zh-Hans"' in page  # to 简体 names
    assert "href='/library/stars/ziwei?lang=zh-Hans&amp;names=english'" in page


def test_star_catalogue_refuses_an_unknown_engine_or_name_form(client: TestClient) -> None:
    assert client.get("/library/stars/qimen").status_code == 404
    r = client.get("/library/stars/ziwei", params={"names": "latin"})
    assert r.status_code == 422 and "names: one of hans, hant, english, pinyin" in r.text


def test_library_index_links_both_catalogues(client: TestClient) -> None:
    page = client.get("/library").text
    assert "href='/library/stars/ziwei'" in page and "href='/library/stars/bazi'" in page


def test_chart_star_links_come_from_covers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mingshu.web import library as web_library

    # A covered star links to its article (en_guang: ZW-AUX-17's covers) …
    page = client.get(f"/chart/star/en_guang?{BIRTH}").text
    assert 'href="/library/ZW-AUX-17"' in page and "data-catalogue" not in page
    # … one no article covers yet, to its row of the catalogue …
    monkeypatch.setattr(web_library, "_covering", lambda: {})
    page = client.get(f"/chart/star/zi_wei?{BIRTH}").text
    assert 'href="/library/stars/ziwei#star-zi_wei"' in page and "data-article" not in page
    # … and an article whose title does not name the star, by its covers alone.
    covers = {"ziwei:zi_wei": ("ZW-BAS-01", "ZW-BK-01")}
    monkeypatch.setattr(web_library, "_covering", lambda: covers)
    page = client.get(f"/chart/star/zi_wei?{BIRTH}&lang=zh-Hans").text
    assert 'href="/library/ZW-BAS-01"' in page and 'href="/library/ZW-BK-01"' in page


def test_chart_page_links_the_catalogues_and_bazi_stars(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mingshu.web import library as web_library

    monkeypatch.setattr(web_library, "_covering", lambda: {})  # as if no article covered one
    page = client.get(f"/chart?{BIRTH}&names=pinyin").text
    assert 'href="/library/stars/ziwei?names=pinyin"' in page
    assert 'href="/library/stars/bazi?names=pinyin"' in page
    stars = page.split('id="bazi-stars"')[1].split("</details>")[0]
    # the stars no article covers yet link to their catalogue row
    assert re.search(r'href="/library/stars/bazi\?names=pinyin#star-\w+" data-catalogue', stars)
