"""The generic news spider: any site, no profile (``scrapy crawl news -a site=https://www.example.ir``).

Flow per site (a site is its scheme, host and port; ``-a sites=FILE`` crawls one per line):

1. **Discovery** (:mod:`mcecrawl.spiders.discovery`): the home page first; then the sitemaps that
   robots.txt names (read by the robots middleware, not fetched twice), else the usual sitemap
   locations; sitemap indexes, news sitemaps, most recent first; the feeds the home page announces
   (``<link rel=alternate>``), else the usual feed paths; the links of every HTML page of the site,
   with pagination (``rel=next``, page parameters, ``/page/N``) kept at its listing's depth.  Bounded:
   :data:`MAX_DEPTH` link hops for pages whose shape has yielded no article, :data:`MAX_SITEMAPS`
   sitemaps and :data:`MAX_OTHER_PAGES` non-article pages per site, only the site's own hosts.
2. **Identity** (:class:`mcecrawl.spiders.urlshapes.Site`): each URL is cleaned (w3lib, tracking
   parameters off) and known by its canonical form (AMP/print/mobile variants folded); a fetched
   page's own ``rel=canonical`` (or ``og:url``) on the site decides, and its ``rel=amphtml`` twin is
   marked as seen.  A page whose bytes were already seen at another URL (a site that answers every
   URL with its home page) is a duplicate, read no further.
3. **Recognition** from evidence (:mod:`mcecrawl.spiders.evidence`): an Article-family JSON-LD type
   makes a candidate; ``og:type`` article or microdata (Article itemtype, ``itemprop=articleBody``)
   alone make one that must also show enough punctuated prose in its extraction (the extraction's own
   evidence, judged in :meth:`NewsSpider.not_article_after_extraction`); everything else is not an
   article and is never written as ``ok``: a candidate whose extraction is empty is ``empty``, one
   without prose ``not_article``; other pages are counted, not written.
4. **Learned URL shapes** (:class:`mcecrawl.spiders.urlshapes.ShapeLearner`): from the pages judged,
   which URL shapes are articles, which lead to articles (listings), which lead nowhere (tags,
   authors, media); articles first, listings after, dead ends parked and never fetched.  A shape
   that has yielded an article is never held back.  The learned state lives in ``spider.state``:
   Scrapy's SpiderState keeps it in ``JOBDIR`` across a resume.  In distributed mode
   (``MCE_REDIS_URL``) each worker learns on its own (the state is per process, not shared) and uses it
   to prioritise only: a worker holds nothing back, since the samples it sent may be fetched, and learned
   from, by another worker.

Arguments: ``site`` or ``sites`` (a file of site URLs), ``lang`` (declared language, else the page's
``<html lang>``, else ``und``), ``since`` (YYYY-MM-DD), ``limit`` (articles), ``base_url`` (one site
only: fetch from this mirror, know pages by the site's URLs), ``algorithm``.
"""
from __future__ import annotations

import hashlib
import logging
import re
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Iterable
from urllib.parse import urljoin, urlsplit, urlunsplit

import scrapy
from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import CloseSpider
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.response import get_base_url

from mcecrawl.algorithms import DEFAULT_ALGORITHM
from mcecrawl.config import Config
from mcecrawl.items import SCHEMA_VERSION, ArticleItem
from mcecrawl.profile import ARTICLE, NOT_ARTICLE
from mcecrawl.spiders.base import ARTICLE_HTTP_STATUSES, SeenURLs, decoded_page
from mcecrawl.spiders.discovery import (
    USUAL_FEED_PATHS,
    USUAL_SITEMAP_PATHS,
    SitemapTooLarge,
    feed_entries,
    is_pagination,
    page_links,
    sitemap_entries,
)
from mcecrawl.spiders.evidence import (
    MIN_PROSE_CHARS,
    iso_before,
    iso_date,
    microdata_evidence,
    page_evidence,
    page_metadata,
    prose_chars,
    signals_selector,
    too_old,
)
from mcecrawl.spiders.urlshapes import ShapeLearner, Site, url_shapes

