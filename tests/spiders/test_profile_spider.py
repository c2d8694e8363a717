"""ProfileSpider and site profiles, unit level: URL identity, routing, page evidence, metadata."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import scrapy
from scrapy.http import HtmlResponse, Request, XmlResponse

from mcecrawl.profile import ARTICLE, NO_SIGNAL, NOT_ARTICLE, PROFILES_DIR, load_profile, validate_profile
from mcecrawl.spiders.bbc import BBCPersianSpider
from mcecrawl.spiders.evidence import iso_date, page_evidence

BBC = load_profile("bbc_persian")


@pytest.mark.parametrize("path", sorted(PROFILES_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_every_shipped_profile_validates(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    validate_profile(data)
    assert data["name"] == path.stem


def test_invalid_profile_is_reported():
    with pytest.raises(ValueError, match="articles"):
        validate_profile({"name": "x", "site": "x", "lang": "fa", "live_hosts": ["x"], "entry_points": {}})


# Live URLs as strings to canonicalise: nothing is fetched (tests/conftest.py refuses live hosts).
@pytest.mark.parametrize("url,canonical", [
    ("https://www.bbc.com/persian/articles/c4vlle3q337o.amp", "https://www.bbc.com/persian/articles/c4vlle3q337o"),
    ("https://www.bbc.co.uk/persian/articles/amp/c4vlle3q337o", "https://www.bbc.com/persian/articles/c4vlle3q337o"),
    ("http://bbc.com/persian/articles/c4vlle3q337o.lite/", "https://www.bbc.com/persian/articles/c4vlle3q337o"),
    ("https://www.bbc.com/persian/articles/c4vlle3q337o?at_medium=RSS&at_campaign=rss#x",
     "https://www.bbc.com/persian/articles/c4vlle3q337o"),
    ("https://feeds.bbci.co.uk/persian/iran-55117881", "https://www.bbc.com/persian/iran-55117881"),
    ("https://www.bbc.co.uk/persian/iran/2009/09/090920_bd_pp_ir88_timeline.shtml",
     "https://www.bbc.com/persian/iran/2009/09/090920_bd_pp_ir88_timeline"),
    ("https://www.bbc.com/persian/topics/ckdxnwvwwjnt?page=3&utm_source=x",
     "https://www.bbc.com/persian/topics/ckdxnwvwwjnt?page=3"),
])
def test_canonicalisation_folds_variants(url, canonical):
    assert BBC.canonicalize(url) == canonical


@pytest.mark.parametrize("url,evidence", [
    ("https://www.bbc.com/persian/articles/c4vlle3q337o", "unambiguous"),
    ("https://www.bbc.com/persian/iran-55117881", "required"),
    ("https://www.bbc.com/persian/media-49522521", "required"),
    ("https://www.bbc.com/persian/iran/2009/09/090920_bd_pp_ir88_timeline", "veto"),
    ("https://www.bbc.com/persian/live/cmd797py92ret", None),
    ("https://www.bbc.com/persian/topics/ckdxnwvwwjnt", None),
    ("https://www.bbc.com/urdu/articles/c4vlle3q337o", None),
    ("https://www.bbc.com/persian", None),
])
def test_article_rules(url, evidence):
    rule = BBC.article_rule(url)
    assert (rule.evidence if rule else None) == evidence


def test_permission_matching():
    assert BBC.permission_granted(["bbc.com"]) and BBC.permission_granted(["bbc_persian"])
    assert BBC.permission_granted([" www.bbc.co.uk "])
    assert not BBC.permission_granted(["notbbc.com", "", "bbc"])


def _sel(html):
    return scrapy.Selector(text=html, type="html")


NEXT_DATA = ('<script id="__NEXT_DATA__" type="application/json">'
             '{"props":{"pageProps":{"pageData":{"metadata":{"type":"%s"}}}}}</script>')
OG = '<meta property="og:type" content="%s">'


def _ld(*nodes):
    return '<script type="application/ld+json">%s</script>' % json.dumps(
        {"@context": "https://schema.org", "@graph": list(nodes)})


def test_page_evidence_site_page_type_decides_first():
    rules = BBC.evidence
    assert page_evidence(_sel(NEXT_DATA % "STY" + _ld({"@type": "WebPage"})), rules)[0] == ARTICLE
    assert page_evidence(_sel(NEXT_DATA % "MAP" + OG % "article"), rules)[0] == NOT_ARTICLE
    # Simorgh marks photo galleries "Article" in JSON-LD: the page type PGL still says no.
    assert page_evidence(_sel(NEXT_DATA % "PGL" + _ld({"@type": "Article"}) + OG % "article"), rules)[0] == NOT_ARTICLE
    # a page type the profile does not list is no signal: the generic evidence decides
    assert page_evidence(_sel(NEXT_DATA % "somethingNew" + OG % "article"), rules)[0] == ARTICLE
    assert page_evidence(_sel(NEXT_DATA % "somethingNew"), rules)[0] == NO_SIGNAL


@pytest.mark.parametrize("html,verdict", [
    # Article family anywhere wins, over any non-article type
    (_ld({"@type": "ReportageNewsArticle"}), ARTICLE),
    (_ld({"@type": "BlogPosting"}), ARTICLE),
    (_ld({"@type": "WebPage", "mainEntity": {"@type": "NewsArticle"}}), ARTICLE),
    (_ld({"@type": "VideoObject", "mainEntityOfPage": "x"}, {"@type": "NewsArticle"}), ARTICLE),
    (OG % "article" + _ld({"@type": "VideoObject"}), ARTICLE),
    (OG % "video.other" + _ld({"@type": ["Thing", "Report"]}), ARTICLE),
    # weak signals are no signal
    (OG % "website", NO_SIGNAL),
    (OG % "text/html", NO_SIGNAL),
    (_ld({"@type": "BreadcrumbList"}), NO_SIGNAL),
    (_ld({"@type": "WebPage"}, {"@type": "WebSite", "potentialAction": {"@type": "SearchAction"}},
         {"@type": "Organization"}), NO_SIGNAL),
    ("<p>nothing</p>", NO_SIGNAL),
    # an explicit non-article type vetoes only as the main entity
    (_ld({"@type": "VideoObject"}), NOT_ARTICLE),
    (_ld({"@type": "WebPage", "@id": "#p", "mainEntity": {"@id": "#v"}}, {"@type": "VideoObject", "@id": "#v"},
         {"@type": "Organization"}), NOT_ARTICLE),
    (_ld({"@type": "CollectionPage"}, {"@type": "Organization"}), NOT_ARTICLE),
    (_ld({"@type": "ProfilePage"}), NOT_ARTICLE),
    (_ld({"@type": "WebPage"}, {"@type": "ItemList", "itemListElement": [{"@type": "NewsArticle"}]}), NOT_ARTICLE),
    (_ld({"@type": "WebPage", "video": {"@type": "VideoObject"}}), NO_SIGNAL),  # nested: not the page
    (_ld({"@type": "VideoObject"}, {"@type": "ImageGallery", "mainEntityOfPage": "x"}), NOT_ARTICLE),
    (_ld({"@type": "VideoObject"}, {"@type": "AudioObject"}), NO_SIGNAL),  # two candidates: no main entity
    (OG % "video.other", NOT_ARTICLE),
    (OG % "video", NOT_ARTICLE),
    (OG % "music.song", NOT_ARTICLE),
    (OG % "profile", NOT_ARTICLE),
])
def test_page_evidence_generic_rules(html, verdict):
    assert page_evidence(_sel(html), {})[0] == verdict


def test_page_evidence_profile_adds_types():
    assert page_evidence(_sel(OG % "gallery"), {"not_og_types": ["gallery"]})[0] == NOT_ARTICLE
    assert page_evidence(_sel(OG % "gallery"), {})[0] == NO_SIGNAL
    assert page_evidence(_sel(OG % "story"), {"og_types": ["story"]})[0] == ARTICLE
    assert page_evidence(_sel(_ld({"@type": "Recipe"})), {"not_jsonld_types": ["Recipe"]})[0] == NOT_ARTICLE


def test_page_evidence_keeps_every_real_article_page(shared_data):
    """None of the real article pages of ../shared/data/r2l is judged not an article, whatever weak
    types it carries (og:type website, BreadcrumbList only, WebPage next to NewsArticle)."""
    from mcecrawl.encoding import decode

    pages = sorted((shared_data / "r2l" / "pages").glob("*.html"))
    assert pages
    for path in pages:
        text = decode(path.read_bytes()).text
        for profile in ("bbc_persian", "hamshahri", "jamejam", "ahram", "reuters_arabic", "fawiki"):
            verdict, why = page_evidence(_sel(text), load_profile(profile).evidence, text=text)
            assert verdict != NOT_ARTICLE, (path.name, profile, why)


@pytest.mark.parametrize("raw,iso", [
    ("2020-11-29T11:57:59Z", "2020-11-29T11:57:59+00:00"), ("2026-03-14", "2026-03-14"),
    ("Sat, 14 Mar 2026 09:30:00 GMT", "2026-03-14T09:30:00+00:00"),
    ("۱۴۰۴/۱۲/۲۳ - ۱۲:۳۰", None), ("", None), (None, None),
])
def test_iso_date(raw, iso):
    assert iso_date(raw) == iso


def _spider(**kw):
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(BBCPersianSpider)
    spider = BBCPersianSpider.from_crawler(crawler, **kw)

    class Stats(dict):
        def inc_value(self, k, n=1):
            self[k] = self.get(k, 0) + n

    crawler.stats = Stats()
    return spider


def test_base_url_mapping_round_trip():
    spider = _spider(base_url="http://127.0.0.1:9999/")
    assert spider.to_fetch("https://www.bbc.com/persian/articles/c4vlle3q337o") == \
        "http://127.0.0.1:9999/persian/articles/c4vlle3q337o"
    assert spider.to_fetch("https://feeds.bbci.co.uk/persian/rss.xml") == "http://127.0.0.1:9999/persian/rss.xml"
    assert spider.to_live("http://127.0.0.1:9999/persian?x=1") == "https://www.bbc.com/persian?x=1"
    assert spider.to_fetch("https://example.org/a") == "https://example.org/a"
    assert not spider.crawling_live_host()
    assert _spider().crawling_live_host()


def test_consider_dedupes_variants_and_applies_since():
    spider = _spider(base_url="http://127.0.0.1:9999", since="2026-03-01")
    urls = ["/persian/articles/c4vlle3q337o", "/persian/articles/c4vlle3q337o.amp",
            "https://www.bbc.com/persian/articles/c4vlle3q337o?at_medium=RSS", "https://elsewhere.example/x",
            "/persian/live/cmd797py92ret", "javascript:void(0)"]
    reqs = [r for u in urls for r in spider.consider(u, "http://127.0.0.1:9999/persian")]
    assert [r.url for r in reqs] == ["http://127.0.0.1:9999/persian/articles/c4vlle3q337o"]
    old = list(spider.consider("/persian/articles/c2e8pqg7r0ko", "http://127.0.0.1:9999/", listed_date="2025-12-31"))
    assert old == []


_STORY = ('<html><head><meta charset="windows-1256"><title>خبر</title>'
          '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "خبر"}</script></head>'
          '<body><article><h1>خبر</h1><p>متن خبر تازه.</p></article></body></html>')


def _article_response(spider, url, requested):
    canon = spider.profile.canonicalize(requested)
    return HtmlResponse(url, body=_STORY.encode("cp1256"), headers={"Content-Type": "text/html"},
                        request=Request(url, meta={"mce_canonical": canon, "mce_evidence": "unambiguous"}))


def test_an_article_reached_twice_is_written_once():
    """Two requested URLs redirected to one canonical article: the spider, the one home of URL
    de-duplication, writes the first and counts the second."""
    spider = _spider(base_url="http://127.0.0.1:9999")
    first = list(spider.parse_article(_article_response(
        spider, "http://127.0.0.1:9999/persian/articles/c4vlle3q337o", "https://www.bbc.com/persian/articles/c4vlle3q337o")))
    again = list(spider.parse_article(_article_response(
        spider, "http://127.0.0.1:9999/persian/articles/c4vlle3q337o", "https://www.bbc.com/persian/articles/c0000000000o")))
    assert len(first) == 1 and again == []
    assert spider.crawler.stats["mcecrawl/duplicate_url"] == 1


def test_item_page_is_utf8_bytes_without_the_encoding_middleware():
    spider = _spider(base_url="http://127.0.0.1:9999")
    item = next(spider.parse_article(_article_response(
        spider, "http://127.0.0.1:9999/persian/articles/c4vlle3q337o", "https://www.bbc.com/persian/articles/c4vlle3q337o")))
    assert isinstance(item["html"], bytes) and "متن خبر تازه".encode() in item["html"]
    assert item["encoding_original"] == "cp1256"


def test_news_sitemap_language_filter():
    spider = _spider(base_url="http://127.0.0.1:9999")
    sitemaps = Path(__file__).resolve().parents[2] / "mcecrawl/demo/sites/bbc_persian/sitemaps"
    body = (sitemaps / "https-sitemap-com-news-2.xml").read_bytes()
    resp = XmlResponse("http://127.0.0.1:9999/sitemaps/https-sitemap-com-news-2.xml", body=body)
    urls = [r.url for r in spider.parse_sitemap(resp)]
    assert urls and all("/persian/" in u for u in urls)


def test_real_bbc_news_sitemap_yields_only_this_service(shared_data):
    """The saved real news sitemap (Dec 2020) mixes services: keep the Persian CPS entries only."""
    path = shared_data / "sites" / "bbc_worldservice" / "https-sitemap-com-news-2.xml"
    spider = _spider()
    resp = XmlResponse("https://www.bbc.com/sitemaps/https-sitemap-com-news-2.xml", body=path.read_bytes())
    reqs = list(spider.parse_sitemap(resp))
    assert len(reqs) == 20  # sites.md §12: 20 Persian entries
    assert all(r.url.startswith("https://www.bbc.com/persian/") for r in reqs)
    # all CPS-shaped in 2020: kept only if the fetched page says it is a story
    assert all(r.meta["mce_evidence"] == "required" for r in reqs)


def test_bbc_title_brand_suffix_removed():
    spider = _spider()
    sel = _sel("<title>خبر تازه - BBC News فارسی</title>")
    meta = spider.page_metadata(sel, lambda: sel)
    assert meta["title"] == "خبر تازه"


def test_live_crawl_with_permission_warns_about_the_contact_placeholder(caplog):
    """No request is sent: only the first start request is built."""
    import asyncio

    from scrapy.utils.test import get_crawler

    crawler = get_crawler(BBCPersianSpider, {"MCE_PERMISSION_GRANTED": "bbc.com",
                                             "USER_AGENT": "mcecrawl/0.1 (contact: CONTACT-NOT-SET)"})
    crawler.get_extension = lambda cls: None
    spider = BBCPersianSpider.from_crawler(crawler)
    first = asyncio.run(anext(spider.start()))
    assert first.url == "https://www.bbc.com/persian/sitemap.xml"
    assert "CONTACT-NOT-SET" in caplog.text and "terms forbid" in caplog.text


def test_politeness_of_a_profile_file_given_with_dash_a(tmp_path):
    from scrapy.crawler import Crawler
    from scrapy.settings import Settings

    from mcecrawl.spiders.base import ProfileSpider

    data = json.loads((PROFILES_DIR / "bbc_urdu.json").read_text(encoding="utf-8"))
    data["politeness"] = {"download_delay": 7.5, "concurrency": 3}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    crawler = Crawler(ProfileSpider, Settings({"DOWNLOAD_DELAY": 1.0}))  # settings not frozen yet
    ProfileSpider.from_crawler(crawler, profile=str(path))
    assert crawler.settings.getfloat("DOWNLOAD_DELAY") == 7.5
    assert crawler.settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN") == 3


def test_generic_spider_without_a_profile_says_how_to_give_one():
    from scrapy.utils.test import get_crawler

    from mcecrawl.spiders.base import ProfileSpider

    with pytest.raises(ValueError, match="-a profile="):
        ProfileSpider.from_crawler(get_crawler(ProfileSpider))


def test_profile_encoding_forces_the_sites_charset(tmp_path):
    """A profile's "encoding" becomes the spider's ``mce_encoding``, which the middleware obeys."""
    from scrapy.utils.test import get_crawler

    from mcecrawl.downloadermiddlewares import EncodingNormalizationMiddleware
    from mcecrawl.spiders.base import ProfileSpider

    data = json.loads((PROFILES_DIR / "ahram.json").read_text(encoding="utf-8"))
    data["encoding"] = "windows-1256"
    validate_profile(data)
    path = tmp_path / "forced.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    crawler = get_crawler(ProfileSpider)
    spider = ProfileSpider.from_crawler(crawler, profile=str(path))
    assert spider.mce_encoding == "windows-1256"
    crawler.spider = spider
    mw = EncodingNormalizationMiddleware.from_crawler(crawler)
    # The lying utf-8 header is not even consulted: the profile's charset decides (source "forced").
    body = "<html><body><p>مصر</p></body></html>".encode("cp1256")
    request = Request("https://gate.ahram.org.eg/News/1.aspx")
    response = HtmlResponse(request.url, body=body, headers={"Content-Type": "text/html; charset=utf-8"},
                            request=request)
    out = mw.process_response(request, response)
    assert "مصر" in out.text and out.meta["encoding_source"] == "forced"
    unforced = ProfileSpider.from_crawler(get_crawler(ProfileSpider), profile=str(PROFILES_DIR / "ahram.json"))
    assert unforced.mce_encoding is None


def test_jsonld_values_given_as_lists_are_read():
    """Real pages (readability_mozilla) give an author's name, or the headline, as a list."""
    spider = _spider()
    sel = _sel('<script type="application/ld+json">{"@type": "NewsArticle", "headline": ["خبر", "دیگر"], '
               '"author": [{"@type": "Person", "name": ["مریم", "علی"]}, "سارا", {"@type": "Organization", '
               '"name": "بی‌بی‌سی"}], "datePublished": "2026-03-02"}</script>')
    meta = spider.page_metadata(sel, lambda: sel)
    assert meta["title"] == "خبر" and meta["authors"] == ["مریم", "علی", "سارا"]
    assert meta["published"] == "2026-03-02"


