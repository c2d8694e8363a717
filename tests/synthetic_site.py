"""A generated news site of N articles, served from memory (crash/resume tests, crawl benchmarks).

Pages are built on request from a pool of real paragraphs (the benchmark uses the gold texts of
the r2l dev set, docs/evaluation.md; tests use the fixture texts), padded with realistic chrome — navigation,
most-read lists, inline script/JSON blobs — to a deterministic size per article (e.g. 100–500 KB,
like the real pages of the r2l dev set).  Nothing is written to disk, so 20,000 articles
cost no disk space.  Discovery: robots.txt -> sitemap index -> sitemaps of ``per_sitemap`` URLs,
and an ``/archive?page=N`` listing with pagination for back-fill.

A test helper, not shipped in the wheel: imported by name (pytest puts ``tests/`` on sys.path for the
top-level conftest; the benchmarks add it themselves).
"""
from __future__ import annotations

import bisect
import hashlib
import html
import json
from pathlib import Path

from mcecrawl.algorithms import DEFAULT_ALGORITHM

HOST = "news.example"


class SyntheticSite:
    """``resolver(path, query)`` for :class:`mcecrawl.demo.server.FixtureServer`."""

    def __init__(self, n_articles: int, paragraphs: list[str], *, lang: str = "fa",
                 size_kb: tuple[int, int] = (100, 500), per_sitemap: int = 1000, per_listing: int = 50):
        if not paragraphs:
            raise ValueError("need a pool of paragraphs")
        self.n = n_articles
        self.pool = paragraphs
        self.lang = lang
        self.size_kb = size_kb
        self.per_sitemap = per_sitemap
        self.per_listing = per_listing
        units = [u.encode("utf-8") for u in self._build_chrome()]
        # furniture repeated up to the largest page; pages take a prefix ending at a unit boundary
        self._fill, self._cuts = b"", [0]
        while len(self._fill) < size_kb[1] * 1024:
            for u in units:
                self._fill += u
                self._cuts.append(len(self._fill))

    # -- content ----------------------------------------------------------------------------------
    def _pick(self, i: int, k: int) -> list[str]:
        h = int(hashlib.sha1(str(i).encode()).hexdigest(), 16)
        return [self.pool[(h >> (8 * j)) % len(self.pool)] for j in range(k)]

    def title(self, i: int) -> str:
        words = self._pick(i, 1)[0].split()[:8]
        return " ".join(words) + f" ({i})"

    def body(self, i: int) -> list[str]:
        return self._pick(i, 4 + i % 5)

    def date(self, i: int) -> str:
        return f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z"

    def size(self, i: int) -> int:
        lo, hi = self.size_kb
        return 1024 * (lo + (i * 7919) % max(1, hi - lo + 1))

    def _build_chrome(self) -> list[str]:
        """Page furniture in complete, multi-line blocks (~5 KB each): navigation, teaser lists
        with R2L headlines, ad/analytics scripts with JSON, as on the real pages."""
        teasers = "\n".join(
            f'  <li class="teaser"><a href="/news/{j}"><span>{html.escape(self.title(j))}</span></a></li>'
            for j in range(20))
        nav = "\n".join(
            f'  <li><a href="/section/{j}">{html.escape(" ".join(self.pool[j % len(self.pool)].split()[:2]))}</a></li>'
            for j in range(30))
        blob = ",\n".join(json.dumps({"slot": f"div-gpt-ad-{j}", "sizes": [[300, 250], [728, 90]],
                                       "targeting": {"section": "news", "pos": j}}) for j in range(40))
        return [f'<aside class="most-read">\n<ol>\n{teasers}\n</ol>\n</aside>\n',
                f'<nav class="sections">\n<ul>\n{nav}\n</ul>\n</nav>\n',
                f"<script>\nwindow.__ADS__ = [\n{blob}\n];\n</script>\n"]

    def article(self, i: int) -> bytes:
        url = f"https://{HOST}/news/{i}"
        title = html.escape(self.title(i))
        ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "headline": self.title(i),
                         "datePublished": self.date(i), "url": url}, ensure_ascii=False)
        paras = "\n".join(f"<p>{html.escape(p)}</p>" for p in self.body(i))
        head = (f'<!DOCTYPE html>\n<html lang="{self.lang}" dir="rtl"><head><meta charset="utf-8">'
                f"<title>{title}</title><link rel=\"canonical\" href=\"{url}\">"
                f'<meta property="og:type" content="article"><script type="application/ld+json">{ld}</script></head>\n'
                f'<body><header><nav><a href="/">news.example</a> <a href="/archive">archive</a></nav></header>\n')
        main = f'<main><article><h1>{title}</h1>\n<div class="body">\n{paras}\n</div></article></main>\n'
        tail = "<footer><p>© news.example</p></footer></body></html>\n"
        head_b, main_b, tail_b = head.encode(), main.encode(), tail.encode()
        fill = self.size(i) - len(head_b) - len(main_b) - len(tail_b)
        cut = self._cuts[bisect.bisect_right(self._cuts, max(0, fill)) - 1]  # whole blocks only
        return head_b + self._fill[:cut] + main_b + tail_b

    # -- discovery ------------------------------------------------------------------------------
    def sitemap_index(self) -> bytes:
        n_maps = (self.n + self.per_sitemap - 1) // self.per_sitemap
        items = "".join(f"<sitemap><loc>https://{HOST}/sitemap-{k}.xml</loc></sitemap>\n" for k in range(n_maps))
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                f"{items}</sitemapindex>\n").encode()

    def sitemap(self, k: int) -> bytes | None:
        ids = range(k * self.per_sitemap, min(self.n, (k + 1) * self.per_sitemap))
        if not ids:
            return None
        items = "".join(f"<url><loc>https://{HOST}/news/{i}</loc><lastmod>{self.date(i)}</lastmod></url>\n"
                        for i in ids)
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                f"{items}</urlset>\n").encode()

    def listing(self, page: int) -> bytes | None:
        ids = range((page - 1) * self.per_listing, min(self.n, page * self.per_listing))
        if page < 1 or not ids:
            return None
        links = "".join(f'<li><a href="/news/{i}">{html.escape(self.title(i))}</a></li>\n' for i in ids)
        nxt = f'<a rel="next" href="/archive?page={page + 1}">next</a>' if ids.stop < self.n else ""
        return (f'<!DOCTYPE html><html lang="{self.lang}" dir="rtl"><head><meta charset="utf-8">'
                f"<title>archive {page}</title></head>"
                f"<body><ul>\n{links}</ul>{nxt}</body></html>\n").encode("utf-8")

    def resolver(self, path: str, query: str):
        html_type = {"Content-Type": "text/html; charset=utf-8"}
        xml_type = {"Content-Type": "application/xml"}
        body: bytes | None = None
        ctype = html_type
        if path == "/robots.txt":
            body = f"User-agent: *\nAllow: /\nSitemap: https://{HOST}/sitemap.xml\n".encode()
            ctype = {"Content-Type": "text/plain"}
        elif path == "/sitemap.xml":
            body, ctype = self.sitemap_index(), xml_type
        elif path.startswith("/sitemap-") and path.endswith(".xml"):
            body, ctype = self.sitemap(int(path[9:-4])), xml_type
        elif path == "/archive":
            page = int(query.split("=", 1)[1]) if query.startswith("page=") else 1
            body = self.listing(page)
        elif path.startswith("/news/") and path[6:].isdigit() and int(path[6:]) < self.n:
            body = self.article(int(path[6:]))
        if body is None:
            return 404, {"Content-Type": "text/plain"}, b"not found"
        return 200, ctype, body

    # -- profile ----------------------------------------------------------------------------------
    def profile(self, name: str = "synthetic", algorithm: str = DEFAULT_ALGORITHM,
                signals_in_head: bool = True) -> dict:
        return {
            "name": name, "site": "news.example (synthetic)", "lang": self.lang, "live_hosts": [HOST],
            "entry_points": {"sitemaps": [f"https://{HOST}/sitemap.xml"], "listings": [f"https://{HOST}/archive"]},
            "pagination": {"pattern": f"^https://{HOST.replace('.', '[.]')}/archive\\?page=\\d+$", "max_pages": 100000},
            "articles": [{"pattern": f"^https://{HOST.replace('.', '[.]')}/news/\\d+$"}],
            "evidence": {"jsonld_types": ["NewsArticle"], "og_types": ["article"]},
            "signals_in_head": signals_in_head,
            "canonical": {"scheme": "https", "host": HOST, "keep_params": ["page"]},
            "extraction": {"algorithm": algorithm, "params": {}},
        }

    def write_profile(self, path: Path | str, **kwargs) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.profile(**kwargs), ensure_ascii=False, indent=1), encoding="utf-8")
        return path
