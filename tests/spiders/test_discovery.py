"""Discovery parsers (mcecrawl/spiders/discovery.py): sitemaps, feeds, page links, pagination."""
from __future__ import annotations

import gzip

import pytest

from mcecrawl.spiders.discovery import feed_entries, is_pagination, page_links, sitemap_entries


def test_sitemap_entries_plain_gzip_news_and_bad():
    body = (b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
            b'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>https://x.ir/n/1</loc>'
            b"<news:news><news:publication><news:language>fa</news:language></news:publication>"
            b"<news:publication_date>2024-05-01</news:publication_date></news:news></url><url><lastmod>x</lastmod>"
            b"</url></urlset>")
    for raw in (body, gzip.compress(body)):
        kind, entries = sitemap_entries(raw)
        assert kind == "urlset"
        assert entries == [{"loc": "https://x.ir/n/1", "language": "fa", "publication_date": "2024-05-01"}]
    assert sitemap_entries(b"") is None


def test_feed_entries_rss_and_atom():
    rss = (b"<rss><channel><item><link>https://x.ir/1</link><pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate>"
           b"</item></channel></rss>")
    atom = (b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://x.ir/2"/>'
            b"<updated>2024-05-06</updated></entry></feed>")
    assert feed_entries(rss) == [("https://x.ir/1", "Mon, 06 May 2024 10:00:00 GMT")]
    assert feed_entries(atom) == [("https://x.ir/2", "2024-05-06")]


def test_page_links():
    body = ('<html><head><link rel="canonical" href="/news/1"><link rel="amphtml" href="/amp/1">'
            '<link rel="alternate" type="application/rss+xml" href="/rss"><link rel="next" href="?page=2"></head>'
            '<body><a href="/s">بخش</a><a class="t" href=\'/news/2\'><span>سرخط خبری بلند و روشن</span></a>'
            '<a href=/news/3 rel="next">&rsaquo;</a><a name="x">no href</a></body></html>').encode()
    links = page_links(body)
    assert links.canonical == "/news/1" and links.alternates == ["/amp/1"] and links.feeds == ["/rss"]
    assert links.anchors == [("/s", 1), ("/news/2", 5), ("/news/3", 1)]
    assert links.next == ["/news/3", "?page=2"]


def test_is_pagination():
    assert is_pagination("https://x.ir/archive", "https://x.ir/archive?pi=2")
    assert is_pagination("https://x.ir/archive?pi=2&tp=1", "https://x.ir/archive?pi=3&tp=1")
    assert is_pagination("https://x.ir/tag/a/", "https://x.ir/tag/a/page/2/")
    assert is_pagination("https://x.ir/tag/a/page/2/", "https://x.ir/tag/a/page/3/")
    assert not is_pagination("https://x.ir/", "https://x.ir/?p=12")  # WordPress post
    assert not is_pagination("https://x.ir/archive?pi=2&tp=1", "https://x.ir/archive?pi=3&tp=2")
    assert not is_pagination("https://x.ir/archive", "https://x.ir/news/1")


def test_gzipped_sitemap_is_inflated_no_further_than_the_protocol_allows(monkeypatch):
    import zlib

    from mcecrawl.spiders import discovery

    monkeypatch.setattr(discovery, "MAX_SITEMAP_BYTES", 1_000_000)
    page = b"<urlset><url><loc>https://www.example.ir/a</loc></url>" + b" " * 2_000_000 + b"</urlset>"
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = c.compress(page) + c.flush()  # a few KB that inflate to 2 MB
    assert len(bomb) < 20_000
    with pytest.raises(discovery.SitemapTooLarge):  # a reason the spiders count, not "not a sitemap"
        sitemap_entries(bomb)
    assert discovery.feed_entries(bomb) is None
    assert sitemap_entries(b"\x1f\x8b" + b"corrupt gzip") is None
    small = gzip.compress(b"<urlset><url><loc>https://www.example.ir/a</loc></url></urlset>")
    assert sitemap_entries(small) == ("urlset", [{"loc": "https://www.example.ir/a"}])
