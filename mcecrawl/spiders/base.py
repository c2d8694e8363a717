"""The generic, profile-driven spider every site spider builds on.

A site spider is usually just::

    class HamshahriSpider(ProfileSpider):
        name = "hamshahri"          # loads mcecrawl/profiles/hamshahri.json

Flow: entry points of the profile (sitemaps, news sitemaps, feeds first; listing pages with their
pagination to back-fill) -> every discovered URL is mapped to its live form, canonicalised and
matched against the profile's article rules -> each canonical article is requested once ->
``parse_article`` checks anti-bot markers and page evidence (JSON-LD @type, the page's own type in
a script JSON, og:type), reads title/date/authors and yields an :class:`ArticleItem` with the
decoded page; :class:`mcecrawl.pipelines.ExtractionPipeline` extracts the main content.

Spider arguments: ``-a base_url=http://127.0.0.1:8000`` (every live host is mapped onto this
mirror; URL rules stay written against live URLs), ``-a since=YYYY-MM-DD`` (sitemap lastmod /
news publication date / feed date / page date), ``-a limit=N`` (articles written),
``-a profile=path.json`` (another profile file), ``-a algorithm=NAME`` (override the profile's).

Hooks for site spiders: :meth:`page_metadata` (title/dates/authors), :meth:`extra_item_fields`,
:meth:`not_article_reason` (site-specific page evidence, e.g. MediaWiki disambiguation pages).  The
last two get the whole page as ``page()``, parsed on the first call: a spider that does not use
them costs no full-page parse.
"""
from __future__ import annotations

import functools
import gzip
import json
import logging
import re
from datetime import date, datetime, timezone
from typing import Any, AsyncIterator, Callable, Iterable, cast
from urllib.parse import urljoin, urlsplit, urlunsplit

import scrapy
from lxml import etree
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.response import get_base_url

from mcecrawl.algorithms import DEFAULT_ALGORITHM
from mcecrawl.config import Config
from mcecrawl.items import SCHEMA_VERSION, ArticleItem
from mcecrawl.profile import ARTICLE, NO_SIGNAL, NOT_ARTICLE, REQUIRED, UNAMBIGUOUS, VETO, Profile, load_profile

logger = logging.getLogger(__name__)

# Request priorities: fresh sources (sitemaps, feeds) before listings; articles before more
# discovery so that memory stays flat on big sites (docs/decisions.md feature 3: feeds/sitemaps first,
# recursive crawl only to back-fill).
PRIORITY_SITEMAP, PRIORITY_FEED, PRIORITY_LISTING, PRIORITY_ARTICLE = 20, 20, 0, 30

# Statuses kept for article requests instead of being dropped by HttpErrorMiddleware, so that
# anti-bot challenge pages (often served as 403/503 — docs/site_notes.md §0.4) are reported as "blocked".
ARTICLE_HTTP_STATUSES = [403, 503]

# The <head> of a real news page ends within its first ~100 KB (inline CSS/JSON included).
HEAD_MAX_CHARS = 262_144

# Page types, read from the page itself (see page_evidence).  An Article-family type
# anywhere in the page is positive evidence and wins; only an explicit non-article type that is
# the page's main entity vetoes; every other type (WebPage, WebSite, Organization, BreadcrumbList,
# og:type "website" or "text/html", ...) is no signal.  Many CMSs put og:type "website" on every
# page, articles included, so reading such weak types as "not an article" lost real articles.
# Source: the schema.org type hierarchy (https://schema.org/Article, https://schema.org/CreativeWork).
ARTICLE_JSONLD_TYPES = frozenset({
    "Article", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle", "BackgroundNewsArticle",
    "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle", "BlogPosting", "Report",
    "ScholarlyArticle", "SatiricalArticle", "TechArticle",
})
NOT_ARTICLE_JSONLD_TYPES = frozenset({
    "VideoObject", "AudioObject", "MediaObject", "ImageGallery", "VideoGallery", "MediaGallery",
    "CollectionPage", "ItemList", "ProfilePage", "SearchResultsPage",
})
# Types that describe the site or the page's frame, never its main entity (schema.org WebPage,
# WebSite, Organization, BreadcrumbList and the like): skipped when looking for the main entity.
FRAME_JSONLD_TYPES = frozenset({
    "WebPage", "WebSite", "Organization", "NewsMediaOrganization", "Corporation", "BreadcrumbList",
    "SearchAction", "Person", "ImageObject", "SiteNavigationElement", "WPHeader", "WPFooter",
    "WPSideBar", "Brand", "Place", "PostalAddress", "ContactPoint", "Language",
})
# Open Graph (https://ogp.me/#types): "article" is positive; the "video.*", "music.*" and
# "profile" object types (and a bare "video"/"music") are explicit non-articles.
ARTICLE_OG_TYPES = frozenset({"article"})
NOT_ARTICLE_OG_PREFIXES = ("video", "music", "profile")
# Nesting followed when looking for types in JSON-LD (real pages nest 3-5 levels).
JSONLD_MAX_DEPTH = 20

