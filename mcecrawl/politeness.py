"""Politeness that Scrapy leaves out: robots.txt Crawl-delay, Retry-After, and plain reporting.

* :class:`RobotsTxtReportMiddleware` replaces Scrapy's ``RobotsTxtMiddleware``: same decisions,
  plus (a) each refusal counted per host (``mcecrawl/robotstxt/forbidden/<host>``), a warning on
  the first refusal of a host and a summary at close, so a crawl never ends with an empty corpus
  and no explanation; (b) the host's ``Crawl-delay`` applied to its download slot (and kept from
  AutoThrottle, which would otherwise lower it to ``DOWNLOAD_DELAY``); (c) the rules robots.txt
  addresses to the agents of ``MCE_ROBOTSTXT_ALSO_OBEY`` (default ``["Scrapy"]``: mcecrawl is
  Scrapy-based, so ``User-agent: Scrapy`` / ``Disallow: /`` as on bbc.com is aimed at us too),
  obeyed as well as those for our own user agent; each refusal names the agent whose rule refused it.
* :class:`RetryAfterMiddleware` honours ``Retry-After`` on 429/503: the host's slot waits that
  long before the retry (RetryMiddleware, order 550, then re-schedules the request).
"""
from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from scrapy import signals
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet import reactor

from mcecrawl.config import Config

logger = logging.getLogger(__name__)

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
    remember it for the closing summary."""

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
    """Scrapy's robots.txt middleware with per-host refusal reports and Crawl-delay."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.forbidden: Counter[str] = Counter()
        self.forbidden_by: Counter[tuple[str, str]] = Counter()  # (host, agent) -> refusals
        self.also_obey: list[str] = [a for a in Config.from_settings(crawler.settings).robotstxt_also_obey if a]
        ua = self._robotstxt_useragent or self._default_useragent or ""
        # The product token robots.txt groups match ("mcecrawl" of "mcecrawl/0.1 (...)").
        self.own_token = (ua.split("/", 1)[0].split() or ["our user agent"])[0]
        self.crawl_delays: dict[str, float] = {}
        self.samples: dict[str, list[str]] = {}  # host -> refused URLs (ROBOTS_SAMPLE_URLS)
        self.unreachable: dict[str, str] = {}  # host -> why its robots.txt could not be fetched
        self._log_filter = _OneLineRobotsErrors(self)
        logging.getLogger(RobotsTxtMiddleware.__module__).addFilter(self._log_filter)
        crawler.signals.connect(self.spider_closed, signals.spider_closed)

    def process_request_2(self, rp, request) -> None:
        host = urlparse_cached(request).hostname or ""
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest:
            self._refused(request, host, self.own_token)
            raise
        if rp is None:
            return
        agent = self._also_obeyed_refusal(rp, request.url)
        if agent is not None:
            self._stats.inc_value("robotstxt/forbidden")  # as the stock middleware counts its refusals
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
        self._stats.inc_value(f"mcecrawl/robotstxt/forbidden/{host}")
        self._stats.inc_value(f"mcecrawl/robotstxt/forbidden_by/{agent}/{host}")

    def _apply_crawl_delay(self, rp, request, host: str) -> None:
        if host not in self.crawl_delays:
            ua = self._robotstxt_useragent or request.headers.get(b"User-Agent", self._default_useragent)
            try:
                # A delay asked of an agent we also obey (e.g. Scrapy) is asked of us too: the largest wins.
                delays = [rp.crawl_delay(a) for a in [ua, *self.also_obey]]
                delay = max((d for d in delays if d), default=None)
            except (AttributeError, NotImplementedError):  # parsers without Crawl-delay support
                delay = None
            self.crawl_delays[host] = float(delay or 0.0)
            if delay:
                logger.info("robots.txt of %s asks for Crawl-delay %.1f s: honoured", host, delay)
                self._stats.set_value(f"mcecrawl/robotstxt/crawl_delay/{host}", float(delay))
        delay = self.crawl_delays[host]
        if delay:
            downloader = self.crawler.engine.downloader
            key = downloader.get_slot_key(request)
            # Crawl-delay is a minimum: no downward jitter (RANDOMIZE_DOWNLOAD_DELAY would go to 0.5x).
            slot_settings = downloader.per_slot_settings.setdefault(key, {})
            slot_settings["delay"] = max(delay, slot_settings.get("delay", 0))
            slot_settings["jitter"] = 0.0
            slot = downloader.slots.get(key)
            if slot is not None:
                slot.delay = max(slot.delay, delay)
                slot.jitter = 0.0
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
        downloader = self.crawler.engine.downloader
        key = request.meta.get("download_slot") or downloader.get_slot_key(request)
        slot = downloader.slots.get(key)
        if slot is not None and wait > 0:
            previous = (slot.delay, slot.jitter)
            slot.delay, slot.jitter = max(slot.delay, wait), 0.0  # a minimum: no downward jitter

            def restore():
                if slot.delay == max(previous[0], wait):  # unless something else changed it since
                    slot.delay, slot.jitter = previous

            reactor.callLater(wait, restore)  # type: ignore[arg-type]  # twisted types the reactor module as the IReactorTime interface, not an instance
        logger.info("HTTP %s from %s with Retry-After %.1f s: pausing that host", response.status, host, wait)
        stats.inc_value("mcecrawl/retry_after/count")
        stats.max_value("mcecrawl/retry_after/max_wait", wait)
        return response
