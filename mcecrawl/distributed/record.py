"""The shared frontier's spider middleware and the record of written articles, in Redis.

:class:`SharedFrontierMiddleware` (spider middleware) lets the shared dupefilter see the spider's
requests (the spider marks them ``dont_filter`` because a single process dedupes by its own
canonical sets and re-seeds discovery on every start); so discovery is scheduled once per crawl
id and a worker that starts later joins.  It also ends a request's lease once its callback output
is scheduled and its items are written and recorded (:mod:`mcecrawl.distributed.scheduler`).

:class:`WrittenRecord` (item pipeline, before extraction) makes every article written exactly once
across workers: an article is *claimed* (``pending``: URL -> worker) before its feed line is
written and *recorded* (``written``) right after.  A claim held by another worker drops the copy
(that worker holds the request's lease, so the article comes back if it dies).  If a worker dies
between claim and record, its feed decides: the reaper on its host reads the feed, cuts a
half-written last line, and records the claims whose line is there; the others are released and
their requests, back in the queue, are done again (:func:`claims_in_feeds`).
"""
from __future__ import annotations

import json
import logging
import os
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import redis
from itemadapter import ItemAdapter, is_item
from scrapy import Request, signals
from scrapy.exceptions import DropItem, NotConfigured

from mcecrawl.distributed import LEASE_META, Keys, connect, enabled
from mcecrawl.extensions import local_feed_paths, repair_jsonl

logger = logging.getLogger(__name__)

REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError)

# KEYS: written, pending, pending:<me>.  ARGV: URL, me.  -> 'ok', 'written' or the claiming worker (maybe me:
# a second copy in flight in this process).
CLAIM = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'written' end
local p = redis.call('HGET', KEYS[2], ARGV[1])
if p then return p end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
return 'ok'
"""
# KEYS: written, pending, pending:<me>.  ARGV: URL, value, me.  -> 1, or 0 if the claim was lost.
RECORD = """
local p = redis.call('HGET', KEYS[2], ARGV[1])
if p == ARGV[3] then redis.call('HDEL', KEYS[2], ARGV[1]) end
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if p == ARGV[3] then return 1 end
return 0
"""


def claims_in_feeds(paths: list[str], claims: set[str]) -> set[str]:
    """The claimed URLs that have a finished line in the feeds of a dead worker (a half-written
    last line is cut off, as for the single-process resume)."""
    found: set[str] = set()
    for name in paths:
        p = Path(name)
        if p.is_file():
            found.update(r["canonical_url"] for r in repair_jsonl(p) if r.get("canonical_url") in claims)
    return found


def _canonical(item: Any) -> str | None:
    adapter = ItemAdapter(item)
    return adapter.get("canonical_url") or adapter.get("url")


class SharedFrontierMiddleware:
    """Requests of the spider go through the shared dupefilter; leases end when the work is done."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.server = connect(settings.get("MCE_REDIS_URL"))
        self.leases_key = Keys(settings.get("MCE_CRAWL_ID")).leases(settings.get("MCE_WORKER_ID"))
        self.stats = crawler.stats
        self.items: Counter[bytes] = Counter()  # lease -> its items still in the pipelines
        self.running: Counter[bytes] = Counter()  # lease -> its callback outputs still running
        # Connected late, after WrittenRecord's handlers: the lease ends after the article's record.
        crawler.signals.connect(self._connect_item_signals, signals.engine_started)
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        if not enabled(crawler.settings):
            raise NotConfigured
        return cls(crawler)

    def _connect_item_signals(self) -> None:
        for sig in (signals.item_scraped, signals.item_dropped, signals.item_error):
            self.crawler.signals.connect(self._item_done, sig)

    @staticmethod
    def _shared(obj: Any) -> Any:
        if isinstance(obj, Request) and obj.dont_filter and not obj.meta.get("mce_dont_filter"):
            return obj.replace(dont_filter=False)
        return obj

    async def process_start(self, start):
        async for obj in start:
            yield self._shared(obj)

    def _begin(self, response) -> bytes | None:
        lease = response.meta.get(LEASE_META) if response.request is not None else None
        if lease is not None:
            self.running[lease] += 1
        return lease

    def _count(self, lease, obj) -> Any:
        if lease is not None and is_item(obj):
            self.items[lease] += 1
        return self._shared(obj)

    def process_spider_output(self, response, result):
        lease = self._begin(response)
        try:
            for obj in result:
                yield self._count(lease, obj)
        finally:
            self._end(lease)

    async def process_spider_output_async(self, response, result):
        lease = self._begin(response)
        try:
            async for obj in result:
                yield self._count(lease, obj)
        finally:
            self._end(lease)

    def _end(self, lease) -> None:
        if lease is not None:
            self.running[lease] -= 1
            self._maybe_release(lease)

    def _item_done(self, item, response=None, **kwargs) -> None:
        request = getattr(response, "request", None)
        lease = request.meta.get(LEASE_META) if request is not None else None
        if lease is not None and self.items[lease] > 0:
            self.items[lease] -= 1
            self._maybe_release(lease)

    def _maybe_release(self, lease: bytes) -> None:
        if self.running[lease] <= 0 and self.items[lease] <= 0:
            del self.running[lease]
            self.items.pop(lease, None)
            try:
                self.server.hdel(self.leases_key, lease)
            except REDIS_ERRORS:  # the scheduler reports it and stops; the lease is reaped later
                return
            self.stats.inc_value("mcecrawl/distributed/released")


