"""JSON-lines feeds that stay valid: sanitised strings, one flushed line per item.

Registered for the ``jsonlines`` and ``jsonl`` formats (``FEED_EXPORTERS``), so the default
per-run feed and ``-O file.jsonl`` both use it.  Scrapy's stock exporter raises on a lone surrogate
(the item is lost) and writes raw U+2028/U+0085, which ``str.splitlines()`` readers split into
several records (docs/decisions.md c.3).  Read the files line by ``\\n``.  The line format
(:func:`sanitize`, :func:`dumps_line`) comes from :mod:`mcecrawl.jsonlines`, re-exported here.
"""
from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter
from scrapy.exporters import BaseItemExporter

from mcecrawl.config import Config

# The line format itself lives in a Scrapy-free module (the archives path writes it too); re-exported.
from mcecrawl.jsonlines import dumps_line as dumps_line
from mcecrawl.jsonlines import sanitize as sanitize


class SafeJsonLinesItemExporter(BaseItemExporter):
    """JSON lines with sanitised strings; flushes after every item so a crash loses no finished line."""

    def __init__(self, file, **kwargs):
        super().__init__(dont_fail=True, **kwargs)
        self.file = file
        self.encoding = self.encoding or "utf-8"

    def export_item(self, item: Any) -> None:
        if self.fields_to_export is None and not self.export_empty_fields:
            # What get_serialized_fields gives here (serialize_field is the identity), without
            # its per-field generator and field-metadata look-ups (~35 fields per item).
            record = dict(ItemAdapter(item).items())
        else:
            record = dict(self.get_serialized_fields(item))
        self.file.write(dumps_line(record).encode(self.encoding or "utf-8", errors="backslashreplace"))
        self.file.flush()

    def serialize_field(self, field, name, value):
        return value


class AcceptedItems:
    """Feed item filter: articles with status ok (used when a separate rejects feed is set)."""

    def __init__(self, feed_options: dict | None = None):
        self.feed_options = feed_options

    def accepts(self, item: Any) -> bool:
        return ItemAdapter(item).get("status") == "ok"


class RejectedItems(AcceptedItems):
    """Feed item filter: empty / error / blocked pages (the rejects feed)."""

    def accepts(self, item: Any) -> bool:
        return not super().accepts(item)


# The project's default per-run feed (mcecrawl/settings.py FEEDS).
DEFAULT_FEED = "output/%(name)s/%(time)s.jsonl"


def configure_feeds(settings) -> None:
    """Drop the default per-run feed when ``-o``/``-O`` name an output, and split the feeds when
    ``MCE_REJECTS_FEED`` names a rejects feed path (default: one feed)."""
    from scrapy.settings import SETTINGS_PRIORITIES

    feeds = {uri: dict(opts) for uri, opts in settings.getdict("FEEDS").items()}
    # Scrapy's -o/-O add their feed to the project's FEEDS (feed_process_params_from_cli) instead
    # of replacing it: every item was serialised and written twice (BENCHMARKS.md, crawl section).
    explicit = settings.getpriority("FEEDS") == SETTINGS_PRIORITIES["cmdline"] and len(feeds) > 1
    dropped = explicit and feeds.pop(DEFAULT_FEED, None) is not None
    rejects = Config.from_settings(settings).rejects_feed
    if not rejects and not dropped:
        return
    if rejects:
        for opts in feeds.values():
            opts.setdefault("item_filter", AcceptedItems)
        feeds[rejects] = {"format": "jsonlines", "encoding": "utf-8", "item_filter": RejectedItems}
    # One above the current priority: CrawlerProcess.create_crawler re-applies the process
    # settings (project/cmdline FEEDS) at their own priority after Spider.update_settings.
    settings.set("FEEDS", feeds, priority=max(settings.getpriority("FEEDS") or 0, 30) + 1)
