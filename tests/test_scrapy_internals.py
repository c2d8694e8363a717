"""Each place mcecrawl reaches past Scrapy's public API (mcecrawl/scrapy_internals.py and the robots.txt
middleware), pinned against the installed Scrapy: a Scrapy upgrade that changes one fails here first."""
from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest
from scrapy import Request, Spider
from scrapy.core.downloader import Downloader
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from mcecrawl.downloadermiddlewares import RobotsTxtReportMiddleware
from mcecrawl.scrapy_internals import restore_slot_delay, robots_sitemaps, seed_text_cache, set_slot_delay, wake_engine


@pytest.fixture(autouse=True, scope="module")
def reactor():
    """Scrapy's downloader (built by the slot tests) needs an installed reactor; outside a crawl none
    is, so install Twisted's default one as importing it does (mcecrawl's modules no longer do)."""
    from twisted.internet import reactor as installed

    return installed


def test_seeded_text_is_what_response_text_returns():
    response = HtmlResponse("http://a.example/", body=b"<p>body</p>", encoding="utf-8")
    seed_text_cache(response, "<p>seeded</p>")
    assert response.text == "<p>seeded</p>"  # Scrapy read the cache instead of decoding the body


def test_seeding_an_already_read_response_changes_nothing():
    response = HtmlResponse("http://a.example/", body=b"<p>body</p>", encoding="utf-8")
    assert response.text == "<p>body</p>"
    seed_text_cache(response, "<p>seeded</p>")
    assert response.text == "<p>body</p>"


@pytest.fixture
def downloader():
    crawler = get_crawler(Spider, {"DOWNLOAD_DELAY": 1.0, "DOWNLOAD_DELAY_JITTER": 0.5})
    return Downloader(crawler)


def as_crawler(downloader):
    return SimpleNamespace(engine=SimpleNamespace(downloader=downloader))


def new_slot(downloader, request):
    """The slot Scrapy makes for ``request`` (what the downloader does when it enqueues it)."""
    return downloader._get_slot(request)[1]


def test_slot_delay_for_slots_made_later(downloader):
    crawler, request = as_crawler(downloader), Request("http://a.example/x")
    assert set_slot_delay(crawler, request, 5.0, at_least=True) is None  # no live slot yet
    slot = new_slot(downloader, request)
    assert (slot.delay, slot.jitter) == (5.0, 0.0)
    assert slot.download_delay() == 5.0  # no jitter: exactly the delay


def test_slot_delay_of_a_live_slot_and_its_restore(downloader):
    crawler, request = as_crawler(downloader), Request("http://a.example/x")
    slot = new_slot(downloader, request)
    assert (slot.delay, slot.jitter) == (1.0, 0.5)
    assert set_slot_delay(crawler, request, 0.5, at_least=True, later_slots=False) == (1.0, 0.5)
    assert (slot.delay, slot.jitter) == (1.0, 0.0)  # at_least: not lowered
    previous = set_slot_delay(crawler, request, 9.0, at_least=True, later_slots=False)
    assert slot.delay == 9.0 and "a.example" not in downloader.per_slot_settings
    restore_slot_delay(crawler, request, previous, unless_changed_from=9.0)
    assert (slot.delay, slot.jitter) == previous
    set_slot_delay(crawler, request, 0.0)
    assert (slot.delay, slot.jitter) == (0.0, 0.0)
    assert downloader.per_slot_settings["a.example"] == {"delay": 0.0, "jitter": 0.0}


def test_slot_key_honours_the_download_slot_meta(downloader):
    crawler = as_crawler(downloader)
    set_slot_delay(crawler, Request("http://a.example/x", meta={"download_slot": "shared"}), 3.0)
    assert new_slot(downloader, Request("http://b.example/", meta={"download_slot": "shared"})).delay == 3.0


def test_robots_decision_step_overridden_by_the_report_middleware():
    params = list(inspect.signature(RobotsTxtMiddleware.process_request_2).parameters)
    assert params == ["self", "rp", "request"]
    assert "self.process_request_2(rp, request)" in inspect.getsource(RobotsTxtMiddleware.process_request)
    assert RobotsTxtReportMiddleware.process_request_2 is not RobotsTxtMiddleware.process_request_2


def test_robots_error_log_record_read_by_the_one_line_filter():
    source = inspect.getsource(RobotsTxtMiddleware)
    assert '"Error downloading %(request)s: %(f_exception)s"' in source
    assert '{"request": request, "f_exception": e}' in source
    assert "exc_info=True" in source


def test_user_agent_settings_are_the_ones_the_stock_middleware_reads():
    source = inspect.getsource(RobotsTxtMiddleware.__init__)
    assert 'crawler.settings["USER_AGENT"]' in source and 'crawler.settings["ROBOTSTXT_USER_AGENT"]' in source


def test_the_engine_keeps_its_scheduler_poll_in_a_slot():
    """wake_engine schedules ``engine._slot.nextcall``: the slot, its attribute and its method exist."""
    from scrapy.core.engine import ExecutionEngine, _Slot
    from scrapy.utils.reactor import CallLaterOnce

    assert "self._slot" in inspect.getsource(ExecutionEngine)
    assert "nextcall" in inspect.signature(_Slot.__init__).parameters
    assert callable(CallLaterOnce.schedule)
    calls = []
    crawler = SimpleNamespace(engine=SimpleNamespace(_slot=SimpleNamespace(
        nextcall=SimpleNamespace(schedule=lambda: calls.append(1)))))
    wake_engine(crawler)
    wake_engine(SimpleNamespace(engine=None))  # no engine yet: nothing to wake
    assert calls == [1]


def test_the_default_robots_parser_keeps_the_sitemap_lines():
    from scrapy.robotstxt import ProtegoRobotParser

    body = b"User-agent: *\nDisallow: /x\nSitemap: https://a.ir/s1.xml\nSitemap: https://a.ir/news.xml\n"
    rp = ProtegoRobotParser.from_crawler(get_crawler(Spider), body)
    assert robots_sitemaps(rp) == ["https://a.ir/s1.xml", "https://a.ir/news.xml"]
    assert robots_sitemaps(object()) == []  # a parser that keeps none
