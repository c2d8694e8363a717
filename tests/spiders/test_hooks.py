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
