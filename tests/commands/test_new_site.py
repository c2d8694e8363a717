"""``mcecrawl new-site``: a starter profile from a probe of the generic news spider, which
``check-site --base-url`` accepts and which crawls the site with the same result."""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from mcecrawl.cli import main
from mcecrawl.commands.new_site import starter_profile
from mcecrawl.demo.crawl import read_jsonl, run_crawl
from mcecrawl.demo.server import FixtureServer
from mcecrawl.profile import load_profile, validate_profile
from mcecrawl.spiders.urlshapes import ShapeLearner, url_shapes
from news_sites import R2L, NewsSite


def test_starter_profile_from_learned_state():
    state: dict = {"urlshapes": {"www.x.ir": {}},
                   "entry_points": {"www.x.ir": {"news_sitemaps": ["https://www.x.ir/s.xml"]}}}
    learner = ShapeLearner(state["urlshapes"]["www.x.ir"])
    seen = [("https://www.x.ir/news/1", True), ("https://www.x.ir/news/2", True), ("https://www.x.ir/amp/3", True),
            ("https://www.x.ir/a-b", True), ("https://www.x.ir/c-d", False)]
    for url, article in seen:
        learner.requested(url_shapes(url))
        learner.judged(url_shapes(url), url, article)
    for i in range(3):
        learner.requested(url_shapes(f"https://www.x.ir/tag/{i}"))
        learner.judged(url_shapes(f"https://www.x.ir/tag/{i}"), f"https://www.x.ir/tag/{i}", False)
    profile = starter_profile("https://www.x.ir", state, [{"status": "ok", "lang": "fa", "site_name": "X"}])
    validate_profile(profile)
    rules = {r["pattern"]: r["evidence"] for r in profile["articles"]}
    assert rules == {r"^https://www\.x\.ir(?i:/news/\d+/?)$": "veto",
                     r"^https://www\.x\.ir(?i:/[^/?#]+/?)$": "required"}
    assert r"^https://www\.x\.ir(?i:/tag/\d+/?)$" in profile["exclude"]
    assert r"^https://www\.x\.ir(?i:/amp/\d+/?)$" in profile["exclude"]  # AMP twins: found under /news/N
    assert profile["entry_points"]["news_sitemaps"] == ["https://www.x.ir/s.xml"]
    assert profile["lang"] == "fa" and profile["site"] == "X" and profile["name"] == "www_x_ir"
    assert "x.ir" in profile["live_hosts"] and profile["learned"]["version"] == 1
    # A probe that recognised articles without markup: the mixed shape's rule accepts the page's own evidence;
    # the site's name from its home page, its language the majority of its articles' (the home page's on a tie).
    state |= {"recognised": {"www.x.ir": {"own content (prose)": 3, "markup": 1}},
              "home": {"www.x.ir": {"site_name": "X News", "lang": "ar"}}}
    records = [{"status": "ok", "lang": lang, "site_name": "one page"} for lang in ("fa", "fa", "he")]
    profile = starter_profile("https://www.x.ir", state, records)
    validate_profile(profile)
    assert {r["evidence"] for r in profile["articles"]} == {"veto", "evidence"}
    assert profile["site"] == "X News" and profile["lang"] == "fa"
    profile = starter_profile("https://www.x.ir", state, records[1:])
    assert profile["lang"] == "ar"
    # Links that failed at a slug shape which the articles' URLs also have: no exclusion hides the articles.
    for i in range(3):
        learner.requested(url_shapes(f"https://www.x.ir/x-{i}/y-{i}"))
        learner.judged(url_shapes(f"https://www.x.ir/x-{i}/y-{i}"), f"https://www.x.ir/x-{i}/y-{i}", False)
    for url in ("https://www.x.ir/news/a-1.html", "https://www.x.ir/news/b-2.html"):
        learner.requested(url_shapes(url))
        learner.judged(url_shapes(url), url, True)
    profile = starter_profile("https://www.x.ir", state, records)
    assert not [p for p in profile["exclude"] if re.search(p, "https://www.x.ir/news/a-1.html")]


@pytest.mark.skipif(not (R2L / "manifest.jsonl").exists(), reason=f"no R2L dev pages at {R2L}")
@pytest.mark.parametrize("stripped", [False, True], ids=["markup", "stripped"])
@pytest.mark.parametrize("kind", ["cms", "plain"])
def test_new_site_then_check_site_then_profile_crawl(kind, stripped, tmp_path, capsys):
    site = NewsSite(kind, 40, stripped=stripped)
    with FixtureServer(resolver=site.resolver) as srv:
        site.base = srv.url
        path = tmp_path / "starter.json"
        assert main(["new-site", srv.url, "-o", str(path)]) == 0
        profile = load_profile(path)
        assert profile.articles and json.loads(path.read_text(encoding="utf-8"))["learned"]["shapes"]
        assert main(["check-site", str(path), "--base-url", srv.url]) == 0
        out = tmp_path / "profile.jsonl"
        proc = run_crawl("profile", base_url=srv.url, output=out, args={"profile": str(path)},
                         settings={"MCE_DEDUP_DB": ""}, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr[-3000:]
    ok = {urlsplit(r["url"]).path.rstrip("/") for r in read_jsonl(out) if r["status"] == "ok"}
    assert ok == {urlsplit(u).path.rstrip("/") for u in site.expected()}  # the same articles as the news spider finds
