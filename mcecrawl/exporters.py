"""JSON-lines feeds that stay valid: sanitised strings, one flushed line per item.

Registered for the ``jsonlines`` and ``jsonl`` formats (``FEED_EXPORTERS``), so the default
per-run feed and ``-O file.jsonl`` both use it.  Scrapy's stock exporter raises on a lone surrogate
(the item is lost) and writes raw U+2028/U+0085, which ``str.splitlines()`` readers split into
several records (docs/decisions.md c.3).  Read the files line by ``\\n``.
"""
from __future__ import annotations

import json
import re
from typing import Any

from itemadapter import ItemAdapter
from scrapy.exporters import BaseItemExporter

from mcecrawl.config import Config

# Lone surrogates (undecodable bytes smuggled through surrogateescape) and C0 controls except
# \t \n \r; DEL and C1 are kept except U+0085 (a line break for splitlines()).
_DROP = re.compile(r"[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f]")
# Characters that str.splitlines() treats as line breaks but JSON leaves raw (docs/decisions.md c.3).
_ESCAPE = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}
_ESCAPE_RE = re.compile("[\u2028\u2029\u0085]")


def sanitize(value: Any) -> Any:
    """Strings without lone surrogates and C0 controls (except tab/newline/CR), recursively."""
    if isinstance(value, str):
        return _DROP.sub("", value)
    if isinstance(value, dict):
        return {sanitize(k): sanitize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [sanitize(v) for v in value]
    return value


# What json.dumps(ensure_ascii=False) leaves in a line when the record holds something sanitize()
# drops: lone surrogates stay raw (found by a strict UTF-8 encode: a scan of a character class over
# a wide string is ~5x slower), C0 controls become \u00XX, \b or \f (\t \n \r are kept).  A
# backslash written in the text itself can match too: that only costs the slow path.
_NEEDS_SANITIZE_RE = re.compile(r"\\u00[01]|\\[bf]")


def _needs_sanitize(line: str) -> bool:
    if _NEEDS_SANITIZE_RE.search(line):
        return True
    if line.isascii():
        return False
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # only lone surrogates fail a strict UTF-8 encode
        return True
    return False


def dumps_line(record: dict) -> str:
    """One JSON record on one line, UTF-8 friendly, with the splitlines() breakers escaped."""
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    if _needs_sanitize(line):  # rare: serialise the sanitised record instead
        line = json.dumps(sanitize(record), ensure_ascii=False, separators=(",", ":"), default=str)
    if any(ch in line for ch in _ESCAPE):  # str's own search, faster than a regex scan
        line = _ESCAPE_RE.sub(lambda m: _ESCAPE[m.group()], line)
    return line + "\n"


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
