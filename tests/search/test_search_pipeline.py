"""SearchIndexPipeline: disabled by default; indexes in batches during a real (network-free) crawl."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from mcecrawl import settings as project
from mcecrawl.pipelines import SearchIndexPipeline
from mcecrawl.search.index import SearchIndex

ROOT = Path(__file__).resolve().parents[2]

CRAWL = textwrap.dedent("""
    import json, sys, threading
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings
    from mcecrawl import settings as project
    import mcecrawl.search.index as index_module

    corpus, db, out = sys.argv[1], sys.argv[2], sys.argv[3]
    writers = set()
    add = index_module.SearchIndex.add
    def spy(self, items, **kw):
        writers.add(threading.current_thread() is threading.main_thread())
        return add(self, items, **kw)
    index_module.SearchIndex.add = spy

    class CorpusSpider(scrapy.Spider):
        name = "corpus"
        async def start(self):
            with open(corpus, encoding="utf-8") as f:
                for line in f:
                    yield json.loads(line)

    settings = Settings()
    settings.setdict({"ITEM_PIPELINES": {"mcecrawl.pipelines.SearchIndexPipeline":
                                         project.ITEM_PIPELINES["mcecrawl.pipelines.SearchIndexPipeline"]},
                      "MCE_SEARCH_INDEX_ENABLED": True, "MCE_SEARCH_INDEX_DB": db,
                      "MCE_SEARCH_INDEX_BATCH_SIZE": 3, "TELNETCONSOLE_ENABLED": False, "LOG_LEVEL": "WARNING"})
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(CorpusSpider)
    process.crawl(crawler)
    process.start()
    with open(out, "w") as f:
        json.dump({"stats": crawler.stats.get_stats(), "main_thread_writes": sorted(writers)}, f, default=str)
""")


def test_disabled_by_default():
    assert project.MCE_SEARCH_INDEX_ENABLED is False
    with pytest.raises(NotConfigured):
        SearchIndexPipeline.from_crawler(get_crawler(settings_dict={"MCE_SEARCH_INDEX_ENABLED": False}))


def test_process_item_only_buffers_until_a_batch_is_full(tmp_path):
    crawler = get_crawler(settings_dict={"MCE_SEARCH_INDEX_ENABLED": True, "MCE_SEARCH_INDEX_BATCH_SIZE": 5,
                                         "MCE_SEARCH_INDEX_DB": str(tmp_path / "x.sqlite")})
    pipeline = SearchIndexPipeline.from_crawler(crawler)
    pipeline.open_spider()
    item = {"url": "http://x/1", "text": "متن", "html": "<p>not copied</p>"}
    assert pipeline.process_item(item) is item
    assert pipeline.buffer == [{k: item.get(k) for k in SearchIndexPipeline.FIELDS}]
    assert len(pipeline.index) == 0  # nothing written on the reactor thread
    pipeline.index.close()


def test_crawl_indexes_in_batches_off_the_main_thread(tmp_path, r2l_corpus):
    corpus = tmp_path / "corpus.jsonl"
    items = [*r2l_corpus, {"url": "http://x/empty", "text": "", "status": "empty"}]
    corpus.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items), encoding="utf-8")
    script, db, out = tmp_path / "crawl.py", tmp_path / "crawl.sqlite", tmp_path / "out.json"
    script.write_text(CRAWL, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    proc = subprocess.run([sys.executable, str(script), str(corpus), str(db), str(out)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    stats = result["stats"]
    assert stats["mcecrawl/search_index/batches"] == -(-len(items) // 3)
    assert stats["mcecrawl/search_index/added"] == len(r2l_corpus)
    assert stats["mcecrawl/search_index/skipped"] == 1
    assert "mcecrawl/search_index/errors" not in stats
    assert result["main_thread_writes"] == [False]
    with SearchIndex(db, readonly=True) as ix:
        assert len(ix) == len(r2l_corpus)
        title = r2l_corpus[0]["title"]
        assert ix.search(title)[0].url == r2l_corpus[0]["url"]