logger = logging.getLogger(__name__)

# Request priorities: discovery documents and the home page, then pages of shapes known to be
# articles, then likely articles (listed in a sitemap or feed), then unknown pages, listings last
# (as ProfileSpider: articles before more discovery keeps memory flat).
PRIORITY_ARTICLE, PRIORITY_LISTED, PRIORITY_DISCOVERY, PRIORITY_UNKNOWN, PRIORITY_LISTING = 30, 25, 20, 10, 5
# Bounds of discovery per site.  Depth: link hops from the home page (or a sitemap/feed) through pages
# of shapes that have yielded no article — a news site's articles sit within 2-3 hops of its home page
# or sections; pagination keeps its listing's depth.  Counts: child sitemaps followed, and pages fetched
# that were not articles (beyond this nothing but article-shaped pages is fetched).
MAX_DEPTH = 5
MAX_SITEMAPS = 1000
MAX_OTHER_PAGES = 2000
# Links routed (cleaned, canonicalised, shaped) kept in memory: pages repeat their menus; a few MB at most.
ROUTE_CACHE = 50_000
# Links to files that are never HTML pages: not fetched (extensions of media, documents, assets).
NOT_PAGE = re.compile(r"\.(?:jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4[av]|webm|ogg|wav|avi|mov|flv|pdf|"
                      r"docx?|xlsx?|pptx?|zip|rar|7z|gz|tgz|exe|apk|dmg|css|js|json|woff2?|ttf|eot)$", re.I)
# <html lang> sits at the top of the page, after the doctype and perhaps a comment.
HTML_LANG_SCAN = 8192
_HTML_LANG = re.compile(rb"""<html\b[^>]*?\blang\s*=\s*["']?([A-Za-z]{2,3})\b""", re.I)
_DISCOVERY_KINDS = frozenset({"sitemap", "feed"})
# Hrefs that link to no page: scripts, mail and phone links, in-page anchors, inline data.
_NOT_LINKS = ("javascript:", "mailto:", "tel:", "#", "data:")
# Redirects of page requests are followed by the spider itself (:meth:`NewsSpider.redirected`).
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
PAGE_META = {"dont_redirect": True, "handle_httpstatus_list": [*ARTICLE_HTTP_STATUSES, *REDIRECT_STATUSES]}


def _is_link(href: str) -> bool:
    """``href`` may link to a page (not empty, not one of :data:`_NOT_LINKS`)."""
    return bool(href) and not href.startswith(_NOT_LINKS)


