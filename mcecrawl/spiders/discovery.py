"""Discovery: where a site lists its pages (sitemaps, sitemap indexes, news sitemaps, RSS/Atom feeds).

Parsers of the documents a spider reads to find article URLs, free of Scrapy: bytes in, entries out.
Used by :class:`mcecrawl.spiders.base.ProfileSpider` (entry points named by a profile) and the generic
:class:`mcecrawl.spiders.news.NewsSpider` (entry points found by itself).
"""
from __future__ import annotations

import gzip
from typing import Any

from lxml import etree

_XML_PARSER = etree.XMLParser(resolve_entities=False, recover=True, huge_tree=True, no_network=True)


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def sitemap_entries(body: bytes) -> tuple[str, list[dict[str, str]]] | None:
    """``(kind, entries)`` of a sitemap (gzipped or not), or None when it is not XML.

    ``kind`` is the root element's name (``sitemapindex``, ``urlset``, ...); each entry maps the local
    name of each element under ``<sitemap>``/``<url>`` to its first non-empty text: ``loc``,
    ``lastmod``, and for Google News sitemaps ``publication_date``, ``language``, ``title``."""
    if body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    try:
        root = etree.fromstring(body, parser=_XML_PARSER)
    except etree.XMLSyntaxError:
        root = None
    if root is None:
        return None
    entries = []
    for entry in root:
        fields: dict[str, str] = {}
        for el in entry.iter():
            name = _local(el.tag)
            if name and el.text and el.text.strip() and name not in fields:
                fields[name] = el.text.strip()
        if fields.get("loc"):
            entries.append(fields)
    return _local(root.tag), entries


def feed_entries(body: bytes) -> list[tuple[str, str | None]] | None:
    """``(link, date)`` of each RSS 2.0 ``item/link`` and Atom ``entry/link@href``, or None when the
    body is not XML."""
    try:
        root = etree.fromstring(body, parser=_XML_PARSER)
    except etree.XMLSyntaxError:
        root = None
    if root is None:
        return None
    out = []
    for entry in root.iter():
        if _local(entry.tag) not in ("item", "entry"):
            continue
        link, when = None, None
        for child in entry:
            name = _local(child.tag)
            if name == "link":
                link = link or (child.get("href") or (child.text or "").strip())
            elif name in ("pubDate", "published", "updated", "date") and child.text:
                when = when or child.text.strip()
        if link:
            out.append((link, when))
    return out
