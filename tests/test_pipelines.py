"""ExtractionPipeline and the safe JSON-lines exporter, without a crawl."""
from __future__ import annotations

import asyncio
import io
import json
from collections import Counter

import pytest

from mcecrawl.exporters import AcceptedItems, RejectedItems, SafeJsonLinesItemExporter, dumps_line, sanitize
from mcecrawl.items import SCHEMA_VERSION, ArticleItem
from mcecrawl.pipelines import ExtractionPipeline

PERSIAN = "این متن نسبتاً بلندی است که می‌خواهیم استخراج‌گر آن را به عنوان متن اصلی صفحه پیدا کند. " * 6
PAGE = (f'<html lang="fa" dir="rtl"><head><meta charset="utf-8"><title>عنوان</title></head><body>'
        f'<nav><a href="/">خانه</a></nav><main><h1>عنوان</h1><p>{PERSIAN}</p><p>{PERSIAN}</p></main>'
        f"<footer>©</footer></body></html>")


class _Stats(Counter):
    def inc_value(self, key, count=1, start=0):
        self[key] += count


class _Crawler:
    def __init__(self, workers=0):
        from scrapy.settings import Settings

        self.stats = _Stats()
        self.settings = Settings({"MCE_EXTRACTION_WORKERS": workers})

    def get_extension(self, cls):
        return None


def _item(**kw):
    base = dict(url="https://x.example/a/1", canonical_url="https://x.example/a/1", site="x", lang="fa",
                title=None, published=None, published_raw=None, authors=[], html=PAGE,
                algorithm="xpath_blocks", params={}, schema_version=SCHEMA_VERSION)
    base.update(kw)
    return ArticleItem(**base)


class _Sync:
    """Drive the async ``process_item`` outside a reactor."""

    def __init__(self, pipeline):
        self.pipeline = pipeline
        self.stats = pipeline.stats

    def process_item(self, item):
        return asyncio.run(self.pipeline.process_item(item))


@pytest.fixture
def pipeline():
    return _Sync(ExtractionPipeline.from_crawler(_Crawler()))


def test_worker_process_gives_the_same_result():
    inline = _Sync(ExtractionPipeline.from_crawler(_Crawler()))
    pooled = ExtractionPipeline.from_crawler(_Crawler(workers=1))

    async def run_pooled():
        await pooled.open_spider()
        try:
            return [await pooled.process_item(_item(canonical_url=f"https://x.example/a/{i}", html=h))
                    for i, h in enumerate([PAGE, PAGE.encode("utf-8")])]
        finally:
            await pooled.close_spider()

    a = inline.process_item(_item())
    for b in asyncio.run(run_pooled()):  # str and UTF-8 bytes give the same result
        assert (a["text"], a["paragraphs"], a["status"]) == (b["text"], b["paragraphs"], b["status"])


def test_dead_worker_falls_back_to_in_process_extraction():
    pooled = ExtractionPipeline.from_crawler(_Crawler(workers=1))

    async def run():
        await pooled.open_spider()
        pooled._pool._procs[0].kill()
        await pooled._pool._procs[0].wait()
        item = await pooled.process_item(_item())
        await pooled.close_spider()
        return item

    item = asyncio.run(run())
    assert item["status"] == "ok" and pooled.stats["mcecrawl/extraction/worker_died"] == 1


def test_ok_item_gets_content_fields_and_loses_html(pipeline):
    item = pipeline.process_item(_item())
    assert item["status"] == "ok" and isinstance(item["reason"], str)
    assert "\u200c" in item["text"] and PERSIAN.strip()[:40] in item["text"]
    assert item["paragraphs"] and "html" not in item
    assert len(item["content_sha1"]) == 40 and item["extraction_ms"] >= 0
    assert item["title"] == "عنوان"  # from the extractor when the page metadata had none
    assert pipeline.stats["mcecrawl/items/status/ok"] == 1


def test_empty_page_written_with_status_not_dropped(pipeline):
    item = pipeline.process_item(_item(html="<html><body><script>var a=1;</script></body></html>"))
    assert item["status"] == "empty" and item["reason"]
    assert item["text"] == "" and item["content_sha1"] is None
    assert pipeline.stats["mcecrawl/items/status/empty"] == 1


def test_misconfigured_algorithm_is_an_error_status(pipeline):
    item = pipeline.process_item(_item(algorithm="no_such_algorithm"))
    assert item["status"] == "error" and "configuration" in item["reason"]


def test_blocked_item_is_not_extracted(pipeline):
    item = pipeline.process_item(_item(status="blocked", reason="anti-bot challenge page", html=PAGE))
    assert item["status"] == "blocked" and item["text"] == "" and item["paragraphs"] == []


def test_not_article_item_is_not_extracted(pipeline):
    item = pipeline.process_item(_item(status="not_article", reason="not an article: og:type 'video.other'", html=PAGE))
    assert item["status"] == "not_article" and item["text"] == "" and item["reason"].endswith("'video.other'")
    assert pipeline.stats["mcecrawl/items/status/not_article"] == 1


def test_pages_as_str_and_as_utf8_bytes_give_the_same_item(pipeline):
    as_str = pipeline.process_item(_item(html=PAGE))
    as_bytes = pipeline.process_item(_item(html=PAGE.encode("utf-8")))
    assert as_bytes["text"] == as_str["text"] and as_bytes["status"] == "ok"


def test_sanitize_drops_surrogates_and_controls_keeps_text():
    assert sanitize("a\ud800b\x00c\x07d\te\nf\u200cg") == "abcd\te\nf\u200cg"
    assert sanitize({"k": ["\udfff", 1, None]}) == {"k": ["", 1, None]}


def test_line_breaking_characters_escaped_one_record_per_line():
    line = dumps_line({"text": "a\u2028b\u2029c\u0085d", "fa": "سلام"})
    assert line.endswith("\n") and len(line.splitlines()) == 1
    assert json.loads(line) == {"text": "a\u2028b\u2029c\u0085d", "fa": "سلام"}
    assert "سلام" in line  # UTF-8, not \\u escapes


def test_exporter_never_raises_on_lone_surrogates_and_flushes_each_line():
    class Spy(io.BytesIO):
        flushes = 0

        def flush(self):
            Spy.flushes += 1

    buf = Spy()
    exporter = SafeJsonLinesItemExporter(buf)
    exporter.export_item({"text": "x\udc80y"})
    exporter.export_item({"text": "z"})
    lines = buf.getvalue().decode("utf-8").split("\n")
    assert [json.loads(ln)["text"] for ln in lines if ln] == ["xy", "z"]
    assert Spy.flushes >= 2


def test_rejects_filters_partition_items():
    for status, accepted in (("ok", True), ("empty", False), ("error", False), ("blocked", False),
                             ("not_article", False)):
        assert AcceptedItems().accepts({"status": status}) is accepted
        assert RejectedItems().accepts({"status": status}) is not accepted


def test_a_spider_may_judge_the_extractions_own_evidence():
    class Spider:
        def not_article_after_extraction(self, adapter, outcome):
            return "too little prose" if adapter["url"].endswith("/2") else None

    crawler = _Crawler()
    crawler.spider = Spider()
    pipeline = _Sync(ExtractionPipeline.from_crawler(crawler))
    assert pipeline.process_item(_item())["status"] == "ok"
    item = pipeline.process_item(_item(url="https://x.example/a/2"))
    assert item["status"] == "not_article" and item["reason"] == "not an article: too little prose"
    assert item["text"] == "" and item["content_sha1"] is None
    assert pipeline.stats["mcecrawl/items/status/not_article"] == 1
