"""The exact and near-duplicate store in Redis, shared by all workers (beside the SQLite
:class:`mcecrawl.corpus.dedup.DedupStore`, same signatures, same answers).

* exact: ``<prefix>:docs`` hash, SHA-1 of ``text_norm`` -> first copy's URL and site;
* near: datasketch's ``MinHashLSH`` with its Redis storage (``storage_config={"type": "redis"}``,
  https://ekzhu.com/datasketch/lsh.html#minhash-lsh-at-scale) over the one-permutation signatures
  of :func:`mcecrawl.corpus.dedup.signature`; candidates are confirmed by the estimated Jaccard
  against ``<prefix>:sigs``.

Query-and-insert runs under one Redis lock (redis-py's ``Lock``: SET NX PX + a token checked on
release), so two workers can never both keep near-duplicate copies as originals.  A text seen again
at the same URL (a re-fetch after a worker died) is not its own duplicate.
"""
from __future__ import annotations

import hashlib
import json
from urllib.parse import urlsplit

from mcecrawl.corpus.dedup import NEAR_DUP_MIN_CHARS, NEAR_DUP_THRESHOLD, NUM_PERM, SEED, DedupResult, \
    estimate_jaccard, signature

# Longest a holder may keep the lock: a query + insert takes a few ms (BENCHMARKS.md), and a
# killed holder's lock blocks every worker until it expires.  Longest a worker waits for it.
LOCK_TIMEOUT = 2.0
LOCK_WAIT = 60.0


def _lean(sig):
    from datasketch import LeanMinHash

    return LeanMinHash(seed=SEED, hashvalues=sig, scheme="affine64")


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
        p = urlsplit(url)
        db = int(p.path.strip("/") or 0)
        self._lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM, storage_config={
            "type": "redis", "basename": f"{prefix}:lsh".encode(),
            "redis": {"host": p.hostname or "127.0.0.1", "port": p.port or 6379, "db": db,
                      **({"password": p.password} if p.password else {})}})
        self._docs = f"{prefix}:docs"
        self._sigs = f"{prefix}:sigs"
        self._lock = self.server.lock(f"{prefix}:lock", timeout=LOCK_TIMEOUT, blocking_timeout=LOCK_WAIT)

    @classmethod
    def from_settings(cls, settings, threshold: float) -> "RedisDedupStore":
        return cls(settings.get("MCE_REDIS_URL"), settings.get("MCE_REDIS_DEDUP_PREFIX"), threshold=threshold)

    def __len__(self) -> int:
        return self.server.hlen(self._docs)

    def check(self, text_norm: str, url: str, site: str | None = None, *, record: bool = True) -> DedupResult:
        if not text_norm or not text_norm.strip():
            return DedupResult()
        sha1 = hashlib.sha1(text_norm.encode("utf-8")).hexdigest()
        sig = signature(text_norm) if len(text_norm) >= self.min_chars else None
        with self._lock:
            row = self.server.hget(self._docs, sha1)
            if row:
                first = json.loads(row)
                if first["url"] == url:
                    return DedupResult()
                return DedupResult(first["url"], "exact", 1.0, first["site"],
                                   bool(site and first["site"] and site != first["site"]))
            if sig is not None:
                cands = sorted(self._lsh.query(_lean(sig)))
                best_key, best = None, 0.0
                if cands:
                    import numpy as np

                    for key, blob in zip(cands, self.server.hmget(self._sigs, cands)):
                        sim = estimate_jaccard(sig, np.frombuffer(blob, dtype=np.uint64)) if blob else 0.0
                        if sim > best:
                            best_key, best = key, sim
                if best_key is not None and best >= self.threshold:
                    first = json.loads(self.server.hget(self._docs, best_key))
                    if first["url"] != url:
                        return DedupResult(first["url"], "near", best, first["site"],
                                           bool(site and first["site"] and site != first["site"]))
            if record:
                pipe = self.server.pipeline()
                pipe.hset(self._docs, sha1, json.dumps({"url": url, "site": site}))
                if sig is not None:
                    pipe.hset(self._sigs, sha1, sig.tobytes())
                pipe.execute()
                if sig is not None:
                    self._lsh.insert(sha1, _lean(sig), check_duplication=False)
        return DedupResult()

    def close(self) -> None:
        self.server.close()
