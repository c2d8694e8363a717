"""Al-Ahram (gate) profile rules and page handling, on the bundled fixture pages (no crawl)."""
from __future__ import annotations

import pytest
from scrapy.http import Request

from mcecrawl.profile import load_profile
from mcecrawl.spiders.ahram import AhramSpider
from sitetest_helpers import MIRROR, fixture_response, make_spider, parse, statuses

LIVE = "https://gate.ahram.org.eg"


@pytest.fixture
def spider():
    return make_spider(AhramSpider)


@pytest.mark.parametrize("url, canonical", [
    (f"{LIVE}/NewsPrint/5801002.aspx", f"{LIVE}/News/5801002.aspx"),
    (f"{LIVE}/NewsAmp/5801004.aspx", f"{LIVE}/News/5801004.aspx"),
    (f"{LIVE}/News/5801003.aspx?utm_source=facebook&utm_medium=social", f"{LIVE}/News/5801003.aspx"),
    ("http://gate.ahram.org.eg/Portal/13/0.aspx?PageID=2&x=1", f"{LIVE}/Portal/13/0.aspx?PageID=2"),
])
def test_canonical_urls(url, canonical):
    assert load_profile("ahram").canonicalize(url) == canonical


@pytest.mark.parametrize("url, is_article", [
    (f"{LIVE}/News/5801001.aspx", True), (f"{LIVE}/Portal/13/0.aspx", False),
    (f"{LIVE}/Search/x.aspx?StartRowIndex=20", False), (f"{LIVE}/Media/News/2026/3/1/1.jpg", False),
])
def test_article_rule(url, is_article):
    p = load_profile("ahram")
    assert (p.article_rule(p.canonicalize(url)) is not None) is is_article


def test_listing_links_resolve_against_base_href(spider):
    """Portal pages link ``News/<id>.aspx`` relative to ``<base href="https://gate.ahram.org.eg/">``."""
    requests = [r for r in spider.parse_listing(fixture_response("ahram", "/Portal/13/0.aspx?PageID=1"))
                if isinstance(r, Request)]
    paths = {r.url[len(MIRROR):] for r in requests}
    assert "/News/5801001.aspx" in paths and "/News/5801002.aspx" in paths  # the second via NewsPrint
    assert "/Portal/13/0.aspx?PageID=2" in paths
    assert not any(p.startswith("/Portal/13/News") for p in paths)


def test_windows_1256_page_behind_a_lying_header_decodes(spider):
    response = fixture_response("ahram", "/News/5801001.aspx")
    assert response.headers[b"Content-Type"] == b"text/html; charset=utf-8"
    with pytest.raises(UnicodeDecodeError):
        response.body.decode("utf-8")
    (item,) = parse(spider, "ahram", "/News/5801001.aspx")
    assert item["title"] == "افتتاح محطة جديدة لتحلية مياه البحر في مرسى مطروح"
    assert item["encoding_original"] in ("cp1256", "windows-1256")
    assert item["encoding_declared_header"] == "utf-8" and item["encoding_replacements"] == 0
    assert "محافظ مطروح".encode() in item["html"]  # the page as UTF-8 bytes
    assert item["published"] == "2026-03-02T10:15:00+02:00"


def test_photo_album_is_not_an_article(spider):
    assert statuses(parse(spider, "ahram", "/News/5801050.aspx")) == ["not_article"]
