"""Distributed crawling: many crawler processes, one frontier and one corpus, in Redis.

``-s MCE_REDIS_URL=redis://host:port/db`` switches a crawl to scrapy-redis's scheduler, priority
queue and request duplicate filter (https://github.com/rmax/scrapy-redis), so every process started
with the same command shares one frontier.  This package adds only what scrapy-redis lacks:

* :mod:`.scheduler` — a lease on every popped request: a killed worker's requests go back to the
  queue when its heartbeat stops (scrapy-redis pops without acknowledgement);
* :mod:`.record` — the record of written articles, exactly once across processes;
* :mod:`.politeness` — one per-host request schedule for all workers (``DOWNLOAD_DELAY`` and
  ``Crawl-delay``);
* :mod:`.dedup` — the exact/near-duplicate store on datasketch's Redis LSH storage;
* :class:`RedisAddon` — the switch itself (a Scrapy add-on, listed in ``ADDONS``).

Every key of a crawl lives under ``mce:<crawl id>:`` (:class:`Keys`); ``MCE_CRAWL_ID`` defaults to
the spider name.  An empty ``MCE_REDIS_URL`` (the default) leaves the single-process crawl alone.
"""
from __future__ import annotations

import logging
import os
import socket

from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)

# Request meta key holding the serialized request a worker leased from the queue.
LEASE_META = "_mce_lease"


class Keys:
    """Redis key names of one crawl."""

    def __init__(self, crawl_id: str):
        self.crawl_id = crawl_id
        self.prefix = f"mce:{crawl_id}:"
        self.queue = self.prefix + "requests"  # scrapy-redis priority queue (zset)
        self.dupefilter = self.prefix + "dupefilter"  # scrapy-redis request fingerprints (set)
        self.worker_seq = self.prefix + "worker_seq"  # counter behind automatic worker ids
        self.workers = self.prefix + "workers"  # zset worker -> heartbeat deadline (ms, Redis clock)
        self.written = self.prefix + "written"  # hash canonical URL -> worker that wrote it
        self.pending = self.prefix + "pending"  # hash canonical URL -> worker writing it now

    def worker(self, wid: str) -> str:
        return f"{self.prefix}worker:{wid}"  # hash: host, pid, feeds

    def leases(self, wid: str) -> str:
        return f"{self.prefix}leases:{wid}"  # hash: serialized request -> queue score

    def pending_of(self, wid: str) -> str:
        return f"{self.prefix}pending:{wid}"  # set of canonical URLs the worker claimed

    def polite(self, host: str) -> str:
        return f"{self.prefix}polite:{host}"  # next free request time of a host (us, Redis clock)

    def paused(self, host: str) -> str:
        return f"{self.prefix}paused:{host}"  # a host's Retry-After: no request before (us, Redis clock)


def crawl_id(settings, spidercls=None) -> str:
    return settings.get("MCE_CRAWL_ID") or getattr(spidercls, "name", None) or "crawl"


# A Redis reply taking longer than this means Redis is gone (every call is O(1) or O(bands)):
# scrapy-redis's own default (scrapy_redis.defaults.REDIS_PARAMS).
SOCKET_TIMEOUT = 30
SOCKET_CONNECT_TIMEOUT = 30
# Ping a connection idle this long before reusing it (redis-py docs, "health checks").
HEALTH_CHECK_INTERVAL = 30


def connect(url: str):
    """A redis-py client for ``url`` (bytes replies: queue entries are pickles)."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_CONNECT_TIMEOUT,
                                health_check_interval=HEALTH_CHECK_INTERVAL)


def shown(url: str) -> str:
    """``url`` without its password, for logs."""
    from urllib.parse import urlsplit, urlunsplit

    p = urlsplit(url)
    if not p.password:
        return url
    return urlunsplit(p._replace(netloc=p.netloc.replace(f":{p.password}@", ":***@")))


def enabled(settings) -> bool:
    return bool(settings.get("MCE_REDIS_URL"))


def host_name() -> str:
    return socket.gethostname()


class RedisAddon:
    """Switches the crawl to the shared frontier when ``MCE_REDIS_URL`` is set.

    Sets scrapy-redis's settings (scheduler, queue, dupefilter, keys under the crawl id), assigns
    this process a worker id (``w<n>``, from a Redis counter, so the same command can run
    everywhere) and puts it into the default feed name: ``output/<spider>/<time>-<worker>.jsonl``.
    The distributed components in ``mcecrawl/settings.py`` turn themselves on from the same setting.
    """

    def __init__(self, crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def update_settings(self, settings) -> None:
        url = settings.get("MCE_REDIS_URL")
        if not url:
            raise NotConfigured
        from mcecrawl.exporters import DEFAULT_FEED

        keys = Keys(crawl_id(settings, self.crawler.spidercls))
        server = connect(url)
        try:
            wid = settings.get("MCE_WORKER_ID") or f"w{server.incr(keys.worker_seq)}"
        except Exception as exc:  # redis.ConnectionError and friends: say what to do
            raise RuntimeError(f"MCE_REDIS_URL={shown(url)}: Redis is not reachable ({exc}); start redis-server "
                               f"or run without -s MCE_REDIS_URL for a single-process crawl") from exc

        def force(name, value):  # over the project defaults; values given with -s were read above
            settings.set(name, value, priority=max(settings.getpriority(name) or 0, 20))

        force("MCE_CRAWL_ID", keys.crawl_id)
        force("MCE_WORKER_ID", wid)
        force("REDIS_URL", url)
        force("SCHEDULER", "mcecrawl.distributed.scheduler.LeasedScheduler")
        force("DUPEFILTER_CLASS", "scrapy_redis.dupefilter.RFPDupeFilter")
        force("SCHEDULER_QUEUE_CLASS", "scrapy_redis.queue.PriorityQueue")
        force("SCHEDULER_QUEUE_KEY", keys.queue)
        force("SCHEDULER_DUPEFILTER_KEY", keys.dupefilter)
        force("SCHEDULER_PERSIST", True)  # the same crawl id resumes; a new id starts afresh
        # AutoThrottle tunes one process's delay from its own latencies; the shared per-host
        # schedule (mcecrawl.distributed.politeness) is what spaces requests across workers.
        force("AUTOTHROTTLE_ENABLED", False)
        feeds = settings.getdict("FEEDS")
        if DEFAULT_FEED in feeds:
            opts = feeds.pop(DEFAULT_FEED)
            feeds[DEFAULT_FEED.replace("%(time)s", "%(time)s-" + wid)] = opts
            settings.set("FEEDS", feeds, priority=max(settings.getpriority("FEEDS") or 0, 40) + 1)
        logger.info("Distributed crawl %r on %s: this process is worker %s (pid %d)", keys.crawl_id, shown(url), wid,
                    os.getpid())