_XML_PARSER = etree.XMLParser(resolve_entities=False, recover=True, huge_tree=True, no_network=True)


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def iso_date(raw: str | None) -> str | None:
    """ISO-8601 form of an ISO-like date string (``2020-11-29T11:57:59Z``, ``2020-11-29``), else None.

    Non-ISO dates (Jalali, Persian digits) are left to the corpus-quality stage
    (:func:`mcecrawl.corpus.dates.parse_date`, which also names the calendar): ``published_raw``
    keeps them."""
    if not raw:
        return None
    s = raw.strip()
    try:
        if len(s) == 10:
            return date.fromisoformat(s).isoformat()
        return datetime.fromisoformat(s.replace("Z", "+00:00")).isoformat()
    except ValueError:
        pass
    try:  # RFC 822 dates of RSS <pubDate>
        from email.utils import parsedate_to_datetime

        return parsedate_to_datetime(s).isoformat()
    except (TypeError, ValueError, IndexError):
        return None


def _jsonld_nodes(selector) -> list[dict]:
    """The top-level JSON-LD nodes of the page (each script's object, list items, ``@graph`` members)."""
    tops: list[dict] = []
    for raw in selector.css('script[type="application/ld+json"]::text').getall():
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        stack = [data]
        while stack:
            node = stack.pop(0)
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                if "@graph" in node:
                    stack.extend(node["@graph"] if isinstance(node["@graph"], list) else [node["@graph"]])
                if "@type" in node:
                    tops.append(node)
    return tops


def _text(value: Any) -> str | None:
    """A JSON-LD value as text: a string, or the first string of a list (real pages give both)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    return value if isinstance(value, str) and value.strip() else None


def _types(node: dict) -> list[str]:
    t = node.get("@type")
    return [t] if isinstance(t, str) else [x for x in (t or []) if isinstance(x, str)]


def _all_types(nodes: list, depth: int = 0) -> Iterable[str]:
    """Every ``@type`` in ``nodes`` and the objects nested in them, except the members of a list
    (``itemListElement``: teasers of other pages, not this page)."""
    if depth > JSONLD_MAX_DEPTH:
        return
    for node in nodes:
        if isinstance(node, list):
            yield from _all_types(node, depth + 1)
        elif isinstance(node, dict):
            yield from _types(node)
            yield from _all_types([v for k, v in node.items() if k != "itemListElement"
                                   and isinstance(v, (dict, list))], depth + 1)


def _main_entity_types(tops: list[dict]) -> list[str]:
    """Types of the page's main entity in JSON-LD (schema.org ``mainEntity``/``mainEntityOfPage``).

    The main entity is, in this order: what a node's ``mainEntity`` names (inline or by ``@id``)
    and the nodes that declare ``mainEntityOfPage``; else the page node itself when it is a page
    type of its own (``CollectionPage``, ``ProfilePage``, ...); else the one top-level node that is
    not part of the frame (:data:`FRAME_JSONLD_TYPES`).  Several candidates: no main entity."""
    by_id = {n["@id"]: n for n in tops if isinstance(n.get("@id"), str)}
    named: list[dict] = []
    for n in tops:
        me = n.get("mainEntity")
        for m in me if isinstance(me, list) else [me]:
            if isinstance(m, dict):
                named.append(by_id.get(m.get("@id"), m) if "@type" not in m else m)
        if "mainEntityOfPage" in n:
            named.append(n)
    if named:
        return [t for n in named for t in _types(n)]
    pages = [t for n in tops for t in _types(n) if t in NOT_ARTICLE_JSONLD_TYPES and t.endswith(("Page", "Gallery"))]
    if pages:
        return pages
    content = [n for n in tops if not FRAME_JSONLD_TYPES.issuperset(_types(n))]
    return _types(content[0]) if len(content) == 1 else []


_SCRIPT_ID = re.compile(r"script#([\w-]+)")


def head_selector(text: str) -> scrapy.Selector | None:
    """A selector over ``<head>`` only (JSON-LD, og:, meta live there on most news sites), or None
    when the head does not end within :data:`HEAD_MAX_CHARS`.  Parsing 3 KB instead of 300 KB is
    what keeps the spider's share of a crawl small (BENCHMARKS.md)."""
    end = text.find("</head>", 0, HEAD_MAX_CHARS)
    if end < 0:
        end = text.find("</HEAD>", 0, HEAD_MAX_CHARS)
    if end < 0:
        return None
    return scrapy.Selector(text=text[:end] + "</head></html>", type="html")


