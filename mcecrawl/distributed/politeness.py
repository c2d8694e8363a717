"""One request schedule per host for all workers: ``DOWNLOAD_DELAY`` and ``Crawl-delay`` hold
across processes and machines.

Each request reserves the host's next free time in Redis (one Lua script, Redis server clock):
``at = max(now, next)``, ``next = at + d``, then waits until ``at`` (and reserves again if its
event loop woke it up late).  Reserved times are at least ``d`` apart, so all workers together make
at most k+1 requests in any window of k·d seconds
(robots.txt requests included: they pass through the downloader middlewares too).  ``d`` is the
larger of the host's download delay (``DOWNLOAD_DELAY``, or the site profile's) and its robots.txt
``Crawl-delay`` (:class:`mcecrawl.downloadermiddlewares.RobotsTxtReportMiddleware`).  The local download slot
then sends at once (its own delay would only add to the shared one); its concurrency limit stays.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from mcecrawl.distributed import Keys, connect, enabled
from mcecrawl.scrapy_internals import set_slot_delay

logger = logging.getLogger(__name__)

# Added to every gap: request send times jitter by the event loop's latency (~1 ms) after the
# reserved time; a 1 % margin keeps "k+1 in any k·d window" true at the server.
DELAY_MARGIN = 0.01

# A request that wakes up later than this fraction of d after its reserved time (its worker's event
# loop was busy) reserves again, at most MAX_RESERVATIONS times: sends stay within DELAY_MARGIN·d
# of a reserved time.
LATE_TOLERANCE = DELAY_MARGIN
MAX_RESERVATIONS = 5

# KEYS: polite:<host>.  ARGV: gap in microseconds.  -> microseconds to wait.
RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nxt)
redis.call('SET', KEYS[1], at + tonumber(ARGV[1]), 'PX', math.floor((at - now + tonumber(ARGV[1])) / 1000) + 60000)
return at - now
"""


class SharedPolitenessMiddleware:
    """Downloader middleware (last before the download handler); on with ``MCE_REDIS_URL``."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.server = connect(settings.get("MCE_REDIS_URL"))
        self.keys = Keys(settings.get("MCE_CRAWL_ID"))
        self._reserve = self.server.register_script(RESERVE)
        self._robots: Any = None  # RobotsTxtReportMiddleware once looked up, False when it is not enabled

    @classmethod
    def from_crawler(cls, crawler):
        if not enabled(crawler.settings):
            raise NotConfigured
        return cls(crawler)

    def host_delay(self, request, host: str) -> float:
        spider = self.crawler.spider
        delay = getattr(spider, "download_delay", None)
        if delay is None:
            delay = self.crawler.settings.getfloat("DOWNLOAD_DELAY")
        if self._robots is None:
            from mcecrawl.downloadermiddlewares import RobotsTxtReportMiddleware

            self._robots = self.crawler.get_downloader_middleware(RobotsTxtReportMiddleware) or False
        if self._robots:
            delay = max(delay, self._robots.crawl_delays.get(host, 0.0))
        return delay

    async def process_request(self, request):
        host = urlparse_cached(request).hostname or ""
        delay = self.host_delay(request, host)
        # The local slot must not delay again (Crawl-delay and AutoThrottle set it per process).
        set_slot_delay(self.crawler, request, 0.0)
        if delay <= 0:
            return None
        gap_us = int(delay * (1 + DELAY_MARGIN) * 1e6)
        for _ in range(MAX_RESERVATIONS):
            wait = self._reserve(keys=[self.keys.polite(host)], args=[gap_us]) / 1e6
            self.crawler.stats.inc_value("mcecrawl/distributed/politeness/reserved")
            due = time.monotonic() + wait
            if wait > 0:
                self.crawler.stats.inc_value("mcecrawl/distributed/politeness/wait_ms", int(wait * 1000))
                await asyncio.sleep(wait)
            if time.monotonic() - due <= LATE_TOLERANCE * delay:
                return None
            # Woke up late (a busy event loop): the reserved time has passed; sending now could
            # crowd the next worker's turn, so take a new one.
            self.crawler.stats.inc_value("mcecrawl/distributed/politeness/late")
        return None
