"""Discovery: where a site lists its pages (sitemaps, sitemap indexes, news sitemaps, RSS/Atom feeds,
the links and pagination of its HTML pages).

Parsers of the documents a spider reads to find article URLs, free of Scrapy: bytes in, entries out.
Used by :class:`mcecrawl.spiders.base.ProfileSpider` (entry points named by a profile) and the generic
:class:`mcecrawl.spiders.news.NewsSpider` (entry points found by itself).
"""
from __future__ import annotations

import html
import re
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlsplit

from lxml import etree

from mcecrawl.exceptions import MceError

_XML_PARSER = etree.XMLParser(resolve_entities=False, recover=True, huge_tree=True, no_network=True)
# A sitemap is at most 50 MB uncompressed (sitemaps.org protocol, "Sitemap file location" limits):
# a gzipped one is inflated no further, so a decompression bomb served as sitemap.xml.gz costs this much.
MAX_SITEMAP_BYTES = 50 * 1024 * 1024


class SitemapTooLarge(MceError, ValueError):
    """A gzipped sitemap inflating past :data:`MAX_SITEMAP_BYTES`: the spiders count it
    (``mcecrawl/discovery/sitemap_too_large``) and go on."""


def _xml_root(body: bytes) -> Any:
    """The root element of an XML document (gzipped or not), or None when it is not XML or its gzip
    is corrupt; :class:`SitemapTooLarge` when it inflates past :data:`MAX_SITEMAP_BYTES`."""
    if body[:2] == b"\x1f\x8b":
        inflater = zlib.decompressobj(31)
        try:
            body = inflater.decompress(body, MAX_SITEMAP_BYTES + 1)
        except zlib.error:
            return None
        if len(body) > MAX_SITEMAP_BYTES:
            raise SitemapTooLarge(f"inflates past {MAX_SITEMAP_BYTES} bytes")
    try:
        return etree.fromstring(body, parser=_XML_PARSER)
    except etree.XMLSyntaxError:
        return None


