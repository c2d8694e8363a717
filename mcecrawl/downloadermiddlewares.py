"""mcecrawl's Scrapy downloader middlewares, all of them (order numbers: ``mcecrawl/settings.py``).

Politeness that Scrapy leaves out: robots.txt Crawl-delay, Retry-After, and plain reporting.

* :class:`RobotsTxtReportMiddleware` (100) replaces Scrapy's ``RobotsTxtMiddleware``: same
  decisions, plus (a) each refusal counted per host (``mcecrawl/robotstxt/forbidden/<host>``), a
  warning on the first refusal of a host and a summary at close, so a crawl never ends with an
  empty corpus and no explanation; (b) the host's ``Crawl-delay`` applied to its download slot (and
  kept from AutoThrottle, which would otherwise lower it to ``DOWNLOAD_DELAY``); (c) the rules
  robots.txt addresses to the agents of ``MCE_ROBOTSTXT_ALSO_OBEY`` (default ``["Scrapy"]``:
  mcecrawl is Scrapy-based, so ``User-agent: Scrapy`` / ``Disallow: /`` as on bbc.com is aimed at
  us too), obeyed as well as those for our own user agent; each refusal names the agent whose rule
  refused it.
* :class:`RetryAfterMiddleware` (560) honours ``Retry-After`` on 429/503: the host's slot waits
  that long before the retry (RetryMiddleware, order 550, then re-schedules the request).

The page as text:

* :class:`HttpCompressionReportMiddleware` (590) replaces Scrapy's ``HttpCompressionMiddleware``:
  same decompression (gzip, deflate, br, zstd, nested), which stops at ``DOWNLOAD_MAXSIZE``, plus
  each response dropped for its size (compressed or decompressed) counted under a reason and named
  in the end summary (:meth:`mcecrawl.extensions.CrawlSummary.response_dropped`).
* :class:`EncodingNormalizationMiddleware` (585) re-encodes every text response as UTF-8 with
  :func:`mcecrawl.encoding.decode` and records how it was decoded.
* :class:`WarcArchiveMiddleware` (595, off by default) archives every response as received, with
  :class:`mcecrawl.corpus.warc.WarcWriter`.

The spider middleware is in :mod:`mcecrawl.spidermiddlewares`; the distributed crawl's
``SharedPolitenessMiddleware`` lives with the rest of the Redis add-on in
:mod:`mcecrawl.distributed.politeness`.  Each class is self-contained (its own settings, stats
namespace and logger use).  Scrapy internals used here go through :mod:`mcecrawl.scrapy_internals`.
"""
from __future__ import annotations

import logging
import re
import weakref
from collections import Counter
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import DownloadCancelledError, IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, TextResponse, XmlResponse
from scrapy.utils.httpobj import urlparse_cached

from mcecrawl.config import Config
from mcecrawl.encoding import PROVENANCE_KEYS, Decoded, decode, resolve_label, rewrite_declarations
from mcecrawl.scrapy_internals import restore_slot_delay, robots_sitemaps, seed_text_cache, set_slot_delay

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


# --- Politeness: robots.txt and Retry-After ---------------------------------------------------
# Text in the default USER_AGENT that the operator must replace with a real contact.
CONTACT_PLACEHOLDER = "CONTACT-NOT-SET"
# A user-agent token no robots.txt names (nor a part of it, which Protego would match): its
# verdict is the ``User-agent: *`` group's.
UNNAMED_AGENT = "zz-unnamed-robots-probe"
# Refused URLs named per host in the closing summary: a few to check by hand.
ROBOTS_SAMPLE_URLS = 3


class _OneLineRobotsErrors(logging.Filter):
    """Scrapy's robots.txt middleware logs an unreachable robots.txt with a full traceback per
    host; the message already names the error, so keep that line and drop the traceback, and
    remember it for the closing summary.

    Reads Scrapy 2.19's log record: message ``"Error downloading %(request)s: %(f_exception)s"``
    with a dict of args (tests/test_scrapy_internals.py pins it; if it changes, the traceback is
    logged as before and the summary misses the host)."""

    def __init__(self, owner: "RobotsTxtReportMiddleware"):
        super().__init__()
        self.owner = owner

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Error downloading"):
            exc = record.exc_info[1]
            record.exc_info, record.exc_text = None, None
            args = record.args if isinstance(record.args, dict) else {}
            request = args.get("request")
            host = urlparse_cached(request).hostname if request is not None else "?"
            self.owner.unreachable.setdefault(host or "?", str(exc))
        return True


