"""Shared helpers for the fixture-site generators (``build_news_sites.py``).

The fixture sites under ``mcecrawl/demo/sites/<spider>/`` are static files; this module and
``build_news_sites.py`` are how they were written, kept so that a deliberate change to a page is made
once, here, and the files are regenerated (``python tests/spiders/build_news_sites.py``).  Each site
also gets ``expected.json``: what a correct crawl of it must produce, read by the e2e tests.
"""
from __future__ import annotations

import html
import json
import mimetypes
import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from w3lib.url import safe_url_string

from mcecrawl.demo.server import CONTENT_TYPES

ROOT = Path(__file__).resolve().parents[2]
SITES_DIR = ROOT / "mcecrawl" / "demo" / "sites"
# File suffixes kept as they are (the server infers Content-Type from them); anything else is
# an extension-less or .aspx-style URL and is stored as <path>.html.
KNOWN_SUFFIXES = {".xml", ".txt", ".json", ".aspx", ".html", ".htm"}

# A long ASCII blob like the inline ad/analytics scripts of the real pages (sites.md §0.3: inline
# ad JS on Hamshahri, __VIEWSTATE > 100 KB on Ahram): it must not pull the extractor off the body.
INLINE_JS = """
var googletag = googletag || {}; googletag.cmd = googletag.cmd || [];
(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});
var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;
j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-XXXX');
window.adSlots = [{id:'div-gpt-ad-1', size:[[300,250],[336,280]], path:'/1234/site/top'},
 {id:'div-gpt-ad-2', size:[[728,90],[970,90]], path:'/1234/site/leaderboard'}];
function lazyLoad(){document.querySelectorAll('img[data-src]').forEach(function(i){i.src=i.dataset.src;});}
document.addEventListener('DOMContentLoaded', lazyLoad);
""".strip()


@dataclass
class Page:
    """One fixture response: body text, how it is encoded and served."""

    body: str
    content_type: str = "text/html; charset=utf-8"
    encoding: str = "utf-8"  # bytes written to disk
    status: int = 200
    headers: dict = field(default_factory=dict)


def esc(s: str) -> str:
    return html.escape(s, quote=True)


def paragraphs_html(paras, tag="p", attrs="") -> str:
    return "\n".join(f"<{tag}{attrs}>{esc(p)}</{tag}>" for p in paras)


def rss(channel_title: str, link: str, items, lang: str) -> Page:
    """An RSS 2.0 feed of ``items`` = [(title, link, pubDate RFC 822)]."""
    body = "\n".join(
        f"<item><title>{esc(t)}</title><link>{esc(u)}</link><guid>{esc(u)}</guid><pubDate>{d}</pubDate></item>"
        for t, u, d in items)
    xml = (f'<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel>\n'
           f"<title>{esc(channel_title)}</title><link>{esc(link)}</link><language>{lang}</language>\n"
           f"{body}\n</channel></rss>\n")
    return Page(xml, "application/rss+xml; charset=utf-8")


def sitemap(urls, *, news_name: str | None = None, lang: str | None = None) -> Page:
    """A sitemap; with ``news_name`` a Google News sitemap.  ``urls`` = [(loc, lastmod, title)]."""
    ns = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' if news_name else ""
    rows = []
    for loc, lastmod, title in urls:
        news = ""
        if news_name:
            news = (f"<news:news><news:publication><news:name>{esc(news_name)}</news:name>"
                    f"<news:language>{lang}</news:language></news:publication>"
                    f"<news:publication_date>{lastmod}</news:publication_date>"
                    f"<news:title>{esc(title)}</news:title></news:news>")
        rows.append(f"<url><loc>{esc(loc)}</loc><lastmod>{lastmod}</lastmod>{news}</url>")
    xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
           f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"{ns}>\n' + "\n".join(rows) + "\n</urlset>\n")
    return Page(xml, "application/xml")


def robots(lines: str) -> Page:
    return Page(lines.strip() + "\n", "text/plain; charset=utf-8")


def arvan_challenge() -> Page:
    """ArvanCloud's JS cookie challenge as seen in front of Hamshahri's archive (sites.md §0.4;
    CBA-UPC/clean_resources 2024 capture; Targoman's request.ts keys on "arvancloud").  Text is
    written for the fixture, not copied.  Served with 200, so only its body gives it away."""
    return Page("""<!DOCTYPE html>
<html lang="fa" dir="rtl"><head><meta charset="utf-8"><title>ArvanCloud | در حال بررسی مرورگر</title>
<meta name="robots" content="noindex, nofollow">
<script>
(function(){var c=document.cookie;var t='__arcsjs';setTimeout(function(){document.cookie=t+'=9d3f1c0a7b;path=/';
location.reload();},3500);})();
</script></head>
<body><div class="arvan-challenge">
<h1>در حال بررسی مرورگر شما پیش از ورود به وب‌سایت...</h1>
<p>این فرایند خودکار است و مرورگر شما به زودی به محتوای درخواستی هدایت می‌شود. لطفاً چند ثانیه صبر کنید.</p>
<h2>Checking your browser before accessing the website...</h2>
<p>This process is automatic. Your browser will redirect to your requested content shortly.</p>
<p class="footer">DDoS protection by <a href="https://www.arvancloud.ir">ArvanCloud</a></p>
</div></body></html>
""")


def write_site(name: str, pages: dict[str, Page], expected: dict, root: Path = SITES_DIR) -> Path:
    """Write ``pages`` (request path with optional, already sorted query -> Page) under
    ``SITES_DIR/name`` in the layout ``mcecrawl/demo/server.py`` reads: ``/a/b`` -> ``a/b.html``,
    ``/a/b?x=1`` -> ``a/b@x=1.html``, ``/a/`` -> ``a/index.html``; paths are stored unquoted.
    Status and Content-Type that the server would not infer from the file name go into
    ``_headers.json`` (keyed by the request path as a client sends it).  Bodies are written in
    ``Page.encoding``, so a windows-1256 site is windows-1256 on disk.
    """
    site = Path(root) / name
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    overrides = {}
    for path, page in sorted(pages.items()):
        rel = _file_for(path)
        target = site / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page.body.encode(page.encoding))
        inferred = (CONTENT_TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0]
                    or "text/html; charset=utf-8")
        entry = {}
        if page.status != 200:
            entry["status"] = page.status
        if page.content_type != inferred or page.headers or page.encoding != "utf-8":
            entry["headers"] = {**page.headers, "Content-Type": page.content_type}
        if entry:
            overrides[safe_url_string(path)] = entry
    if overrides:
        (site / "_headers.json").write_text(json.dumps(overrides, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                            encoding="utf-8")
    (site / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return site


def _file_for(path: str) -> str:
    parts = urlsplit(path)
    rel = unquote(parts.path).lstrip("/")
    if not rel or rel.endswith("/"):
        return rel + "index.html"
    if parts.query:
        rel += "@" + unquote(parts.query)
    if PurePosixPath(rel).suffix.lower() not in KNOWN_SUFFIXES:
        rel += ".html"
    return rel