def test_signal_elements_read_as_the_whole_page(shared_data):
    """Evidence and metadata from the page's signal elements equal those from a whole-page parse
    on every real page of the dev sets (six profiles' evidence rules, the generic metadata)."""
    from mcecrawl.evaluation.datasets import load_dataset
    from mcecrawl.spiders.base import ProfileSpider
    from mcecrawl.spiders.evidence import signals_selector

    spider = _spider()
    rules = [load_profile(name).evidence for name in ("hamshahri", "bbc_persian", "jamejam", "ahram",
                                                      "reuters_arabic", "fawiki")]
    pages = 0
    for ds in ("r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval"):
        for page in load_dataset(shared_data / ds).pages:
            whole, signals = _sel(page.text), signals_selector(page.text.encode("utf-8"))

            def facts(sel):
                return ([page_evidence(sel, r, text=page.text) for r in rules],
                        ProfileSpider.page_metadata(spider, sel, lambda: whole))

            assert facts(signals) == facts(whole), page.id
            pages += 1
    assert pages > 500


_PLAIN = ('<html><head><meta charset="utf-8"><title>خبر</title></head><body><article><h1>خبر</h1>'
          '<p>متن خبر تازه.</p></article></body></html>')


def _plain_response(url, evidence):
    return HtmlResponse(url, body=_PLAIN.encode(), headers={"Content-Type": "text/html"},
                        request=Request(url, meta={"mce_canonical": url.replace("http://127.0.0.1:9999",
                                                                                "https://www.bbc.com"),
                                                   "mce_evidence": evidence}))


