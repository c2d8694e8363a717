"""Site-spider hooks get the whole page lazily (``page()``): a spider that does not override them
reads only the ``<head>`` of a Simorgh page; one that does gets one full parse, however often asked."""
from __future__ import annotations

import pytest
import scrapy

from mcecrawl.spiders.bbc import BBCPersianSpider
from sitetest_helpers import fixture_response, make_spider

PAGE = "/persian/iran-55117881"  # an article whose URL shape requires page evidence (the hooks run)


@pytest.fixture
def parsed_sizes(monkeypatch) -> list[int]:
    """Characters of markup handed to each scrapy.Selector the spider module builds."""
    sizes: list[int] = []
    real = scrapy.Selector

    class Counting(real):
        def __init__(self, *args, text=None, **kwargs):
            if text is not None:  # not the sub-selectors that .css() results are
                sizes.append(len(text))
            super().__init__(*args, text=text, **kwargs)

    monkeypatch.setattr(scrapy, "Selector", Counting)
    return sizes


def article(spider):
    response = fixture_response("bbc_persian", PAGE)
    items = list(spider.parse_article(response))
    assert [i.get("status") for i in items] == [None]  # an article, handed on to extraction
    return response, items[0]


def test_default_hooks_cost_no_full_parse(parsed_sizes):
    response, _ = article(make_spider(BBCPersianSpider))
    assert len(parsed_sizes) == 1 and parsed_sizes[0] < len(response.text) / 2  # <head> only


class HookedSpider(BBCPersianSpider):
    name = "bbc_persian_hooked"
    profile_name = "bbc_persian"

    def not_article_reason(self, page):
        assert page() is page()  # parsed once, then kept
        return None if page().css("main") else "no <main>"

    def extra_item_fields(self, response, page):
        return {"reason": f"{len(page().css('p'))} paragraphs"}


def test_overridden_hooks_share_one_full_parse(parsed_sizes):
    response, item = article(make_spider(HookedSpider))
    assert item["reason"].endswith(" paragraphs") and not item["reason"].startswith("0 ")
    assert len(parsed_sizes) == 2 and parsed_sizes[1] == len(response.text)  # <head>, then the page once


def test_page_signals_of_the_body_cost_no_full_parse(parsed_sizes):
    """A profile whose signals are not all in <head> (Hamshahri) reads its evidence and metadata
    from the page's signal elements, a few KB, not from a parse of the whole page."""
    from mcecrawl.spiders.hamshahri import HamshahriSpider

    response = fixture_response("hamshahri", "/news/1074101")
    (item,) = list(make_spider(HamshahriSpider).parse_article(response))
    assert item.get("status") is None and item["title"] and item["published"]
    assert len(parsed_sizes) == 1 and parsed_sizes[0] < len(response.text) / 4


def test_signal_elements_in_document_order_outside_comments_and_scripts():
    from mcecrawl.spiders.evidence import signal_elements

    page = ('<html><head><TITLE>عنوان</TITLE><!-- <meta property="og:type" content="video"> -->'
            '<script>var s = "<meta name=x content=y>";</script>'
            '<script type="application/ld+json">{"@type": "NewsArticle"}</script>'
            '<meta property="og:type" content="article"></head><body><nav>x</nav>'
            '<h1 class="t">سر<b>تیتر</b></h1><p>متن</p><time datetime="2026-03-02">۱۲ اسفند</time>'
            '<h1>unclosed<div>rest of the page</div></body></html>').encode("utf-8")
    assert signal_elements(page).decode() == (
        '<TITLE>عنوان</TITLE><script type="application/ld+json">{"@type": "NewsArticle"}</script>'
        '<meta property="og:type" content="article"><h1 class="t">سر<b>تیتر</b></h1>'
        '<time datetime="2026-03-02"><h1>unclosed')
