"""Hamshahri profile rules and page handling, on the bundled fixture pages (no crawl)."""
from __future__ import annotations

import pytest

from mcecrawl.profile import load_profile
from mcecrawl.spiders.hamshahri import HamshahriSpider
from sitetest_helpers import fixture_response, make_spider, parse, stat, statuses

LIVE = "https://www.hamshahrionline.ir"


@pytest.fixture
def spider():
    return make_spider(HamshahriSpider)


@pytest.mark.parametrize("url, canonical", [
    ("https://hamshahrionline.ir/news/1074101/خط-هفت-مترو", f"{LIVE}/news/1074101"),
    ("http://www.hamshahrionline.ir/details/401150/Society/Travel", f"{LIVE}/news/401150"),
    (f"{LIVE}/amp/1074101/", f"{LIVE}/news/1074101"),
    (f"{LIVE}/print/1074101", f"{LIVE}/news/1074101"),
    (f"{LIVE}/news/1074104/x?utm_source=telegram&utm_medium=social", f"{LIVE}/news/1074104"),
    (f"{LIVE}/archive?pi=2&utm_source=x", f"{LIVE}/archive?pi=2"),
])
def test_canonical_urls(url, canonical):
    assert load_profile("hamshahri").canonicalize(url) == canonical


@pytest.mark.parametrize("url, is_article", [
    (f"{LIVE}/news/1074101", True), (f"{LIVE}/service/City", False), (f"{LIVE}/archive", False),
    (f"{LIVE}/d/2026/03/02/4/1074101.jpg", False), (f"{LIVE}/news/abc", False),
])
def test_article_rule(url, is_article):
    p = load_profile("hamshahri")
    assert (p.article_rule(p.canonicalize(url)) is not None) is is_article


def test_archive_pages_are_pagination():
    p = load_profile("hamshahri")
    assert p.is_pagination(p.canonicalize(f"{LIVE}/archive?pi=7"))
    assert p.is_pagination(p.canonicalize(f"{LIVE}/archive?pi=2&tp=5&ty=1"))
    assert not p.is_pagination(p.canonicalize(f"{LIVE}/service/City"))


def test_article_page(spider):
    (item,) = parse(spider, "hamshahri", "/news/1074101")
    assert item["title"] == "خط هفت مترو تهران تا پایان سال به ایستگاه بسیج می‌رسد"
    assert item["published"] == "2026-03-02T06:40:00+00:00" and item["published_raw"] == "2026-03-02T06:40:00Z"
    assert item["canonical_url"] == f"{LIVE}/news/1074101" and item["lang"] == "fa"


def test_arvancloud_challenge_is_blocked_not_an_article(spider):
    (item,) = parse(spider, "hamshahri", "/news/1074160")
    assert item["status"] == "blocked" and "anti-bot" in item["reason"] and item["html"] == b""
    assert stat(spider, "mcecrawl/blocked/127.0.0.1") == 1


@pytest.mark.parametrize("path", ["/news/1074101", "/news/1074102", "/news/1074103", "/news/1074104", "/archive"])
def test_no_blocked_false_positive(path):
    assert load_profile("hamshahri").is_blocked_page(fixture_response("hamshahri", path).text) is None


def test_video_page_is_not_an_article(spider):
    assert statuses(parse(spider, "hamshahri", "/news/1074150")) == ["not_article"]
    assert stat(spider, "mcecrawl/not_article") == 1