def test_evidence_rule_lets_the_extraction_judge_a_page_without_markup():
    """``required`` writes a page without markup as not_article at once; ``evidence`` hands it to the
    extraction, whose own evidence (or page type) judges it; a page type other than article is never ok."""
    from itemadapter import ItemAdapter

    from mcecrawl.extraction import ExtractionOutcome

    url = "http://127.0.0.1:9999/persian/articles/c4vlle3q337o"
    spider = _spider(base_url="http://127.0.0.1:9999")
    (item,) = spider.parse_article(_plain_response(url, "required"))
    assert item["status"] == "not_article"
    spider = _spider(base_url="http://127.0.0.1:9999")
    (item,) = spider.parse_article(_plain_response(url, "evidence"))
    assert "status" not in item and item["html"]

    def judged(text, page_type=None):
        outcome = ExtractionOutcome(text, [], "ok", "", None, {}, 1.0, page_type=page_type)
        return spider.not_article_after_extraction(ItemAdapter({**item, "text": text}), outcome)

    spider._by_content[item["canonical_url"]] = (b"", ())
    assert judged("خبر") is not None  # a bare headline: too little text
    spider._by_content[item["canonical_url"]] = (b"", ())
    assert judged("خبر\n" + "متن خبر تازه که جمله‌ای کامل است. " * 3) is None  # a paragraph at an article rule
    spider._by_content[item["canonical_url"]] = (b"", ())
    assert judged("خبر\n" + "متن خبر. " * 100, "listing").startswith("page type listing")
    # Pages with markup: only the page type speaks.
    assert judged("خبر", "forum").startswith("page type forum") and judged("خبر") is None