class RobotsTxtReportMiddleware(RobotsTxtMiddleware):
    """Scrapy's robots.txt middleware with per-host refusal reports and Crawl-delay (module docstring)."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.forbidden: Counter[str] = Counter()
        self.forbidden_by: Counter[tuple[str, str]] = Counter()  # (host, agent) -> refusals
        self.also_obey: list[str] = [a for a in Config.from_settings(crawler.settings).robotstxt_also_obey if a]
        # The settings the stock middleware reads its user agents from (it keeps them private).
        self.robots_agent: str | None = crawler.settings.get("ROBOTSTXT_USER_AGENT") or None
        self.default_agent: str = crawler.settings.get("USER_AGENT") or ""
        ua = self.robots_agent or self.default_agent
        # The product token robots.txt groups match ("mcecrawl" of "mcecrawl/0.1 (...)").
        self.own_token = (ua.split("/", 1)[0].split() or ["our user agent"])[0]
        self.crawl_delays: dict[str, float] = {}
        self.samples: dict[str, list[str]] = {}  # host -> refused URLs (ROBOTS_SAMPLE_URLS)
        self.unreachable: dict[str, str] = {}  # host -> why its robots.txt could not be fetched
        # netloc -> the Sitemap: lines of its robots.txt, for spiders that discover (the news spider
        # reads them here instead of fetching robots.txt a second time)
        self.sitemaps: dict[str, list[str]] = {}
        self._log_filter = _OneLineRobotsErrors(self)
        logging.getLogger(RobotsTxtMiddleware.__module__).addFilter(self._log_filter)
        crawler.signals.connect(self.spider_closed, signals.spider_closed)

    # Scrapy 2.19 internal: RobotsTxtMiddleware.process_request awaits the host's parser, then
    # decides in process_request_2(rp, request); overriding that step keeps the stock fetching,
    # caching and error handling (tests/test_scrapy_internals.py pins it).
    def process_request_2(self, rp, request) -> None:
        parts = urlparse_cached(request)
        host = parts.hostname or ""
        if rp is not None and parts.netloc not in self.sitemaps:
            self.sitemaps[parts.netloc] = robots_sitemaps(rp)
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest:
            self._refused(request, host, self.own_token)
            raise
        if rp is None:
            return
        agent = self._also_obeyed_refusal(rp, request.url)
        if agent is not None:
            self.crawler.stats.inc_value("robotstxt/forbidden")  # as the stock middleware counts its refusals
            self._refused(request, host, agent)
            raise IgnoreRequest(f"Forbidden by robots.txt (User-agent: {agent})")
        self._apply_crawl_delay(rp, request, host)

    def _also_obeyed_refusal(self, rp, url: str) -> str | None:
        """The first ``MCE_ROBOTSTXT_ALSO_OBEY`` agent that robots.txt names and forbids ``url``.

        Only a group naming the agent counts: if an agent nobody names is refused too, the refusal
        is the ``User-agent: *`` group's, which our own user agent already passed (it has a group
        of its own that allows the URL, and that is the site's word for us).
        """
        for agent in self.also_obey:
            if not rp.allowed(url, agent) and rp.allowed(url, UNNAMED_AGENT):
                return agent
        return None

    def _refused(self, request, host: str, agent: str) -> None:
        if not self.forbidden_by[host, agent]:
            why = "" if agent == self.own_token else (
                f" (mcecrawl is Scrapy-based, so it obeys rules for {agent!r} too: MCE_ROBOTSTXT_ALSO_OBEY)")
            logger.warning("robots.txt of %s forbids %s for User-agent %r%s; such requests are skipped "
                           "(count in the closing stats: mcecrawl/robotstxt/forbidden/%s)",
                           host, request.url, agent, why, host)
        self.forbidden[host] += 1
        self.forbidden_by[host, agent] += 1
        samples = self.samples.setdefault(host, [])
        if len(samples) < ROBOTS_SAMPLE_URLS:
            samples.append(request.url)
        self.crawler.stats.inc_value(f"mcecrawl/robotstxt/forbidden/{host}")
        self.crawler.stats.inc_value(f"mcecrawl/robotstxt/forbidden_by/{agent}/{host}")

    def _apply_crawl_delay(self, rp, request, host: str) -> None:
        if host not in self.crawl_delays:
            ua = self.robots_agent or request.headers.get(b"User-Agent", self.default_agent)
            try:
                # A delay asked of an agent we also obey (e.g. Scrapy) is asked of us too: the largest wins.
                delays = [rp.crawl_delay(a) for a in [ua, *self.also_obey]]
                delay = max((d for d in delays if d), default=None)
            except (AttributeError, NotImplementedError):  # parsers without Crawl-delay support
                delay = None
            self.crawl_delays[host] = float(delay or 0.0)
            if delay:
                logger.info("robots.txt of %s asks for Crawl-delay %.1f s: honoured", host, delay)
                self.crawler.stats.set_value(f"mcecrawl/robotstxt/crawl_delay/{host}", float(delay))
        delay = self.crawl_delays[host]
        if delay:
            # Crawl-delay is a minimum: no downward jitter (DOWNLOAD_DELAY_JITTER would go to 0.5x),
            # for this host's slot now and for the one Scrapy makes again after dropping it idle.
            set_slot_delay(self.crawler, request, delay, at_least=True)
            request.meta["autothrottle_dont_adjust_delay"] = True

    def spider_closed(self) -> None:
        logging.getLogger(RobotsTxtMiddleware.__module__).removeFilter(self._log_filter)
        for host, why in self.unreachable.items():
            logger.warning("robots.txt of %s could not be fetched (%s); its URLs were requested as if allowed",
                           host, why)
        if self.forbidden:
            summary = ", ".join(
                f"{n} on {h}: " + ", ".join(f"{m} by the rules for User-agent {a!r}"
                                           for (h2, a), m in self.forbidden_by.most_common() if h2 == h)
                + f"; e.g. {', '.join(self.samples.get(h, []))}"
                for h, n in self.forbidden.most_common())
            logger.warning("robots.txt forbade %d requests (%s). Nothing was fetched from those URLs; "
                           "ask the site for permission, or crawl a mirror with -a base_url=URL.",
                           sum(self.forbidden.values()), summary)


def retry_after_seconds(value: bytes | str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value (delta-seconds or HTTP-date), else None."""
    if not value:
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    text = text.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - (now or datetime.now(timezone.utc))).total_seconds())