# The elements the generic page evidence and metadata read: JSON-LD, <meta>, <time>, <h1>, <title>.
# Comments and the bodies of other scripts, styles and textareas are stepped over, as a parser does.
_SIGNAL_OPEN = re.compile(rb"<(!--|script|style|textarea|title|h1|meta|time)[\s>/]")
_SIGNAL_END = {b"!--": b"-->", b"script": b"</script", b"style": b"</style", b"textarea": b"</textarea",
               b"title": b"</title", b"h1": b"</h1"}


def signal_elements(body: bytes) -> bytes:
    """The page's signal elements (JSON-LD scripts, ``<meta>``, ``<time>``, ``<h1>``, ``<title>``) cut from
    its UTF-8 bytes in document order: what :func:`page_evidence` and the generic metadata read,
    without parsing the page (a 300 KB page: about 0.4 ms against 3.7 ms for a whole-page parse,
    BENCHMARKS.md, crawl throughput)."""
    low = body.lower()  # ASCII only: offsets unchanged
    out, pos, n = [], 0, len(low)
    while (m := _SIGNAL_OPEN.search(low, pos)) is not None:
        name, start = m.group(1), m.start()
        gt = low.find(b">", m.end() - 1)
        if gt < 0:
            break
        closing = _SIGNAL_END.get(name)
        if closing is None:  # <meta>, <time>: their attributes are what is read
            out.append(body[start:gt + 1])
            pos = gt + 1
            continue
        end = low.find(closing, start + 4)
        if end < 0:  # unclosed: a comment or script runs to the end; a heading or title keeps its text
            end = n if name in (b"!--", b"script", b"style") else max(low.find(b"<", gt + 1), gt + 1)
        else:
            end = end + 3 if name == b"!--" else (low.find(b">", end) + 1 or n)
        if name in (b"title", b"h1") or (name == b"script" and b"ld+json" in low[start:gt]):
            out.append(body[start:end])
        pos = end
    return b"".join(out)


def signals_selector(body: bytes) -> scrapy.Selector:
    """A selector over :func:`signal_elements` of the page: the page's evidence and metadata
    without a whole-page parse."""
    return scrapy.Selector(text="<html><head>" + signal_elements(body).decode("utf-8", "replace") + "</head></html>",
                           type="html")


