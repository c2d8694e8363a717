"""End-to-end: ``scrapy crawl bbc_persian`` against a local mirror that serves the real article
pages of ``../shared/data/r2l`` (other news sites, several CMSs) at BBC-style article URLs
(``/persian/articles/c…o``) with a sitemap, as a mirror of the site would.  No real article may be
lost to page evidence: weak page types (og:type ``website``/``text/html``, ``BreadcrumbList``
only, ``WebPage``) are no signal.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer
from mcecrawl.profile import load_profile


def _mirror(shared: Path, root: Path) -> dict[str, str]:
    """Write the mirror; returns canonical article URL -> page id."""
    manifest = [json.loads(line) for line in (shared / "r2l" / "manifest.jsonl").read_text("utf-8").splitlines()
                if line]
    (root / "persian" / "articles").mkdir(parents=True)
    urls, headers = {}, {}
    for i, rec in enumerate(manifest):
        art_id = f"c{i:04d}r2lpage" + "o"
        path = f"/persian/articles/{art_id}"
        (root / (path.lstrip("/") + ".html")).write_bytes((shared / "r2l" / "pages" / f"{rec['id']}.html").read_bytes())
        charset = rec.get("http_charset") or rec.get("encoding")
        if charset:
            headers[path] = {"headers": {"Content-Type": f"text/html; charset={charset}"}}
        urls["https://www.bbc.com" + path] = rec["id"]
    (root / "_headers.json").write_text(json.dumps(headers), encoding="utf-8")
    (root / "robots.txt").write_text("User-agent: *\nDisallow: /persian/send/\n", encoding="utf-8")
    (root / "persian" / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>{u}</loc></url>" for u in urls) + "</urlset>\n", encoding="utf-8")
    return urls


@pytest.mark.parametrize("rule", ["unambiguous", "veto"])
def test_no_real_article_dropped(shared_data, tmp_path, rule):
    urls = _mirror(shared_data, tmp_path / "site")
    assert len(urls) >= 15
    profile = load_profile("bbc_persian").raw
    profile = json.loads(json.dumps(profile))
    profile["articles"][0]["evidence"] = rule  # the bundled profile says unambiguous; veto reads the pages
    (tmp_path / "p.json").write_text(json.dumps(profile), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with FixtureServer(tmp_path / "site") as srv:
        proc = run_crawl("bbc_persian", base_url=srv.url, output=out, cwd=tmp_path, timeout=240,
                         args={"profile": str(tmp_path / "p.json")},
                         settings={"MCE_DEDUP_DB": str(tmp_path / "dedup.sqlite")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = read_jsonl(out)
    assert sorted(r["canonical_url"] for r in records) == sorted(urls), proc.stderr[-3000:]
    dropped = [(urls[r["canonical_url"]], r["reason"]) for r in records if r["status"] == "not_article"]
    assert dropped == []
    assert "mcecrawl/not_article" not in stats_from_log(proc.stderr)
    # The profile's other entry points (news sitemap, feed, listings) are not on this mirror: the
    # summary names each with why, in one line each, and no traceback.
    assert "of the profile's entry points could not be fetched" in proc.stderr
    assert "/persian/rss.xml: " in proc.stderr
    assert "Traceback" not in proc.stderr