class RetryAfterMiddleware:
    """Make a host's slot wait ``Retry-After`` seconds after a 429/503 (capped by
    ``MCE_RETRY_AFTER_MAX``; a longer demand is logged and the stock retry back-off applies)."""

    HTTP_STATUSES = (429, 503)

    def __init__(self, crawler):
        cfg = Config.from_settings(crawler.settings)
        if not cfg.retry_after_enabled:
            raise NotConfigured
        self.crawler = crawler
        self.max_wait = cfg.retry_after_max

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_response(self, request, response):
        if response.status not in self.HTTP_STATUSES:
            return response
        wait = retry_after_seconds(response.headers.get(b"Retry-After"))
        if wait is None:
            return response
        stats = self.crawler.stats
        host = urlparse_cached(request).hostname
        if wait > self.max_wait:
            logger.warning("%s asks to retry after %.0f s (> MCE_RETRY_AFTER_MAX=%.0f): not waiting that long",
                           host, wait, self.max_wait)
            stats.inc_value("mcecrawl/retry_after/too_long")
            return response
        # A minimum, without downward jitter, for the live slot only (it is restored afterwards).
        previous = set_slot_delay(self.crawler, request, wait, at_least=True, later_slots=False) if wait > 0 else None
        if previous is not None:
            from twisted.internet import reactor  # here, not at import: Scrapy installs the reactor first

            # twisted types the reactor module as the IReactorTime interface, not an instance
            reactor.callLater(wait, restore_slot_delay, self.crawler, request, previous,  # type: ignore[arg-type]
                              unless_changed_from=max(previous[0], wait))
        logger.info("HTTP %s from %s with Retry-After %.1f s: pausing that host", response.status, host, wait)
        stats.inc_value("mcecrawl/retry_after/count")
        stats.max_value("mcecrawl/retry_after/max_wait", wait)
        return response