class WrittenRecord:
    """Item pipeline (before extraction): claim each article in Redis; record it once written.

    Settings: ``MCE_REDIS_URL`` (on when set), ``MCE_CRAWL_ID``, ``MCE_WORKER_ID``;
    ``MCE_FAULT_KILL_AFTER_WRITE`` = N kills this process with SIGKILL right after its N-th feed
    line, before recording it (tests of the window between the two).
    Stats: ``mcecrawl/distributed/{claimed,written,already_written,claimed_elsewhere,claim_lost}``.
    """

    def __init__(self, crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.server = connect(settings.get("MCE_REDIS_URL"))
        self.keys = Keys(settings.get("MCE_CRAWL_ID"))
        self.wid = settings.get("MCE_WORKER_ID")
        self.kill_after = settings.getint("MCE_FAULT_KILL_AFTER_WRITE")
        self._claim = self.server.register_script(CLAIM)
        self._record = self.server.register_script(RECORD)
        self._key_list = [self.keys.written, self.keys.pending, self.keys.pending_of(self.wid)]
        self.claimed: set[str] = set()
        self.recorded = 0
        crawler.signals.connect(self.spider_opened, signals.spider_opened)
        crawler.signals.connect(self.item_scraped, signals.item_scraped)
        crawler.signals.connect(self.item_dropped, signals.item_dropped)
        crawler.signals.connect(self.item_dropped, signals.item_error)

    @classmethod
    def from_crawler(cls, crawler):
        if not enabled(crawler.settings):
            raise NotConfigured
        return cls(crawler)

    def spider_opened(self) -> None:
        # FeedExporter (an extension) opened its files on this signal before us.
        self.server.hset(self.keys.worker(self.wid), "feeds", json.dumps(local_feed_paths(self.crawler)))

    def process_item(self, item: Any) -> Any:
        canon = _canonical(item)
        if not canon:
            return item
        try:
            verdict = self._claim(keys=self._key_list, args=[canon, self.wid]).decode()
        except REDIS_ERRORS as exc:  # the scheduler stops the worker; the lease brings the article back
            self.stats.inc_value("mcecrawl/distributed/redis_errors")
            raise DropItem(f"not written, Redis is unreachable ({exc}): {canon}") from None
        if verdict == "written":
            self.stats.inc_value("mcecrawl/distributed/already_written")
            raise DropItem(f"already written by another worker: {canon}")
        if verdict != "ok":
            self.stats.inc_value("mcecrawl/distributed/claimed_elsewhere")
            raise DropItem(f"being written by worker {verdict}: {canon}")
        self.claimed.add(canon)
        self.stats.inc_value("mcecrawl/distributed/claimed")
        return item

    def item_scraped(self, item: Any) -> None:
        canon = _canonical(item)
        if canon not in self.claimed:
            return
        self.recorded += 1
        if self.kill_after and self.recorded == self.kill_after:
            logger.warning("MCE_FAULT_KILL_AFTER_WRITE=%d: SIGKILL after the feed line of %s, before its record",
                           self.kill_after, canon)
            os.kill(os.getpid(), signal.SIGKILL)
        self._finish(canon, self.wid)
        self.stats.inc_value("mcecrawl/distributed/written")

    def item_dropped(self, item: Any, **kwargs) -> None:
        canon = _canonical(item)
        if canon in self.claimed:  # dropped or failed after our claim (e.g. MCE_DEDUP_DROP): handled
            self._finish(canon, f"{self.wid}:dropped")

    def _finish(self, canon: str, value: str) -> None:
        self.claimed.discard(canon)
        try:
            kept = self._record(keys=self._key_list, args=[canon, value, self.wid])
        except REDIS_ERRORS:  # still claimed: the reaper on this host finds the line in the feed
            self.stats.inc_value("mcecrawl/distributed/redis_errors")
            return
        if not kept:
            self.stats.inc_value("mcecrawl/distributed/claim_lost")
            logger.error("The claim on %s was settled by another worker while this one wrote it (this worker "
                         "was presumed dead): it may be written twice", canon)
