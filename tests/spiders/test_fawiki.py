"""Persian Wikipedia: MediaWiki URL identity, namespaces, disambiguation, titles (no crawl)."""
from __future__ import annotations

from urllib.parse import quote

import pytest
from scrapy.http import Request

from mcecrawl.profile import load_profile
from mcecrawl.spiders.fawiki import FawikiSpider, mediawiki_url
from sitetest_helpers import MIRROR, fixture_response, make_spider, parse, stat, statuses

LIVE = "https://fa.wikipedia.org"


def w(title: str) -> str:
    return f"{LIVE}/wiki/" + quote(title, safe=";:@$!*(),/~")


@pytest.mark.parametrize("url, folded", [
    (f"{LIVE}/w/index.php?title=%DA%A9%D8%A7%D8%AE_%DA%86%D9%87%D9%84%D8%B3%D8%AA%D9%88%D9%86&printable=yes",
     w("کاخ_چهلستون")),
    (f"{LIVE}/w/index.php?title=کاخ چهلستون&oldid=123", w("کاخ_چهلستون")),
    (f"{LIVE}/wiki/کاخ_چهلستون#تاریخچه", w("کاخ_چهلستون")),
    (f"{LIVE}/wiki/%D8%B3_%28x%29", w("س_(x)")),  # MediaWiki leaves ( ) unescaped
    (f"{LIVE}/w/index.php?title=رده:الف&pagefrom=میدان نقش جهان#mw-pages",
     w("رده:الف") + "?pagefrom=" + quote("میدان نقش جهان").replace("%20", "+")),
    (f"{LIVE}/w/index.php?title=کاخ&action=history", f"{LIVE}/w/index.php?title=کاخ&action=history"),
    (f"{LIVE}/w/index.php?title=کاخ&diff=1&oldid=2", f"{LIVE}/w/index.php?title=کاخ&diff=1&oldid=2"),
])
def test_mediawiki_url(url, folded):
    assert mediawiki_url(url) == folded


@pytest.mark.parametrize("title, is_article", [
    ("کاخ_چهلستون", True), ("استار_ترک:_نسل_بعد", True), ("بحث:سی‌وسه‌پل", False),
    ("ویژه:تغییرات_اخیر", False), ("رده:بناهای_دوره_صفوی", False), ("Talk:X", False),
    ("الگو:جعبه_اطلاعات", False), ("ویکی‌پدیا:درباره", False), ("صفحهٔ_اصلی", False),
])
def test_article_rule_keeps_the_main_namespace(title, is_article):
    p = load_profile("fawiki")
    assert (p.article_rule(p.canonicalize(w(title))) is not None) is is_article


def test_mobile_host_folds_onto_desktop():
    p = load_profile("fawiki")
    assert p.canonicalize("https://fa.m.wikipedia.org" + w("زاینده‌رود")[len(LIVE):]) == w("زاینده‌رود")


def test_category_next_page_requested_at_its_wiki_url():
    spider = make_spider(FawikiSpider)
    category = "/wiki/" + quote("رده:جاذبه‌های_گردشگری_اصفهان", safe=":")
    out = [r for r in spider.parse_listing(fixture_response("fawiki", category)) if isinstance(r, Request)]
    paths = {r.url[len(MIRROR):] for r in out}
    assert category + "?pagefrom=" + quote("میدان نقش جهان").replace("%20", "+") in paths
    assert not any(p.startswith("/w/") for p in paths), "index.php links must be folded (robots: Disallow /w/)"
    assert "/wiki/" + quote("سی‌وسه‌پل") in paths


def test_disambiguation_page_vetoed_and_title_from_first_heading():
    spider = make_spider(FawikiSpider)
    assert statuses(parse(spider, "fawiki", "/wiki/" + quote("چهلستون"))) == ["not_article"]
    assert stat(spider, "mcecrawl/not_article") == 1
    (item,) = parse(spider, "fawiki", "/wiki/" + quote("زاینده‌رود"))
    assert item["title"] == "زاینده‌رود"  # JSON-LD headline is the Wikidata description
    assert item["published_raw"] == "2004-06-02T17:44:51Z"