def join_url(base: str | None, href: str) -> str | None:
    """``href`` made absolute against ``base``, or None when it is no URL at all: ``urljoin`` raises on
    an href such as ``mailto://[`` or ``http://[x`` (an unclosed IPv6 host), and one such link must not
    cost a page its other links."""
    try:
        url = urljoin(base, href) if base else href
        urlsplit(url)  # urljoin passes some bad absolute URLs through unchecked
    except ValueError:
        return None
    return url


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def sitemap_entries(body: bytes) -> tuple[str, list[dict[str, str]]] | None:
    """``(kind, entries)`` of a sitemap (gzipped or not), or None when it is not XML.

    ``kind`` is the root element's name (``sitemapindex``, ``urlset``, ...); each entry maps the local
    name of each element under ``<sitemap>``/``<url>`` to its first non-empty text: ``loc``,
    ``lastmod``, and for Google News sitemaps ``publication_date``, ``language``, ``title``.
    Raises :class:`SitemapTooLarge` for a gzipped body inflating past :data:`MAX_SITEMAP_BYTES`."""
    root = _xml_root(body)
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
    body is not XML (or a gzipped body inflating past :data:`MAX_SITEMAP_BYTES`)."""
    try:
        root = _xml_root(body)
    except SitemapTooLarge:
        return None
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


# Where CMSs put their sitemaps when robots.txt names none: the sitemaps.org convention, WordPress
# core (wp-sitemap.xml, 5.5+) and the Yoast/Rank Math index, and the common news-sitemap names.
USUAL_SITEMAP_PATHS = ("/sitemap.xml", "/sitemap_index.xml", "/wp-sitemap.xml", "/sitemap-news.xml",
                       "/news-sitemap.xml")
# Where CMSs put their feeds when the home page announces none: WordPress (/feed/), and the common
# RSS/Atom names of other CMSs.
USUAL_FEED_PATHS = ("/feed/", "/rss", "/rss.xml", "/feed.xml", "/atom.xml")
# Feed MIME types announced by <link rel="alternate" type=...> (RSS 2.0, Atom).
FEED_TYPES = ("application/rss+xml", "application/atom+xml")
# Query parameters that number the pages of a listing (WordPress paged, Nastooh pi, the usual others);
# "p" is not one: WordPress's ?p=ID is a post.
PAGE_PARAMS = frozenset({"page", "paged", "pg", "pi", "pagenum", "pageno", "offset", "start"})

_ATTR = re.compile(rb"""([a-zA-Z_:][-\w:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_PAGE_SEGMENT = re.compile(r"/page/\d+/?$")


def _attrs(raw: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        value = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
        out.setdefault(m.group(1).decode("ascii", "replace").lower(),
                       html.unescape(value.decode("utf-8", "replace")).strip())
    return out


@dataclass
class PageLinks:
    """The links of an HTML page that discovery reads, found by a scan of its bytes (no parse)."""

    anchors: list[tuple[str, int]] = field(default_factory=list)  # (<a href>, most words of its texts), once each
    next: list[str] = field(default_factory=list)  # rel=next (<a> or <link>)
    canonical: str | None = None  # <link rel=canonical>
    alternates: list[str] = field(default_factory=list)  # rel=amphtml and rel=alternate HTML twins
    feeds: list[str] = field(default_factory=list)  # <link rel=alternate type=rss/atom>
    headlines: list[int] = field(default_factory=list)  # offsets of anchors of LINK_TEXT_WORDS words or more


# The text of an anchor is read up to its end tag or this many bytes (a headline is far shorter).
ANCHOR_TEXT_BYTES = 1000
# Matched on the page's lower-cased bytes (faster than re.I; ASCII lower-casing keeps the offsets), the
# attributes read from the page itself.
_A_OPEN = re.compile(rb"<a\b([^>]*)>")
_LINK_TAG = re.compile(rb"<link\b([^>]*)>")
_INNER_TAG = re.compile(rb"<[^>]*>")
# Anchors of this many words or more are headlines, not menu words: where they sit among the lines of
# an extraction tells a list of teasers from an article's body (evidence.list_items).
LINK_TEXT_WORDS = 3


def page_links(body: bytes) -> PageLinks:
    """The :class:`PageLinks` of a page's UTF-8 bytes."""
    links = PageLinks()
    low = body.lower()  # ASCII only: offsets unchanged
    words: dict[str, int] = {}  # href -> the most words of its anchors
    seen: set[bytes] = set()
    for m in _A_OPEN.finditer(low):
        raw = body[m.start(1):m.end(1)]
        if raw in seen:  # page chrome repeats its links, attributes and all: the first one is read
            continue
        seen.add(raw)
        attrs = _attrs(raw)
        href = attrs.get("href")
        if not href:
            continue
        end = low.find(b"</a", m.end(), m.end() + ANCHOR_TEXT_BYTES)
        inner = body[m.end():end if end > 0 else m.end()]
        n = len((_INNER_TAG.sub(b" ", inner) if b"<" in inner else inner).split())
        if n >= LINK_TEXT_WORDS:
            links.headlines.append(m.start())
        if n > words.get(href, -1):
            words[href] = n
        if "next" in attrs.get("rel", "").lower().split():
            links.next.append(href)
    links.anchors = list(words.items())
    for m in _LINK_TAG.finditer(low):
        attrs = _attrs(body[m.start(1):m.end(1)])
        href = attrs.get("href")
        if not href:
            continue
        rel = set(attrs.get("rel", "").lower().split())
        if "next" in rel:
            links.next.append(href)
        elif "canonical" in rel:
            links.canonical = links.canonical or href
        elif "amphtml" in rel:
            links.alternates.append(href)
        elif "alternate" in rel:
            kind = attrs.get("type", "").lower()
            if kind in FEED_TYPES:
                links.feeds.append(href)
            elif kind in ("", "text/html") and "media" in attrs:  # the mobile twin of the page
                links.alternates.append(href)
    return links


def is_pagination(current: str, link: str) -> bool:
    """``link`` is another page of the listing at ``current``: the same path and parameters but for a
    page-number parameter (:data:`PAGE_PARAMS`), or a ``/page/N`` path suffix (WordPress)."""
    a, b = urlsplit(current), urlsplit(link)
    if a.netloc != b.netloc:
        return False
    qa = {k: v for k, v in parse_qsl(a.query, keep_blank_values=True)}
    qb = {k: v for k, v in parse_qsl(b.query, keep_blank_values=True)}
    if a.path == b.path:
        changed = {k for k in qa.keys() | qb.keys() if qa.get(k) != qb.get(k)}
        return bool(changed) and changed <= PAGE_PARAMS and all(qb.get(k, "1").isdigit() for k in changed)
    base_a, base_b = _PAGE_SEGMENT.sub("", a.path).rstrip("/"), _PAGE_SEGMENT.sub("", b.path).rstrip("/")
    return qa == qb and base_a == base_b and bool(_PAGE_SEGMENT.search(b.path))
