"""Helpers for the per-site spider tests: a spider bound to a crawler (stats, settings) and
responses built from the bundled fixture files, so page-level rules are tested without a crawl."""
from __future__ import annotations

from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from mcecrawl.demo.server import FixtureServer, site_dir

MIRROR = "http://127.0.0.1:9"  # never contacted: responses are built from files


def make_spider(cls, **kwargs):
    crawler = get_crawler(cls)
    crawler._apply_settings()
    return cls.from_crawler(crawler, base_url=MIRROR, **kwargs)


def fixture_response(site: str, path: str, *, status: int | None = None, meta: dict | None = None) -> HtmlResponse:
    """The response the fixture server gives for ``path`` (status and Content-Type overrides included)."""
    server = FixtureServer(site_dir(site))
    try:
        code, headers, body = server.respond(path)
    finally:
        server.httpd.server_close()
    url = MIRROR + path
    return HtmlResponse(url, status=status or code, headers=headers, body=body,
                        request=Request(url, meta=dict(meta or {})))


def parse(spider, site: str, path: str, **kwargs) -> list:
    """Items ``parse_article`` yields for the fixture page at ``path``."""
    return list(spider.parse_article(fixture_response(site, path, **kwargs)))


def statuses(items: list) -> list:
    """The ``status`` of each item (``not_article`` pages are items too)."""
    return [item.get("status") for item in items]


def stat(spider, key: str) -> int:
    return spider.crawler.stats.get_value(key, 0)
