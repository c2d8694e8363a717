"""CorpusQualityPipeline on its own: marking vs dropping duplicates, stats, a failing store."""
from __future__ import annotations

import pytest
from scrapy import Spider
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.test import get_crawler

from mcecrawl.items import ArticleItem
from mcecrawl.pipelines import CorpusQualityPipeline

TEXT = ("وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هسته\u200cای هفته آینده در وین ادامه خواهد یافت. "
        "سخنگوی این وزارتخانه گفت که هیئت ایرانی با پیشنهادهای تازه به مذاکرات بازمی\u200cگردد و انتظار دارد "
        "طرف\u200cهای مقابل نیز با اراده سیاسی لازم در گفت\u200cوگوها شرکت کنند.")


def _pipeline(**settings):
    crawler = get_crawler(Spider, {"MCE_DEDUP_DB": ":memory:", **settings})
    crawler.stats.open_spider()
    return CorpusQualityPipeline.from_crawler(crawler), crawler.stats


def _item(url, text=TEXT, site="a", lang="fa"):
    return ArticleItem(url=url, canonical_url=url, site=site, lang=lang, text=text, status="ok", title="t",
                       published_raw=None)


def test_marks_duplicates_by_default():
    pipe, stats = _pipeline()
    first, second = pipe.process_item(_item("http://a/1")), pipe.process_item(_item("http://b/1", site="b"))
    assert first["duplicate_of"] is None and first["text_norm"] and first["lang_detected"] == "fa"
    assert second["duplicate_of"] == "http://a/1" and second["duplicate_kind"] == "exact"
    assert stats.get_value("mcecrawl/corpus/duplicates/exact") == 1
    assert stats.get_value("mcecrawl/corpus/duplicates/cross_site") == 1
    pipe.close_spider()


def test_drop_setting():
    pipe, stats = _pipeline(MCE_DEDUP_DROP=True)
    pipe.process_item(_item("http://a/1"))
    with pytest.raises(DropItem):
        pipe.process_item(_item("http://a/2"))
    assert stats.get_value("mcecrawl/corpus/duplicates_dropped") == 1


def test_language_mismatch_counted():
    pipe, stats = _pipeline()
    item = pipe.process_item(_item("http://a/1", lang="ar"))
    assert item["lang_mismatch"] is True
    assert stats.get_value("mcecrawl/corpus/lang_mismatch/ar->fa") == 1


def test_store_error_does_not_lose_the_item():
    pipe, stats = _pipeline()
    pipe.quality.store._db.close()  # any sqlite3 error from now on
    item = pipe.process_item(_item("http://a/1"))
    assert item["text_norm"] and item.get("duplicate_of") is None
    assert stats.get_value("mcecrawl/corpus/dedup_errors") == 1


def test_disabled():
    with pytest.raises(NotConfigured):
        _pipeline(MCE_CORPUS_ENABLED=False)
    pipe, _ = _pipeline(MCE_DEDUP_ENABLED=False)
    assert "duplicate_of" not in pipe.process_item(_item("http://a/1"))


def test_dates_raw_then_spider_then_text():
    pipe, stats = _pipeline()
    jalali = pipe.process_item(ArticleItem(url="u1", site="a", lang="fa", text=TEXT, status="ok",
                                           published_raw="۱۴۰۴/۱۲/۰۷ - ۱۸:۴۰", published=None))
    assert (jalali["published"], jalali["calendar"], jalali["published_source"]) == \
        ("2026-02-26T18:40:00", "jalali", "raw")
    kept = pipe.process_item(ArticleItem(url="u2", site="a", lang="fa", text=TEXT + " ۱ دی ۱۴۰۲", status="ok",
                                         published_raw="someday", published="2020-01-01"))
    assert (kept["published"], kept["published_source"]) == ("2020-01-01", "spider")
    from_text = pipe.process_item(ArticleItem(url="u3", site="a", lang="fa", text="۱ دی ۱۴۰۲ " + TEXT[:50],
                                              status="ok", published_raw=None, published=None))
    assert (from_text["published"], from_text["published_source"]) == ("2023-12-22", "text")
    assert stats.get_value("mcecrawl/corpus/calendar/jalali") == 2


def test_recrawl_unchanged_marked_by_default_and_skipped_on_request():
    pipe, stats = _pipeline()
    pipe.process_item(_item("http://a/1"))
    again = pipe.process_item(_item("http://a/1"))
    assert again["unchanged_since"] and again["duplicate_of"] is None
    assert stats.get_value("mcecrawl/corpus/recrawl/unchanged") == 1
    assert stats.get_value("mcecrawl/corpus/duplicates/exact") is None
    pipe, stats = _pipeline(MCE_RECRAWL_UNCHANGED="skip")
    pipe.process_item(_item("http://a/1"))
    with pytest.raises(DropItem, match="unchanged since"):
        pipe.process_item(_item("http://a/1"))
    assert stats.get_value("mcecrawl/corpus/recrawl/unchanged_skipped") == 1


def test_recrawl_setting_is_checked():
    with pytest.raises(ValueError, match="MCE_RECRAWL_UNCHANGED"):
        _pipeline(MCE_RECRAWL_UNCHANGED="drop")
