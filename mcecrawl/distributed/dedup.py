"""The crawl's shared duplicate store: :class:`mcecrawl.corpus.dedup_redis.RedisDedupStore`, the
same one ``from-warc --dedup-db redis://...`` and the datatrove steps use (its home is the corpus
package, which the Scrapy-free archive path imports; the crawl opens it with
:meth:`RedisDedupStore.from_settings`, ``MCE_REDIS_URL`` and ``MCE_REDIS_DEDUP_PREFIX``)."""
from __future__ import annotations

from mcecrawl.corpus.dedup_redis import LOCK_POLL, LOCK_TIMEOUT, LOCK_WAIT, RedisDedupStore

__all__ = ["LOCK_POLL", "LOCK_TIMEOUT", "LOCK_WAIT", "RedisDedupStore"]
