"""EncodingNormalizationMiddleware: unit behaviour and a real crawl against lying local servers."""
from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

from encoding_cases import heavy_page, legacy_bytes, small_page
from mcecrawl import settings as project_settings
from mcecrawl.downloadermiddlewares import META_KEYS, EncodingNormalizationMiddleware, rewrite_declarations
from pageserver import crawl_served_pages

ROOT = Path(__file__).resolve().parent.parent
MW = "mcecrawl.downloadermiddlewares.EncodingNormalizationMiddleware"


class _Spider(Spider):
    name = "enc"


def _mw(settings: dict | None = None, spider: Spider | None = None) -> EncodingNormalizationMiddleware:
    crawler = get_crawler(_Spider, settings or {})
    crawler.spider = spider or _Spider()
    crawler.stats.open_spider()
    return EncodingNormalizationMiddleware.from_crawler(crawler)


def _process(mw, body: bytes, content_type: str | None, cls=HtmlResponse, meta: dict | None = None):
    request = Request("http://127.0.0.1/a", meta=meta or {})
    headers = {"Content-Type": content_type} if content_type else {}
    response = cls("http://127.0.0.1/a", body=body, headers=headers, request=request)
    return request, response, mw.process_response(request, response)


def _stats(mw) -> dict:
    return mw.stats.get_stats()


def test_enabled_in_project_settings():
    assert project_settings.MCE_ENCODING_ENABLED is True
    order = project_settings.DOWNLOADER_MIDDLEWARES[MW]
    assert 580 < order < 590  # after HttpCompressionMiddleware, before MetaRefreshMiddleware


def test_disabled_raises_not_configured():
    crawler = get_crawler(_Spider, {"MCE_ENCODING_ENABLED": False})
    with pytest.raises(NotConfigured):
        EncodingNormalizationMiddleware.from_crawler(crawler)


def test_lying_header_windows_1256_page_becomes_utf8():
    mw = _mw()
    html = small_page("fa", "windows-1256")
    body = legacy_bytes(html, "cp1256")
    request, original, new = _process(mw, body, "text/html; charset=utf-8")
    assert new is not original and original.body == body  # replaced, never mutated
    assert new.headers[b"Content-Type"] == b"text/html; charset=utf-8"
    assert new.encoding == "utf-8"
    expected = body.decode("cp1256").replace('charset="windows-1256"', 'charset="utf-8"')
    assert new.body == expected.encode("utf-8") and new.text == expected
    assert new.css("p::text").get() == body.decode("cp1256").split("<p>")[1].split("</p>")[0]
    assert {k: request.meta[k] for k in META_KEYS} == {
        "encoding_original": "cp1256", "encoding_source": "meta", "encoding_declared_header": "utf-8",
        "encoding_declared_meta": "windows-1256", "encoding_replacements": 0}
    stats = _stats(mw)
    assert stats["mcecrawl/encoding/original/cp1256"] == 1 and stats["mcecrawl/encoding/source/meta"] == 1
    assert stats["mcecrawl/encoding/label_ignored/header"] == 1
    assert stats["mcecrawl/encoding/declarations_rewritten"] == 1


def test_utf8_page_with_latin1_header_keeps_its_bytes():
    mw = _mw()
    html = small_page("ar", "utf-8")
    _, original, new = _process(mw, html.encode("utf-8"), "text/html; charset=ISO-8859-1")
    assert new.body is original.body  # no re-encoding needed
    assert new.headers[b"Content-Type"] == b"text/html; charset=utf-8" and new.text == html


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "text/html; charset=UTF-8"])
def test_utf8_page_labelled_utf8_passes_as_it_is(content_type):
    """The common case costs one decode: no copy of the response, its text cached for the spider."""
    mw = _mw()
    html = small_page("ar", "utf-8")
    request, original, new = _process(mw, html.encode("utf-8"), content_type)
    assert new is original and new.encoding == "utf-8" and new.text == html
    assert new._cached_ubody is not None  # seeded: the spider's read does not decode again
    assert request.meta["encoding_original"] == "utf-8" and _stats(mw)["mcecrawl/encoding/responses"] == 1


def test_stale_meta_on_utf8_body_is_rewritten():
    mw = _mw()
    html = small_page("fa", "windows-1256")
    request, _, new = _process(mw, html.encode("utf-8"), "text/html")
    assert b'charset="utf-8"' in new.body and b"windows-1256" not in new.body
    assert request.meta["encoding_source"] == "utf-8"
    # anything re-parsing the bytes from scratch now agrees
    assert TextResponse("http://x", body=new.body).text == new.text == html.replace("windows-1256", "utf-8")


