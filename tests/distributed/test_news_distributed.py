"""The generic news spider on the shared Redis frontier: two workers, one site, every article once in
the union of their feeds.  Each worker learns URL shapes on its own (state per process)."""
from __future__ import annotations

from collections import Counter

import pytest

from mcecrawl.demo.crawl import read_jsonl, start_crawl
from mcecrawl.demo.server import FixtureServer
from news_sites import R2L, NewsSite

pytestmark = pytest.mark.skipif(not (R2L / "manifest.jsonl").exists(), reason=f"no R2L dev pages at {R2L}")
WORKERS = 2


def test_two_news_workers_write_every_article_once(tmp_path, redis_url):
    site = NewsSite("cms", 40)
    with FixtureServer(resolver=site.resolver) as srv:
        site.base = srv.url
        settings = {"MCE_REDIS_URL": redis_url, "MCE_CRAWL_ID": "news", "MCE_EXTRACTION_WORKERS": "0",
                    "MCE_DEDUP_DB": "", "DOWNLOAD_DELAY": "0.01"}
        procs = [start_crawl("news", args={"site": srv.url}, output=tmp_path / f"w{n}.jsonl", settings=settings,
                             cwd=tmp_path, log_path=tmp_path / f"w{n}.log") for n in range(WORKERS)]
        for p in procs:
            assert p.wait(timeout=300) == 0, (tmp_path / "w0.log").read_text()[-3000:]
    records = [r for n in range(WORKERS) for r in read_jsonl(tmp_path / f"w{n}.jsonl")]
    ok = Counter(r["canonical_url"] for r in records if r["status"] == "ok")
    assert set(ok) == site.expected() and set(ok.values()) == {1}