def page_evidence(selector, rules: dict, text: str | None = None) -> tuple[str, str]:
    """Decide article / not-article / no signal from the page itself.

    1. The site's own page type, when the profile names where it lives (``script_json``, e.g.
       Simorgh's ``__NEXT_DATA__``): a value in ``values`` is an article, a value in
       ``not_values`` is not; it is the page's main entity as its CMS declares it, so it decides
       first.  Other values are no signal.
    2. An Article-family type anywhere in the page wins: JSON-LD (:data:`ARTICLE_JSONLD_TYPES`
       plus the profile's ``jsonld_types``) or ``og:type`` (``article`` plus ``og_types``).
    3. An explicit non-article type vetoes only as the page's main entity: JSON-LD
       (:data:`NOT_ARTICLE_JSONLD_TYPES` plus ``not_jsonld_types``, see
       :func:`_main_entity_types`) or ``og:type`` (:data:`NOT_ARTICLE_OG_PREFIXES` plus
       ``not_og_types``).
    4. Anything else (``WebPage``, ``WebSite``, ``BreadcrumbList``, og:type ``website`` or
       ``text/html``, nothing at all) is no signal.

    With ``text`` given, a ``script#id`` selector is found by a regular expression on the text
    instead of on ``selector`` (which may then cover the head only).  Returns ``(verdict,
    explanation)`` with verdict in ``article`` / ``not-article`` / ``no-signal``; the explanation
    names the deciding signal and nothing page-specific, so it can be counted as a reason.
    """
    sj = rules.get("script_json")
    if sj:
        by_id = _SCRIPT_ID.fullmatch(sj["selector"].strip())
        if by_id and text is not None:  # fast path: no full parse for <script id="...">
            m = re.search(r"<script\b[^>]*\bid=[\"']?%s[\"']?[^>]*>(.*?)</script>" % re.escape(by_id.group(1)),
                          text, re.S | re.I)
            raw = m.group(1) if m else None
        else:
            raw = selector.css(f"{sj['selector']}::text").get()
        value: Any = None
        if raw:
            try:
                value = json.loads(raw)
                for key in sj["path"].split("."):
                    value = value.get(key) if isinstance(value, dict) else None
            except ValueError:
                value = None
        if isinstance(value, str) and value in sj.get("values", ()):
            return ARTICLE, f"page type {value!r}"
        if isinstance(value, str) and value in sj.get("not_values", ()):
            return NOT_ARTICLE, f"page type {value!r}"
    tops = _jsonld_nodes(selector)
    article_types = ARTICLE_JSONLD_TYPES.union(rules.get("jsonld_types", ()))
    found = [t for t in _all_types(tops) if t in article_types]
    if found:
        return ARTICLE, f"JSON-LD @type {found[0]}"
    og = (selector.css('meta[property="og:type"]::attr(content)').get() or "").strip().lower()
    if og and og in ARTICLE_OG_TYPES.union(rules.get("og_types", ())):
        return ARTICLE, f"og:type {og!r}"
    not_types = NOT_ARTICLE_JSONLD_TYPES.union(rules.get("not_jsonld_types", ()))
    main = [t for t in _main_entity_types(tops) if t in not_types]
    if main:
        return NOT_ARTICLE, f"JSON-LD main entity {main[0]}"
    if og and (og.split(".")[0] in NOT_ARTICLE_OG_PREFIXES or og in rules.get("not_og_types", ())):
        return NOT_ARTICLE, f"og:type {og!r}"
    return NO_SIGNAL, "no page-type signal"


class SeenURLs:
    """The one home of URL de-duplication: canonical URLs are requested once and written once.

    ``request`` records a discovered URL as it is requested (articles and listings; ``requested``
    is asked first), ``written_before`` when an article page arrives (after a redirect two requested URLs can land
    on one canonical URL), and ``wrote`` records each item yielded.  ``done`` is the record of
    earlier runs of the same JOBDIR (:class:`mcecrawl.extensions.DoneRecord`), whose articles are
    neither requested nor written.
    """

    def __init__(self, done: Any = None):
        self.requested: set[str] = set()
        self.written: set[str] = set()
        self.done = done

    def done_before(self, canonical_url: str) -> bool:
        return self.done is not None and self.done.contains(canonical_url)

    def request(self, canonical_url: str) -> None:
        self.requested.add(canonical_url)

    def written_before(self, canonical_url: str) -> bool:
        """An item was written for ``canonical_url`` in this run or an earlier one."""
        return canonical_url in self.written or self.done_before(canonical_url)

    def wrote(self, canonical_url: str) -> None:
        self.written.add(canonical_url)


