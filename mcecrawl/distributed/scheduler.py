"""scrapy-redis's scheduler with a lease on every popped request, worker heartbeats and reaping.

scrapy-redis pops a request without acknowledgement: if the process dies, the request is gone
while its fingerprint stays in the dupefilter, so it is never fetched again.  Here a pop moves the
request, in one Lua script, from the queue into this worker's lease hash (``leases:<worker>``,
request -> queue score).  The lease ends when the request's work is done
(:class:`mcecrawl.distributed.record.SharedFrontierMiddleware`: its callback output is scheduled
and its items are written and recorded), when the request goes back to the queue (a retry or redirect), or when
the worker is idle (then everything it popped is done).

Each worker keeps a heartbeat deadline (``workers`` zset, Redis server clock) ``MCE_LEASE_SECONDS``
ahead, from a thread (so only a dead or hung process misses it).  Any worker finds the dead ones (deadline
passed) and reaps them in one script: their
leased requests go back to the queue with their priority, and their half-done article claims are
settled from its feed (:func:`mcecrawl.distributed.record.claims_in_feeds`).  A dead worker's claims can only be
settled by reading its feed, so a worker on the same host reaps at once, others only after
``MCE_REAP_OTHER_HOST_AFTER`` more seconds (the host is presumed gone with its feed).

A worker whose queue is empty does not close while other workers hold leases (they may discover
more requests): it polls every :data:`IDLE_POLL_SECONDS`.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time

from scrapy import signals
from scrapy.exceptions import DontCloseSpider
from scrapy_redis.scheduler import Scheduler
from twisted.internet import reactor, task

from mcecrawl.distributed import LEASE_META, Keys, host_name, shown
from mcecrawl.scrapy_internals import wake_engine

logger = logging.getLogger(__name__)

# How often an idle worker looks for new requests or dead workers: short against the lease
# (default 30 s), long against a Redis round trip (~0.1 ms on one host).
IDLE_POLL_SECONDS = 0.5
# Heartbeats (and reaper passes) per lease period: a worker survives two missed heartbeats.
HEARTBEATS_PER_LEASE = 3

_NOW_MS = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"

# KEYS: queue, leases:<me>.  Pop the best request (lowest score = highest priority) into my leases.
POP = """
local r = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #r == 0 then return false end
redis.call('ZREM', KEYS[1], r[1])
redis.call('HSET', KEYS[2], r[1], r[2])
return r[1]
"""
# KEYS: workers.  ARGV: worker, lease ms, first ('1' registers; '0' fails if I was reaped).
HEARTBEAT = _NOW_MS + """
if ARGV[3] == '0' and not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return now
"""
# KEYS: workers.  ARGV: grace ms.  -> {now, [worker, deadline]...} of workers whose deadline passed.
DEAD = _NOW_MS + """
return {now, redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')}
"""
# KEYS: workers, queue, leases:<w>, pending, pending:<w>, written.
# ARGV: worker, force ('1': no deadline check, a worker closing itself), claims found in its feed...
REAP = _NOW_MS + """
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if ARGV[2] ~= '1' and ((not s) or tonumber(s) > now) then return -1 end
local l = redis.call('HGETALL', KEYS[3])
for i = 1, #l, 2 do redis.call('ZADD', KEYS[2], l[i + 1], l[i]) end
local found = {}
for i = 3, #ARGV do found[ARGV[i]] = true end
for _, c in ipairs(redis.call('SMEMBERS', KEYS[5])) do
  if redis.call('HGET', KEYS[4], c) == ARGV[1] then
    redis.call('HDEL', KEYS[4], c)
    if found[c] then redis.call('HSET', KEYS[6], c, ARGV[1]) end
  end
end
redis.call('DEL', KEYS[3], KEYS[5])
redis.call('ZREM', KEYS[1], ARGV[1])
return #l / 2
"""
# KEYS: workers, queue.  ARGV: key prefix.  -> queued requests + leases held by all workers.
BUSY = """
local n = redis.call('ZCARD', KEYS[2])
for _, w in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  n = n + redis.call('HLEN', ARGV[1] .. 'leases:' .. w)
end
return n
"""


class LeasedScheduler(Scheduler):
    """``scrapy_redis.scheduler.Scheduler`` + leases; configured by :class:`mcecrawl.distributed.RedisAddon`."""

    @classmethod
    def from_crawler(cls, crawler):
        scheduler = super().from_crawler(crawler)
        settings = crawler.settings
        scheduler.crawler = crawler
        scheduler.keys = Keys(settings.get("MCE_CRAWL_ID"))
        scheduler.wid = settings.get("MCE_WORKER_ID")
        scheduler.lease_ms = int(settings.getfloat("MCE_LEASE_SECONDS") * 1000)
        scheduler.other_host_ms = int(settings.getfloat("MCE_REAP_OTHER_HOST_AFTER") * 1000)
        scheduler.url = shown(settings.get("MCE_REDIS_URL"))
        s = scheduler.server
        scheduler._pop = s.register_script(POP)
        scheduler._heartbeat = s.register_script(HEARTBEAT)
        scheduler._dead = s.register_script(DEAD)
        scheduler._reap = s.register_script(REAP)
        scheduler._busy = s.register_script(BUSY)
        scheduler._beat = scheduler._reaper = None
        scheduler._closing = False
        crawler.signals.connect(scheduler.spider_idle, signals.spider_idle)
        return scheduler

    # -- life cycle --------------------------------------------------------------------------------
    def open(self, spider):
        super().open(spider)
        k = self.keys
        # A worker id given with -s MCE_WORKER_ID may be a killed worker's: settle its old life first.
        self._reap_worker(self.wid, force=True, read_feeds=True)
        self.server.hset(k.worker(self.wid), mapping={"host": host_name(), "pid": os.getpid(),
                                                      "started": time.time(), "feeds": "[]"})
        self._heartbeat(keys=[k.workers], args=[self.wid, self.lease_ms, "1"])
        # The heartbeat runs in a thread: it says "this process is alive", so a busy event loop
        # (a big page, a wait for the dedup lock) does not make the others reap a live worker.
        self._stop_beat = threading.Event()
        self._beat = threading.Thread(target=self._beat_loop, name="mce-heartbeat", daemon=True)
        self._beat.start()
        self._reaper = task.LoopingCall(self._reap_safely)
        self._reaper.start(self.lease_ms / 1000 / HEARTBEATS_PER_LEASE)

    def close(self, reason):
        self._closing = True
        self._stop_threads()
        if reason == "redis_unavailable":
            return
        # Finished: every leased request was processed.  Otherwise (Ctrl-C, lease lost, ...) the
        # unprocessed ones go back to the queue for the others; a request done twice is written once.
        if reason == "finished":
            self.server.delete(self.keys.leases(self.wid))
        self._reap_worker(self.wid, force=True)
        super().close(reason)

    def _beat_loop(self) -> None:
        period = self.lease_ms / 1000 / HEARTBEATS_PER_LEASE
        while not self._stop_beat.wait(period):
            try:
                lost = self._heartbeat(keys=[self.keys.workers], args=[self.wid, self.lease_ms, "0"]) == -1
            except Exception as exc:  # redis.ConnectionError, TimeoutError
                reactor.callFromThread(self._redis_gone, exc)
                return
            if lost:
                reactor.callFromThread(self._lease_lost)
                return

    def _lease_lost(self) -> None:
        logger.error("Worker %s was presumed dead by the other workers (no heartbeat for %.0f s): its requests "
                     "went back to the queue; stopping this worker", self.wid, self.lease_ms / 1000)
        self._stop("lease_lost")

    def _stop_threads(self) -> None:
        if self._beat is not None:
            self._stop_beat.set()
        if self._reaper is not None and self._reaper.running:
            self._reaper.stop()

    def _reap_safely(self) -> None:
        if self._closing:
            return
        try:
            self.reap()
        except Exception as exc:
            self._redis_gone(exc)

    # -- queue -----------------------------------------------------------------------------------
    def enqueue_request(self, request):
        lease = request.meta.pop(LEASE_META, None)  # a retry/redirect of a leased request
        try:
            added = super().enqueue_request(request)
            if lease is not None:
                self.server.hdel(self.keys.leases(self.wid), lease)  # now in the queue again
        except Exception as exc:
            self._redis_gone(exc)
            return False
        return added

    def next_request(self):
        if self._closing:
            return None
        try:
            data = self._pop(keys=[self.queue.key, self.keys.leases(self.wid)])
        except Exception as exc:
            self._redis_gone(exc)
            return None
        if not data:
            return None
        request = self.queue._decode_request(data)
        request.meta[LEASE_META] = data
        if self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
            self.stats.inc_value("mcecrawl/distributed/leased")
        return request

    def has_pending_requests(self):
        try:
            return super().has_pending_requests()
        except Exception as exc:
            self._redis_gone(exc)
            return False

    # -- idle, reaping -------------------------------------------------------------------------------
    def spider_idle(self) -> None:
        if self._closing:
            return
        try:
            # Idle: nothing downloading or being scraped, so every request this worker popped is done.
            self.server.delete(self.keys.leases(self.wid))
            self.reap()
            busy = self._busy(keys=[self.keys.workers, self.queue.key], args=[self.keys.prefix])
        except Exception as exc:
            self._redis_gone(exc)
            return
        if busy:
            reactor.callLater(IDLE_POLL_SECONDS, self._wake)  # type: ignore[arg-type]  # twisted types the reactor module as the IReactorTime interface, not an instance
            raise DontCloseSpider

    def _wake(self) -> None:
        if not self._closing:
            wake_engine(self.crawler)

    def reap(self) -> int:
        """Reap the workers whose heartbeat stopped; returns how many requests went back."""
        now, dead = self._dead(keys=[self.keys.workers])
        me = host_name()
        back = 0
        for i in range(0, len(dead), 2):
            wid, deadline = dead[i].decode(), int(float(dead[i + 1]))
            if wid == self.wid:
                continue
            host = (self.server.hget(self.keys.worker(wid), "host") or b"").decode()
            if host != me and now < deadline + self.other_host_ms:
                continue
            n = self._reap_worker(wid, read_feeds=host == me)
            if n >= 0:
                back += n
                logger.warning("Worker %s (host %s) stopped without closing: %d of its requests went back to "
                               "the queue", wid, host or "?", n)
                if self.stats:
                    self.stats.inc_value("mcecrawl/distributed/reaped_workers")
                    self.stats.inc_value("mcecrawl/distributed/requeued", n)
        return back

    def _reap_worker(self, wid: str, *, force: bool = False, read_feeds: bool = False) -> int:
        from mcecrawl.distributed.record import claims_in_feeds

        k = self.keys
        found: list[str] = []
        if read_feeds:  # also cuts a half-written last line off its feeds
            claims = {c.decode() for c in self.server.smembers(k.pending_of(wid))}
            feeds = json.loads(self.server.hget(k.worker(wid), "feeds") or b"[]")
            found = sorted(claims_in_feeds(feeds, claims))
        return self._reap(keys=[k.workers, self.queue.key, k.leases(wid), k.pending, k.pending_of(wid), k.written],
                          args=[wid, "1" if force else "0", *found])

    # -- failure -----------------------------------------------------------------------------------
    def _redis_gone(self, exc: Exception) -> None:
        if not self._closing:
            logger.error("Redis at %s is unreachable (%s): stopping this worker. Every article already "
                         "written stays in its feed; run the same command again when Redis is back to "
                         "resume the crawl.", self.url, exc)
            self._stop("redis_unavailable")

    def _stop(self, reason: str) -> None:
        if self._closing:
            return
        self._closing = True
        self._stop_threads()
        from scrapy.utils.defer import deferred_from_coro

        def close():
            return deferred_from_coro(self.crawler.engine.close_spider_async(reason=reason))

        reactor.callLater(0, close)  # type: ignore[arg-type]  # twisted types the reactor module as the IReactorTime interface, not an instance
