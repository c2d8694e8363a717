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

import hashlib
import json
from dataclasses import replace
from datetime import datetime, timezone

import numpy as np

from mcecrawl.corpus.dedup import (
    NEAR_DUP_MIN_CHARS,
    NEAR_DUP_THRESHOLD,
    NUM_PERM,
    DedupResult,
    copy_of,
    estimate_jaccard,
    signature,
    unchanged,
)

# Longest a holder may keep the lock: a check takes ~1 ms (BENCHMARKS.md), and a killed holder's
# lock blocks every worker's dedup until it expires.  Longest a worker waits for it.
LOCK_TIMEOUT = 2.0
LOCK_WAIT = 60.0
# How often a waiting worker retries the lock (redis-py's default, 0.1 s, is a sleep of the whole
# event loop): a check holds it ~1 ms.
LOCK_POLL = 0.002


class RedisDedupStore:
    """``check(text_norm, url, site)`` as :class:`mcecrawl.corpus.dedup.DedupStore`, in Redis."""

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

    def check(self, text_norm: str, url: str, site: str | None = None, *, record: bool = True,
              content_sha1: str | None = None) -> DedupResult:
        """As :meth:`mcecrawl.corpus.dedup.DedupStore.check`: same URL and same text is
        ``unchanged_since`` (never its own duplicate), same URL and new text an update with
        ``previous_content_sha1``; ``duplicate_of`` always names another URL."""
        if not text_norm or not text_norm.strip():
            return DedupResult()
        sha1 = hashlib.sha1(text_norm.encode("utf-8")).hexdigest()
        sig = signature(text_norm) if len(text_norm) >= self.min_chars else None
        bands = self._band_keys(sig) if sig is not None else []
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._lock:
            pipe = self.server.pipeline()  # MULTI/EXEC: one round trip, and countable in MONITOR
            pipe.hget(self._urls, url)
            pipe.hget(self._docs, sha1)
            for key in bands:
                pipe.smembers(key)
            seen, row, *buckets = pipe.execute()
            seen = json.loads(seen) if seen else None
            first = json.loads(row) if row else None
            since = seen["first_seen"] if seen else None
            verdict = unchanged(url, sha1, seen["sha1"] if seen else None, since,
                                first["url"] if first else None, first["site"] if first else None, site)
            if verdict is not None:
                if record:
                    self._remember(url, sha1, content_sha1, since or now)
                return verdict
            previous = (seen.get("content_sha1") or seen["sha1"]) if seen is not None else None
            result = self._copy_of(sha1, sig, bands, buckets, first, url, site, record)
            if record:
                self._remember(url, sha1, content_sha1, now)
        return replace(result, previous_content_sha1=previous) if previous else result

    def _copy_of(self, sha1, sig, bands, buckets, first, url, site, record) -> DedupResult:
        """The first copy of the text at another URL (exact, then near), recording a new text."""
        if first and first["url"] != url:
            return copy_of(first["url"], "exact", 1.0, first["site"], site)
        cands = sorted(set().union(*buckets)) if buckets else []
        if cands:
            best, best_first = 0.0, None
            docs = self.server.hmget(self._docs, cands)
            for key, blob, doc in zip(cands, self.server.hmget(self._sigs, cands), docs):
                other = json.loads(doc) if doc else None
                if not blob or other is None or other["url"] == url:  # an earlier version of this URL
                    continue
                sim = estimate_jaccard(sig, np.frombuffer(blob, dtype=np.uint64))
                if sim > best:
                    best, best_first = sim, other
            if best_first is not None and best >= self.threshold:
                return copy_of(best_first["url"], "near", best, best_first["site"], site)
        if record and first is None:
            pipe = self.server.pipeline()  # MULTI/EXEC: one round trip, and countable in MONITOR
            pipe.hset(self._docs, sha1, json.dumps({"url": url, "site": site}))
            if sig is not None:
                pipe.hset(self._sigs, sha1, sig.tobytes())
                for key in bands:
                    pipe.sadd(key, sha1)
            pipe.execute()
        return DedupResult()

    def _remember(self, url: str, sha1: str, content_sha1: str | None, first_seen: str) -> None:
        """The URL's latest text and since when it has had it."""
        self.server.hset(self._urls, url, json.dumps({"sha1": sha1, "content_sha1": content_sha1,
                                                      "first_seen": first_seen}))

    def close(self) -> None:
        self.server.close()
