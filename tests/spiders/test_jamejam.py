"""Jame Jam profile rules and page handling, on the bundled fixture pages (no crawl)."""
from __future__ import annotations

import pytest

from mcecrawl.profile import load_profile
from mcecrawl.spiders.jamejam import JamejamSpider
from sitetest_helpers import fixture_response, make_spider, parse, stat, statuses

LIVE = "https://jamejamonline.ir"


@pytest.fixture
def spider():
    return make_spider(JamejamSpider)


@pytest.mark.parametrize("url, canonical", [
    ("http://www.jamejamonline.ir/fa/news/1568702/صادرات-توت-فرنگی", f"{LIVE}/fa/news/1568702"),
    (f"{LIVE}/fa/news/1568701/", f"{LIVE}/fa/news/1568701"),
    (f"{LIVE}/fa/archive?page=2&utm_campaign=x", f"{LIVE}/fa/archive?page=2"),
])
def test_canonical_urls(url, canonical):
    assert load_profile("jamejam").canonicalize(url) == canonical


@pytest.mark.parametrize("url, is_article", [
    (f"{LIVE}/fa/news/1568701", True), (f"{LIVE}/fa/rss/1", False), (f"{LIVE}/fa/tag/1/x", False),
    (f"{LIVE}/fa/ajax/news/1568701", False), (f"{LIVE}/fa/archive?page=2", False),
])
def test_article_rule(url, is_article):
    p = load_profile("jamejam")
    assert (p.article_rule(p.canonicalize(url)) is not None) is is_article


def test_jalali_date_kept_raw_and_converted(spider):
    (item,) = parse(spider, "jamejam", "/fa/news/1568701")
    assert item["title"] == "کتابخانه‌های عمومی کشور تا نیمه‌شب باز می‌مانند"
    assert item["published_raw"] == "۱۴۰۴/۱۲/۱۱ - ۰۹:۳۰"
    assert item["published"] == "2026-03-02T09:30:00"  # 11 Esfand 1404 = 2 March 2026 (Tehran time)


def test_since_applies_to_jalali_page_dates():
    spider = make_spider(JamejamSpider, since="2026-03-01")
    assert parse(spider, "jamejam", "/fa/news/1568703") == []  # 9 Esfand 1404 = 28 Feb 2026
    assert stat(spider, "mcecrawl/too_old") == 1
    assert len(parse(spider, "jamejam", "/fa/news/1568702")) == 1  # 10 Esfand = 1 March


def test_challenge_served_as_403_is_blocked(spider):
    response = fixture_response("jamejam", "/fa/news/1568760")
    assert response.status == 403
    (item,) = list(spider.parse_article(response))
    assert item["status"] == "blocked" and "HTTP 403" in item["reason"]


@pytest.mark.parametrize("path", ["/fa/news/1568701", "/fa/news/1568703", "/fa/archive?page=1"])
def test_no_blocked_false_positive(path):
    assert load_profile("jamejam").is_blocked_page(fixture_response("jamejam", path).text) is None


def test_gallery_is_not_an_article(spider):
    assert statuses(parse(spider, "jamejam", "/fa/news/1568750")) == ["not_article"]
    assert stat(spider, "mcecrawl/not_article") == 1
