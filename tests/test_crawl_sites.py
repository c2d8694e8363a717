"""End-to-end: the real ``scrapy crawl <spider>`` of the six non-BBC spiders against their bundled
fixture sites on 127.0.0.1 (``mcecrawl/demo/sites/<spider>/``, written by
``tests/spiders/build_news_sites.py``).

Each site's ``expected.json`` lists the articles a correct crawl writes (path, title, dates, body
paragraphs), the article-shaped pages it must not write, the anti-bot challenge pages it must
report as ``blocked``, boilerplate and menu items that must stay out of the text, and request
paths that URL canonicalisation must make unnecessary.
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import mcecrawl
from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer, site_dir
from mcecrawl.profile import load_profile

SPIDERS = ["hamshahri", "jamejam", "ahram", "reuters_arabic", "fawiki", "diplo_tehran"]
# Typical UTF-8-read-as-windows-125x debris (sites.md §14): none may survive in Arabic text.
MOJIBAKE = re.compile("[ØÙÚÛÃÂ]")


def _crawl(spider, tmp_path, args=None):
    out = tmp_path / f"{spider}.jsonl"
    with FixtureServer(site_dir(spider)) as srv:
        proc = run_crawl(spider, base_url=srv.url, output=out, args=args, cwd=tmp_path, timeout=120)
        hits = dict(srv.hits)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return (read_jsonl(out) if out.exists() else []), proc.stderr, hits


@pytest.fixture(scope="module", params=SPIDERS)
def crawled(request, tmp_path_factory):
    spider = request.param
    records, log, hits = _crawl(spider, tmp_path_factory.mktemp(spider))
    expected = json.loads((site_dir(spider) / "expected.json").read_text(encoding="utf-8"))
    return spider, records, log, hits, expected


def _path(url: str) -> str:
    return urlsplit(url).path


def _ws(s: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", s)).strip()


def test_every_article_exactly_once_no_non_article_blocked_reported(crawled):
    spider, records, log, hits, expected = crawled
    ok = Counter(_path(r["canonical_url"]) for r in records if r["status"] == "ok")
    assert ok == Counter(a["path"] for a in expected["articles"]), log[-3000:]
    blocked = [r for r in records if r["status"] == "blocked"]
    assert sorted(_path(r["canonical_url"]) for r in blocked) == sorted(expected["blocked"])
    for r in blocked:
        assert r["text"] == "" and r["paragraphs"] == [] and "anti-bot" in r["reason"]
    assert {r["status"] for r in records} <= {"ok", "blocked", "not_article"}
    stats = stats_from_log(log)
    fetched_non_articles = [p for p in expected["not_articles"] if p in hits]
    rejected = [_path(r["canonical_url"]) for r in records if r["status"] == "not_article"]
    assert sorted(rejected) == sorted(fetched_non_articles)
    for r in records:
        if r["status"] == "not_article":
            assert r["text"] == "" and r["reason"].startswith("not an article: ")
    assert int(stats.get("mcecrawl/not_article", 0)) == len(fetched_non_articles)
    assert int(stats.get("mcecrawl/items/status/blocked", 0)) == len(expected["blocked"])


def test_text_is_the_article_body_not_the_chrome(crawled):
    spider, records, log, hits, expected = crawled
    by_path = {_path(r["canonical_url"]): r for r in records}
    menu = {_ws(m) for m in expected["menu"]}
    for art in expected["articles"]:
        rec = by_path[art["path"]]
        text = _ws(rec["text"])
        for para in ([art["lead"]] if art.get("lead") else []) + art["body"]:
            assert _ws(para) in text, f"{spider} {art['path']}: lead/body paragraph missing: {para[:40]}"
        for chrome in expected["boilerplate"]:
            assert _ws(chrome) not in text, f"{spider} {art['path']}: boilerplate {chrome!r} in text"
        # A menu leaks as several of its items on lines of their own; one section name on its own
        # line can be the article's own section/tag label (Jame Jam's a.tag-item), which is not.
        lines = {_ws(x) for x in rec["text"].split("\n")} | {_ws(p) for p in rec["paragraphs"]}
        assert len(lines & menu) < 2, f"{spider} {art['path']}: menu items {lines & menu} in text"
        assert rec["paragraphs"] and rec["content_sha1"] and rec["text"] == "\n".join(rec["paragraphs"])


def test_titles_dates_site_and_lang(crawled):
    spider, records, log, hits, expected = crawled
    profile = load_profile(spider)
    by_path = {_path(r["canonical_url"]): r for r in records}
    for art in expected["articles"]:
        rec = by_path[art["path"]]
        assert rec["title"] == art["title"]
        assert rec["published_raw"] == art["published_raw"]
        if art["published"] is None:
            assert rec["published"] is None
        else:  # Jalali-derived dates may or may not carry the Tehran offset: compare what is given
            assert rec["published"], rec
            assert rec["published"].startswith(art["published"].replace("Z", "+00:00")), rec["published"]
        assert rec["site"] == profile.name and rec["site_name"] == profile.site and rec["lang"] == profile.lang
        assert rec["algorithm"] == profile.extraction["algorithm"]
        assert urlsplit(rec["canonical_url"]).hostname == profile.canonical_host


def test_encoding_provenance_and_clean_text(crawled):
    spider, records, log, hits, expected = crawled
    for rec in records:
        assert rec["encoding_original"] and rec["encoding_source"]
        assert rec["encoding_replacements"] == 0
        assert "\ufffd" not in rec["text"]
        if expected["encoding"] == "utf-8":
            assert rec["encoding_original"] == "utf-8"
    if expected["encoding"] == "cp1256":
        # windows-1256 bytes served as "text/html; charset=utf-8" with no <meta charset>: the
        # middleware must ignore the lying header and still give correct Arabic.
        for rec in records:
            assert rec["encoding_original"] in ("cp1256", "windows-1256")
            assert rec["encoding_declared_header"] == "utf-8"
            assert rec["encoding_source"] != "header"
            assert not MOJIBAKE.search(rec["text"] + rec["title"])
    if spider in ("hamshahri", "jamejam", "fawiki", "diplo_tehran"):
        assert all("\u200c" in r["text"] for r in records if r["status"] == "ok"), "ZWNJ must be kept"


def test_records_follow_the_item_schema(crawled):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(mcecrawl.__file__).parent / "schema" / "item.schema.json").read_text(encoding="utf-8"))
    spider, records, log, hits, expected = crawled
    for rec in records:
        jsonschema.validate(rec, schema)
        assert "html" not in rec


def test_canonicalisation_and_robots_spare_requests(crawled):
    spider, records, log, hits, expected = crawled
    for pattern in expected["never_fetched"]:
        bad = [p for p in hits if re.search(pattern, p)]
        assert not bad, f"{spider}: {bad} should have been folded or excluded before fetching"
    for art in expected["articles"]:
        assert hits.get(art["path"]) == 1, (art["path"], sorted(hits))
    assert hits.get("/robots.txt") == 1
    server = FixtureServer(site_dir(spider))  # only its file lookup is used
    try:
        missing = [unquote(p) for p in hits if not server.find_file(*_split(p))]
    finally:
        server.httpd.server_close()
    assert not missing, f"{spider}: requests for pages the site does not have: {missing}"


def _split(key: str) -> tuple[str, str]:
    path, _, query = key.partition("?")
    return path, query


@pytest.mark.parametrize("spider", ["hamshahri", "jamejam"])
def test_since_filters_on_the_page_dates(spider, tmp_path):
    """``-a since`` keeps articles published on or after the day: ISO dates in Hamshahri's meta,
    Jalali ones (Persian digits) in Jame Jam's."""
    expected = json.loads((site_dir(spider) / "expected.json").read_text(encoding="utf-8"))
    since = "2026-03-01"
    records, log, _ = _crawl(spider, tmp_path, args={"since": since})
    want = {a["path"] for a in expected["articles"] if a["published"][:10] >= since}
    assert {_path(r["canonical_url"]) for r in records if r["status"] == "ok"} == want
