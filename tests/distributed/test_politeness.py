"""Per-host politeness across workers, measured at the server: 3 workers, one host, delay d ->
at most k+1 requests in any window of k·d seconds (robots.txt requests included)."""
from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from mcecrawl.demo.crawl import read_jsonl, start_crawl
from mcecrawl.demo.server import FixtureServer
from synthetic_site import SyntheticSite

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "spiders"))
from bbc_texts import SERVICES  # noqa: E402

POOL = [p for a in SERVICES["persian"]["articles"] for p in a["paragraphs"]]
WORKERS = 3
TIMEOUT = 180.0


class CrawlDelaySite(SyntheticSite):
    def __init__(self, *args, crawl_delay: float | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.crawl_delay = crawl_delay

    def resolver(self, path, query):
        if path == "/robots.txt" and self.crawl_delay:
            return 200, {"Content-Type": "text/plain"}, (
                f"User-agent: *\nCrawl-delay: {self.crawl_delay}\nAllow: /\n").encode()
        return super().resolver(path, query)


def max_in_window(times: list[float], width: float) -> int:
    """Most requests in any closed window of ``width`` seconds."""
    best, j = 0, 0
    for i, t in enumerate(times):  # windows starting at each request are the worst ones
        while j < len(times) and times[j] <= t + width:
            j += 1
        best = max(best, j - i)
    return best


def crawl(tmp_path, redis_url, site, settings) -> tuple[list[float], list[str]]:
    profile = site.write_profile(tmp_path / "synthetic.json", algorithm="xpath_blocks")
    with FixtureServer(resolver=site.resolver) as srv:
        procs = [start_crawl("profile", base_url=srv.url, args={"profile": str(profile)}, cwd=tmp_path,
                             log_path=tmp_path / f"w{n}.log",
                             settings={"MCE_REDIS_URL": redis_url, "MCE_EXTRACTION_WORKERS": "0",
                                       "CONCURRENT_REQUESTS_PER_DOMAIN": "4", **settings})
                 for n in range(WORKERS)]
        deadline = time.monotonic() + TIMEOUT
        for p in procs:
            p.wait(timeout=max(1.0, deadline - time.monotonic()))
        log = sorted(srv.log)
    assert len(read_jsonl(sorted((tmp_path / "output").rglob("*.jsonl")))) == site.n
    return [t for t, _ in log], [path for _, path in log]


def assert_polite(times: list[float], d: float) -> None:
    for k in range(1, len(times)):
        n = max_in_window(times, k * d)
        assert n <= k + 1, f"{n} requests in a window of {k}·d = {k * d:.2f} s"


def test_download_delay_holds_across_workers_robots_included(tmp_path, redis_url):
    d = 0.25
    site = SyntheticSite(24, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=50)
    times, paths = crawl(tmp_path, redis_url, site, {"DOWNLOAD_DELAY": str(d)})
    assert "/robots.txt" in paths  # each worker that fetched anything read it first, within the schedule
    # discovery was scheduled once for the crawl, and every page fetched once, by one of the workers
    assert paths.count("/sitemap.xml") == paths.count("/archive") == 1
    assert max(n for p, n in Counter(paths).items() if p != "/robots.txt") == 1
    assert len(times) >= site.n + 2
    assert_polite(times, d)
    # and the workers did share the host: not one process after the other at 1/d each
    assert max_in_window(times, 4 * d) >= 4


def test_crawl_delay_holds_across_workers(tmp_path, redis_url):
    cd = 0.3
    site = CrawlDelaySite(20, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=50, crawl_delay=cd)
    times, paths = crawl(tmp_path, redis_url, site, {"DOWNLOAD_DELAY": "0"})
    # robots.txt is read before its Crawl-delay is known: the rule holds from the first page on.
    pages = [t for t, p in zip(times, paths) if p != "/robots.txt"]
    assert len(pages) >= site.n
    assert_polite(pages, cd)
    assert max_in_window(pages, 4 * cd) >= 4


class RetryAfterSite(SyntheticSite):
    """Answers the first request for ``path`` with 429 and ``Retry-After: seconds``."""

    def __init__(self, *args, path: str, seconds: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.path, self.seconds, self.refused = path, seconds, False

    def resolver(self, path, query):
        if path == self.path and not self.refused:
            self.refused = True
            return 429, {"Content-Type": "text/plain", "Retry-After": str(self.seconds)}, b"slow down"
        return super().resolver(path, query)


def test_retry_after_pauses_the_host_for_every_worker(tmp_path, redis_url):
    """A 429 with Retry-After: N to one worker: no worker sends the host anything for N seconds,
    measured at the server (the shared schedule used to reset the local pause on the next request)."""
    d, n = 0.4, 3
    site = RetryAfterSite(12, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=50, path="/news/2", seconds=n)
    times, paths = crawl(tmp_path, redis_url, site, {"DOWNLOAD_DELAY": str(d)})
    refused_at = times[paths.index("/news/2")]
    retried_at = times[len(paths) - 1 - paths[::-1].index("/news/2")]
    assert paths.count("/news/2") == 2 and retried_at - refused_at >= n
    during = [(round(t - refused_at, 3), p) for t, p in zip(times, paths) if refused_at < t < refused_at + n]
    assert during == [], f"requests during the {n} s pause: {during}"
    assert any(t > refused_at + n for t, p in zip(times, paths) if p != "/news/2")  # the crawl went on after it
    assert_polite(times, d)
