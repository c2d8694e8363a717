"""Item pipelines.  ``ExtractionPipeline`` comes first, then corpus quality and the search index (docs/architecture.md).

ExtractionPipeline: the spider yields an :class:`~mcecrawl.items.ArticleItem` with the page as
UTF-8 bytes in ``html`` and the site profile's ``algorithm``/``params``; this turns it into an
:class:`~mcecrawl.extraction.ExtractionJob`, runs it, fills ``text``/``paragraphs``/``status``/
``reason``/``content_sha1``/``extraction_ms`` from the outcome, and drops ``html``.  Empty and failed
extractions are written with their status and reason (``MCE_REJECTS_FEED`` can route them to a
separate feed), never dropped silently.  URL de-duplication is the spider's
(:class:`mcecrawl.spiders.base.SeenURLs`), not this pipeline's.
"""
from __future__ import annotations

import hashlib
import logging
import sqlite3
import time
import weakref
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from mcecrawl.algorithms import DEFAULT_ALGORITHM
from mcecrawl.config import Config
from mcecrawl.exporters import sanitize
from mcecrawl.extraction import ExtractionJob, ExtractionOutcome, run_job
from mcecrawl.items import SCHEMA_VERSION

if TYPE_CHECKING:
    from mcecrawl.corpus.quality import TextQuality

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Main-content extraction with the site's algorithm; statuses counted in ``mcecrawl/items/*``.

    With ``MCE_EXTRACTION_WORKERS`` > 0 the extraction runs in that many worker processes
    (:mod:`mcecrawl.extraction.pool`), so it overlaps with downloading and parsing on another
    core instead of stalling the crawl's one thread (BENCHMARKS.md); 0 extracts in the crawl process.
    Stats: ``mcecrawl/items/status/<status>``, ``mcecrawl/extraction/{ms_total,cpu_ms_total,worker_died}``
    (wall and CPU milliseconds of the extractions, wherever they ran).
    """

    def __init__(self, crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.workers = Config.from_settings(crawler.settings).extraction_workers
        self._bad_config: set[str] = set()
        self._pool = None
        self._corpus: CorpusQualityPipeline | None = None  # the text steps it wants done with the extraction

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    async def open_spider(self) -> None:
        try:
            self._corpus = self.crawler.get_item_pipeline(CorpusQualityPipeline)
        except (AttributeError, RuntimeError):  # a crawler without an engine (unit tests): no hand-over
            self._corpus = None
        if self.workers > 0:
            from mcecrawl.extraction.pool import WorkerPool

            self._pool = WorkerPool(self.workers)
            await self._pool.start()

    async def close_spider(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        page = adapter.get("html") or b""
        if isinstance(page, str):  # a spider of another project: the item's page is UTF-8 bytes
            page = page.encode("utf-8", "replace")
        if "html" in adapter:
            del adapter["html"]
        adapter.setdefault("schema_version", SCHEMA_VERSION)
        if adapter.get("status") in ("blocked", "not_article"):  # judged by the spider: nothing to extract
            self._fill(adapter, "", (), adapter["status"], adapter.get("reason") or "", 0.0)
            adapter.setdefault("page_type", None)
            adapter.setdefault("page_type_reason", "")
        else:
            outcome = await self._extract(adapter, page)
            # The spider judges the page by its extraction (page type, prose): extracted once, here.
            judge = getattr(getattr(self.crawler, "spider", None), "not_article_after_extraction", None)
            reason = judge(adapter, outcome) if judge is not None and adapter["status"] == "ok" else None
            if isinstance(reason, Deferred):  # the spider waits for what more pages will tell (news spider)
                reason = await maybe_deferred_to_future(reason)
            if reason:
                self._fill(adapter, "", (), "not_article", f"not an article: {reason}", adapter["extraction_ms"])
        status = adapter["status"]
        self.stats.inc_value(f"mcecrawl/items/status/{status}")
        if status != "ok":
            logger.info("%s: %s (%s)", status, adapter.get("url"), adapter.get("reason"))
        return item

    async def _extract(self, adapter: ItemAdapter, page: bytes) -> ExtractionOutcome:
        quality = None
        if self._corpus is not None and adapter.get("lang"):  # the declared language is the one it folds for
            quality = (adapter["lang"], self._corpus.quality.text_inputs(adapter))
        job = ExtractionJob(page, adapter.get("algorithm") or DEFAULT_ALGORITHM, dict(adapter.get("params") or {}),
                            adapter.get("url"), quality)
        result = None
        if self._pool is not None:
            from mcecrawl.extraction.pool import WorkerDied

            try:
                result = await self._pool.run(job)
            except WorkerDied as e:  # e.g. killed for memory: go on in the crawl process
                logger.error("Extraction worker died (%s); extracting in the crawl process from now on", e)
                self.stats.inc_value("mcecrawl/extraction/worker_died")
                self._pool = None
        if result is None:
            result = run_job(job)
        if result.config_error and job.algorithm not in self._bad_config:
            logger.error("Extraction misconfigured (%s %s): %s", job.algorithm, job.params, result.reason)
            self._bad_config.add(job.algorithm)
        # Not int() per item: a 2.7 ms extraction would count as 2 (the totals are per-page costs).
        self.stats.inc_value("mcecrawl/extraction/ms_total", round(result.ms, 3))
        self.stats.inc_value("mcecrawl/extraction/cpu_ms_total", round(result.cpu_ms, 3))
        if not adapter.get("title") and result.title:
            adapter["title"] = result.title
        adapter["params"] = result.params
        adapter["page_type"] = result.page_type
        adapter["page_type_reason"] = result.page_type_reason
        self._fill(adapter, result.text, result.paragraphs, result.status, result.reason, result.ms)
        if result.quality is not None and self._corpus is not None and adapter["text"] == result.text:
            self._corpus.hand_over(adapter.item, adapter["text"], result.quality)
        return result

    @staticmethod
    def _fill(adapter: ItemAdapter, text: str, paragraphs, status: str, reason: str, ms: float) -> None:
        text = sanitize(text or "")
        adapter["text"] = text
        adapter["paragraphs"] = [sanitize(p) for p in paragraphs]
        adapter["status"] = status
        adapter["reason"] = reason or ""
        adapter["content_sha1"] = hashlib.sha1(text.encode("utf-8")).hexdigest() if text else None
        adapter["extraction_ms"] = round(ms, 2)
        for key, default in (("authors", []), ("title", None), ("published", None), ("published_raw", None)):
            adapter.setdefault(key, default)


class CorpusQualityPipeline:
    """Normalised text, detected language, cross-run duplicates and calendar-aware dates.

    Runs after :class:`ExtractionPipeline` (``ITEM_PIPELINES`` 400 > 300) on the extracted
    ``text``; fills the fields of :data:`mcecrawl.corpus.quality.QUALITY_FIELDS` via
    :class:`~mcecrawl.corpus.quality.CorpusQuality`.  Duplicates are written with
    ``duplicate_of`` (the first copy's URL, possibly from an earlier run or another site) unless
    ``MCE_DEDUP_DROP`` is set.  Only items with text are checked for duplicates.

    Settings: ``MCE_CORPUS_ENABLED`` (True), ``MCE_NORMALIZE_DIGITS`` ("latin"),
    ``MCE_NORMALIZE_KEEP_HARAKAT`` (False), ``MCE_NORMALIZE_ZWNJ`` ("keep"), ``MCE_LANGID_ENABLED``
    (True), ``MCE_DEDUP_ENABLED`` (True), ``MCE_DEDUP_DB`` (SQLite path, shared by all spiders so
    syndication across sites is found), ``MCE_DEDUP_DROP`` (False), ``MCE_DEDUP_THRESHOLD`` (0.5),
    ``MCE_DATES_ENABLED`` (True), ``MCE_RECRAWL_UNCHANGED`` ("mark": a re-crawled URL with the
    same text is written with ``unchanged_since``; "skip": dropped).
    ``text_norm`` and the dates are computed by the extraction worker when ExtractionPipeline hands
    them over (:meth:`hand_over`; counted in ``text_steps_in_worker``), else here.
    Stats: ``mcecrawl/corpus/{items,text_steps_in_worker,recrawl/unchanged,recrawl/unchanged_skipped,
    recrawl/updated,
    lang_detected/<l>,lang_mismatch,lang_mismatch/<declared>-><detected>,
    duplicates/<kind>,duplicates/cross_site,duplicates_dropped,calendar/<c>,undated,ms_total}``.
    """

    def __init__(self, crawler):
        from mcecrawl.corpus.dedup import DedupStore
        from mcecrawl.corpus.quality import CorpusQuality

        settings = crawler.settings
        cfg = Config.from_settings(settings)
        self.stats = crawler.stats
        self.drop = cfg.dedup_drop
        self.unchanged = cfg.recrawl_unchanged
        if self.unchanged not in ("mark", "skip"):
            raise ValueError(f"MCE_RECRAWL_UNCHANGED must be mark or skip, not {self.unchanged!r}")
        store: Any = None  # DedupStore or its Redis twin (the same methods)
        if cfg.dedup_enabled:
            threshold = cfg.dedup_threshold
            if cfg.redis_url:  # shared by all workers (mcecrawl/distributed/dedup.py)
                from mcecrawl.distributed import shown
                from mcecrawl.distributed.dedup import RedisDedupStore

                store, path = RedisDedupStore.from_settings(settings, threshold), shown(cfg.redis_url)
            else:
                path = cfg.dedup_db or ":memory:"  # set empty: an in-memory store for this run only
                store = DedupStore(path, threshold=threshold)
            logger.info("Dedup store %s: %d texts from earlier runs", path, len(store))
        self.quality = CorpusQuality(
            store=store,
            normalize_params={"digits": cfg.normalize_digits, "harakat": cfg.normalize_keep_harakat,
                              "zwnj": cfg.normalize_zwnj},
            langid=cfg.langid_enabled,
            dates=cfg.dates_enabled,
        )
        if self.quality.langid:
            from mcecrawl.corpus.langid import warm_up

            warm_up()
        # TextQuality done by ExtractionPipeline's worker, per item, until this pipeline takes it.
        self._precomputed: weakref.WeakKeyDictionary[Any, tuple[str, TextQuality]] = weakref.WeakKeyDictionary()

    def hand_over(self, item: Any, text: str, quality: TextQuality) -> None:
        """``quality`` of ``text`` for ``item``, from an extraction worker (:meth:`CorpusQuality.apply`'s
        ``precomputed``).  Items that cannot be weakly referenced (dicts) are analysed here instead."""
        try:
            self._precomputed[item] = (text, quality)
        except TypeError:
            pass

    @classmethod
    def from_crawler(cls, crawler):
        from scrapy.exceptions import NotConfigured

        if not Config.from_settings(crawler.settings).corpus_enabled:
            raise NotConfigured("MCE_CORPUS_ENABLED is off")
        return cls(crawler)

    def close_spider(self) -> None:
        if self.quality.store is not None:
            self.quality.store.close()

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        t0 = time.perf_counter()
        try:
            precomputed = self._precomputed.pop(item, None)
        except TypeError:  # not weakly referable: never handed over
            precomputed = None
        try:
            self.quality.apply(adapter, html=None, precomputed=precomputed)
        except sqlite3.Error as exc:  # a locked/corrupt dedup store must not cost the item
            logger.error("Dedup store error, item written unchecked: %s (%s)", exc, adapter.get("url"))
            self.stats.inc_value("mcecrawl/corpus/dedup_errors")
            store, self.quality.store = self.quality.store, None
            try:
                self.quality.apply(adapter, html=None, precomputed=precomputed)
            finally:
                self.quality.store = store
        inc = self.stats.inc_value
        inc("mcecrawl/corpus/items")
        if self.quality.precomputed_used:  # the text steps this item needed were done by its extraction worker
            inc("mcecrawl/corpus/text_steps_in_worker", self.quality.precomputed_used)
            self.quality.precomputed_used = 0
        inc("mcecrawl/corpus/ms_total", round((time.perf_counter() - t0) * 1000, 3))  # sub-ms: no int()
        if adapter.get("lang_detected"):
            inc(f"mcecrawl/corpus/lang_detected/{adapter['lang_detected']}")
        if adapter.get("lang_mismatch"):
            inc("mcecrawl/corpus/lang_mismatch")
            inc(f"mcecrawl/corpus/lang_mismatch/{adapter.get('lang')}->{adapter['lang_detected']}")
            logger.info("Language mismatch: declared %s, detected %s (%.2f): %s", adapter.get("lang"),
                        adapter["lang_detected"], adapter.get("lang_confidence") or 0.0, adapter.get("url"))
        inc(f"mcecrawl/corpus/calendar/{adapter['calendar']}" if adapter.get("calendar") else "mcecrawl/corpus/undated")
        if adapter.get("previous_content_sha1"):
            inc("mcecrawl/corpus/recrawl/updated")
        if adapter.get("unchanged_since"):
            inc("mcecrawl/corpus/recrawl/unchanged")
            if self.unchanged == "skip":
                inc("mcecrawl/corpus/recrawl/unchanged_skipped")
                raise DropItem(f"unchanged since {adapter['unchanged_since']}: {adapter.get('canonical_url')}")
        if adapter.get("duplicate_of"):
            inc(f"mcecrawl/corpus/duplicates/{adapter.get('duplicate_kind')}")
            if adapter.get("duplicate_cross_site"):
                inc("mcecrawl/corpus/duplicates/cross_site")
            if self.drop:
                inc("mcecrawl/corpus/duplicates_dropped")
                raise DropItem(f"{adapter.get('duplicate_kind')} duplicate of {adapter['duplicate_of']}")
        return item


class SearchIndexPipeline:
    """Index items into the embedded SQLite search index while crawling.

    Off the reactor's hot path: items are buffered and every ``MCE_SEARCH_INDEX_BATCH_SIZE``
    items one batch is written in a thread (``deferToThread``); batches are chained, so only one
    thread touches the database at a time.  ``close_spider`` flushes the rest and waits.  A
    search-index failure is logged and counted, never lost items: the JSONL feed stays the record.

    Settings: ``MCE_SEARCH_INDEX_ENABLED`` (False), ``MCE_SEARCH_INDEX_DB`` (SQLite path),
    ``MCE_SEARCH_INDEX_BATCH_SIZE`` (200).
    Stats: ``mcecrawl/search_index/{added,updated,unchanged,skipped,batches,errors}``.
    """

    # Only what the index reads; a copy, because later components may change the item.
    FIELDS = ("url", "canonical_url", "site", "lang", "title", "published", "text", "status")

    def __init__(self, crawler, path: str, batch_size: int):
        from twisted.internet.defer import succeed

        self.stats = crawler.stats
        self.path = path
        self.batch_size = max(1, batch_size)
        self.buffer: list[dict] = []
        self.index: Any = None  # mcecrawl.search.index.SearchIndex once open
        self._pending: Any = succeed(None)  # Deferred chain of the batches, in order

    @classmethod
    def from_crawler(cls, crawler):
        from scrapy.exceptions import NotConfigured

        cfg = Config.from_settings(crawler.settings)
        if not cfg.search_index_enabled:
            raise NotConfigured("MCE_SEARCH_INDEX_ENABLED is off")
        if not cfg.search_index_db:
            raise NotConfigured("MCE_SEARCH_INDEX_DB is not set")
        return cls(crawler, cfg.search_index_db, cfg.search_index_batch_size)

    def open_spider(self) -> None:
        from mcecrawl.search.index import SearchIndex

        self.index = SearchIndex(self.path)
        logger.info("Search index %s: %d documents", self.path, len(self.index))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        self.buffer.append({k: adapter.get(k) for k in self.FIELDS})
        if len(self.buffer) >= self.batch_size:
            self._flush()
        return item

    def _flush(self) -> None:
        from twisted.internet.threads import deferToThread

        batch, self.buffer = self.buffer, []
        self._pending.addCallback(lambda _: deferToThread(self.index.add, batch))
        self._pending.addCallbacks(self._count, self._failed)

    def _count(self, report) -> None:
        self.stats.inc_value("mcecrawl/search_index/batches")
        for key in ("added", "updated", "unchanged", "skipped"):
            self.stats.inc_value(f"mcecrawl/search_index/{key}", getattr(report, key))

    def _failed(self, failure) -> None:
        self.stats.inc_value("mcecrawl/search_index/errors")
        logger.error("Search index %s: batch not indexed: %s", self.path, failure.getErrorMessage())

    def close_spider(self):
        from twisted.internet.threads import deferToThread

        if self.buffer:
            self._flush()
        # Statistics for fast common-term queries (mcecrawl.search.index.COMMON_TERM_SHARE).
        self._pending.addCallback(lambda _: deferToThread(self.index.refresh_statistics))
        self._pending.addErrback(self._failed)
        self._pending.addBoth(lambda _: self.index.close())
        return self._pending
