"""Reuters Arabic: REVISION_DATE parsing, profile rules and page handling (no crawl)."""
from __future__ import annotations

import pytest

from mcecrawl.profile import load_profile
from mcecrawl.spiders.reuters_arabic import ReutersArabicSpider, parse_revision_date
from sitetest_helpers import make_spider, parse, statuses

LIVE = "https://ara.reuters.com"


@pytest.mark.parametrize("raw, iso", [
    ("Wed Jul 09 08:12:34 UTC 2014", "2014-07-09T08:12:34+00:00"),
    ("Thu Jul 10 12:47:19 GMT 2014", "2014-07-10T12:47:19+00:00"),
    ("Thu Jul 10 12:47:19 EDT 2014", None),  # not UTC: no guessing of zone offsets
    ("2014-07-10", None), ("", None), (None, None), ("Thu Jul 32 12:47:19 UTC 2014", None),
])
def test_parse_revision_date(raw, iso):
    assert parse_revision_date(raw) == iso


@pytest.mark.parametrize("url, canonical", [
    ("http://ara.reuters.com/article/topNews/idARAKBN0FE31B20140710?feedType=RSS&feedName=topNews",
     f"{LIVE}/article/topNews/idARAKBN0FE31B20140710"),
    ("http://ara.reuters.com/article/sportsNews/idARAKBN0FE27O20140709?sp=true",
     f"{LIVE}/article/sportsNews/idARAKBN0FE27O20140709"),
    ("http://ara.reuters.com/news/archive/topNews?view=page&page=2&pageSize=10",
     f"{LIVE}/news/archive/topNews?page=2&pageSize=10&view=page"),
])
def test_canonical_urls(url, canonical):
    assert load_profile("reuters_arabic").canonicalize(url) == canonical


@pytest.mark.parametrize("url, is_article", [
    (f"{LIVE}/article/businessNews/idARAKBN0FE2AL20140709", True),
    ("http://arabic.reuters.com/article/topNews/idARACAE12345620110315", True),
    (f"{LIVE}/article/businessNews/idUSKBN0FE2AL20140709", False),  # English id
    (f"{LIVE}/news/archive/topNews", False), (f"{LIVE}/article/topNews", False),
])
def test_article_rule(url, is_article):
    p = load_profile("reuters_arabic")
    assert (p.article_rule(p.canonicalize(url)) is not None) is is_article


def test_article_page_date_from_revision_date():
    spider = make_spider(ReutersArabicSpider)
    (item,) = parse(spider, "reuters_arabic", "/article/businessNews/idARAKBN0FE2AL20140709")
    assert item["title"] == "أسعار النفط تتراجع مع زيادة المخزونات الأمريكية"
    assert item["published_raw"] == "Wed Jul 09 08:12:34 UTC 2014"
    assert item["published"] == "2014-07-09T08:12:34+00:00"


def test_video_page_is_not_an_article():
    spider = make_spider(ReutersArabicSpider)
    assert statuses(parse(spider, "reuters_arabic", "/article/videoNews/idARAKBN0FE40V20140710")) == ["not_article"]
