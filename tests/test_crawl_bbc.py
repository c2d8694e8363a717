"""End-to-end: the real ``scrapy crawl bbc_<service>`` against its bundled fixture site on 127.0.0.1.

Each fixture site (``mcecrawl/demo/sites/bbc_*``, built by ``tests/spiders/build_bbc_sites.py``)
has an ``expected.json``: the articles a correct crawl writes, the article-shaped non-articles it
must not write, and boilerplate that must not end up in the text.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer, site_dir

SPIDERS = ["bbc_persian", "bbc_arabic", "bbc_urdu", "bbc_pashto"]
ITEM_SCHEMA = Path(__file__).resolve().parents[1] / "mcecrawl" / "schema" / "item.schema.json"


def _crawl(spider, tmp_path, args=None, settings=None):
    out = tmp_path / f"{spider}.jsonl"
    with FixtureServer(site_dir(spider)) as srv:
        proc = run_crawl(spider, base_url=srv.url, output=out, args=args, settings=settings, cwd=tmp_path)
        hits = dict(srv.hits)
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = read_jsonl(out) if out.exists() else []
    return records, proc.stderr, hits


@pytest.fixture(scope="module", params=SPIDERS)
def crawled(request, tmp_path_factory):
    spider = request.param
    records, log, hits = _crawl(spider, tmp_path_factory.mktemp(spider))
    expected = json.loads((site_dir(spider) / "expected.json").read_text(encoding="utf-8"))
    return spider, records, log, hits, expected


def _ws(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def test_every_article_exactly_once_and_no_non_article(crawled):
    spider, records, log, hits, expected = crawled
    urls = [r["canonical_url"] for r in records if r["status"] != "not_article"]
    assert sorted(urls) == sorted(a["canonical_url"] for a in expected["articles"]), log[-2000:]
    assert not set(urls) & set(expected["non_articles"])
    rejected = {r["canonical_url"]: r for r in records if r["status"] == "not_article"}
    assert set(rejected) == set(expected["non_articles"])
    for r in rejected.values():
        assert r["text"] == "" and r["reason"].startswith("not an article: page type")
    stats = stats_from_log(log)
    assert int(stats.get("mcecrawl/not_article", 0)) == len(expected["non_articles"])
    # the end-of-crawl summary names them, per host and reason, with sample URLs
    assert f"{len(expected['non_articles'])} pages at article URLs were not written as articles" in log
    assert "not an article on www.bbc.com (page type 'MAP'), e.g. https://www.bbc.com/" in log


def test_text_title_date_authors_match_the_article(crawled):
    spider, records, log, hits, expected = crawled
    by_url = {r["canonical_url"]: r for r in records}
    for art in expected["articles"]:
        rec = by_url[art["canonical_url"]]
        assert rec["status"] == "ok", rec["reason"]
        text = _ws(rec["text"])
        for para in art["paragraphs"]:
            assert _ws(para) in text, f"{art['canonical_url']}: paragraph missing"
        for chrome in expected["boilerplate"]:
            assert _ws(chrome) not in text
        assert rec["title"] == art["title"]
        assert rec["published"] == art["published"]
        assert rec["published_raw"]
        assert rec["authors"] == art["authors"]
        assert rec["lang"] == expected["lang"] and rec["site_name"] == expected["site"]
        assert rec["site"] == expected["spider"]


def test_zwnj_and_encoding_provenance_kept(crawled):
    spider, records, log, hits, expected = crawled
    for rec in records:
        assert rec["encoding_original"] == "utf-8"
        assert rec["encoding_source"]
        assert rec["encoding_declared_header"] == "utf-8"
        assert rec["encoding_replacements"] == 0
    if spider == "bbc_persian":
        assert any("\u200c" in r["text"] for r in records)


def test_records_follow_the_item_schema(crawled):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(ITEM_SCHEMA.read_text(encoding="utf-8"))
    spider, records, log, hits, expected = crawled
    for rec in records:
        jsonschema.validate(rec, schema)
        assert "html" not in rec


def test_amp_variants_and_tracking_links_not_fetched_twice(crawled):
    spider, records, log, hits, expected = crawled
    assert not any(p.endswith(".amp") for p in hits), "the AMP variant should be folded before fetching"
    assert not any("at_medium" in p for p in hits)
    for art in expected["articles"]:
        path = art["canonical_url"].split("bbc.com", 1)[1]
        assert hits.get(path) == 1, path
    assert hits.get("/robots.txt") == 1
    assert not any("/send/" in p for p in hits), "robots.txt Disallow must be obeyed"


def test_since_and_limit(tmp_path):
    expected = json.loads((site_dir("bbc_persian") / "expected.json").read_text(encoding="utf-8"))
    since = "2026-03-09"
    records, log, _ = _crawl("bbc_persian", tmp_path, args={"since": since})
    want = {a["canonical_url"] for a in expected["articles"] if a["published"][:10] >= since}
    assert {r["canonical_url"] for r in records if r["status"] != "not_article"} == want
    records, log, _ = _crawl("bbc_persian", tmp_path, args={"limit": "2"})
    assert len([r for r in records if r["status"] != "not_article"]) == 2
    assert "'finish_reason': 'limit'" in log


def test_live_host_refused_without_permission(tmp_path):
    out = tmp_path / "live.jsonl"
    # No base_url: the live host.  The spider must stop before any request is made.
    proc = run_crawl("bbc_persian", output=out, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0
    assert "MCE_PERMISSION_GRANTED" in proc.stderr
    assert "'finish_reason': 'permission_required'" in proc.stderr
    assert "downloader/request_count" not in proc.stderr
    assert not out.exists() or out.read_text(encoding="utf-8") == ""