# --- Decompression ----------------------------------------------------------------------------

class HttpCompressionReportMiddleware(HttpCompressionMiddleware):
    """Scrapy's ``HttpCompressionMiddleware`` with its drops reported: a response whose body exceeds
    ``DOWNLOAD_MAXSIZE`` once decompressed (a decompression bomb: Scrapy stops inflating at the
    limit, so memory stays bounded) is reason ``decompressed_too_large``; one the download handler
    cancelled because its body exceeds the limit as sent, ``too_large``.  Both are counted
    (``mcecrawl/dropped/<reason>``) and listed per host in the end summary.

    A body without ``Content-Length`` is cancelled only once it has grown past the limit, with a
    message-less cancellation (Scrapy 2.13+ wraps Twisted's ``CancelledError``) that a shutdown's
    cancellation also gives: the bytes received per request (``bytes_received`` signal, held weakly
    by request) tell the two apart."""

    # No ``spider`` parameter (deprecated in Scrapy 2.13+: Scrapy passes it, with a warning, to methods that take it).
    def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        try:
            return super().process_response(request, response)
        except IgnoreRequest:  # HttpCompressionMiddleware raises it for DOWNLOAD_MAXSIZE only
            self._dropped(request, "decompressed_too_large")
            raise

    def process_exception(self, request: Request, exception: Exception) -> None:
        # The download handler's cancellations for size: with its message when Content-Length announced
        # the size (scrapy.utils._download_handlers.get_maxsize_msg), message-less when the body grew past it.
        received = self._received.pop(request, 0)
        if not isinstance(exception, DownloadCancelledError):
            return
        limit = request.meta.get("download_maxsize", self._maxsize)
        if "larger than download max size" in str(exception) or (limit and received > limit):
            self._dropped(request, "too_large")

    def _bytes_received(self, data: bytes, request: Request, **kwargs: Any) -> None:
        self._received[request] = self._received.get(request, 0) + len(data)

    def _dropped(self, request: Request, reason: str) -> None:
        from mcecrawl.extensions import CrawlSummary

        summary = self._crawler.get_extension(CrawlSummary) if self._crawler else None
        if summary is not None:
            summary.response_dropped(request.url, reason)
        elif self.stats is not None:
            self.stats.inc_value(f"mcecrawl/dropped/{reason}")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HttpCompressionReportMiddleware:
        mw = super().from_crawler(crawler)
        mw._crawler = crawler
        mw._maxsize = crawler.settings.getint("DOWNLOAD_MAXSIZE")
        mw._received = weakref.WeakKeyDictionary()
        crawler.signals.connect(mw._bytes_received, signal=signals.bytes_received)
        return mw

    _crawler: Crawler | None = None
    _maxsize = 0
    _received: weakref.WeakKeyDictionary[Request, int] = weakref.WeakKeyDictionary()


# --- Encoding normalisation ----------------------------------------------------------------

_CT_CHARSET_RE = re.compile(r";\s*charset\s*=\s*[\"']?[^;\"'\s]*[\"']?", re.I)
# Content-Type given to a normalised response that had none, per Scrapy response class.
_DEFAULT_MIME = ((HtmlResponse, "text/html"), (XmlResponse, "text/xml"), (TextResponse, "text/plain"))
# Request/response meta keys the pipeline copies into every item.
META_KEYS = PROVENANCE_KEYS


def utf8_content_type(content_type: str | None, response: TextResponse) -> str:
    """``content_type`` with its charset parameter set to utf-8 (added when missing)."""
    if not content_type:
        content_type = next(mime for cls, mime in _DEFAULT_MIME if isinstance(response, cls))
    return _CT_CHARSET_RE.sub("", content_type).rstrip("; ") + "; charset=utf-8"


