"""Text policy on every bundled fixture article (the demo's included): extracted with its site
profile's algorithm, the text starts with the article's headline — never a breadcrumb, byline or
date — and holds every body paragraph."""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

import mcecrawl
from mcecrawl.demo.server import FixtureServer, site_dir
from mcecrawl.profile import load_profile

SITES = ("ahram", "bbc_arabic", "bbc_pashto", "bbc_persian", "bbc_urdu", "diplo_tehran", "fawiki", "hamshahri",
         "jamejam", "reuters_arabic")


def _ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _articles(site: str):
    expected = json.loads((site_dir(site) / "expected.json").read_text(encoding="utf-8"))
    for art in expected["articles"]:
        where = art.get("path") or urlsplit(art["canonical_url"])
        path = where if isinstance(where, str) else where.path + (f"?{where.query}" if where.query else "")
        yield path, art


@pytest.mark.parametrize("site", SITES)
def test_fixture_article_text_starts_with_its_headline(site):
    profile = load_profile(site)
    server = FixtureServer(site)
    try:
        for path, art in _articles(site):
            status, headers, body = server.respond(path)
            assert status == 200, path
            result = mcecrawl.extract(body, algorithm=profile.extraction["algorithm"],
                                      content_type=headers.get("Content-Type"), **profile.extraction.get("params", {}))
            assert result.ok, (path, result.reason)
            lines = result.text.splitlines()
            assert _ws(lines[0]) == _ws(art["title"]), (path, lines[:3])
            text = _ws(result.text)
            for para in art.get("paragraphs") or art.get("body") or []:
                assert _ws(para) in text, (path, para)
    finally:
        server.httpd.server_close()