class ProfileSpider(scrapy.Spider):
    """Crawl one site as its profile (``mcecrawl/profiles/<name>.json``) describes."""

    name = "profile"
    profile_name: str | None = None  # defaults to ``name``

    # -- set-up --------------------------------------------------------------------------------
    @classmethod
    def load_class_profile(cls) -> Profile:
        return load_profile(cls.profile_name or cls.name)

    @classmethod
    def update_settings(cls, settings) -> None:
        """Per-site politeness from the profile, below the command line (``-s``) in priority."""
        super().update_settings(settings)
        from mcecrawl.exporters import configure_feeds

        configure_feeds(settings)
        try:
            profile = cls.load_class_profile()
        except FileNotFoundError:  # the generic "profile" spider: -a profile=... (no class profile)
            return
        pol = profile.politeness
        if "download_delay" in pol:
            settings.set("DOWNLOAD_DELAY", pol["download_delay"], priority="spider")
        if "concurrency" in pol:
            settings.set("CONCURRENT_REQUESTS_PER_DOMAIN", pol["concurrency"], priority="spider")

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        if kwargs.get("profile") and not crawler.settings.frozen:
            # -a profile=FILE: the class-level update_settings could not see it; settings are
            # still open here (the spider is built before Crawler._apply_settings freezes them).
            pol = spider.profile.politeness
            if "download_delay" in pol:
                crawler.settings.set("DOWNLOAD_DELAY", pol["download_delay"], priority="spider")
            if "concurrency" in pol:
                crawler.settings.set("CONCURRENT_REQUESTS_PER_DOMAIN", pol["concurrency"], priority="spider")
        return spider

    def __init__(self, *args, base_url: str | None = None, since: str | None = None,
                 limit: str | int | None = None, profile: str | None = None,
                 algorithm: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        try:
            self.profile: Profile = load_profile(profile) if profile else self.load_class_profile()
        except FileNotFoundError as e:
            raise ValueError(f"spider {self.name!r}: no site profile at {e.filename}; "
                             f"give one with -a profile=FILE.json") from None
        self.base_url = base_url.rstrip("/") if base_url else None
        self.since: str | None = date.fromisoformat(since).isoformat() if since else None
        self.limit = int(limit) if limit not in (None, "") else None
        self.algorithm = algorithm or self.profile.extraction.get("algorithm", DEFAULT_ALGORITHM)
        # Read by EncodingNormalizationMiddleware: a profile may force the site's charset.
        self.mce_encoding = self.profile.raw.get("encoding") or None
        self.algorithm_params = dict(self.profile.extraction.get("params", {})) if not algorithm else {}
        self.urls = SeenURLs()  # its done-record is attached in start()
        self._listing_pages = 0
        self._items = 0

    # -- live <-> fetch URL mapping ------------------------------------------------------------
    def to_fetch(self, live_url: str) -> str:
        """The URL to request: the live URL, or its path on the ``base_url`` mirror."""
        if not self.base_url or not self.profile.is_live(live_url):
            return live_url
        base = urlsplit(self.base_url)
        p = urlsplit(live_url)
        return urlunsplit((base.scheme, base.netloc, p.path, p.query, ""))

    def to_live(self, url: str) -> str:
        if self.base_url:
            base = urlsplit(self.base_url)
            p = urlsplit(url)
            if p.netloc == base.netloc:
                return urlunsplit(("https", self.profile.canonical_host, p.path, p.query, ""))
        return url

    def crawling_live_host(self) -> bool:
        if not self.base_url:
            return True
        return (urlsplit(self.base_url).hostname or "").lower() in self.profile.live_hosts

    # -- start -----------------------------------------------------------------------------------
    def check_permission(self) -> None:
        """Stop at once on a live host whose terms forbid crawling, unless the operator said yes."""
        forbids = self.profile.forbids()
        if not forbids or not self.crawling_live_host():
            return
        granted = Config.from_settings(self.settings).permission_granted
        if self.profile.permission_granted(granted):
            logger.warning("%s: terms forbid %s; crawling the live host because MCE_PERMISSION_GRANTED=%s",
                           self.name, ", ".join(forbids), ",".join(granted))
            return
        self.crawler.stats.set_value("mcecrawl/permission_refused", self.profile.canonical_host)
        msg = (f"{self.profile.site} ({self.profile.canonical_host}) forbids {', '.join(forbids)} "
               f"[{self.profile.terms.get('source', 'site terms')}]. Not crawling the live site. "
               f"If you hold the site's permission, run again with "
               f"-s MCE_PERMISSION_GRANTED={self.profile.canonical_host.removeprefix('www.')}; "
               f"or crawl a mirror/local copy with -a base_url=URL.")
        logger.error(msg)
        raise CloseSpider("permission_required")

    async def start(self) -> AsyncIterator[Any]:
        self.check_permission()
        from mcecrawl.downloadermiddlewares import CONTACT_PLACEHOLDER

        if self.crawling_live_host() and CONTACT_PLACEHOLDER in (self.settings.get("USER_AGENT") or ""):
            logger.warning("USER_AGENT still says %s: put a real contact in it (-s USER_AGENT='mcecrawl/0.1 "
                           "(+mailto:you@example.org)') so that %s can reach you", CONTACT_PLACEHOLDER,
                           self.profile.canonical_host)
        from mcecrawl.extensions import DoneRecord

        self.urls.done = self.crawler.get_extension(DoneRecord)
        ep = self.profile.entry_points
        for url in ep.get("sitemaps", []) + ep.get("news_sitemaps", []):
            yield self._discovery_request(url, self.parse_sitemap, PRIORITY_SITEMAP, entry=True)
        for url in ep.get("feeds", []):
            yield self._discovery_request(url, self.parse_feed, PRIORITY_FEED, entry=True)
        for url in ep.get("listings", []):
            self.urls.request(self.profile.canonicalize(url))
            yield self._discovery_request(url, self.parse_listing, PRIORITY_LISTING, entry=True)

    def _discovery_request(self, live_url: str, callback, priority: int, entry: bool = False) -> Request:
        # dont_filter: discovery is re-seeded on every (re)start; our own canonical sets dedupe.
        return Request(self.to_fetch(live_url), callback=callback, errback=self.on_error,
                       priority=priority, dont_filter=True, meta={"mce_kind": callback.__name__, "mce_entry": entry})

    # -- discovery -----------------------------------------------------------------------------
    def _too_old(self, raw_date: str | None) -> bool:
        iso = iso_date(raw_date)
        return bool(self.since and iso and iso[:10] < self.since)

    def consider(self, url: str, base: str | None = None, listed_date: str | None = None,
                 from_listing: bool = False) -> Iterable[Request]:
        """Route one discovered link: an article request, a pagination request, or nothing."""
        if not url or url.startswith(("javascript:", "mailto:", "#")):
            return
        live = self.to_live(urljoin(base, url) if base else url)
        if not self.profile.is_live(live):
            return
        canon = self.profile.canonicalize(live)
        if canon in self.urls.requested:
            return
        rule = self.profile.article_rule(canon)
        if rule is not None:
            if self._too_old(listed_date):
                self.crawler.stats.inc_value("mcecrawl/discovery/too_old")
                return
            self.urls.request(canon)
            if self.urls.done_before(canon):
                self.crawler.stats.inc_value("mcecrawl/resume/skipped_done")
                return
            if self.limit is not None and self._items >= self.limit:
                return
            self.crawler.stats.inc_value("mcecrawl/discovery/articles")
            yield Request(self.to_fetch(canon), callback=self.parse_article, errback=self.on_error,
                          priority=PRIORITY_ARTICLE, dont_filter=True,
                          meta={"mce_canonical": canon, "mce_evidence": rule.evidence,
                                "mce_listed_date": listed_date,
                                "handle_httpstatus_list": ARTICLE_HTTP_STATUSES})
        elif from_listing and self.profile.is_pagination(canon):
            if self._listing_pages >= self.profile.max_listing_pages:
                return
            self.urls.request(canon)
            self._listing_pages += 1
            self.crawler.stats.inc_value("mcecrawl/discovery/listing_pages")
            yield Request(self.to_fetch(canon), callback=self.parse_listing, errback=self.on_error,
                          priority=PRIORITY_LISTING, dont_filter=True, meta={"mce_kind": "parse_listing"})

    def _report_blocked(self, response: Response) -> str | None:
        marker = self.profile.is_blocked_page(response.text if hasattr(response, "text") else "")
        if marker:
            host = urlsplit(response.url).hostname
            self.crawler.stats.inc_value(f"mcecrawl/blocked/{host}")
            logger.warning("Anti-bot challenge page (marker %r) at %s: not an article, not stored as one",
                           marker, response.url)
        return marker

    def parse_sitemap(self, response: Response):
        """Sitemap index -> child sitemaps; urlset (incl. Google News) -> article requests."""
        if self._report_blocked(response):
            return
        body = response.body
        if body[:2] == b"\x1f\x8b":
            body = gzip.decompress(body)
        try:
            root = etree.fromstring(body, parser=_XML_PARSER)
        except etree.XMLSyntaxError:
            root = None
        if root is None:
            self.crawler.stats.inc_value("mcecrawl/discovery/bad_sitemap")
            logger.warning("Not a sitemap: %s", response.url)
            return
        kind = _local(root.tag)
        self.crawler.stats.inc_value(f"mcecrawl/discovery/sitemaps/{kind}")
        for entry in root:
            fields: dict[str, str] = {}
            for el in entry.iter():
                name = _local(el.tag)
                if name and el.text and el.text.strip() and name not in fields:
                    fields[name] = el.text.strip()
            loc = fields.get("loc")
            if not loc:
                continue
            if kind == "sitemapindex":
                if self.profile.sitemap_follow and not any(p.search(loc) for p in self.profile.sitemap_follow):
                    continue
                if self._too_old(fields.get("lastmod")):
                    continue
                yield self._discovery_request(self.to_live(loc), self.parse_sitemap, PRIORITY_SITEMAP)
            else:
                lang = fields.get("language")
                if self.profile.news_language and lang and lang != self.profile.news_language:
                    continue
                when = fields.get("publication_date") or fields.get("lastmod")
                yield from self.consider(loc, response.url, listed_date=when)

    def parse_feed(self, response: Response):
        """RSS 2.0 ``item/link`` and Atom ``entry/link@href``, with their dates for ``since``."""
        if self._report_blocked(response):
            return
        root = etree.fromstring(response.body, parser=_XML_PARSER)
        if root is None:
            self.crawler.stats.inc_value("mcecrawl/discovery/bad_feed")
            return
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
                yield from self.consider(link, response.url, listed_date=when)

    def parse_listing(self, response: Response):
        """Links of a listing page: article candidates and pagination pages."""
        if self._report_blocked(response):
            return
        # Listings are HTML (a TextResponse); get_base_url honours <base href> (ASP.NET pages such as Ahram's use it)
        base = get_base_url(cast(TextResponse, response))
        for href in response.css("a::attr(href)").getall():
            yield from self.consider(href, base, from_listing=True)

    # -- articles --------------------------------------------------------------------------------
    def decoded(self, response: Response) -> tuple[str, bytes, dict[str, Any]]:
        """Page text, the same page as UTF-8 bytes, and encoding provenance: from the encoding
        middleware when it ran (its body is that UTF-8), else from :func:`mcecrawl.encoding.decode`
        here (same function, same result)."""
        meta = response.meta
        from mcecrawl.encoding import PROVENANCE_KEYS, decode

        if "encoding_original" in meta:
            return response.text, response.body, {k: meta.get(k) for k in PROVENANCE_KEYS}
        ctype = response.headers.get(b"Content-Type")
        d = decode(response.body, ctype.decode("latin-1") if ctype else None)
        return d.text, d.text.encode("utf-8"), d.provenance()

    def page_metadata(self, selector, page: Callable[[], scrapy.Selector]) -> dict[str, Any]:
        """Title, publication date and authors from JSON-LD, then meta tags, then markup.

        ``selector`` covers the page's ``<head>`` or its signal elements (:func:`signal_elements`);
        a site spider that reads other elements asks ``page()``, the whole page, parsed on the
        first call (as for :meth:`not_article_reason`)."""
        title = published_raw = None
        authors: list[str] = []
        wanted = set(self.profile.evidence.get("jsonld_types", ()))
        for node in _jsonld_nodes(selector):
            if wanted and not wanted.intersection(_types(node)) and "headline" not in node:
                continue
            title = title or _text(node.get("headline")) or _text(node.get("name"))
            published_raw = published_raw or _text(node.get("datePublished"))
            people = node.get("author") or []
            for a in people if isinstance(people, list) else [people]:
                if isinstance(a, dict) and "Person" in _types(a):
                    a = a.get("name")
                for name in a if isinstance(a, list) else [a]:  # real pages give a name as a list too
                    if isinstance(name, str) and name.strip():
                        authors.append(name.strip())
            if title and published_raw:
                break
        meta = selector.css
        published_raw = published_raw or meta('meta[property="article:published_time"]::attr(content)').get() \
            or meta('meta[name="article:published_time"]::attr(content)').get() \
            or meta('meta[itemprop="datePublished"]::attr(content)').get() \
            or meta("time::attr(datetime)").get()
        title = title or meta('meta[property="og:title"]::attr(content)').get() \
            or " ".join(meta("h1 ::text").getall()).strip() or meta("title::text").get()
        return {"title": title.strip() if isinstance(title, str) else title,
                "published_raw": published_raw.strip() if published_raw else None,
                "published": iso_date(published_raw), "authors": list(dict.fromkeys(authors))}

    def not_article_reason(self, page: Callable[[], scrapy.Selector]) -> str | None:
        """Hook for site spiders: why a page that passed the profile's evidence is still not an
        article (e.g. a link-list hub or a disambiguation page), or None.

        ``page()`` is the whole page's selector, parsed on the first call and then kept: a hook
        that does not call it (this default) costs no parse."""
        return None

    def extra_item_fields(self, response: Response, page: Callable[[], scrapy.Selector]) -> dict[str, Any]:
        """Hook for site spiders: additional item fields (must exist in ArticleItem); ``page()`` as
        for :meth:`not_article_reason`."""
        return {}

    def parse_article(self, response: Response):
        if self.limit is not None and self._items >= self.limit:
            return
        stats = self.crawler.stats
        requested = response.meta.get("mce_canonical") or self.profile.canonicalize(self.to_live(response.url))
        canon = self.profile.canonicalize(self.to_live(response.url))
        if canon != requested and self.profile.article_rule(canon) is None:
            canon = requested  # redirected to a URL outside the rules: keep the requested identity
        if self.urls.written_before(canon):  # e.g. two URLs redirected to one article
            stats.inc_value("mcecrawl/duplicate_url")
            logger.debug("Already written: %s (from %s)", canon, response.url)
            return
        text, body, prov = self.decoded(response)
        base = dict(url=response.url, canonical_url=canon, site=self.profile.name, site_name=self.profile.site,
                    lang=self.profile.lang,
                    algorithm=self.algorithm, params=dict(self.algorithm_params),
                    fetched_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    schema_version=SCHEMA_VERSION, **prov)
        marker = self.profile.is_blocked_page(text)
        if marker:
            stats.inc_value(f"mcecrawl/blocked/{urlsplit(response.url).hostname}")
            logger.warning("Anti-bot challenge page (marker %r) instead of %s", marker, response.url)
            self._items += 1
            self.urls.wrote(canon)
            yield ArticleItem(**base, title=None, published=None, published_raw=None, authors=[], html=b"",
                              status="blocked",
                              reason=f"anti-bot challenge page (marker {marker!r}, HTTP {response.status})")
            return
        if response.status != 200:
            stats.inc_value(f"mcecrawl/article_http_error/{response.status}")
            logger.warning("HTTP %s for article %s: skipped", response.status, response.url)
            return
        # Each parsed on first use, then kept: most pages need neither the whole page nor, with
        # signals in <head>, the signal elements.
        whole_page = functools.cache(lambda: scrapy.Selector(text=text, type="html"))
        page_signals = functools.cache(lambda: signals_selector(body))

        head = head_selector(text) if self.profile.signals_in_head else None
        needed = response.meta.get("mce_evidence", VETO)
        if needed == UNAMBIGUOUS:  # the URL rule alone decides: no page evidence is read
            verdict, why = ARTICLE, "URL rule marked unambiguous"
            meta = self.page_metadata(head, whole_page) if head is not None else None
            if meta is not None and not meta["title"]:
                meta = None
        else:
            verdict, why = page_evidence(head or page_signals(), self.profile.evidence, text=text)
            meta = self.page_metadata(head, whole_page) if head is not None else None
            if head is not None and (verdict == NO_SIGNAL or meta is None or not meta["title"]):
                verdict, why = page_evidence(page_signals(), self.profile.evidence, text=text)
                meta = None
            if verdict != NOT_ARTICLE:
                veto = self.not_article_reason(whole_page)
                if veto:
                    verdict, why = NOT_ARTICLE, veto
        if verdict == NOT_ARTICLE or (needed == REQUIRED and verdict != ARTICLE):
            if verdict != NOT_ARTICLE:
                why = "no article evidence, which this URL shape requires"
            host = urlsplit(canon).hostname
            stats.inc_value("mcecrawl/not_article")
            stats.inc_value(f"mcecrawl/not_article/{host}/{why}")
            logger.info("Not an article (%s): %s", why, response.url)
            if meta is None:
                meta = self.page_metadata(page_signals(), whole_page)
            self.urls.wrote(canon)
            yield ArticleItem(**base, **meta, html=b"", status="not_article", reason=f"not an article: {why}")
            return
        if meta is None:
            meta = self.page_metadata(page_signals(), whole_page)
        if self.since and meta["published"] and meta["published"][:10] < self.since:
            stats.inc_value("mcecrawl/too_old")
            return
        self._items += 1
        extra = self.extra_item_fields(response, whole_page)
        self.urls.wrote(canon)
        yield ArticleItem(**base, **meta, html=body, **extra)
        if self.limit is not None and self._items >= self.limit:
            raise CloseSpider("limit")

    def on_error(self, failure):
        request = failure.request
        host = urlsplit(request.url).hostname
        kind = "article" if request.callback == self.parse_article else request.meta.get("mce_kind", "request")
        self.crawler.stats.inc_value(f"mcecrawl/failed/{kind}")
        why = failure.getErrorMessage()
        logger.warning("Could not fetch %s %s (%s): %s", kind, request.url, host, why)
        if request.meta.get("mce_entry"):
            from mcecrawl.extensions import CrawlSummary

            summary = self.crawler.get_extension(CrawlSummary)
            if summary is not None:
                summary.entry_point_failed(request.url, why)
