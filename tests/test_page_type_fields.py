"""The extraction's page type reaches every output: the crawl's items (through the extraction job and
the pipeline), `mcecrawl extract -f jsonl`, the archive items and the search index's filter."""
from __future__ import annotations

import json

import pytest

from mcecrawl.algorithms.result import Extraction
from mcecrawl.extraction import ExtractionJob, run_job
from mcecrawl.search.index import SearchIndex


@pytest.fixture()
def judged_listing(monkeypatch):
    """An extraction that judged its page a listing (whatever the page-type judgement says today)."""
    import mcecrawl.algorithms as algorithms

    def extract(page, **kwargs):
        return Extraction("item one\nitem two", ("item one", "item two"), "scored_regions",
                          page_type="listing", page_type_reason="20 repeated teaser items")

    monkeypatch.setattr(algorithms, "extract", extract)


def test_page_type_must_be_known():
    with pytest.raises(ValueError, match="page_type"):
        Extraction("", (), "x", page_type="blog")
    assert Extraction("", (), "x").page_type is None


def test_extraction_job_carries_the_page_type(judged_listing):
    out = run_job(ExtractionJob(b"<p>x</p>", "scored_regions"))
    assert (out.page_type, out.page_type_reason) == ("listing", "20 repeated teaser items")


def test_pipeline_writes_page_type_into_the_item(judged_listing):
    import asyncio

    from scrapy.utils.test import get_crawler

    from mcecrawl.pipelines import ExtractionPipeline

    pipeline = ExtractionPipeline(get_crawler(settings_dict={"MCE_EXTRACTION_WORKERS": 0}))
    item = {"url": "https://x.example/a", "html": b"<p>x</p>", "lang": "fa"}
    out = asyncio.run(pipeline.process_item(item))
    assert out["page_type"] == "listing" and out["page_type_reason"] == "20 repeated teaser items"
    spider_judged = asyncio.run(pipeline.process_item({"url": "u", "html": b"", "status": "not_article",
                                                       "reason": "og:type video"}))
    assert spider_judged["page_type"] is None and spider_judged["page_type_reason"] == ""


def test_extract_jsonl_record_has_page_type(judged_listing):
    import mcecrawl.algorithms as algorithms
    from mcecrawl.commands.extract import record

    rec = record("page.html", algorithms.extract(b""))
    assert json.loads(json.dumps(rec))["page_type"] == "listing"


def test_search_filters_on_page_type(tmp_path):
    items = [{"url": f"https://x.example/{kind}", "site": "x", "lang": "fa", "title": kind, "status": "ok",
              "text": f"خبر مهم امروز درباره {kind}", "page_type": kind} for kind in ("article", "listing")]
    with SearchIndex(tmp_path / "ix.sqlite") as ix:
        ix.add(items)
        assert {h.url for h in ix.search("خبر")} == {i["url"] for i in items}
        assert [h.url for h in ix.search("خبر", page_type="article")] == ["https://x.example/article"]
        assert ix.search("خبر", page_type="forum") == []
