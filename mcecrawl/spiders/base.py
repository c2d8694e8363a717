"""The generic, profile-driven spider every site spider builds on: glue over page evidence and
metadata (:mod:`mcecrawl.spiders.evidence`) and discovery (:mod:`mcecrawl.spiders.discovery`).

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
import logging
from datetime import date, datetime, timezone
from typing import Any, AsyncIterator, Callable, Iterable, cast
from urllib.parse import urlsplit, urlunsplit

import scrapy
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.response import get_base_url

from mcecrawl.algorithms import DEFAULT_ALGORITHM
from mcecrawl.config import Config
from mcecrawl.items import SCHEMA_VERSION, ArticleItem
from mcecrawl.profile import (
    ARTICLE,
    EVIDENCE,
    NO_SIGNAL,
    NOT_ARTICLE,
    REQUIRED,
    UNAMBIGUOUS,
    VETO,
    Profile,
    load_profile,
)
from mcecrawl.spiders.discovery import SitemapTooLarge, feed_entries, join_url, page_links, sitemap_entries
from mcecrawl.spiders.evidence import (
    BY_CONTENT,
    BY_MARKUP,
    article_verdict,
    head_selector,
    iso_before,
    page_evidence,
    page_metadata,
    signals_selector,
    too_old,
)
from mcecrawl.spiders.urlshapes import url_shapes

logger = logging.getLogger(__name__)

# Request priorities of both spiders, higher first: pages known to be articles (a profile's article rules,
# the news spider's learned article shapes); pages listed in a sitemap or feed; discovery documents
# (sitemaps, feeds, the home page); pages of unknown shapes; listings last.  Articles before more
# discovery keeps memory flat on big sites (docs/decisions.md feature 3: feeds/sitemaps first, recursive
# crawl only to back-fill).
PRIORITY_ARTICLE, PRIORITY_LISTED, PRIORITY_DISCOVERY, PRIORITY_UNKNOWN, PRIORITY_LISTING = 30, 25, 20, 10, 5
PRIORITY_SITEMAP = PRIORITY_FEED = PRIORITY_DISCOVERY

# Statuses kept for article requests instead of being dropped by HttpErrorMiddleware, so that
# anti-bot challenge pages (often served as 403/503 — docs/site_notes.md §0.4) are reported as "blocked".
ARTICLE_HTTP_STATUSES = [403, 503]


def decoded_page(response: Response) -> tuple[str, bytes, dict[str, Any]]:
    """Page text, the same page as UTF-8 bytes, and encoding provenance: from the encoding
    middleware when it ran (its body is that UTF-8), else from :func:`mcecrawl.encoding.decode`
    here (same function, same result)."""
    meta = response.meta
    from mcecrawl.encoding import PROVENANCE_KEYS, decode

    if "encoding_original" in meta:
        return response.text, response.body, {k: meta.get(k) for k in PROVENANCE_KEYS}
    ctype = response.headers.get(b"Content-Type")
    d = decode(response.body, ctype.decode("latin-1") if ctype else None, read_text=True)
    return d.text, d.utf8 if d.utf8 is not None else d.text.encode("utf-8"), d.provenance()


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


class Mirror:
    """Live URLs and the URLs fetched: with ``-a base_url=`` every live URL (``is_live``) is fetched from the
    mirror (path and query kept) and the mirror's host is known by the site's ``origin`` (scheme, host);
    without it both mappings are the identity."""

    def __init__(self, base_url: str | None, origin: tuple[str, str], is_live: Callable[[str], bool]):
        self.base = urlsplit(base_url.rstrip("/")) if base_url else None
        self.origin = origin
        self.is_live = is_live

    def to_fetch(self, url: str) -> str:
        if self.base is None or not self.is_live(url):
            return url
        p = urlsplit(url)
        return urlunsplit((self.base.scheme, self.base.netloc, p.path, p.query, ""))

    def to_live(self, url: str) -> str:
        if self.base is None:
            return url
        p = urlsplit(url)
        if p.netloc != self.base.netloc:
            return url
        return urlunsplit((*self.origin, p.path, p.query, ""))


class SpiderBase(scrapy.Spider):
    """What the profile spiders and the generic news spider share: the feeds configuration, the mirror URL
    mapping, ``since``/``limit``/``algorithm``, sitemap and feed parsing with their counts, error counting,
    URL de-duplication (:class:`SeenURLs`) and item building."""

    mirror: Mirror
    algorithm_params: dict[str, Any]

    @classmethod
    def update_settings(cls, settings) -> None:
        super().update_settings(settings)
        from mcecrawl.exporters import configure_feeds

        configure_feeds(settings)

    def setup_crawl(self, since: str | None, limit: str | int | None, algorithm: str) -> None:
        """``-a since=YYYY-MM-DD``, ``-a limit=N`` (articles written) and the extraction algorithm."""
        self.since: str | None = date.fromisoformat(since).isoformat() if since else None
        self.limit = int(limit) if limit not in (None, "") else None
        self.algorithm = algorithm
        self.urls = SeenURLs()  # its done-record is attached in start()
        self._items = 0

    # -- live <-> fetch URL mapping ------------------------------------------------------------
    def to_fetch(self, live_url: str) -> str:
        """The URL to request: the live URL, or its path on the ``base_url`` mirror."""
        return self.mirror.to_fetch(live_url)

    def to_live(self, url: str) -> str:
        return self.mirror.to_live(url)

    # -- limit ---------------------------------------------------------------------------------
    def limit_reached(self) -> bool:
        return self.limit is not None and self._items >= self.limit

    def check_limit(self) -> None:
        """After an item: stop the crawl once ``limit`` items were written."""
        if self.limit_reached():
            raise CloseSpider("limit")

    # -- discovery documents -------------------------------------------------------------------
    def sitemap_of(self, response: Response) -> tuple[str, list[dict[str, str]]] | None:
        """``(kind, entries)`` of a sitemap response, counted (``mcecrawl/discovery/sitemaps/<kind>``), or
        None when it is no XML (counted as ``bad_sitemap``) or inflates past its bound (``sitemap_too_large``)."""
        try:
            parsed = sitemap_entries(response.body)
        except SitemapTooLarge as e:
            self.crawler.stats.inc_value("mcecrawl/discovery/sitemap_too_large")
            logger.warning("Sitemap dropped: %s %s", response.url, e)
            return None
        if parsed is None:
            self.crawler.stats.inc_value("mcecrawl/discovery/bad_sitemap")
            return None
        self.crawler.stats.inc_value(f"mcecrawl/discovery/sitemaps/{parsed[0]}")
        return parsed

    def feed_of(self, response: Response) -> list[tuple[str, str | None]] | None:
        """``(link, date)`` entries of a feed response, counted, or None when it is no feed."""
        entries = feed_entries(response.body)
        self.crawler.stats.inc_value("mcecrawl/discovery/bad_feed" if entries is None else "mcecrawl/discovery/feeds")
        return entries

    # -- items and errors ----------------------------------------------------------------------
    def build_item(self, url: str, canonical_url: str, site: str, site_name: str, lang: str,
                   prov: dict[str, Any], **fields: Any) -> ArticleItem:
        """An item of the page at ``url`` for the extraction pipeline (``html`` among ``fields``)."""
        return ArticleItem(url=url, canonical_url=canonical_url, site=site, site_name=site_name, lang=lang,
                           algorithm=self.algorithm, params=dict(self.algorithm_params),
                           fetched_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                           schema_version=SCHEMA_VERSION, **prov, **fields)

    def request_kind(self, request: Request) -> str:
        return request.meta.get("mce_kind", "request")

    def on_error(self, failure):
        """A request failed (DNS, connection, timeout, an HTTP error not kept): counted as
        ``mcecrawl/failed/<kind>``, then :meth:`failed` says what follows."""
        request = failure.request
        kind = self.request_kind(request)
        self.crawler.stats.inc_value(f"mcecrawl/failed/{kind}")
        yield from self.failed(request, kind, failure.getErrorMessage())

    def failed(self, request: Request, kind: str, why: str) -> Iterable[Any]:
        return ()


class ProfileSpider(SpiderBase):
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
        self.mirror = Mirror(base_url, ("https", self.profile.canonical_host), self.profile.is_live)
        self.setup_crawl(since, limit, algorithm or self.profile.extraction.get("algorithm", DEFAULT_ALGORITHM))
        # Read by EncodingNormalizationMiddleware: a profile may force the site's charset.
        self.mce_encoding = self.profile.raw.get("encoding") or None
        self.algorithm_params = dict(self.profile.extraction.get("params", {})) if not algorithm else {}
        self._listing_pages = 0
        # Pages of "evidence" rules without markup, until their extraction judges them: canonical URL ->
        # (page bytes, offsets of its headline links).
        self._by_content: dict[str, tuple[bytes, tuple[int, ...]]] = {}

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
    def consider(self, url: str, base: str | None = None, listed_date: str | None = None,
                 from_listing: bool = False) -> Iterable[Request]:
        """Route one discovered link: an article request, a pagination request, or nothing."""
        if not url or url.startswith(("javascript:", "mailto:", "#")):
            return
        joined = join_url(base, url)
        if joined is None:  # one href that is no URL (mailto://[) costs the page none of its other links
            self.crawler.stats.inc_value("mcecrawl/discovery/bad_link")
            return
        live = self.to_live(joined)
        if not self.profile.is_live(live):
            return
        canon = self.profile.canonicalize(live)
        if canon in self.urls.requested:
            return
        rule = self.profile.article_rule(canon)
        if rule is not None:
            if too_old(listed_date, self.since):
                self.crawler.stats.inc_value("mcecrawl/discovery/too_old")
                return
            self.urls.request(canon)
            if self.urls.done_before(canon):
                self.crawler.stats.inc_value("mcecrawl/resume/skipped_done")
                return
            if self.limit_reached():
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
        parsed = self.sitemap_of(response)
        if parsed is None:
            logger.warning("Not a sitemap: %s", response.url)
            return
        kind, entries = parsed
        for fields in entries:
            loc = fields["loc"]
            if kind == "sitemapindex":
                if self.profile.sitemap_follow and not any(p.search(loc) for p in self.profile.sitemap_follow):
                    continue
                if too_old(fields.get("lastmod"), self.since):
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
        entries = self.feed_of(response)
        if entries is None:
            return
        for link, when in entries:
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
    def page_metadata(self, selector, page: Callable[[], scrapy.Selector]) -> dict[str, Any]:
        """Title, publication date and authors (:func:`mcecrawl.spiders.evidence.page_metadata`).

        ``selector`` covers the page's ``<head>`` or its signal elements
        (:func:`mcecrawl.spiders.evidence.signal_elements`); a site spider that reads other elements
        asks ``page()``, the whole page, parsed on the first call (as for :meth:`not_article_reason`)."""
        return page_metadata(selector, self.profile.evidence.get("jsonld_types", ()))

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
        if self.limit_reached():
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
        text, body, prov = decoded_page(response)
        item = functools.partial(self.build_item, response.url, canon, self.profile.name, self.profile.site,
                                 self.profile.lang, prov)
        marker = self.profile.is_blocked_page(text)
        if marker:
            stats.inc_value(f"mcecrawl/blocked/{urlsplit(response.url).hostname}")
            logger.warning("Anti-bot challenge page (marker %r) instead of %s", marker, response.url)
            self._items += 1
            self.urls.wrote(canon)
            yield item(title=None, published=None, published_raw=None, authors=[], html=b"", status="blocked",
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
            yield item(**meta, html=b"", status="not_article", reason=f"not an article: {why}")
            return
        if meta is None:
            meta = self.page_metadata(page_signals(), whole_page)
        if iso_before(meta["published"], self.since):
            stats.inc_value("mcecrawl/too_old")
            return
        self._items += 1
        extra = self.extra_item_fields(response, whole_page)
        self.urls.wrote(canon)
        if needed == EVIDENCE and verdict != ARTICLE:  # no markup: its extraction will judge it
            self._by_content[canon] = (body, tuple(page_links(body).headlines))
        yield item(**meta, html=body, **extra)
        self.check_limit()

    def not_article_after_extraction(self, adapter: Any, outcome: Any = None) -> str | None:
        """The page judged by its extraction (called by the extraction pipeline for ``ok`` items): a page type
        other than ``article`` (``outcome.page_type``) is never an article; a page of an ``evidence`` rule
        without markup must show an article's own content
        (:func:`mcecrawl.spiders.evidence.article_verdict`)."""
        canon = adapter.get("canonical_url") or ""
        content = self._by_content.pop(canon, None)
        body, headlines = content if content is not None else (b"", ())
        reason = article_verdict(BY_CONTENT if content is not None else BY_MARKUP, adapter.get("text") or "",
                                 getattr(outcome, "page_type", None), getattr(outcome, "page_type_reason", ""),
                                 # the rule's URL shape is one of articles (new-site writes it from such a shape)
                                 body, headlines, shape_articles=1, shape=url_shapes(canon)[0])
        if reason is not None:
            self.crawler.stats.inc_value("mcecrawl/not_article")
        return reason

    def request_kind(self, request: Request) -> str:
        return "article" if request.callback == self.parse_article else super().request_kind(request)

    def failed(self, request: Request, kind: str, why: str) -> Iterable[Any]:
        host = urlsplit(request.url).hostname
        logger.warning("Could not fetch %s %s (%s): %s", kind, request.url, host, why)
        if request.meta.get("mce_entry"):
            from mcecrawl.extensions import CrawlSummary

            summary = self.crawler.get_extension(CrawlSummary)
            if summary is not None:
                summary.entry_point_failed(request.url, why)
        return ()