def test_xml_declaration_and_missing_content_type():
    mw = _mw()
    xml = '<?xml version="1.0" encoding="windows-1255"?>\n<rss><item><title>ראש העירייה הודיע</title></item></rss>'
    _, _, new = _process(mw, xml.encode("cp1255"), None, cls=XmlResponse)
    assert new.headers[b"Content-Type"] == b"text/xml; charset=utf-8"
    assert new.body == xml.replace("windows-1255", "utf-8").encode("utf-8")


def test_bom_is_dropped_and_utf16_reencoded():
    mw = _mw()
    html = small_page("ar")
    for body in (b"\xef\xbb\xbf" + html.encode("utf-8"), html.encode("utf-16")):
        request, _, new = _process(mw, body, "text/html; charset=utf-8")
        assert new.body == html.encode("utf-8") and request.meta["encoding_source"] == "bom"
    assert _stats(mw)["mcecrawl/encoding/label_ignored/header"] == 1  # the UTF-16 one only


def test_non_text_passes_through_untouched_and_counted():
    mw = _mw()
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    for cls, ctype in ((Response, "image/png"), (Response, "application/pdf")):
        request, original, new = _process(mw, png, ctype, cls=cls)
        assert new is original and not any(k in request.meta for k in META_KEYS)
    assert _stats(mw)["mcecrawl/encoding/non_text"] == 2 and "mcecrawl/encoding/responses" not in _stats(mw)


def test_forced_encoding_meta_spider_and_setting():
    body = small_page("ar").encode("utf-8")
    request, _, new = _process(_mw(), body, "text/html", meta={"mce_encoding": "windows-1256"})
    assert (request.meta["encoding_original"], request.meta["encoding_source"]) == ("cp1256", "forced")
    spider = _Spider()
    spider.mce_encoding = "iso-8859-6"
    request, _, _ = _process(_mw(spider=spider), body, "text/html")
    assert request.meta["encoding_original"] == "iso8859-6"
    request, _, _ = _process(_mw({"MCE_ENCODING_FORCE": "windows-1255"}), body, "text/html")
    assert request.meta["encoding_original"] == "cp1255"
    # the request meta is the most specific and wins over the spider attribute
    request, _, _ = _process(_mw(spider=spider), body, "text/html", meta={"mce_encoding": "utf-8"})
    assert request.meta["encoding_original"] == "utf-8"


def test_unknown_forced_encoding_is_ignored_with_a_warning(caplog):
    body = small_page("ar").encode("utf-8")
    with caplog.at_level(logging.WARNING, logger="mcecrawl.downloadermiddlewares"):
        request, _, _ = _process(_mw(), body, "text/html", meta={"mce_encoding": "no-such"})
    assert request.meta["encoding_source"] == "utf-8" and "no-such" in caplog.text


def test_one_warning_per_response_with_replacements(caplog):
    mw = _mw()
    body = b"<html><p>" + b"\x81\x8d\x8f abc " * 5 + b"</p></html>"
    with caplog.at_level(logging.WARNING, logger="mcecrawl.downloadermiddlewares"):
        request, _, new = _process(mw, body, "text/html", meta={"mce_encoding": "iso-8859-1"})
        _process(mw, b"<p>plain</p>", "text/html")
    assert request.meta["encoding_replacements"] == 15
    warnings = [r for r in caplog.records if r.name == "mcecrawl.downloadermiddlewares"]
    assert len(warnings) == 1 and "15 replacement" in warnings[0].getMessage()
    stats = _stats(mw)
    assert stats["mcecrawl/encoding/replacements"] == 15
    assert stats["mcecrawl/encoding/responses_with_replacements"] == 1
    assert new.body.decode("utf-8").count("\ufffd") == 15


def test_rewrite_declarations_only_touches_the_head():
    text = '<head><meta charset="windows-1256"></head><body><pre>&lt;meta charset="x"&gt; <meta charset=x></pre>'
    new, n = rewrite_declarations(text)
    assert n == 1 and new == text.replace("windows-1256", "utf-8", 1)
    assert rewrite_declarations("<p>no head</p>") == ("<p>no head</p>", 0)


# --- a real crawl against a local server with lying headers ------------------------------------

