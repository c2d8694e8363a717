"""End-to-end politeness and honesty against a small 127.0.0.1 site built in a temp directory:
robots.txt Disallow reported per host, Crawl-delay and Retry-After honoured, an anti-bot page
written as ``blocked`` (never as an article), the rejects feed setting, the default feed path."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer

CRAWL_DELAY = 0.5
RETRY_AFTER = 1
CHALLENGE = "Checking your browser before accessing news.example"
BODY = ("این یک متن آزمایشی برای بررسی رفتار خزنده است و چند جمله فارسی دارد تا استخراج‌گر آن را "
        "به عنوان متن اصلی بشناسد. ") * 4


def _article(i: int) -> str:
    ld = json.dumps({"@type": "NewsArticle", "headline": f"خبر شماره {i}", "datePublished": "2026-03-01T08:00:00Z"},
                    ensure_ascii=False)
    return (f'<!DOCTYPE html><html lang="fa" dir="rtl"><head><meta charset="utf-8"><title>خبر {i}</title>'
            f'<script type="application/ld+json">{ld}</script></head><body><nav><a href="/">خانه</a></nav>'
            f"<main><h1>خبر شماره {i}</h1>" + "".join(f"<p>{BODY}</p>" for _ in range(3)) + "</main></body></html>")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("polite")
    (root / "robots.txt").write_text(f"User-agent: *\nCrawl-delay: {CRAWL_DELAY}\nDisallow: /private/\n"
                                     "Sitemap: https://news.example/sitemap.xml\n", encoding="utf-8")
    urls = ["/news/1", "/news/2", "/private/3", "/news/4", "/news/5"]
    (root / "sitemap.xml").write_text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>https://news.example{u}</loc></url>" for u in urls) + "</urlset>", encoding="utf-8")
    for i in (1, 2, 3, 4):
        d = root / ("private" if i == 3 else "news")
        d.mkdir(exist_ok=True)
        (d / f"{i}.html").write_text(_article(i), encoding="utf-8")
    (root / "news" / "5.html").write_text(
        f"<html><head><title>Just a moment</title></head><body><p>{CHALLENGE}</p>"
        "<script>/*js challenge*/</script></body></html>",
        encoding="utf-8")
    (root / "_headers.json").write_text(json.dumps({
        "/news/4": {"status": 429, "headers": {"Retry-After": str(RETRY_AFTER)}, "times": 1},
        "/news/5": {"status": 403}}), encoding="utf-8")
    profile = {"name": "polite", "site": "news.example", "lang": "fa", "live_hosts": ["news.example"],
               "entry_points": {"sitemaps": ["https://news.example/sitemap.xml"]},
               "articles": [{"pattern": r"^https://news\.example/(news|private)/\d+$"}],
               "evidence": {"jsonld_types": ["NewsArticle"]},
               "extraction": {"algorithm": "xpath_blocks", "params": {}},
               "blocked_markers": ["Checking your browser before accessing"]}
    (root / "polite.json").write_text(json.dumps(profile), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def crawl(site, tmp_path_factory):
    cwd = tmp_path_factory.mktemp("run")
    with FixtureServer(site) as srv:
        proc = run_crawl("profile", base_url=srv.url, args={"profile": str(site / "polite.json")}, cwd=cwd,
                         settings={"MCE_REJECTS_FEED": "rejects.jsonl", "RETRY_TIMES": "2"})
        log = list(srv.log)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return cwd, proc.stderr, log


def test_default_feed_path_and_rejects_feed(crawl):
    cwd, stderr, _ = crawl
    feeds = list((cwd / "output" / "profile").glob("*.jsonl"))
    assert len(feeds) == 1, "one feed per run under output/<spider>/<start time>.jsonl"
    ok = read_jsonl(feeds[0])
    assert sorted(r["canonical_url"] for r in ok) == [f"https://news.example/news/{i}" for i in (1, 2, 4)]
    assert all(r["status"] == "ok" for r in ok)
    rejects = read_jsonl(cwd / "rejects.jsonl")
    assert [(r["canonical_url"], r["status"]) for r in rejects] == [("https://news.example/news/5", "blocked")]
    assert rejects[0]["text"] == "" and "anti-bot" in rejects[0]["reason"]


def test_robots_refusals_reported_per_host(crawl):
    _, stderr, log = crawl
    assert not any(p.startswith("/private/") for _, p in log)
    stats = stats_from_log(stderr)
    assert stats.get("mcecrawl/robotstxt/forbidden/127.0.0.1") == "1"
    assert re.search(r"robots\.txt forbade 1 requests \(1 on 127\.0\.0\.1: 1 by the rules for User-agent 'mcecrawl'; "
                     r"e\.g\. http://127\.0\.0\.1:\d+/private/\S+\)", stderr)


def test_crawl_delay_honoured(crawl):
    _, stderr, log = crawl
    times = [t for t, p in log if p != "/robots.txt"]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert gaps and min(gaps) >= CRAWL_DELAY * 0.9, gaps


def test_retry_after_honoured(crawl):
    _, stderr, log = crawl
    hits = [t for t, p in log if p == "/news/4"]
    assert len(hits) == 2
    assert hits[1] - hits[0] >= RETRY_AFTER * 0.9
    assert stats_from_log(stderr).get("mcecrawl/retry_after/count") == "1"


def test_blocked_counted(crawl):
    _, stderr, _ = crawl
    stats = stats_from_log(stderr)
    assert stats.get("mcecrawl/blocked/127.0.0.1") == "1"
    assert stats.get("mcecrawl/items/status/blocked") == "1"
