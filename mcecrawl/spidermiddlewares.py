"""mcecrawl's Scrapy spider middlewares (order numbers: ``mcecrawl/settings.py``).

* :class:`WarcRecordIdSpiderMiddleware` (800, with ``MCE_WARC_ENABLED``) copies the WARC record id
  that :class:`mcecrawl.downloadermiddlewares.WarcArchiveMiddleware` put into the request meta into
  every item the spider yields for that response.

The downloader middlewares are in :mod:`mcecrawl.downloadermiddlewares`; the distributed crawl's
``SharedFrontierMiddleware`` lives with the rest of the Redis add-on in
:mod:`mcecrawl.distributed.record`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from mcecrawl.config import Config
from mcecrawl.downloadermiddlewares import WARC_META_KEY

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


class WarcRecordIdSpiderMiddleware:
    """Copy ``response.meta["warc_record_id"]`` into every item the spider yields for that response."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcRecordIdSpiderMiddleware:
        if not Config.from_settings(crawler.settings).warc_enabled:
            raise NotConfigured  # off by default: no "Disabled ..." warning on every crawl
        return cls(crawler)

    def _fill(self, item, response):
        from itemadapter import ItemAdapter, is_item

        record_id = response.meta.get(WARC_META_KEY) if response is not None else None
        if record_id and is_item(item):
            try:
                ItemAdapter(item)[WARC_META_KEY] = record_id
            except KeyError:  # an item class without the field
                pass
        return item

    def process_spider_output(self, response, result):
        for o in result:
            yield self._fill(o, response)

    async def process_spider_output_async(self, response, result):
        async for o in result:
            yield self._fill(o, response)
