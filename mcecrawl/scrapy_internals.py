"""The places where mcecrawl reaches past Scrapy's public API, each in one function.

Written against Scrapy 2.19.  Scrapy has no public way to do these; a Scrapy upgrade can change
any of them without notice, so ``tests/test_scrapy_internals.py`` pins each one and fails first.
Everything else uses the public API: settings (``USER_AGENT``, ``ROBOTSTXT_USER_AGENT``),
``crawler.stats``, ``crawler.get_downloader_middleware``, the ``download_slot`` and
``autothrottle_dont_adjust_delay`` request meta keys.

One more reach cannot be a function: :class:`mcecrawl.downloadermiddlewares.RobotsTxtReportMiddleware`
overrides ``RobotsTxtMiddleware.process_request_2(rp, request)``, the stock middleware's decision
step after it has the host's parser (the test pins its name, signature and call).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import TextResponse

__all__ = ["restore_slot_delay", "robots_sitemaps", "seed_text_cache", "set_slot_delay", "wake_engine"]


def seed_text_cache(response: TextResponse, text: str) -> None:
    """Make ``response.text`` return ``text`` without decoding the body again.

    Only for a ``text`` that is exactly the body decoded with the response's encoding.
    Scrapy 2.19: ``TextResponse.text`` caches the decoded body in ``_cached_ubody`` (None until
    first read).  Does nothing when that attribute is gone (the text is then decoded on first read).
    """
    if getattr(response, "_cached_ubody", False) is None:
        response._cached_ubody = text


def set_slot_delay(crawler: Crawler, request: Request, delay: float, *, at_least: bool = False,
                   later_slots: bool = True) -> tuple[float, float] | None:
    """Give the download slot of ``request`` ``delay`` seconds between requests, without jitter.

    ``at_least``: never lower a delay already set (Crawl-delay and Retry-After are minimums).
    ``later_slots``: also for the slot Scrapy creates under this key later (it drops idle slots).
    Returns the live slot's ``(delay, jitter)`` before the change, None when it has no slot yet.

    Scrapy 2.19: ``Downloader.get_slot_key(request)`` (which honours ``meta["download_slot"]``),
    ``Downloader.slots`` (key -> ``Slot`` with ``delay`` and ``jitter``) and
    ``Downloader.per_slot_settings`` (the ``DOWNLOAD_SLOTS`` dict new slots read ``delay`` and
    ``jitter`` from); AutoThrottle itself sets ``slot.delay`` the same way.
    """
    downloader = crawler.engine.downloader
    key = downloader.get_slot_key(request)
    if later_slots:
        defaults = downloader.per_slot_settings.setdefault(key, {})
        defaults["delay"] = max(delay, defaults.get("delay", 0)) if at_least else delay
        defaults["jitter"] = 0.0
    slot = downloader.slots.get(key)
    if slot is None:
        return None
    previous = (slot.delay, slot.jitter)
    slot.delay = max(slot.delay, delay) if at_least else delay
    slot.jitter = 0.0
    return previous


def restore_slot_delay(crawler: Crawler, request: Request, previous: tuple[float, float], *,
                       unless_changed_from: float) -> None:
    """Put back the ``(delay, jitter)`` :func:`set_slot_delay` returned, unless the slot's delay is
    no longer ``unless_changed_from`` (something else set it since) or the slot is gone."""
    downloader = crawler.engine.downloader
    slot = downloader.slots.get(downloader.get_slot_key(request))
    if slot is not None and slot.delay == unless_changed_from:
        slot.delay, slot.jitter = previous


def wake_engine(crawler: Crawler) -> None:
    """Ask the engine to poll the scheduler now instead of at its next heartbeat (5 s): a worker
    of a distributed crawl whose queue was refilled by another worker starts at once.  Scrapy's
    engine keeps that call in its private slot (``ExecutionEngine._slot.nextcall``)."""
    slot = getattr(crawler.engine, "_slot", None)
    if slot is not None:
        slot.nextcall.schedule()


def robots_sitemaps(rp: object) -> list[str]:
    """The ``Sitemap:`` URLs of a robots.txt as parsed by the robots middleware (``rp``), [] when the
    parser does not keep them.  Scrapy 2.19: ``ProtegoRobotParser`` (the default parser) keeps the
    Protego parser in ``.rp``, whose ``sitemaps`` lists them; the other parsers expose none."""
    inner = getattr(rp, "rp", None)
    try:
        return [str(u) for u in getattr(inner, "sitemaps", None) or ()]
    except TypeError:
        return []