_FA = small_page("fa", "windows-1256")
_AR_HEAVY = heavy_page("ar")
PAGES = {
    # path: (Content-Type header, body, expected decoded text or None for binary, gzip?)
    "/s1": ("text/html; charset=ISO-8859-1", small_page("fa", "utf-8").encode("utf-8"), False),
    "/s2": ("text/html; charset=utf-8", legacy_bytes(_FA, "cp1256"), False),
    "/s3": ("text/html", _FA.encode("utf-8"), False),
    "/s4": ("text/html", legacy_bytes(_AR_HEAVY, "cp1256"), True),
    "/iso": ("text/html; charset=windows-1256", legacy_bytes(small_page("ar"), "iso8859-6"), False),
    "/he": ("text/html; charset=utf-8", small_page("he").encode("cp1255"), False),
    "/forced": ("text/html", small_page("ur").encode("utf-8"), False),
    "/logo.png": ("image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, False),
}
EXPECTED = {  # path: (text of the first <p>, encoding_original, encoding_source)
    "/s1": (small_page("fa").split("<p>")[1].split("</p>")[0], "utf-8", "utf-8"),
    "/s2": (legacy_bytes(_FA, "cp1256").decode("cp1256").split("<p>")[1].split("</p>")[0], "cp1256", "meta"),
    "/s3": (_FA.split("<p>")[1].split("</p>")[0], "utf-8", "utf-8"),
    "/s4": (legacy_bytes(_AR_HEAVY, "cp1256").decode("cp1256").split("<p>")[1].split("</p>")[0], "cp1256", "r2l"),
    "/iso": (legacy_bytes(small_page("ar"), "iso8859-6").decode("iso8859-6").split("<p>")[1].split("</p>")[0],
             "iso8859-6", "r2l"),
    "/he": (small_page("he").split("<p>")[1].split("</p>")[0], "iso8859-8", "r2l"),
    "/forced": (small_page("ur").encode("utf-8").decode("cp1256").split("<p>")[1].split("</p>")[0], "cp1256",
                "forced"),
}


CRAWL_SCRIPT = textwrap.dedent("""
    import json, sys
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings
    from mcecrawl import settings as project

    base, out = sys.argv[1], sys.argv[2]
    KEYS = ("encoding_original", "encoding_source", "encoding_declared_header", "encoding_declared_meta",
            "encoding_replacements")

    class LyingSpider(scrapy.Spider):
        name = "lying"

        async def start(self):
            for path in ("/s1", "/s2", "/s3", "/s4", "/iso", "/he", "/logo.png"):
                yield scrapy.Request(base + path)
            yield scrapy.Request(base + "/forced", meta={"mce_encoding": "windows-1256"})

        def parse(self, response):
            item = {"path": response.url[len(base):], "text_response": isinstance(response, scrapy.http.TextResponse)}
            if item["text_response"]:
                item.update(p=response.css("p::text").get(), content_type=response.headers.get("Content-Type").decode(),
                            utf8_body=response.body.decode("utf-8") == response.text)
            item.update({k: response.meta.get(k) for k in KEYS})
            yield item

    settings = Settings()
    settings.setdict({"DOWNLOADER_MIDDLEWARES": {
        "mcecrawl.downloadermiddlewares.EncodingNormalizationMiddleware":
            project.DOWNLOADER_MIDDLEWARES["mcecrawl.downloadermiddlewares.EncodingNormalizationMiddleware"]},
        "MCE_ENCODING_ENABLED": project.MCE_ENCODING_ENABLED, "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False, "LOG_LEVEL": "WARNING",
        "FEEDS": {out + "/items.jsonl": {"format": "jsonlines", "encoding": "utf-8"}}})
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(LyingSpider)
    process.crawl(crawler)
    process.start()
    with open(out + "/stats.json", "w") as f:
        json.dump(crawler.stats.get_stats(), f, default=str)
""")


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    items, stats, _ = crawl_served_pages(PAGES, CRAWL_SCRIPT, tmp_path_factory.mktemp("crawl"))
    return {item["path"]: item for item in items}, stats


@pytest.mark.parametrize("path", sorted(EXPECTED))
def test_crawl_decodes_lying_pages(crawl, path):
    items, _ = crawl
    item = items[path]
    assert (item["p"], item["encoding_original"], item["encoding_source"]) == EXPECTED[path]
    assert item["content_type"].endswith("charset=utf-8") and item["utf8_body"]
    assert item["encoding_replacements"] == 0


def test_crawl_passes_binary_through_and_counts(crawl):
    items, stats = crawl
    assert items["/logo.png"]["text_response"] is False and items["/logo.png"]["encoding_original"] is None
    assert stats["mcecrawl/encoding/non_text"] == 1
    assert stats["mcecrawl/encoding/responses"] == len(EXPECTED)
    assert stats["mcecrawl/encoding/source/r2l"] == 3 and stats["mcecrawl/encoding/original/cp1256"] == 3
    assert stats["mcecrawl/encoding/label_ignored/header"] == 4  # s1, s2, iso, he
