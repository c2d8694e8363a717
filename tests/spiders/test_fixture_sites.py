"""The six non-BBC fixture sites on disk are exactly what their generators write (so a page is
changed in ``site_<name>.py`` and regenerated, never edited by hand and left to drift), and each
site has the parts an end-to-end crawl test needs (robots.txt, sitemap or feed, listings with
pagination, articles, a non-article page at an article-like URL, a duplicate AMP URL)."""
from __future__ import annotations

import html

import pytest

from build_news_sites import SITES, generate
from sitegen_common import SITES_DIR, write_site


def _files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("site", SITES)
def test_files_match_generator(site, tmp_path):
    pages, expected = generate(site)
    fresh = write_site(site, pages, expected, root=tmp_path)
    assert _files(fresh) == _files(SITES_DIR / site), f"run: python tests/spiders/build_news_sites.py {site}"


@pytest.mark.parametrize("site", SITES)
def test_site_has_the_required_parts(site):
    pages, expected = generate(site)
    assert "/robots.txt" in pages
    kinds = {p.content_type.split(";")[0] for p in pages.values()}
    # Wikipedia publishes no sitemap and its feeds live under /w/, which its robots.txt forbids:
    # the fawiki fixture is discovered through category listings only, as the live site would be.
    if site != "fawiki":
        assert kinds & {"application/xml", "application/rss+xml"}, "a sitemap or a feed"
    assert 3 <= len(expected["articles"]) <= 5
    assert expected["not_articles"], "a non-article page at an article-like URL"
    assert expected["never_fetched"], "duplicate (AMP/print/tracking) URLs to fold"
    assert any("?" in path for path in pages), "a paginated listing"
    for art in expected["articles"]:
        body = html.unescape(pages[art["path"]].body)
        assert all(p in body for p in art["body"]), art["path"]
