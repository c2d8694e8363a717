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

``Retry-After`` on a 429/503 (``MCE_RETRY_AFTER_ENABLED``, up to ``MCE_RETRY_AFTER_MAX``) pauses the
host for every worker: ``paused:<host>`` holds the end of the pause, no reservation falls before it,
and a request that slept until its reserved time checks it once more before it is sent (a pause
another worker set meanwhile moves it after the pause).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from scrapy.exceptions import NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from mcecrawl.config import Config
from mcecrawl.distributed import Keys, connect, enabled
from mcecrawl.downloadermiddlewares import RetryAfterMiddleware, retry_after_seconds
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

# KEYS: polite:<host>, paused:<host>.  ARGV: gap in microseconds.  -> microseconds to wait.
RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nxt, tonumber(redis.call('GET', KEYS[2]) or '0'))
redis.call('SET', KEYS[1], at + tonumber(ARGV[1]), 'PX', math.floor((at - now + tonumber(ARGV[1])) / 1000) + 60000)
return at - now
"""
# KEYS: paused:<host>.  ARGV: pause in microseconds (0: only read).  -> microseconds of pause left.
PAUSE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local untl = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now + tonumber(ARGV[1]))
if untl > now and tonumber(ARGV[1]) > 0 then
  redis.call('SET', KEYS[1], untl, 'PX', math.floor((untl - now) / 1000) + 60000)
end
return math.max(0, untl - now)
"""


class SharedPolitenessMiddleware:
    """Downloader middleware (last before the download handler); on with ``MCE_REDIS_URL``."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.server = connect(settings.get("MCE_REDIS_URL"))
        self.keys = Keys(settings.get("MCE_CRAWL_ID"))
        self._reserve = self.server.register_script(RESERVE)
        self._pause = self.server.register_script(PAUSE)
        cfg = Config.from_settings(settings)
        self.retry_after_max = cfg.retry_after_max if cfg.retry_after_enabled else None
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
        gap_us = int(delay * (1 + DELAY_MARGIN) * 1e6)
        keys = [self.keys.polite(host), self.keys.paused(host)]
        late = 0
        while late < MAX_RESERVATIONS:
            wait = self._reserve(keys=keys, args=[gap_us]) / 1e6
            self.crawler.stats.inc_value("mcecrawl/distributed/politeness/reserved")
            if wait <= 0:
                return None
            due = time.monotonic() + wait
            self.crawler.stats.inc_value("mcecrawl/distributed/politeness/wait_ms", int(wait * 1000))
            await asyncio.sleep(wait)
            if time.monotonic() - due > LATE_TOLERANCE * max(delay, wait):
                # Woke up late (a busy event loop): the reserved time has passed; sending now could
                # crowd the next worker's turn, so take a new one.
                self.crawler.stats.inc_value("mcecrawl/distributed/politeness/late")
                late += 1
            elif self._pause(keys=keys[1:], args=[0]) <= 0:
                return None
            else:  # a worker got a Retry-After while this request slept: after the pause, then
                self.crawler.stats.inc_value("mcecrawl/distributed/politeness/paused")
        return None

    def process_response(self, request, response):
        """A 429/503 with ``Retry-After`` pauses the host for every worker of the crawl (the local
        :class:`mcecrawl.downloadermiddlewares.RetryAfterMiddleware` pauses only this process's slot,
        which :meth:`process_request` resets)."""
        if response.status not in RetryAfterMiddleware.HTTP_STATUSES or self.retry_after_max is None:
            return response
        wait = retry_after_seconds(response.headers.get(b"Retry-After"))
        if wait is None or wait <= 0 or wait > self.retry_after_max:  # too long: RetryAfterMiddleware logs it
            return response
        host = urlparse_cached(request).hostname or ""
        self._pause(keys=[self.keys.paused(host)], args=[int(wait * 1e6)])
        self.crawler.stats.inc_value("mcecrawl/distributed/politeness/retry_after")
        return response
