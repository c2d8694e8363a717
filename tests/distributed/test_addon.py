"""The switch: no Redis by default; with MCE_REDIS_URL, scrapy-redis under the crawl id's keys."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings

from mcecrawl.distributed import RedisAddon


def project_settings(**overrides) -> Settings:
    settings = Settings()
    settings.setmodule("mcecrawl.settings", priority="project")
    for k, v in overrides.items():
        settings.set(k, v, priority="cmdline")
    return settings


def addon(name="bbc_persian"):
    return RedisAddon(SimpleNamespace(spidercls=type("S", (), {"name": name})))


def test_default_is_the_single_process_crawl():
    settings = project_settings()
    with pytest.raises(NotConfigured):
        addon().update_settings(settings)
    assert settings.get("SCHEDULER") == "scrapy.core.scheduler.Scheduler"
    assert "output/%(name)s/%(time)s.jsonl" in settings.getdict("FEEDS")


def test_redis_url_switches_to_scrapy_redis_under_the_crawl_id(redis_url):
    first, second = project_settings(MCE_REDIS_URL=redis_url), project_settings(MCE_REDIS_URL=redis_url)
    addon().update_settings(first)
    addon().update_settings(second)
    assert first.get("SCHEDULER") == "mcecrawl.distributed.scheduler.LeasedScheduler"
    assert first.get("DUPEFILTER_CLASS") == "scrapy_redis.dupefilter.RFPDupeFilter"
    assert first.get("SCHEDULER_QUEUE_KEY") == "mce:bbc_persian:requests"
    assert first.get("SCHEDULER_DUPEFILTER_KEY") == "mce:bbc_persian:dupefilter"
    assert first.getbool("SCHEDULER_PERSIST") and not first.getbool("AUTOTHROTTLE_ENABLED")
    assert (first.get("MCE_WORKER_ID"), second.get("MCE_WORKER_ID")) == ("w1", "w2")
    assert list(first.getdict("FEEDS")) == ["output/%(name)s/%(time)s-w1.jsonl"]
    assert list(second.getdict("FEEDS")) == ["output/%(name)s/%(time)s-w2.jsonl"]
    fresh = project_settings(MCE_REDIS_URL=redis_url, MCE_CRAWL_ID="daily-2026-11-23")
    addon().update_settings(fresh)
    assert fresh.get("SCHEDULER_QUEUE_KEY") == "mce:daily-2026-11-23:requests"
    assert fresh.get("MCE_WORKER_ID") == "w1"


def test_unreachable_redis_is_a_clear_error():
    settings = project_settings(MCE_REDIS_URL="redis://127.0.0.1:1/0")
    with pytest.raises(RuntimeError, match="Redis is not reachable"):
        addon().update_settings(settings)


def test_logged_urls_hide_the_password():
    from mcecrawl.distributed import shown

    assert shown("redis://:s3cret@10.0.0.5:6379/0") == "redis://:***@10.0.0.5:6379/0"
    assert shown("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