def _page_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The spider's own keys of a page request's meta, for a follow-up request."""
    return {k: v for k, v in meta.items() if k.startswith("mce_")} | PAGE_META


class SiteCrawl:
    """What the spider knows about one site during the crawl."""

    def __init__(self, site: Site, learner: ShapeLearner):
        self.site = site
        self.learner = learner
        self.entry_points_done = False
        self.sitemaps = 0
        self.articles = 0  # pages written as articles (status ok)
        self.not_articles = 0  # pages fetched that were not articles (incl. failures and duplicates)
        self.discovery = 0  # discovery documents requested (sitemaps, feeds, probes)
        self.parked: dict[str, dict[str, list[Request]]] = {}  # coarse -> fine shape -> held-back requests
        self.bodies: set[bytes] = set()  # digests of page bodies seen


class NewsSpider(scrapy.Spider):
    """Crawl any news site from its URL (module docstring)."""

    name = "news"

    @classmethod
    def update_settings(cls, settings) -> None:
        super().update_settings(settings)
        from mcecrawl.exporters import configure_feeds

        configure_feeds(settings)

    def __init__(self, *args, site: str | None = None, sites: str | None = None, lang: str | None = None,
                 since: str | None = None, limit: str | int | None = None, base_url: str | None = None,
                 algorithm: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        urls = [site] if site else []
        if sites:
            urls += [ln.strip() for ln in Path(sites).read_text(encoding="utf-8").splitlines()
                     if ln.strip() and not ln.lstrip().startswith("#")]
        if not urls:
            raise ValueError("spider 'news': give a site with -a site=URL or a file of sites with -a sites=FILE")
        self.site_list = [Site(u) for u in dict.fromkeys(urls)]
        if base_url and len(self.site_list) != 1:
            raise ValueError("spider 'news': -a base_url= mirrors one site; give one -a site=URL with it")
        self.base = urlsplit(base_url.rstrip("/")) if base_url else None
        self.lang = lang
        self.since: str | None = date.fromisoformat(since).isoformat() if since else None
        self.limit = int(limit) if limit not in (None, "") else None
        self.algorithm = algorithm or DEFAULT_ALGORITHM
        self.algorithm_params: dict[str, Any] = {}
        self.mce_encoding = None  # read by the encoding middleware: no forced charset
        self.urls = SeenURLs()
        self.crawls: dict[str, SiteCrawl] = {}
        self._pending: dict[str, tuple[tuple[str, str], tuple[str, str] | None, bool]] = {}
        self._items = 0
        self.found: dict[str, dict[str, list[str]]] = {}  # kept in spider.state from start() on
        self._routes: dict[str, tuple[str, str, tuple[str, str]] | None] = {}  # link -> _route()
        self.hold_back = True  # park requests of shapes that lead nowhere (not on a shared frontier)

    # -- live <-> fetch URL mapping (base_url) ---------------------------------------------------
    def to_fetch(self, url: str) -> str:
        if self.base is None:
            return url
        p = urlsplit(url)
        return urlunsplit((self.base.scheme, self.base.netloc, p.path, p.query, ""))

    def to_live(self, url: str) -> str:
        if self.base is None:
            return url
        p = urlsplit(url)
        if p.netloc != self.base.netloc:
            return url
        site = self.site_list[0]
        return urlunsplit((site.scheme, site.netloc, p.path, p.query, ""))

    # -- start -------------------------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Any]:
        from mcecrawl.downloadermiddlewares import CONTACT_PLACEHOLDER
        from mcecrawl.extensions import DoneRecord

        state: dict[str, Any] | None = getattr(self, "state", None)
        if state is None:  # SpiderState off: the state lives for this run only
            state = {}
            self.state = state
        shapes = state.setdefault("urlshapes", {})
        # On a shared frontier another worker may fetch, and learn from, the samples this one sent: what
        # it held back would wait for a verdict it never sees.  Learned shapes then only prioritise.
        self.hold_back = not Config.from_settings(self.settings).redis_url
        self.found = state.setdefault("entry_points", {})  # site -> kind -> entry points that answered
        self.urls.done = self.crawler.get_extension(DoneRecord)
        self.crawler.signals.connect(self.item_done, signals.item_scraped)
        self.crawler.signals.connect(self.item_done, signals.item_dropped)
        local = all(s.host in ("127.0.0.1", "localhost", "::1") for s in self.site_list)
        if self.base is None and not local and CONTACT_PLACEHOLDER in (self.settings.get("USER_AGENT") or ""):
            logger.warning("USER_AGENT still says %s: put a real contact in it (-s USER_AGENT='mcecrawl/0.1 "
                           "(+mailto:you@example.org)') so that the sites can reach you", CONTACT_PLACEHOLDER)
        for site in self.site_list:
            self.crawls[site.key] = sc = SiteCrawl(site, ShapeLearner(shapes.setdefault(site.key, {})))
            logger.info("News crawl of %s: no profile, so no terms were read for this site; check its terms "
                        "of use before crawling it (robots.txt, Crawl-delay and the politeness delays apply)",
                        site.url)
            self.urls.request(site.canonical(site.url) or site.url)
            yield Request(self.to_fetch(site.url), callback=self.parse_page, errback=self.on_error,
                          priority=PRIORITY_DISCOVERY, dont_filter=True,
                          meta={"mce_site": sc.site.key, "mce_kind": "home", "mce_depth": 0,
                                "mce_canonical": site.canonical(site.url), "mce_shapes": None, "mce_via": None,
                                **PAGE_META})

    def _request(self, sc: SiteCrawl, url: str, callback, kind: str, entry: bool = False) -> Request:
        sc.discovery += 1
        self.crawler.stats.inc_value(f"mcecrawl/news/discovery_requests/{kind}")
        return Request(self.to_fetch(url), callback=callback, errback=self.on_error, priority=PRIORITY_DISCOVERY,
                       dont_filter=True, meta={"mce_site": sc.site.key, "mce_kind": kind, "mce_entry": entry,
                                               "mce_live": url})

    def _found(self, response: Response, kind: str) -> None:
        """Remember an entry point that answered with what it should (for ``mcecrawl new-site``)."""
        if response.meta.get("mce_entry"):
            found = self.found.setdefault(response.meta["mce_site"], {}).setdefault(kind, [])
            if response.meta["mce_live"] not in found:
                found.append(response.meta["mce_live"])

    def entry_points(self, sc: SiteCrawl, feeds: Iterable[str] = ()) -> Iterable[Request]:
        """Sitemaps (robots.txt's, else the usual locations) and feeds (the home page's, else the
        usual paths): once per site, after its home page answered or failed."""
        if sc.entry_points_done:
            return
        sc.entry_points_done = True
        from mcecrawl.downloadermiddlewares import RobotsTxtReportMiddleware

        robots = self.crawler.get_downloader_middleware(RobotsTxtReportMiddleware)
        fetch_netloc = urlsplit(self.to_fetch(sc.site.url)).netloc
        listed = [self.to_live(u) for u in (robots.sitemaps.get(fetch_netloc, []) if robots else [])]
        sitemaps = [u for u in listed if sc.site.owns(u)] or [urljoin(sc.site.url, p) for p in USUAL_SITEMAP_PATHS]
        for url in dict.fromkeys(sitemaps):
            self.urls.request(sc.site.canonical(url) or url)
            sc.sitemaps += 1
            yield self._request(sc, url, self.parse_sitemap, "sitemap", entry=True)
        own = [u for u in feeds if sc.site.owns(u)] or [urljoin(sc.site.url, p) for p in USUAL_FEED_PATHS]
        for url in dict.fromkeys(own):
            self.urls.request(sc.site.canonical(url) or url)
            yield self._request(sc, url, self.parse_feed, "feed", entry=True)

    # -- discovery ---------------------------------------------------------------------------------
    def consider(self, sc: SiteCrawl, url: str, depth: int, via: tuple[str, str] | None, listed: bool = False,
                 listed_date: str | None = None, linked_from: str | None = None) -> Iterable[Request]:
        """Route one discovered link, an absolute URL: a page request now, one held back by its learned shape,
        or nothing.  The links of a page or feed are checked with :func:`_is_link` as written, before they are
        joined.  ``linked_from``: the page whose anchor ``url`` is, one hop deeper than ``depth`` unless it is
        that page's pagination."""
        if not _is_link(url):
            return
        route = self._route(sc, url)
        if route is None:
            return
        clean, canon, shapes = route
        if canon in self.urls.requested:
            return
        if linked_from is not None and not is_pagination(linked_from, url):
            depth += 1
        stats = self.crawler.stats
        if NOT_PAGE.search(urlsplit(canon).path):
            self.urls.request(canon)
            stats.inc_value("mcecrawl/news/skipped/not_a_page")
            return
        if too_old(listed_date, self.since):
            stats.inc_value("mcecrawl/discovery/too_old")
            return
        kind = sc.learner.kind(shapes)
        if kind != "article" and (depth > MAX_DEPTH or sc.not_articles >= MAX_OTHER_PAGES):
            stats.inc_value("mcecrawl/news/skipped/bounds")
            return
        self.urls.request(canon)
        if self.urls.done_before(canon):
            stats.inc_value("mcecrawl/resume/skipped_done")
            return
        priority = {"article": PRIORITY_ARTICLE, "listing": PRIORITY_LISTING}.get(
            kind, PRIORITY_LISTED if listed else PRIORITY_UNKNOWN)
        request = Request(self.to_fetch(clean), callback=self.parse_page, errback=self.on_error, priority=priority,
                          dont_filter=True,
                          meta={"mce_site": sc.site.key, "mce_kind": "page", "mce_depth": depth, "mce_canonical": canon,
                                "mce_shapes": shapes, "mce_via": via, "mce_listed": listed, **PAGE_META})
        if self.hold_back and not sc.learner.admits(shapes):
            sc.parked.setdefault(shapes[1], {}).setdefault(shapes[0], []).append(request)
            return
        sc.learner.requested(shapes)
        stats.inc_value("mcecrawl/discovery/pages")
        yield request

    def _route(self, sc: SiteCrawl, url: str) -> tuple[str, str, tuple[str, str]] | None:
        """``(clean URL, canonical URL, shapes)`` of an absolute link, None off the site; memoised, since
        every page of a site repeats its menus (a 300 KB page links the same ~50 URLs 500 times)."""
        if url in self._routes:
            return self._routes[url]
        if len(self._routes) >= ROUTE_CACHE:
            self._routes.clear()
        clean = sc.site.clean(self.to_live(url))
        route = None
        if clean is not None:  # shapes of the URL as linked: an AMP link has a shape of its own
            route = (clean, sc.site.canonical(clean) or clean, url_shapes(clean))
        self._routes[url] = route
        return route

    def _release(self, sc: SiteCrawl, shapes: tuple[str, str] | None) -> None:
        """Send the held-back requests that the shapes' records now admit."""
        if shapes is None or shapes[1] not in sc.parked:
            return
        by_fine = sc.parked[shapes[1]]
        for fine in list(by_fine):
            waiting = by_fine[fine]
            while waiting and sc.learner.admits((fine, shapes[1])):
                request = waiting.pop(0)
                sc.learner.requested((fine, shapes[1]))
                self.crawler.stats.inc_value("mcecrawl/discovery/pages")
                # At once, from the signal handler that learned: waiting for a callback to carry it would
                # stall the crawl until the engine's next idle check.  (Nothing is held back on a shared
                # frontier, so these never need its spider middleware.)
                self.crawler.engine.crawl(request)
            if not waiting:
                del by_fine[fine]
        if not by_fine:
            del sc.parked[shapes[1]]

    def _judged_not_article(self, sc: SiteCrawl, meta: dict, url: str, why: str) -> None:
        sc.not_articles += 1
        self.crawler.stats.inc_value(f"mcecrawl/news/not_article_pages/{why}")
        shapes = meta.get("mce_shapes")
        if shapes:
            sc.learner.judged(shapes, url, article=False)
            self._release(sc, shapes)

    def parse_sitemap(self, response: Response):
        sc = self.crawls[response.meta["mce_site"]]
        try:
            parsed = sitemap_entries(response.body)
        except SitemapTooLarge as e:
            self.crawler.stats.inc_value("mcecrawl/discovery/sitemap_too_large")
            logger.warning("Sitemap dropped: %s %s", response.url, e)
            return
        if parsed is None or parsed[0] not in ("urlset", "sitemapindex"):  # e.g. a page answering any URL
            self.crawler.stats.inc_value("mcecrawl/discovery/bad_sitemap")
            logger.debug("Not a sitemap: %s", response.url)
            return
        kind, entries = parsed
        self.crawler.stats.inc_value(f"mcecrawl/discovery/sitemaps/{kind}")
        self._found(response, "news_sitemaps" if any("publication_date" in f for f in entries) else "sitemaps")
        # Most recent first (entries without a date last, in the sitemap's order).
        dated = sorted(entries, key=lambda f: iso_date(f.get("publication_date") or f.get("lastmod")) or "",
                       reverse=True)
        for fields in dated:
            loc = self.to_live(urljoin(response.url, fields["loc"]))
            when = fields.get("publication_date") or fields.get("lastmod")
            if kind == "sitemapindex":
                canon = sc.site.canonical(loc)
                if canon is None or canon in self.urls.requested or too_old(when, self.since):
                    continue
                if sc.sitemaps >= MAX_SITEMAPS:
                    self.crawler.stats.inc_value("mcecrawl/news/skipped/sitemaps_bound")
                    continue
                self.urls.request(canon)
                sc.sitemaps += 1
                yield self._request(sc, loc, self.parse_sitemap, "sitemap")
            else:
                lang = fields.get("language")
                if self.lang and lang and lang.split("-")[0] != self.lang:
                    continue
                yield from self.consider(sc, loc, 1, None, listed=True, listed_date=when)

    def parse_feed(self, response: Response):
        sc = self.crawls[response.meta["mce_site"]]
        entries = feed_entries(response.body)
        if entries is None:
            self.crawler.stats.inc_value("mcecrawl/discovery/bad_feed")
            return
        self.crawler.stats.inc_value("mcecrawl/discovery/feeds")
        self._found(response, "feeds")
        for link, when in entries:
            if _is_link(link):
                yield from self.consider(sc, urljoin(response.url, link), 1, None, listed=True, listed_date=when)

    # -- pages ---------------------------------------------------------------------------------
    def parse_page(self, response: Response):
        meta = response.meta
        sc = self.crawls[meta["mce_site"]]
        home = meta.get("mce_kind") == "home"
        stats = self.crawler.stats
        live = self.to_live(response.url)
        if response.status in REDIRECT_STATUSES:
            yield from self.redirected(sc, response)
            return
        if not sc.site.owns(live):
            self._judged_not_article(sc, meta, response.url, "redirected off the site")
            if home:
                yield from self.entry_points(sc)
            return
        if response.status != 200 or not isinstance(response, TextResponse):
            self._judged_not_article(sc, meta, response.url, f"HTTP {response.status}" if response.status != 200
                                     else "not text")
            if home:
                yield from self.entry_points(sc)
            return
        text, body, prov = decoded_page(response)
        digest = hashlib.sha1(body).digest()
        if digest in sc.bodies:  # the same bytes at another URL: a home page or soft 404 answering any URL
            self._judged_not_article(sc, meta, response.url, "same page as another URL")
            if home:
                yield from self.entry_points(sc)
            return
        sc.bodies.add(digest)
        links = page_links(body)
        base = get_base_url(response)
        requested = meta.get("mce_canonical")
        cleaned = sc.site.clean(live)
        page_url = cleaned or live
        canon = live if cleaned is None else sc.site.fold(cleaned)
        selector = signals_selector(body)
        declared = links.canonical or selector.css('meta[property="og:url"]::attr(content)').get()
        if declared:
            own = sc.site.canonical(self.to_live(urljoin(base, declared.strip())))
            if own is not None:
                canon = own
        if canon != requested and requested is not None:
            if self.urls.written_before(canon) or canon in self._pending:
                stats.inc_value("mcecrawl/duplicate_url")
                self._judged_not_article(sc, meta, response.url, "duplicate of a page already read")
                return
            self.urls.request(canon)
        for alt in links.alternates:  # the AMP / mobile twin: never fetched
            twin = sc.site.clean(self.to_live(urljoin(base, alt)))
            if twin is not None:
                self.urls.request(sc.site.fold(twin))
                # Unfolded too: fold takes off one variant segment, so a link to /amp/amp/amp/x folds to the
                # twin /amp/amp/x itself (whose own fold is /amp/x).
                self.urls.request(twin)
        depth = meta.get("mce_depth", 0)
        here = meta.get("mce_shapes") or url_shapes(page_url)
        for href in links.next:
            if _is_link(href):
                yield from self.consider(sc, urljoin(base, href), depth, here)
        # Links with the longest texts first (headlines before menu words): the first pages of an
        # unknown shape are its samples, and a headline's page is the likelier article.
        for href, _ in sorted(links.anchors, key=lambda a: -a[1]):
            url = urljoin(base, href)  # before the check, as ever: urljoin raises on an href such as mailto://[
            if _is_link(href):
                yield from self.consider(sc, url, depth, here, linked_from=page_url)
        if home:
            yield from self.entry_points(sc, [self.to_live(urljoin(base, f)) for f in links.feeds])
        verdict, why = page_evidence(selector, {})
        weak = microdata_evidence(body) if verdict != ARTICLE and verdict != NOT_ARTICLE else None
        if verdict == ARTICLE and why.startswith("og:type"):  # some CMSs put og:type article on every page
            weak = why
        if verdict != ARTICLE and not weak:
            self._judged_not_article(sc, meta, response.url, why if verdict == NOT_ARTICLE else "no article evidence")
            return
        if self.urls.written_before(canon) or canon in self._pending:
            stats.inc_value("mcecrawl/duplicate_url")
            return
        info = page_metadata(selector)
        if iso_before(info["published"], self.since):
            stats.inc_value("mcecrawl/too_old")
            self._judged_not_article(sc, meta, response.url, "older than since")
            return
        if self.limit is not None and self._items >= self.limit:
            return
        og_site = selector.css('meta[property="og:site_name"]::attr(content)').get()
        locale = selector.css('meta[property="og:locale"]::attr(content)').get() or ""
        m = _HTML_LANG.search(body, 0, HTML_LANG_SCAN)
        lang = self.lang or (m.group(1).decode("ascii").lower() if m else locale[:2].lower() or "und")
        self._items += 1
        self._pending[canon] = (here, meta.get("mce_via"), bool(weak))
        yield ArticleItem(url=response.url, canonical_url=canon, site=sc.site.key,
                          site_name=(og_site or "").strip() or sc.site.host, lang=lang,
                          algorithm=self.algorithm, params=dict(self.algorithm_params),
                          fetched_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                          schema_version=SCHEMA_VERSION, **prov, **info, html=body)
        if self.limit is not None and self._items >= self.limit:
            raise CloseSpider("limit")

    def redirected(self, sc: SiteCrawl, response: Response) -> Iterable[Request]:
        """A page answered with a redirect: its target is routed as a link of that page, so that a
        target already requested (a short link to a listed article, a redirect loop) is not fetched
        again.  A redirected home page starts the site again at its target."""
        meta = response.meta
        location = response.headers.get(b"Location")
        self._judged_not_article(sc, meta, response.url, f"redirect (HTTP {response.status})")
        if not location:
            return
        target = self.to_live(urljoin(response.url, location.decode("latin-1")))
        if meta.get("mce_kind") == "home" and sc.site.owns(target):
            cleaned = sc.site.clean(target)
            canon = target if cleaned is None else sc.site.fold(cleaned)
            if canon not in self.urls.requested:
                self.urls.request(canon)
                yield Request(self.to_fetch(cleaned or target), callback=self.parse_page,
                              errback=self.on_error, priority=PRIORITY_DISCOVERY, dont_filter=True,
                              meta={**_page_meta(meta), "mce_canonical": canon})
                return
        if meta.get("mce_kind") == "home":
            yield from self.entry_points(sc)
        yield from self.consider(sc, target, meta.get("mce_depth", 0), meta.get("mce_via"),
                                 listed=meta.get("mce_listed", False))

    def not_article_after_extraction(self, adapter: ItemAdapter) -> str | None:
        """The extraction's own evidence (called by the extraction pipeline for ``ok`` items): a page
        recognised by og:type or microdata only (no Article-family JSON-LD) must show
        :data:`MIN_PROSE_CHARS` of punctuated prose."""
        pending = self._pending.get(adapter.get("canonical_url") or "")
        if pending is None or not pending[2]:
            return None
        n = prose_chars(adapter.get("text") or "")
        if n < MIN_PROSE_CHARS:
            return f"og:type or microdata only, and {n} characters of punctuated prose (< {MIN_PROSE_CHARS})"
        return None

    # -- learning -------------------------------------------------------------------------------
    def item_done(self, item: Any) -> None:
        """An item scraped or dropped (connected to both signals): learn from its page's verdict."""
        adapter = ItemAdapter(item)
        self._learn(adapter.get("canonical_url"), adapter.get("site"), adapter.get("url"), adapter.get("status"))

    def _learn(self, canon: str | None, site: str | None, url: str | None, status: str | None) -> None:
        self.urls.wrote(canon or "")
        pending = self._pending.pop(canon or "", None)
        sc = self.crawls.get(site or "")
        if pending is None or sc is None:
            return
        shapes, via, _ = pending
        article = status == "ok"
        if article:
            sc.articles += 1
            if via is not None:
                sc.learner.led_to_article(via)
        else:
            sc.not_articles += 1
            self.crawler.stats.inc_value(f"mcecrawl/news/not_article_pages/{status}")
        sc.learner.judged(shapes, canon or url or "", article=article)
        self._release(sc, shapes)
        self._release(sc, via)

    def on_error(self, failure):
        request = failure.request
        meta = request.meta
        sc = self.crawls.get(meta.get("mce_site", ""))
        kind = meta.get("mce_kind", "request")
        self.crawler.stats.inc_value(f"mcecrawl/failed/{kind}")
        why = failure.getErrorMessage()
        if sc is None:
            return
        if kind in _DISCOVERY_KINDS:  # a usual location that the site does not have: expected
            logger.debug("No %s at %s: %s", kind, request.url, why)
            return
        logger.info("Could not fetch %s (%s): %s", request.url, kind, why)
        self._judged_not_article(sc, meta, request.url, "failed")
        if kind == "home":
            yield from self.entry_points(sc)

    # -- summary -------------------------------------------------------------------------------
    def closed(self, reason: str) -> None:
        stats = self.crawler.stats
        for key, sc in self.crawls.items():
            skipped = sum(len(v) for by_fine in sc.parked.values() for v in by_fine.values())
            pages = sc.articles + sc.not_articles
            total = pages + sc.discovery
            share = sc.not_articles / total if total else 0.0
            for name, value in (("articles", sc.articles), ("not_article_pages", sc.not_articles),
                                ("discovery_requests", sc.discovery), ("skipped_by_shape", skipped)):
                stats.set_value(f"mcecrawl/news/{key}/{name}", value)
            stats.set_value(f"mcecrawl/news/{key}/not_article_share", round(share, 4))
            held = sorted(((fine, len(v)) for by_fine in sc.parked.values() for fine, v in by_fine.items()),
                          key=lambda kv: -kv[1])
            lines = sc.learner.summary()
            lines += [f"{fine}: {n} URLs not fetched (learned: no article, led to none)" for fine, n in held]
            logger.info("News crawl of %s: %d pages written as articles, %d pages that were not articles "
                        "(%.1f %% of %d requests), %d discovery requests (sitemaps, feeds, usual locations), "
                        "%d URLs not fetched because of their learned shape. URL shapes:\n  %s",
                        sc.site.url, sc.articles, sc.not_articles, 100 * share, total, sc.discovery, skipped,
                        "\n  ".join(lines) or "(none)")
