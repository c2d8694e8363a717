"""German Embassy Tehran (AA CMS): title, meta date, hub veto and URL rules (no crawl)."""
from __future__ import annotations

import pytest

from mcecrawl.profile import load_profile
from mcecrawl.spiders.diplo_tehran import DiploTehranSpider, parse_meta_date
from sitetest_helpers import make_spider, parse, stat, statuses

LIVE = "https://teheran.diplo.de"


@pytest.mark.parametrize("raw, expected", [
    ("10.03.2026 - خبر", ("10.03.2026", "2026-03-10")),
    (" 1.2.2025 - Artikel", ("1.2.2025", "2025-02-01")),
    ("31.02.2026 - خبر", ("31.02.2026", None)),  # not a date: raw kept, no ISO invented
    ("مقاله", (None, None)), (None, (None, None)),
])
def test_parse_meta_date(raw, expected):
    assert parse_meta_date(raw) == expected


@pytest.mark.parametrize("url, is_article", [
    (f"{LIVE}/ir-fa/service/visa-einreise/-/2074660", True),
    (f"{LIVE}/ir-fa/aktuelles/-/2711040", True),
    (f"{LIVE}/ir-fa/service/-/2211286", True),  # URL-wise; the page itself is vetoed
    (f"{LIVE}/ir-de/service/visa-einreise/-/2074660", False),
    (f"{LIVE}/ir-fa/service", False), (f"{LIVE}/ir-fa/kontaktformular", False),
    (f"{LIVE}/ir-fa/service/kontaktformular/-/2074999", False),
    (f"{LIVE}/blob/2074660/merkblatt.pdf", False),
])
def test_article_rule(url, is_article):
    p = load_profile("diplo_tehran")
    assert (p.article_rule(p.canonicalize(url)) is not None) is is_article


def test_accordion_state_dropped():
    p = load_profile("diplo_tehran")
    url = f"{LIVE}/ir-fa/service/visa-einreise/-/2074660?openAccordionId=item-2074664-0-panel"
    assert p.canonicalize(url) == f"{LIVE}/ir-fa/service/visa-einreise/-/2074660"
    assert p.canonicalize(f"{LIVE}/ir-fa/service?offset=10") == f"{LIVE}/ir-fa/service?offset=10"


def test_title_and_date_from_the_heading():
    spider = make_spider(DiploTehranSpider)
    (item,) = parse(spider, "diplo_tehran", "/ir-fa/aktuelles/-/2711040")
    assert item["title"] == "ساعات کاری بخش کنسولی در تعطیلات نوروز"  # not the screen-reader H1s
    assert (item["published_raw"], item["published"]) == ("10.03.2026", "2026-03-10")
    (item,) = parse(spider, "diplo_tehran", "/ir-fa/service/visa-einreise/-/2074660")
    assert item["published"] is None and item["published_raw"] is None


def test_link_list_hub_is_not_an_article():
    spider = make_spider(DiploTehranSpider)
    assert statuses(parse(spider, "diplo_tehran", "/ir-fa/service/-/2211286")) == ["not_article"]
    assert stat(spider, "mcecrawl/not_article") == 1