class EncodingNormalizationMiddleware:
    """Re-encode every text response as UTF-8 with :func:`mcecrawl.encoding.decode`.

    The replacement response (``response.replace``: never mutated) has a UTF-8 body, a
    ``Content-Type`` whose charset is utf-8 and its stale ``<meta>``/XML declarations rewritten,
    so anything re-parsing the bytes sees one truth; a response that is all that already (valid
    UTF-8, labelled utf-8 in any letter case, nothing to rewrite) is passed on as it is, with only
    its decoded text cached.  Provenance goes into the request meta,
    which the spider sees as ``response.meta``: see :data:`META_KEYS`.

    Forcing an encoding, most specific first: ``Request.meta["mce_encoding"]``; the spider
    attribute ``mce_encoding`` (a site profile sets it); the setting ``MCE_ENCODING_FORCE``.

    Settings: ``MCE_ENCODING_ENABLED`` (True), ``MCE_ENCODING_FORCE`` ("" = detect),
    ``MCE_ENCODING_REWRITE_META`` (True), ``MCE_ENCODING_WARN_REPLACEMENTS`` (True).
    Stats: ``mcecrawl/encoding/{responses,non_text,original/<codec>,source/<step>,
    declarations_rewritten,label_ignored/{header,meta},replacements,responses_with_replacements}``.
    """

    def __init__(self, crawler: Crawler):
        cfg = Config.from_settings(crawler.settings)
        self.crawler = crawler
        self.stats = crawler.stats
        self.force = cfg.encoding_force or None
        self.rewrite_meta = cfg.encoding_rewrite_meta
        self.warn_replacements = cfg.encoding_warn_replacements

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> EncodingNormalizationMiddleware:
        if not Config.from_settings(crawler.settings).encoding_enabled:
            raise NotConfigured("MCE_ENCODING_ENABLED is off")
        return cls(crawler)

    def _forced(self, request: Request) -> str | None:
        spider = getattr(self.crawler, "spider", None)
        label = request.meta.get("mce_encoding") or getattr(spider, "mce_encoding", None) or self.force
        if label and not resolve_label(label):
            logger.warning("Ignoring unknown forced encoding %r for %s", label, request.url)
            return None
        return label or None

    def process_response(self, request: Request, response: Response) -> Response:
        if not isinstance(response, TextResponse):
            self.stats.inc_value("mcecrawl/encoding/non_text")
            return response
        raw_type = response.headers.get("Content-Type")
        content_type = raw_type.decode("latin-1") if raw_type else None
        decoded = decode(response.body, content_type, force=self._forced(request), read_text=True)
        self._record(request, response, decoded)

        text, rewritten = rewrite_declarations(decoded.text) if self.rewrite_meta else (decoded.text, 0)
        if rewritten:
            self.stats.inc_value("mcecrawl/encoding/declarations_rewritten", rewritten)
        # Valid UTF-8 left unchanged keeps its bytes (no copy); a BOM is dropped.
        unchanged = decoded.encoding == "utf-8" and not rewritten and not decoded.replacements
        new_type = utf8_content_type(content_type, response)
        if unchanged and content_type is not None and content_type.lower() == new_type.lower():
            # Already UTF-8 and labelled so: the response is what a replacement would be (copying
            # 100-500 KB responses and their headers is most of this middleware's cost otherwise).
            seed_text_cache(response, text)
            return response
        body = response.body if unchanged else text.encode("utf-8")
        headers = response.headers.copy()
        headers["Content-Type"] = new_type
        new = response.replace(body=body, headers=headers, encoding="utf-8")
        # ``body`` is exactly ``text`` in UTF-8: seed Scrapy's cache of ``response.text`` so the
        # next reader (MetaRefreshMiddleware, the spider) does not decode 100-500 KB again.
        seed_text_cache(new, text)
        return new

    def _record(self, request: Request, response: Response, decoded: Decoded) -> None:
        request.meta.update(decoded.provenance())
        inc = self.stats.inc_value
        inc("mcecrawl/encoding/responses")
        inc(f"mcecrawl/encoding/original/{decoded.encoding}")
        inc(f"mcecrawl/encoding/source/{decoded.source}")
        used = decoded.encoding.removesuffix("-sig")  # a UTF-8 BOM agrees with a utf-8 label
        for where, label in (("header", decoded.declared_header), ("meta", decoded.declared_meta)):
            # An ASCII body reads the same under any ASCII-compatible label: no lie to count.
            if label and resolve_label(label) != used and not decoded.text.isascii():
                inc(f"mcecrawl/encoding/label_ignored/{where}")
        if decoded.replacements:
            inc("mcecrawl/encoding/replacements", decoded.replacements)
            inc("mcecrawl/encoding/responses_with_replacements")
            if self.warn_replacements:
                logger.warning("%d replacement character(s) decoding %s as %s (step %s; header %s, meta %s)",
                               decoded.replacements, response.url, decoded.encoding, decoded.source,
                               decoded.declared_header, decoded.declared_meta)


