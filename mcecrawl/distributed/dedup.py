"""The exact and near-duplicate store in Redis, shared by all workers (beside the SQLite
:class:`mcecrawl.corpus.dedup.DedupStore`: same signatures, same thresholds, same answers).

* exact: ``<prefix>:docs`` hash, SHA-1 of ``text_norm`` -> first copy's URL and site;
* near: MinHash LSH banding over the one-permutation signatures of
  :func:`mcecrawl.corpus.dedup.signature`, with the bands and rows datasketch's ``MinHashLSH``
  chooses for the threshold (``b``, ``r``); each band's bucket is a Redis set
  ``<prefix>:band:<i>:<band bytes>`` of SHA-1s; candidates are confirmed by the estimated Jaccard
  against ``<prefix>:sigs``.  (datasketch's own Redis storage makes one round trip per band and
  per operation, ~60 per article, BENCHMARKS.md; here a query is one pipeline, an insert another.)

Query-and-insert runs under one Redis lock (redis-py's ``Lock``: SET NX PX, a token checked on
release), so two workers never both keep near-duplicate copies as originals.  ``<prefix>:urls``
keeps each URL's latest text, so a text seen again at the same URL (a re-crawl, or a re-fetch after
a worker died) is ``unchanged_since``, never its own duplicate, and a changed one is an update.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from mcecrawl.corpus.dedup import (
    NEAR_DUP_MIN_CHARS,
    NEAR_DUP_THRESHOLD,
    NUM_PERM,
    DedupSequence,
    FirstCopy,
    UrlRecord,
    estimate_jaccard,
)

# Longest a holder may keep the lock: a check takes ~1 ms (BENCHMARKS.md), and a killed holder's
# lock blocks every worker's dedup until it expires.  Longest a worker waits for it.
LOCK_TIMEOUT = 2.0
LOCK_WAIT = 60.0
# How often a waiting worker retries the lock (redis-py's default, 0.1 s, is a sleep of the whole
# event loop): a check holds it ~1 ms.
LOCK_POLL = 0.002


class RedisDedupStore(DedupSequence):
    """``check(text_norm, url, site)`` of :class:`mcecrawl.corpus.dedup.DedupSequence`, in Redis: under
    the lock, one round trip to look up, one for the near candidates (when there are any), one to
    record."""

    def __init__(self, url: str, prefix: str, *, threshold: float = NEAR_DUP_THRESHOLD,
                 min_chars: int = NEAR_DUP_MIN_CHARS):
        from datasketch import MinHashLSH

        from mcecrawl.distributed import connect

        self.server = connect(url)
        self.prefix = prefix
        self.threshold = threshold
        self.min_chars = min_chars
        lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)  # in memory: only its band layout
        self.bands = [(i * lsh.r, (i + 1) * lsh.r) for i in range(lsh.b)]
        self._docs = f"{prefix}:docs"
        self._sigs = f"{prefix}:sigs"
        self._urls = f"{prefix}:urls"  # URL -> its latest text's SHA-1 and first-seen time (re-crawls)
        self._lock = self.server.lock(f"{prefix}:lock", timeout=LOCK_TIMEOUT, sleep=LOCK_POLL,
                                      blocking_timeout=LOCK_WAIT)

    @classmethod
    def from_settings(cls, settings, threshold: float) -> "RedisDedupStore":
        return cls(settings.get("MCE_REDIS_URL"), settings.get("MCE_REDIS_DEDUP_PREFIX"), threshold=threshold)

    def __len__(self) -> int:
        return self.server.hlen(self._docs)

    def _band_keys(self, sig: np.ndarray) -> list[bytes]:
        return [f"{self.prefix}:band:{i}:".encode() + sig[a:b].tobytes() for i, (a, b) in enumerate(self.bands)]

    def _atomic(self) -> Any:
        return self._lock

    def _lookup(self, url: str, sha1: str, sig: np.ndarray | None) -> tuple[UrlRecord | None, FirstCopy | None, Any]:
        """One round trip: the URL's record, the text's first copy, and the near-duplicate candidates
        (the SHA-1s sharing a band with ``sig``), fetched together whether needed or not."""
        pipe = self.server.pipeline()  # MULTI/EXEC: one round trip, and countable in MONITOR
        pipe.hget(self._urls, url)
        pipe.hget(self._docs, sha1)
        for key in self._band_keys(sig) if sig is not None else ():
            pipe.smembers(key)
        seen, first, *buckets = pipe.execute()
        seen = json.loads(seen) if seen else None
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
            pipe.hset(self._docs, seen.sha1, json.dumps({"url": new.url, "site": new.site}))
            if sig is not None:
                pipe.hset(self._sigs, seen.sha1, sig.tobytes())
                for key in self._band_keys(sig):
                    pipe.sadd(key, seen.sha1)
        pipe.hset(self._urls, url, json.dumps({"sha1": seen.sha1, "content_sha1": seen.content_sha1,
                                               "first_seen": seen.first_seen}))
        pipe.execute()

    def close(self) -> None:
        self.server.close()
