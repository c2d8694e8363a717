"""The exact and near-duplicate store in Redis, shared by every process of a crawl, a ``from-warc``
run or a datatrove pipeline on many machines (beside the SQLite
:class:`mcecrawl.corpus.dedup.DedupStore`: same check sequence, same signatures, same thresholds,
same answers).  Open either from one string with :func:`mcecrawl.corpus.dedup.open_dedup_store`.

* exact: ``<prefix>:docs`` hash, SHA-1 of ``text_norm`` -> first copy's URL and site;
* near: MinHash LSH banding over the one-permutation signatures of
  :func:`mcecrawl.corpus.dedup.signature`, with the bands and rows datasketch's ``MinHashLSH``
  chooses for the threshold (``b``, ``r``); each band's bucket is a Redis set
  ``<prefix>:band:<i>:<band bytes>`` of SHA-1s; candidates are confirmed by the estimated Jaccard
  against ``<prefix>:sigs``.  (datasketch's own Redis storage makes one round trip per band and
  per operation, ~60 per article, BENCHMARKS.md; here a query is one pipeline, an insert another.)
* ``<prefix>:meta``: the signature parameters, so a store is never mixed across them;
* ``<prefix>:batch:<name>``: what an open batch wrote (:meth:`DedupSequence.begin_batch`).

Query-and-insert runs under one Redis lock (redis-py's ``Lock``: SET NX PX, a token checked on
release), so two workers never both keep near-duplicate copies as originals.  ``<prefix>:urls``
keeps each URL's latest text, so a text seen again at the same URL (a re-crawl, or a re-fetch after
a worker died) is ``unchanged_since``, never its own duplicate, and a changed one is an update.

Scrapy-free: the archive path and datatrove workers import it without the crawler.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from mcecrawl.corpus.dedup import (
    NEAR_DUP_MIN_CHARS,
    NEAR_DUP_THRESHOLD,
    NUM_PERM,
    SEED,
    SHINGLE_CHARS,
    DedupSequence,
    FirstCopy,
    UrlRecord,
    estimate_jaccard,
)

__all__ = ["RedisDedupStore"]

# Longest a holder may keep the lock: a check takes ~1 ms (BENCHMARKS.md), and a killed holder's
# lock blocks every worker's dedup until it expires.  Longest a worker waits for it.
LOCK_TIMEOUT = 2.0
LOCK_WAIT = 60.0
# How often a waiting worker retries the lock (redis-py's default, 0.1 s, is a sleep of the whole
# event loop): a check holds it ~1 ms.
LOCK_POLL = 0.002
# A Redis reply taking longer than this means Redis is gone (every call is O(1) or O(bands)):
# scrapy-redis's own default (scrapy_redis.defaults.REDIS_PARAMS), as the crawl's connections.
SOCKET_TIMEOUT = 30
# Ping a connection idle this long before reusing it (redis-py docs, "health checks").
HEALTH_CHECK_INTERVAL = 30
# Rolling back a batch: members handled per round trip, and the longest the rollback may hold the lock
# (one WARC's records, ~1,000 a second here; a check waits LOCK_WAIT at most).
ROLLBACK_CHUNK = 500
ROLLBACK_LOCK_TIMEOUT = 50.0


class RedisDedupStore(DedupSequence):
    """``check(text_norm, url, site)`` of :class:`mcecrawl.corpus.dedup.DedupSequence`, in Redis: under
    the lock, one round trip to look up, one for the near candidates (when there are any), one to
    record."""

    def __init__(self, url: str, prefix: str = "mce:dedup", *, threshold: float = NEAR_DUP_THRESHOLD,
                 num_perm: int = NUM_PERM, min_chars: int = NEAR_DUP_MIN_CHARS, repeats_are_copies: bool = False):
        import redis
        from datasketch import MinHashLSH

        self.server = redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT,
                                           health_check_interval=HEALTH_CHECK_INTERVAL)
        self.prefix = prefix
        self.threshold = threshold
        self.num_perm = num_perm
        self.min_chars = min_chars
        self.repeats_are_copies = repeats_are_copies
        self.source = None
        lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)  # in memory: only its band layout
        self.bands = [(i * lsh.r, (i + 1) * lsh.r) for i in range(lsh.b)]
        self._docs = f"{prefix}:docs"
        self._sigs = f"{prefix}:sigs"
        self._urls = f"{prefix}:urls"  # URL -> its latest text's SHA-1 and first-seen time (re-crawls)
        self._lock = self.server.lock(f"{prefix}:lock", timeout=LOCK_TIMEOUT, sleep=LOCK_POLL,
                                      blocking_timeout=LOCK_WAIT)
        self._seen_raw: tuple[Any, bool] = (None, False)  # the last lookup's URL record, and if the batch wrote it
        self._check_meta()

    def _check_meta(self) -> None:
        expected = {"seed": str(SEED), "num_perm": str(self.num_perm), "shingle_chars": str(SHINGLE_CHARS)}
        key = f"{self.prefix}:meta"
        pipe = self.server.pipeline()
        for k, v in expected.items():
            pipe.hsetnx(key, k, v)
        pipe.hgetall(key)
        stored = {k.decode(): v.decode() for k, v in pipe.execute()[-1].items()}
        if stored != expected:
            raise ValueError(f"Redis store {self.prefix} was built with {stored}, this code uses {expected}")

    @classmethod
    def from_settings(cls, settings: Any, threshold: float) -> "RedisDedupStore":
        return cls(settings.get("MCE_REDIS_URL"), settings.get("MCE_REDIS_DEDUP_PREFIX"), threshold=threshold)

    def __len__(self) -> int:
        return int(self.server.hlen(self._docs))

    def _band_keys(self, sig: np.ndarray) -> list[bytes]:
        return [f"{self.prefix}:band:{i}:".encode() + sig[a:b].tobytes() for i, (a, b) in enumerate(self.bands)]

    def _batch(self, name: str) -> str:
        return f"{self.prefix}:batch:{name}"

    def _atomic(self) -> Any:
        return self._lock

    def _lookup(self, url: str, sha1: str, sig: np.ndarray | None) -> tuple[UrlRecord | None, FirstCopy | None, Any]:
        """One round trip: the URL's record, the text's first copy, and the near-duplicate candidates
        (the SHA-1s sharing a band with ``sig``), fetched together whether needed or not."""
        pipe = self.server.pipeline()  # MULTI/EXEC: one round trip, and countable in MONITOR
        pipe.hget(self._urls, url)
        pipe.hget(self._docs, sha1)
        if self.source is not None:
            pipe.sismember(self._batch(self.source), "u" + url)
        for key in self._band_keys(sig) if sig is not None else ():
            pipe.smembers(key)
        seen, first, *buckets = pipe.execute()
        in_batch = bool(buckets.pop(0)) if self.source is not None else False
        seen = json.loads(seen) if seen else None
        self._seen_raw = seen, in_batch
        first = json.loads(first) if first else None
        return (UrlRecord(seen["sha1"], seen.get("content_sha1"), seen["first_seen"]) if seen else None,
                FirstCopy(first["url"], first["site"]) if first else None,
                sorted(set().union(*buckets)) if buckets else [])

    def _nearest(self, sig: np.ndarray, url: str, candidates: Any) -> tuple[FirstCopy, float] | None:
        """One round trip for all candidates' first copies and signatures; none without candidates."""
        if not candidates:
            return None
        pipe = self.server.pipeline()
        pipe.hmget(self._docs, candidates)
        pipe.hmget(self._sigs, candidates)
        docs, blobs = pipe.execute()
        best: tuple[FirstCopy, float] | None = None
        for doc, blob in zip(docs, blobs):
            other = json.loads(doc) if doc else None
            if not blob or other is None or other["url"] == url:  # an earlier version of this URL
                continue
            sim = estimate_jaccard(sig, np.frombuffer(blob, dtype=np.uint64))
            if best is None or sim > best[1]:
                best = FirstCopy(other["url"], other["site"]), sim
        return best

    def _record(self, url: str, seen: UrlRecord, new: FirstCopy | None, sig: np.ndarray | None, chars: int,
                now: str) -> None:
        """One round trip: the URL's record, and the text as a first copy if it is one."""
        pipe = self.server.pipeline()
        if new is not None:
            pipe.hset(self._docs, seen.sha1, json.dumps({"url": new.url, "site": new.site, "source": self.source}))
            if sig is not None:
                pipe.hset(self._sigs, seen.sha1, sig.tobytes())
                for key in self._band_keys(sig):
                    pipe.sadd(key, seen.sha1)
            if self.source is not None:
                pipe.sadd(self._batch(self.source), "d" + seen.sha1)
        record: dict[str, Any] = {"sha1": seen.sha1, "content_sha1": seen.content_sha1, "first_seen": seen.first_seen}
        if self.source is not None:
            raw, in_batch = self._seen_raw
            # the record before the batch first wrote this URL (None: it had none)
            record["source"] = self.source
            record["prev"] = raw.get("prev") if in_batch and raw else \
                ({k: v for k, v in raw.items() if k != "prev"} if raw else None)
            pipe.sadd(self._batch(self.source), "u" + url)
        pipe.hset(self._urls, url, json.dumps(record))
        pipe.execute()

    def end_batch(self) -> None:
        if self.source is not None:
            self.server.delete(self._batch(self.source))
        self.source = None

    def rollback_batch(self, name: str) -> int:
        batch = self._batch(name)
        undone = 0
        with self.server.lock(f"{self.prefix}:lock", timeout=ROLLBACK_LOCK_TIMEOUT, sleep=LOCK_POLL,
                              blocking_timeout=LOCK_WAIT):
            members = sorted(self.server.smembers(batch))
            for start in range(0, len(members), ROLLBACK_CHUNK):
                chunk = members[start:start + ROLLBACK_CHUNK]
                sha1s = [m[1:] for m in chunk if m[:1] == b"d"]
                urls = [m[1:] for m in chunk if m[:1] == b"u"]
                pipe = self.server.pipeline()
                pipe.hmget(self._docs, sha1s or [b""])
                pipe.hmget(self._sigs, sha1s or [b""])
                pipe.hmget(self._urls, urls or [b""])
                docs, sigs, records = pipe.execute()
                pipe = self.server.pipeline()
                for sha1, doc, blob in zip(sha1s, docs, sigs):
                    if not doc or json.loads(doc).get("source") != name:  # rewritten since: not ours
                        continue
                    if blob:
                        for key in self._band_keys(np.frombuffer(blob, dtype=np.uint64)):
                            pipe.srem(key, sha1)
                    pipe.hdel(self._docs, sha1)
                    pipe.hdel(self._sigs, sha1)
                    undone += 1
                for url, raw in zip(urls, records):
                    rec = json.loads(raw) if raw else None
                    if rec is None or rec.get("source") != name:
                        continue
                    if rec.get("prev") is None:
                        pipe.hdel(self._urls, url)
                    else:
                        pipe.hset(self._urls, url, json.dumps(rec["prev"]))
                    undone += 1
                pipe.execute()
            self.server.delete(batch)
        return undone

    def commit(self) -> None:
        """Every check is written when it returns."""

    def close(self) -> None:
        self.server.close()

    def __enter__(self) -> "RedisDedupStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
