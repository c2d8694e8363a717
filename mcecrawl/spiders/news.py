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
3. **Recognition** (:mod:`mcecrawl.spiders.evidence`, docs/any-site.md): an explicit non-article type
   (VideoObject, CollectionPage, og:type video) vetoes; an Article-family JSON-LD type makes a candidate;
   ``og:type`` article or microdata alone make one that must also show enough punctuated prose; a page
   without markup is a candidate judged by its own content.  Every candidate is judged once by its
   extraction, in the extraction pipeline (:meth:`NewsSpider.not_article_after_extraction`,
   :func:`mcecrawl.spiders.evidence.article_verdict`): a page type other than ``article`` is never an
   article; without markup, an article's prose that is no list of teasers, at a URL naming one page, or
   some text at a URL shape whose pages were articles (a page that only that is missing waits for its
   shape's verdict: :meth:`NewsSpider._wait_for_shape`).  A candidate that fails is written
   ``not_article`` with the reason; the home page and vetoed pages are counted, not written.  What
   recognised the articles is counted and named in the summary.
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
from collections import Counter
from pathlib import Path
from typing import Any, AsyncIterator, Iterable, NamedTuple, cast
from urllib.parse import urljoin, urlsplit

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.http import Request, Response, TextResponse
from scrapy.utils.response import get_base_url
from twisted.internet.defer import Deferred
from twisted.internet.task import LoopingCall

from mcecrawl.algorithms import DEFAULT_ALGORITHM
from mcecrawl.config import Config
from mcecrawl.items import ArticleItem
from mcecrawl.profile import ARTICLE, NOT_ARTICLE
from mcecrawl.spiders.base import (
    ARTICLE_HTTP_STATUSES,
    PRIORITY_ARTICLE,
    PRIORITY_DISCOVERY,
    PRIORITY_LISTED,
    PRIORITY_LISTING,
    PRIORITY_UNKNOWN,
    Mirror,
    SpiderBase,
    decoded_page,
)
from mcecrawl.spiders.discovery import (
    USUAL_FEED_PATHS,
    USUAL_SITEMAP_PATHS,
    PageLinks,
    is_pagination,
    join_url,
    page_links,
)
from mcecrawl.spiders.evidence import (
    BY_CONTENT,
    BY_MARKUP,
    BY_WEAK_MARKUP,
    article_verdict,
    iso_before,
    iso_date,
    microdata_evidence,
    page_evidence,
    page_metadata,
    recognised_by,
    signals_selector,
    too_old,
    waits_for_its_shape,
)
from mcecrawl.spiders.urlshapes import ShapeLearner, Site, url_shapes

logger = logging.getLogger(__name__)

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
# How often (seconds) the spider checks whether pages waiting for their URL shape's verdict can learn
# anything more (:meth:`NewsSpider._check_waiting`): a check, not a timeout; nothing waits on the clock.
WAIT_CHECK_SECONDS = 0.5
# Redirects of page requests are followed by the spider itself (:meth:`NewsSpider.redirected`).
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
PAGE_META = {"dont_redirect": True, "handle_httpstatus_list": [*ARTICLE_HTTP_STATUSES, *REDIRECT_STATUSES]}


def _is_link(href: str) -> bool:
    """``href`` may link to a page (not empty, not one of :data:`_NOT_LINKS`)."""
    return bool(href) and not href.startswith(_NOT_LINKS)


def _page_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The spider's own keys of a page request's meta, for a follow-up request."""
    return {k: v for k, v in meta.items() if k.startswith("mce_")} | PAGE_META


def _html_lang(body: bytes) -> str | None:
    """The page's ``<html lang>`` (its first subtag, lower case), or None."""
    m = _HTML_LANG.search(body, 0, HTML_LANG_SCAN)
    return m.group(1).decode("ascii").lower() if m else None


class Page:
    """A page being read by :meth:`NewsSpider.parse_page`: the response, its UTF-8 bytes, its links, its base
    URL and signal elements; the steps fill in its cleaned URL and its shapes."""

    def __init__(self, response: Response, body: bytes, links: PageLinks, base: str, selector: Any):
        self.response, self.body, self.links, self.base, self.selector = response, body, links, base, selector
        self.url = response.url
        self.shapes: tuple[str, str] = ("", "")


class Pending(NamedTuple):
    """An item yielded and not yet judged by its extraction."""

    shapes: tuple[str, str]  # the page's URL shapes
    via: tuple[str, str] | None  # the shapes of the page that linked to it
    by: str  # what made it a candidate (evidence.BY_*)
    body: bytes  # a page without markup: its bytes and the offsets of its headline links (a list or a body?)
    headlines: tuple[int, ...]


class Waiting(NamedTuple):
    """A candidate whose verdict waits for its URL shape's (:meth:`NewsSpider.not_article_after_extraction`)."""
    done: Deferred  # fired with the verdict: None (an article) or the reason it is not one
    sc: SiteCrawl
    shapes: tuple[str, ...]  # the shapes it was linked by and is known by
    reason: str  # its verdict if no page of its shape turns out an article
    by: str
    page_type: str | None
    text: str


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
        self.recognised: Counter[str] = Counter()  # what made each article one (evidence.recognised_by)


class NewsSpider(SpiderBase):
    """Crawl any news site from its URL (module docstring)."""

    name = "news"

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
        site0 = self.site_list[0]
        self.mirror = Mirror(base_url, (site0.scheme, site0.netloc), lambda _url: True)
        self.lang = lang
        self.setup_crawl(since, limit, algorithm or DEFAULT_ALGORITHM)
        self.algorithm_params: dict[str, Any] = {}
        self.mce_encoding = None  # read by the encoding middleware: no forced charset
        self.crawls: dict[str, SiteCrawl] = {}
        self._pending: dict[str, Pending] = {}
        self._waiting: list[Waiting] = []
        self._wait_check: LoopingCall | None = None
        self._dequeued = 0  # the scheduler's dequeued count at the last check of the waiting verdicts
        self._closing = False
        self.found: dict[str, dict[str, list[str]]] = {}  # kept in spider.state from start() on
        self._routes: dict[str, tuple[str, str, tuple[str, str]] | None] = {}  # link -> _route()
        self.hold_back = True  # park requests of shapes that lead nowhere (not on a shared frontier)

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
        self.crawler.signals.connect(self.item_failed, signals.item_error)
        local = all(s.host in ("127.0.0.1", "localhost", "::1") for s in self.site_list)
        if self.mirror.base is None and not local and CONTACT_PLACEHOLDER in (self.settings.get("USER_AGENT") or ""):
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

    def _join(self, base: str | None, href: str) -> str | None:
        """:func:`join_url`, counting the links that are no URL (``mcecrawl/news/skipped/bad_link``)."""
        url = join_url(base, href)
        if url is None:
            self.crawler.stats.inc_value("mcecrawl/news/skipped/bad_link")
        return url

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
        parsed = self.sitemap_of(response)
        if parsed is None or parsed[0] not in ("urlset", "sitemapindex"):  # e.g. a page answering any URL
            logger.debug("Not a sitemap: %s", response.url)
            return
        kind, entries = parsed
        self._found(response, "news_sitemaps" if any("publication_date" in f for f in entries) else "sitemaps")
        # Most recent first (entries without a date last, in the sitemap's order).
        dated = sorted(entries, key=lambda f: iso_date(f.get("publication_date") or f.get("lastmod")) or "",
                       reverse=True)
        for fields in dated:
            joined = self._join(response.url, fields["loc"])
            if joined is None:
                continue
            loc = self.to_live(joined)
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
        entries = self.feed_of(response)
        if entries is None:
            return
        self._found(response, "feeds")
        for link, when in entries:
            url = self._join(response.url, link) if _is_link(link) else None
            if url is not None:
                yield from self.consider(sc, url, 1, None, listed=True, listed_date=when)

    # -- pages ---------------------------------------------------------------------------------
    def parse_page(self, response: Response):
        """A page of the site, in named steps: :meth:`unreadable` (off the site, an error, bytes already
        seen), :meth:`identity` (the canonical URL, twins marked), :meth:`discover` (its links),
        :meth:`candidate` (what makes it a candidate article, if anything) and :meth:`article_item`."""
        meta = response.meta
        sc = self.crawls[meta["mce_site"]]
        home = meta.get("mce_kind") == "home"
        if response.status in REDIRECT_STATUSES:
            yield from self.redirected(sc, response)
            return
        why = self.unreadable(sc, response)
        if why is not None:
            self._judged_not_article(sc, meta, response.url, why)
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
        base = get_base_url(cast(TextResponse, response))
        page = Page(response, body, page_links(body), base, signals_selector(body))
        canon = self.identity(sc, page)
        if canon is None:
            self.crawler.stats.inc_value("mcecrawl/duplicate_url")
            self._judged_not_article(sc, meta, response.url, "duplicate of a page already read")
            return
        yield from self.discover(sc, page)
        by = self.candidate(sc, page)
        if by is None:
            return
        yield from self.article_item(sc, page, canon, by, prov)

    def unreadable(self, sc: SiteCrawl, response: Response) -> str | None:
        """Why a page that answered is read no further (redirected off the site, an HTTP error, not text)."""
        if not sc.site.owns(self.to_live(response.url)):
            return "redirected off the site"
        if response.status != 200:
            return f"HTTP {response.status}"
        if not isinstance(response, TextResponse):
            return "not text"
        return None

    def identity(self, sc: SiteCrawl, page: Page) -> str | None:
        """The page's canonical URL (its own ``rel=canonical``/``og:url`` on the site decides); its AMP and
        mobile twins marked as seen.  None when a page reached at another URL was read already."""
        live = self.to_live(page.response.url)
        cleaned = sc.site.clean(live)
        page.url = cleaned or live
        canon = live if cleaned is None else sc.site.fold(cleaned)
        declared = page.links.canonical or page.selector.css('meta[property="og:url"]::attr(content)').get()
        declared_url = self._join(page.base, declared.strip()) if declared else None
        if declared_url is not None:
            own = sc.site.canonical(self.to_live(declared_url))
            if own is not None:
                canon = own
        requested = page.response.meta.get("mce_canonical")
        if canon != requested and requested is not None:
            if self.urls.written_before(canon) or canon in self._pending:
                return None
            self.urls.request(canon)
        for alt in page.links.alternates:  # the AMP / mobile twin: never fetched
            joined = self._join(page.base, alt)
            twin = sc.site.clean(self.to_live(joined)) if joined is not None else None
            if twin is not None:
                self.urls.request(sc.site.fold(twin))
                # Unfolded too: fold takes off one variant segment, so a link to /amp/amp/amp/x folds to the
                # twin /amp/amp/x itself (whose own fold is /amp/x).
                self.urls.request(twin)
        return canon

    def discover(self, sc: SiteCrawl, page: Page) -> Iterable[Request]:
        """The page's links: its pagination at its own depth, its anchors one hop deeper, and on the home
        page the site's entry points (its feeds)."""
        meta = page.response.meta
        depth = meta.get("mce_depth", 0)
        page.shapes = here = meta.get("mce_shapes") or url_shapes(page.url)
        for href in page.links.next:
            url = self._join(page.base, href) if _is_link(href) else None
            if url is not None:
                yield from self.consider(sc, url, depth, here)
        # Links with the longest texts first (headlines before menu words): the first pages of an
        # unknown shape are its samples, and a headline's page is the likelier article.
        for href, _ in sorted(page.links.anchors, key=lambda a: -a[1]):
            url = self._join(page.base, href) if _is_link(href) else None
            if url is not None:
                yield from self.consider(sc, url, depth, here, linked_from=page.url)
        if meta.get("mce_kind") == "home":
            feeds = (self._join(page.base, f) for f in page.links.feeds)
            yield from self.entry_points(sc, [self.to_live(f) for f in feeds if f is not None])

    def candidate(self, sc: SiteCrawl, page: Page) -> str | None:
        """What makes the page a candidate article (``evidence.BY_*``: its markup, weak markup, or its own
        content, judged after its extraction), or None when it is not one (counted)."""
        meta, selector, body = page.response.meta, page.selector, page.body
        verdict, why = page_evidence(selector, {})
        if verdict == NOT_ARTICLE:  # an explicit non-article type (VideoObject, CollectionPage, og:type video)
            self._judged_not_article(sc, meta, page.response.url, why)
            return None
        weak = microdata_evidence(body) if verdict != ARTICLE else None
        if verdict == ARTICLE and why.startswith("og:type"):  # some CMSs put og:type article on every page
            weak = why
        by = BY_MARKUP if verdict == ARTICLE and not weak else BY_WEAK_MARKUP if weak else BY_CONTENT
        if meta.get("mce_kind") == "home":
            self.state.setdefault("home", {})[sc.site.key] = {  # the site's own name and language, for new-site
                "site_name": " ".join((selector.css('meta[property="og:site_name"]::attr(content)').get()
                                       or selector.css("title::text").get() or "").split()),
                "lang": _html_lang(body)}
            if by == BY_CONTENT:  # the site's home page: a listing, never an article
                self._judged_not_article(sc, meta, page.response.url, "home page")
                return None
        return by

    def article_item(self, sc: SiteCrawl, page: Page, canon: str, by: str, prov: dict[str, Any]
                     ) -> Iterable[ArticleItem]:
        """The candidate's item (its extraction judges it in the pipeline), unless written already, older
        than ``since`` or past ``limit``."""
        stats, selector, meta = self.crawler.stats, page.selector, page.response.meta
        if self.urls.written_before(canon) or canon in self._pending:
            stats.inc_value("mcecrawl/duplicate_url")
            return
        info = page_metadata(selector)
        if iso_before(info["published"], self.since):
            stats.inc_value("mcecrawl/too_old")
            self._judged_not_article(sc, meta, page.response.url, "older than since")
            return
        if self.limit is not None and self._items + len(self._pending) >= self.limit:
            # ``limit`` counts articles written: candidates in flight may still turn out not to be articles,
            # but no more are read than could reach it.
            stats.inc_value("mcecrawl/news/skipped/limit")
            return
        og_site = selector.css('meta[property="og:site_name"]::attr(content)').get()
        locale = selector.css('meta[property="og:locale"]::attr(content)').get() or ""
        lang = self.lang or _html_lang(page.body) or locale[:2].lower() or "und"
        content = by == BY_CONTENT
        self._pending[canon] = Pending(page.shapes, meta.get("mce_via"), by, page.body if content else b"",
                                       tuple(page.links.headlines) if content else ())
        yield self.build_item(page.response.url, canon, sc.site.key, (og_site or "").strip() or sc.site.host, lang,
                              prov, **info, html=page.body)

    def redirected(self, sc: SiteCrawl, response: Response) -> Iterable[Request]:
        """A page answered with a redirect: its target is routed as a link of that page, so that a
        target already requested (a short link to a listed article, a redirect loop) is not fetched
        again.  A redirected home page starts the site again at its target."""
        meta = response.meta
        location = response.headers.get(b"Location")
        self._judged_not_article(sc, meta, response.url, f"redirect (HTTP {response.status})")
        if not location:
            return
        joined = self._join(response.url, location.decode("latin-1"))
        if joined is None:
            if meta.get("mce_kind") == "home":
                yield from self.entry_points(sc)
            return
        target = self.to_live(joined)
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

    def not_article_after_extraction(self, adapter: ItemAdapter, outcome: Any = None) -> str | None | Deferred:
        """The page judged by its extraction (called by the extraction pipeline for ``ok`` items, so the
        page is extracted once): :func:`mcecrawl.spiders.evidence.article_verdict` with the page type
        (``outcome.page_type``, None when not judged), the page's link texts and its URL shape's record.
        What recognised each article is counted (``mcecrawl/news/recognised_by/*``, the summary).  A
        Deferred of that verdict when it waits for the page's URL shape's (:meth:`_wait_for_shape`)."""
        page_type = getattr(outcome, "page_type", None)
        page_type_reason = getattr(outcome, "page_type_reason", "")
        pending = self._pending.get(adapter.get("canonical_url") or "")
        if pending is None:  # not a page of this crawl's candidates: only the page type speaks
            pending = Pending(("", ""), None, BY_MARKUP, b"", ())
        by, shapes = pending.by, pending.shapes
        sc = self.crawls.get(adapter.get("site") or "")
        # The shape the page was linked by (an AMP twin's /amp/{n}) and the one it is known by (/news/{n}).
        canon_shape = url_shapes(adapter.get("canonical_url") or "")[0] if adapter.get("canonical_url") else ""
        own = tuple(s for s in (shapes[0], canon_shape) if s)
        shape_articles = max((sc.learner.get(s)["articles"] for s in own), default=0) if sc is not None else 0
        text = adapter.get("text") or ""
        reason = article_verdict(by, text, page_type, page_type_reason, pending.body, pending.headlines,
                                 shape_articles, shapes[0] or "/{n}")
        if reason is not None and sc is not None and self.hold_back and own and waits_for_its_shape(reason, text):
            # Some text at a shape that has yielded no article *yet* (a news flash among the first pages of
            # its shape): the verdict waits for the shape's, so that it does not depend on which response
            # happened to arrive first.
            return self._wait_for_shape(Waiting(Deferred(), sc, own, reason, by, page_type, text))
        if reason is None and sc is not None:
            self._recognised(sc, by, page_type, text, shape_articles)
        return reason

    def _recognised(self, sc: SiteCrawl, by: str, page_type: str | None, text: str, shape_articles: int) -> None:
        how = recognised_by(by, page_type, text, shape_articles)
        sc.recognised[how] += 1
        counts = self.state.setdefault("recognised", {}).setdefault(sc.site.key, {})  # for new-site
        counts[how] = counts.get(how, 0) + 1
        self.crawler.stats.inc_value(f"mcecrawl/news/recognised_by/{how}")

    # -- verdicts that wait for their URL shape's --------------------------------------------------
    def _wait_for_shape(self, waiting: Waiting) -> Deferred:
        """Hold a candidate's verdict until a page of its shape is written as an article (then it is one),
        or until nothing in flight could be one (then it is not: its ``reason``).  Checked whenever an item
        is done, and every :data:`WAIT_CHECK_SECONDS` for the rest."""
        self.crawler.stats.inc_value("mcecrawl/news/verdict_waited_for_shape")
        self._waiting.append(waiting)
        if self._wait_check is None:
            self._dequeued = self._dequeued_now()
            self._wait_check = LoopingCall(self._check_waiting, stalled_check=True)
            self._wait_check.start(WAIT_CHECK_SECONDS, now=False)
        return waiting.done

    def _dequeued_now(self) -> int:
        return int(self.crawler.stats.get_value("scheduler/dequeued") or 0)

    def _stalled(self) -> bool:
        """Nothing left to learn from before the waiting verdicts: the crawl is closing; the responses held
        make the engine stop downloading (the scraper's backout: waiting longer would wait on requests it no
        longer sends); or nothing is downloading, no other candidate is in the pipeline and the engine took
        no request from its scheduler since the last check (none queued, or the engine closing)."""
        engine = self.crawler.engine
        if self._closing or engine is None or not engine.running or engine.scraper.slot is None \
                or engine.scraper.slot.needs_backout():
            return True
        dequeued = self._dequeued_now()
        moved, self._dequeued = dequeued != self._dequeued, dequeued
        return not engine.downloader.active and len(self._pending) <= len(self._waiting) and not moved

    def _check_waiting(self, stalled_check: bool = False) -> None:
        """Give the waiting candidates the verdicts now known: an article where a page of their shape is
        one; else, when :meth:`_stalled` (checked by the timer, or at once when closing), their reasons."""
        if not self._waiting:
            return
        try:
            stalled = self._closing or (stalled_check and self._stalled())
        except Exception:  # the engine read otherwise (another Scrapy): the verdicts now, never a hang
            logger.exception("Could not tell whether pages waiting for their URL shape's verdict can learn more; "
                             "giving them their verdicts now")
            stalled = True
        waiting, self._waiting = self._waiting, []
        for w in waiting:
            articles = max(w.sc.learner.get(s)["articles"] for s in w.shapes)
            if articles:
                self._recognised(w.sc, w.by, w.page_type, w.text, articles)
                self._fire(w.done, None)
            elif stalled:
                self._fire(w.done, w.reason)
            else:
                self._waiting.append(w)
        if not self._waiting and self._wait_check is not None:
            if self._wait_check.running:
                self._wait_check.stop()
            self._wait_check = None

    @staticmethod
    def _fire(done: Deferred, verdict: str | None) -> None:
        from twisted.internet import reactor

        # Later, not from inside the signal handler that learned: the pipeline it resumes ends in that
        # signal again.
        cast(Any, reactor).callLater(0, done.callback, verdict)

    # -- learning -------------------------------------------------------------------------------
    def item_done(self, item: Any) -> None:
        """An item scraped or dropped (connected to both signals): learn from its page's verdict."""
        adapter = ItemAdapter(item)
        self._learn(adapter.get("canonical_url"), adapter.get("site"), adapter.get("url"), adapter.get("status"))

    def item_failed(self, item: Any) -> None:
        """An item whose pipeline raised (a bug, logged by Scrapy): done, and not an article."""
        adapter = ItemAdapter(item)
        self._learn(adapter.get("canonical_url"), adapter.get("site"), adapter.get("url"), "error")

    def _learn(self, canon: str | None, site: str | None, url: str | None, status: str | None) -> None:
        self.urls.wrote(canon or "")
        pending = self._pending.pop(canon or "", None)
        sc = self.crawls.get(site or "")
        if pending is None or sc is None:
            return
        shapes, via = pending.shapes, pending.via
        article = status == "ok"
        if article:
            sc.articles += 1
            self._items += 1  # articles written, toward limit
            if self.limit_reached():
                from twisted.internet import reactor

                # Closed outside the signal handler; the candidates in flight finish (none beyond the limit:
                # article_item admits no more than it can reach).
                cast(Any, reactor).callLater(0, self._close_at_limit)
            if via is not None:
                sc.learner.led_to_article(via)
        else:
            sc.not_articles += 1
            self.crawler.stats.inc_value(f"mcecrawl/news/not_article_pages/{status}")
        sc.learner.judged(shapes, canon or url or "", article=article)
        self._release(sc, shapes)
        self._release(sc, via)
        self._check_waiting()

    def _close_at_limit(self) -> None:
        from scrapy.utils.defer import deferred_from_coro

        engine = self.crawler.engine
        if engine is not None and engine.running and not self._closing:
            self._closing = True
            deferred_from_coro(engine.close_spider_async(reason="limit"))

    def failed(self, request: Request, kind: str, why: str) -> Iterable[Any]:
        sc = self.crawls.get(request.meta.get("mce_site", ""))
        if sc is None:
            return
        if kind in _DISCOVERY_KINDS:  # a usual location that the site does not have: expected
            logger.debug("No %s at %s: %s", kind, request.url, why)
            return
        logger.info("Could not fetch %s (%s): %s", request.url, kind, why)
        self._judged_not_article(sc, request.meta, request.url, "failed")
        if kind == "home":
            yield from self.entry_points(sc)

    # -- summary -------------------------------------------------------------------------------
    def closed(self, reason: str) -> None:
        stats = self.crawler.stats
        self._closing = True
        self._check_waiting()
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
            by = ", ".join(f"{how} {n}" for how, n in sc.recognised.most_common()) or "none"
            logger.info("News crawl of %s: %d pages written as articles (recognised by: %s), %d pages that were "
                        "not articles (%.1f %% of %d requests), %d discovery requests (sitemaps, feeds, usual "
                        "locations), %d URLs not fetched because of their learned shape. URL shapes:\n  %s",
                        sc.site.url, sc.articles, by, sc.not_articles, 100 * share, total, sc.discovery, skipped,
                        "\n  ".join(lines) or "(none)")
            if sc.articles and not sc.recognised["markup"] + sc.recognised["weak markup and prose"]:
                logger.warning("News crawl of %s: no article carried page-type markup (JSON-LD, og:type, "
                               "microdata); all were recognised from their own content", sc.site.url)
