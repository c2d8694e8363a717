"""The baseline of bench_crawl.py: bare Scrapy fetching the same sitemap URLs and doing nothing.

Run by ``scrapy runspider`` outside the project (Scrapy's default settings, no mcecrawl component).
"""
from urllib.parse import urlsplit, urlunsplit

import scrapy
from scrapy.utils.sitemap import Sitemap


class BareSpider(scrapy.Spider):
    name = "bare"

    def __init__(self, base_url: str, **kwargs):
        super().__init__(**kwargs)
        self.base = urlsplit(base_url)

    def local(self, url: str) -> str:
        p = urlsplit(url)
        return urlunsplit((self.base.scheme, self.base.netloc, p.path, p.query, ""))

    async def start(self):
        yield scrapy.Request(self.local("/sitemap.xml"), callback=self.parse_sitemap)

    def parse_sitemap(self, response):
        for entry in Sitemap(response.body):
            callback = self.parse_sitemap if "sitemap" in entry["loc"] else self.parse_article
            yield scrapy.Request(self.local(entry["loc"]), callback=callback)

    def parse_article(self, response):
        return None
