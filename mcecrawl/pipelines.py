"""Item pipelines.  ``ExtractionPipeline`` (issue 5) comes first; other issues append theirs below.

ExtractionPipeline: the spider yields an :class:`~mcecrawl.items.ArticleItem` with the decoded
page in ``html`` and the site profile's ``algorithm``/``params``; this runs
:func:`mcecrawl.extract`, fills ``text``/``paragraphs``/``status``/``reason``/``content_sha1``/
``extraction_ms``, and drops ``html``.  Empty and failed extractions are written with their status
and reason (``MCE_REJECTS_FEED`` can route them to a separate feed), never dropped silently; a
canonical URL already written in this crawl (or in an earlier run of the same JOBDIR) is dropped as
a duplicate.
"""
from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from mcecrawl.exporters import sanitize
from mcecrawl.items import SCHEMA_VERSION

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Main-content extraction with the site's algorithm; statuses counted in ``mcecrawl/items/*``."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.written: set[str] = set()
        self._bad_config: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def _done_before(self, canonical_url: str) -> bool:
        from mcecrawl.extensions import DoneRecord

        record = self.crawler.get_extension(DoneRecord)
        return record is not None and record.contains(canonical_url)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        canon = adapter.get("canonical_url") or adapter.get("url")
        if canon in self.written or self._done_before(canon):
            self.stats.inc_value("mcecrawl/items/duplicate_dropped")
            raise DropItem(f"already written: {canon}")
        html = adapter.get("html") or ""
        if "html" in adapter:
            del adapter["html"]
        adapter.setdefault("schema_version", SCHEMA_VERSION)
        if adapter.get("status") == "blocked":
            self._fill(adapter, "", (), "blocked", adapter.get("reason") or "anti-bot challenge page", 0.0)
        else:
            self._extract(adapter, html)
        self.written.add(canon)
        status = adapter["status"]
        self.stats.inc_value(f"mcecrawl/items/status/{status}")
        if status != "ok":
            logger.info("%s: %s (%s)", status, adapter.get("url"), adapter.get("reason"))
        return item

    def _extract(self, adapter: ItemAdapter, html: str) -> None:
        import mcecrawl

        algorithm = adapter.get("algorithm") or "dana"
        params = dict(adapter.get("params") or {})
        t0 = time.perf_counter()
        try:
            result = mcecrawl.extract(html, algorithm=algorithm, url=adapter.get("url"), **params)
        except ValueError as e:  # unknown algorithm or parameter: a configuration error
            if algorithm not in self._bad_config:
                logger.error("Extraction misconfigured (%s %s): %s", algorithm, params, e)
                self._bad_config.add(algorithm)
            ms = (time.perf_counter() - t0) * 1000
            self._fill(adapter, "", (), "error", f"configuration: {e}", ms)
            return
        ms = (time.perf_counter() - t0) * 1000
        self.stats.inc_value("mcecrawl/extraction/ms_total", int(ms))
        if not adapter.get("title") and result.title:
            adapter["title"] = result.title
        adapter["params"] = dict(result.params)
        self._fill(adapter, result.text, result.paragraphs, result.status, result.reason, ms)

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