# --- Corpus quality: WARC archive of original responses ------------------------------------

# Request meta key carrying the WARC-Record-ID of the response record (copied into the item by
# mcecrawl.spidermiddlewares.WarcRecordIdSpiderMiddleware).
WARC_META_KEY = "warc_record_id"


class WarcArchiveMiddleware:
    """Archive every downloaded response with its request as WARC/1.1 records (warcio).

    It sits nearer the downloader than the encoding and decompression middlewares (order 595 >
    HttpCompressionMiddleware 590 > EncodingNormalizationMiddleware 585), so the record holds the
    bytes and headers as the server sent them (compressed, original charset; ``Transfer-Encoding``
    is dropped because the body is already de-chunked).  Redirect responses are handled by
    RedirectMiddleware (600) first and are not archived; their targets are.  The response record's
    ``WARC-Record-ID`` goes into ``request.meta["warc_record_id"]`` (the spider sees it as
    ``response.meta``; :class:`mcecrawl.spidermiddlewares.WarcRecordIdSpiderMiddleware` copies it
    into items).  ``mcecrawl reextract`` rebuilds a corpus from these files without crawling again.

    Files (:class:`mcecrawl.corpus.warc.WarcWriter`): ``MCE_WARC_DIR/<spider>-<UTC time>-<serial>.warc.gz``,
    written as ``*.open`` and renamed when rotated at ``MCE_WARC_MAX_BYTES`` or when the spider closes.
    Settings: ``MCE_WARC_ENABLED`` (False), ``MCE_WARC_DIR``, ``MCE_WARC_MAX_BYTES``, ``MCE_WARC_GZIP``.
    Stats: ``mcecrawl/warc/{records,bytes,files}``.
    """

    def __init__(self, crawler: Crawler):
        cfg = Config.from_settings(crawler.settings)
        self.crawler = crawler
        self.stats = crawler.stats
        self.directory = cfg.warc_dir
        self.max_bytes = cfg.warc_max_bytes
        self.gzip = cfg.warc_gzip
        self._writer: Any = None  # WarcWriter, made on the first response (the spider's name is known then)
        crawler.signals.connect(self.close, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcArchiveMiddleware:
        if not Config.from_settings(crawler.settings).warc_enabled:
            raise NotConfigured  # off by default: no "Disabled ..." warning on every crawl
        return cls(crawler)

    def _spider_name(self) -> str:
        spider = getattr(self.crawler, "spider", None)
        return getattr(spider, "name", None) or "crawl"

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def process_response(self, request: Request, response: Response) -> Response:
        from http import HTTPStatus
        from urllib.parse import urlsplit

        if self._writer is None:
            import mcecrawl
            from mcecrawl.corpus.warc import WarcWriter

            name = self._spider_name()
            self._writer = WarcWriter(
                self.directory % {"name": name}, name, max_bytes=self.max_bytes, gzip=self.gzip,
                software=f"mcecrawl/{mcecrawl.__version__} (warcio)",
                description=f"responses of spider {name} as received, before decompression and re-encoding")
        try:
            reason = HTTPStatus(response.status).phrase
        except ValueError:
            reason = "Unknown"
        parts = urlsplit(request.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        req_headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, vs in request.headers.items() for v in vs]
        req_headers.insert(0, ("Host", parts.netloc))
        files = self._writer.files
        record_id, size = self._writer.write_exchange(
            url=response.url, status_line=f"{response.status} {reason}",
            protocol=getattr(response, "protocol", None) or "HTTP/1.1",
            headers=[(k.decode("latin-1"), v.decode("latin-1")) for k, vs in response.headers.items() for v in vs
                     if k.lower() != b"transfer-encoding"],
            body=response.body, request_url=request.url, request_line=f"{request.method} {target} HTTP/1.1",
            request_headers=req_headers, request_body=request.body or b"")
        if self._writer.files != files:
            self.stats.inc_value("mcecrawl/warc/files")
        self.stats.inc_value("mcecrawl/warc/records", 2)
        self.stats.inc_value("mcecrawl/warc/bytes", size)
        request.meta[WARC_META_KEY] = record_id
        return response
