"""robots.txt rules aimed at Scrapy stop mcecrawl too (MCE_ROBOTSTXT_ALSO_OBEY, default ["Scrapy"]).

bbc.com's robots.txt has ``User-agent: Scrapy`` / ``Disallow: /`` (sites.md §0.1); our user-agent
token is "mcecrawl", but mcecrawl is Scrapy-based, so that rule is aimed at us.  End to end against
a 127.0.0.1 site whose robots.txt forbids only Scrapy (a crawl that writes nothing and says why),
then the same site with a robots.txt that allows everything; unit checks of the decision rule.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from scrapy.robotstxt import ProtegoRobotParser
from scrapy.utils.test import get_crawler

from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer
from mcecrawl.downloadermiddlewares import RobotsTxtReportMiddleware

SCRAPY_ONLY = "User-agent: Scrapy\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
ALLOW_ALL = "User-agent: *\nDisallow:\n"
ARTICLES = (1, 2, 3)
BODY = ("این یک متن آزمایشی برای بررسی رفتار خزنده است و چند جمله فارسی دارد تا استخراج‌گر آن را "
        "به عنوان متن اصلی بشناسد. ") * 4


def _article(i: int) -> str:
    ld = json.dumps({"@type": "NewsArticle", "headline": f"خبر {i}", "datePublished": "2026-03-01T08:00:00Z"},
                    ensure_ascii=False)
    return (f'<!DOCTYPE html><html lang="fa" dir="rtl"><head><meta charset="utf-8"><title>خبر {i}</title>'
            f'<script type="application/ld+json">{ld}</script></head><body>'
            f"<main><h1>خبر {i}</h1>" + "".join(f"<p>{BODY}</p>" for _ in range(3)) + "</main></body></html>")


def _site(root: Path, robots: str) -> Path:
    (root / "robots.txt").write_text(robots, encoding="utf-8")
    (root / "sitemap.xml").write_text(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>https://news.example/news/{i}</loc></url>" for i in ARTICLES) + "</urlset>",
        encoding="utf-8")
    (root / "news").mkdir()
    (root / "index.html").write_text(
        "<html><body>" + "".join(f'<a href="/news/{i}">{i}</a>' for i in ARTICLES) + "</body></html>", encoding="utf-8")
    for i in ARTICLES:
        (root / "news" / f"{i}.html").write_text(_article(i), encoding="utf-8")
    profile = {"name": "robots", "site": "news.example", "lang": "fa", "live_hosts": ["news.example"],
               "entry_points": {"sitemaps": ["https://news.example/sitemap.xml"],
                                "listings": ["https://news.example/"]},
               "articles": [{"pattern": r"^https://news\.example/news/\d+$"}],
               "evidence": {"jsonld_types": ["NewsArticle"]},
               "extraction": {"algorithm": "xpath_blocks", "params": {}}}
    (root / "robots.json").write_text(json.dumps(profile), encoding="utf-8")
    return root


def _crawl(root: Path, cwd: Path, **settings):
    with FixtureServer(root) as srv:
        proc = run_crawl("profile", base_url=srv.url, args={"profile": str(root / "robots.json")}, cwd=cwd,
                         output=cwd / "out.jsonl", settings=settings)
        paths = [p for _, p in srv.log]
    assert proc.returncode == 0, proc.stderr[-3000:]
    return read_jsonl(cwd / "out.jsonl") if (cwd / "out.jsonl").exists() else [], proc.stderr, paths


def test_scrapy_only_block_stops_the_crawl_and_says_so(tmp_path):
    (tmp_path / "site").mkdir()
    records, log, paths = _crawl(_site(tmp_path / "site", SCRAPY_ONLY), tmp_path)
    assert records == []
    assert paths == ["/robots.txt"], "nothing but robots.txt may be fetched"
    stats = stats_from_log(log)
    assert stats.get("mcecrawl/robotstxt/forbidden/127.0.0.1") == "2"  # the sitemap and the listing
    assert stats.get("mcecrawl/robotstxt/forbidden_by/Scrapy/127.0.0.1") == "2"
    assert "forbidden_by/mcecrawl/127.0.0.1" not in log
    assert "robots.txt of 127.0.0.1 forbids" in log and "for User-agent 'Scrapy'" in log
    assert "MCE_ROBOTSTXT_ALSO_OBEY" in log
    assert re.search(r"robots\.txt forbade 2 requests \(2 on 127\.0\.0\.1: 2 by the rules for User-agent 'Scrapy'; "
                     r"e\.g\. http://127\.0\.0\.1:\d+/\S*, http://127\.0\.0\.1:\d+/\S*\)", log)


def test_allow_all_robots_crawls_everything(tmp_path):
    (tmp_path / "site").mkdir()
    records, log, paths = _crawl(_site(tmp_path / "site", ALLOW_ALL), tmp_path)
    assert sorted(r["canonical_url"] for r in records) == [f"https://news.example/news/{i}" for i in ARTICLES]
    assert all(r["status"] == "ok" for r in records)
    assert "mcecrawl/robotstxt/forbidden" not in log


def _middleware(**settings) -> RobotsTxtReportMiddleware:
    from mcecrawl import settings as project

    base = {k: getattr(project, k) for k in ("ROBOTSTXT_OBEY", "USER_AGENT", "MCE_ROBOTSTXT_ALSO_OBEY")}
    return RobotsTxtReportMiddleware(get_crawler(settings_dict={**base, **settings}))


def _refusing_agent(mw: RobotsTxtReportMiddleware, robots: str, url: str = "https://a.example/x") -> str | None:
    return mw._also_obeyed_refusal(ProtegoRobotParser(robots.encode(), None), url)


def test_decision_rule():
    mw = _middleware()
    assert mw.own_token == "mcecrawl"
    assert _refusing_agent(mw, SCRAPY_ONLY) == "Scrapy"
    assert _refusing_agent(mw, "User-agent: scrapy\nDisallow: /x\n") == "Scrapy"  # tokens match case-insensitively
    assert _refusing_agent(mw, ALLOW_ALL) is None
    assert _refusing_agent(mw, SCRAPY_ONLY, "https://a.example/robots.txt") is None
    # A group of our own that allows the URL is the site's word for us; "*" is not aimed at Scrapy.
    assert _refusing_agent(mw, "User-agent: mcecrawl\nAllow: /\n\nUser-agent: *\nDisallow: /\n") is None
    assert _refusing_agent(_middleware(MCE_ROBOTSTXT_ALSO_OBEY=[]), SCRAPY_ONLY) is None
    assert _refusing_agent(_middleware(MCE_ROBOTSTXT_ALSO_OBEY=["Scrapy", "GPTBot"]),
                           "User-agent: GPTBot\nDisallow: /\n") == "GPTBot"
