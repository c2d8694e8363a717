"""Fixture news sites for the generic news spider, built from real pages, served from memory.

Articles are the real R2L dev pages of ``../shared/data/r2l`` that declare themselves articles
(JSON-LD, og:type or microdata; the two Walla news flashes that declare nothing are left out), repeated
at distinct URLs when a site needs more articles than there are pages.  Each is served as saved from
its live site, with two changes a real site's own copy would have: a ``<link rel=canonical>`` naming
the fixture URL (so repeated pages differ and carry their identity) and a ``<base href>`` of the page's
live URL (its own relative links point back to its live site, off the fixture site).  Listings,
sections, tags, authors and media pages are real page heads (the article evidence removed: JSON-LD,
og:type, article:* metas) over generated bodies of teaser links with the real headlines.

Shapes (``NewsSite(kind, n)``): ``wordpress`` (``/YYYY/MM/slug/``, ``/?p=N`` redirecting to it,
``/category/``, ``/tag/``, ``/author/``, ``/page/N/``, ``/feed/``, ``/wp-sitemap.xml``), ``cms``
(numeric ids ``/news/N``, AMP twins ``/amp/N``, a Google News sitemap named by robots.txt, an RSS feed
announced on the home page, sections ``/service/X?pi=N``, video pages), ``plain`` (no sitemap, no
feed: the home page and paginated sections only), ``alike`` (articles and sections both ``/slug``).
Hostile variants: ``shift`` (a cms site that moves its articles to ``/story/YYYY/N/slug`` after a
number of requests, old URLs redirecting), ``home_everywhere`` (every URL answers the home page),
``redirect_loop``, ``robots_forbid``, ``many_tags`` (10,000 tag pages linking each other).

A test helper, not shipped: the spider is never told any of this.
"""
from __future__ import annotations

import html
import json
import re
import threading

from data_root import SHARED_DATA
from mcecrawl.encoding import decode
from mcecrawl.evaluation.datasets import strip_markup
from mcecrawl.spiders.evidence import microdata_evidence, page_evidence, signals_selector

R2L = SHARED_DATA / "r2l"
HTML = {"Content-Type": "text/html; charset=utf-8"}
XML = {"Content-Type": "application/xml; charset=utf-8"}
SECTIONS = ("politics", "economy", "sport", "culture", "world")
PER_LISTING = 10

_LDJSON = re.compile(r"<script[^>]*ld\+json[^>]*>.*?</script>", re.S | re.I)
_CANONICAL = re.compile(r"<link[^>]*rel=[\"']?canonical[^>]*>", re.I)
_ARTICLE_META = re.compile(r"<meta[^>]*(?:og:type|article:)[^>]*>", re.I)
_ITEMTYPE = re.compile(r"\sitem(?:type|prop)=[\"'][^\"']*[\"']", re.I)
_HEAD = re.compile(r"<head[^>]*>", re.I)
WCXB = R2L.parent / "wcxb_dev"
# Real non-article pages of wcxb_dev served on the fixture sites (one of each type), at /more/<type>.
OTHER_TYPES = ("listing", "forum", "service", "collection", "product")


def real_other_pages() -> dict[str, bytes]:
    """One real wcxb_dev page of each type of :data:`OTHER_TYPES` (the first in the manifest), as UTF-8,
    without page-type markup."""
    import gzip

    out: dict[str, bytes] = {}
    if not (WCXB / "manifest.jsonl").exists():
        return out
    for line in (WCXB / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        m = json.loads(line)
        kind = m.get("page_type")
        if kind in OTHER_TYPES and kind not in out:
            raw = (WCXB / (m.get("page_file") or f"pages/{m['id']}.html")).read_bytes()
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            # Their own page-type markup removed as for the listings' heads (some declare Article types
            # for pages that are not articles: a page type judgement, not this fixture, must catch those).
            out[kind] = _ARTICLE_META.sub("", strip_markup(decode(raw).text)).encode("utf-8")
    return out


def real_articles() -> list[dict]:
    """The real article pages: ``{"id", "url", "text", "title", "head"}`` (text decoded to str)."""
    out = []
    for line in (R2L / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        m = json.loads(line)
        raw = (R2L / "pages" / f"{m['id']}.html").read_bytes()
        text = decode(raw, f"text/html; charset={m['http_charset']}" if m.get("http_charset") else None).text
        body = text.encode("utf-8")
        verdict, _ = page_evidence(signals_selector(body), {})
        if verdict != "article" and not microdata_evidence(body):
            continue
        title = signals_selector(body).css("title::text").get() or m["id"]
        end = text.lower().find("</head>")
        out.append({"id": m["id"], "url": m["url"], "text": text, "title": " ".join(title.split()),
                    "head": text[:end] if end > 0 else "<html><head>"})
    return out


def _listing_head(head: str, title: str, extra: str = "") -> str:
    head = _LDJSON.sub("", head)
    head = _CANONICAL.sub("", head)
    head = _ARTICLE_META.sub("", head)
    head = _ITEMTYPE.sub("", head)
    head = re.sub(r"<title>.*?</title>", f"<title>{html.escape(title)}</title>", head, flags=re.S | re.I)
    return head + '<meta property="og:type" content="website">' + extra + "</head>"


class NewsSite:
    """``resolver(path, query)`` for :class:`mcecrawl.demo.server.FixtureServer`; set ``base`` to the
    server's URL once it listens."""

    def __init__(self, kind: str, n_articles: int = 40, *, shift_after: int = 30, stripped: bool = False,
                 marked_every: int = 0):
        self.kind = kind
        # stripped: no article carries page-type markup; marked_every=k: only every k-th article does.
        self.stripped = stripped
        self.marked_every = marked_every
        self.others = real_other_pages()
        self.n = n_articles
        self.pages = real_articles()
        self.base = ""
        self.shift_after = shift_after
        self._hits = 0
        self._lock = threading.Lock()
        self.served: dict[str, bytes] = {}  # path -> the article page served there

    # -- identity --------------------------------------------------------------------------------
    def slug(self, i: int) -> str:
        return f"report-{i}-{'abcdefghij'[i % 10]}"

    def article_path(self, i: int) -> str:
        k = self.kind
        if k in ("wordpress", "many_tags"):
            return f"/{2024 - i // 60}/{12 - (i // 5) % 12:02d}/{self.slug(i)}/"
        if k in ("cms", "home_everywhere", "redirect_loop", "robots_forbid"):
            return f"/news/{100000 + i}"
        if k == "shift":
            return f"/story/{2024 - i // 60}/{100000 + i}/{self.slug(i)}" if self.shifted else f"/news/{100000 + i}"
        if k == "plain":
            return f"/articles/{self.slug(i)}.html"
        if k == "alike":
            return f"/{self.slug(i)}"
        raise ValueError(k)

    @property
    def shifted(self) -> bool:
        return self.kind == "shift" and self._hits > self.shift_after

    def expected(self) -> set[str]:
        """Canonical URLs of every article, as the site finally names them."""
        if self.kind in ("home_everywhere", "robots_forbid"):
            return set()
        if self.kind == "shift":
            return {self.base + f"/story/{2024 - i // 60}/{100000 + i}/{self.slug(i)}" for i in range(self.n)}
        return {self.base + self.article_path(i) for i in range(self.n)}

    def article(self, i: int, amp: bool = False) -> bytes:
        page = self.pages[i % len(self.pages)]
        extra = f'<link rel="canonical" href="{self.base}{self.article_path(i)}">'
        if self.kind in ("cms", "shift") and not amp:
            extra += f'<link rel="amphtml" href="{self.base}/amp/{100000 + i}">'
        extra += f'<base href="{html.escape(page["url"])}">'
        text = _CANONICAL.sub("", page["text"])
        if self.stripped or (self.marked_every and i % self.marked_every):
            text = strip_markup(text)
        m = _HEAD.search(text)
        text = text[:m.end()] + extra + text[m.end():] if m else extra + text
        return text.encode("utf-8")

    def title(self, i: int) -> str:
        return self.pages[i % len(self.pages)]["title"]

    # -- listings --------------------------------------------------------------------------------
    def listing(self, title: str, ids: range | list[int], links: list[tuple[str, str]], next_url: str | None,
                feeds: str = "") -> bytes:
        head = _listing_head(self.pages[0]["head"], title, feeds)
        nav = "".join(f'<li><a href="{h}">{html.escape(t)}</a></li>' for h, t in links)
        teasers = "".join(f'<li class="teaser"><a href="{self.teaser_href(i)}">{html.escape(self.title(i))}</a>'
                          f"<time>2024-05-{1 + i % 28:02d}</time></li>\n" for i in ids)
        nxt = f'<a rel="next" href="{next_url}">›</a>' if next_url else ""
        return (f"{head}<body><header><nav><ul>{nav}</ul></nav></header><main><h1>{html.escape(title)}</h1>"
                f"<ul>{teasers}</ul>{nxt}</main><footer><a href=\"/\">home</a></footer></body></html>").encode()

    def teaser_href(self, i: int) -> str:
        if self.kind in ("wordpress", "many_tags") and i % 4 == 3:
            return f"/?p={i}"  # WordPress's short link, redirecting to the permalink
        if self.kind == "cms" and i % 5 == 4:
            return f"/amp/{100000 + i}"  # an AMP link in a listing: the same article
        return self.article_path(i)

    def nav(self) -> list[tuple[str, str]]:
        k = self.kind
        if k in ("wordpress", "many_tags"):
            links = [(f"/category/{s}/", s) for s in SECTIONS] + [("/author/editor/", "editor"),
                                                                 ("/author/desk/", "desk")]
            links += [(f"/tag/tag-{j}/", f"tag {j}") for j in range(6 if k == "wordpress" else 100)]
            return links
        if k in ("cms", "shift", "redirect_loop"):
            links = [(f"/service/{s}", s) for s in SECTIONS] + [(f"/media/{j}", f"video {j}") for j in range(6)]
            links += [(f"/tag/{j}", f"tag {j}") for j in range(6)]
            if k == "redirect_loop":
                links += [("/loop/a", "loop"), ("/loop/b", "loop")]
            return links
        if k == "plain":
            return [(f"/section/{s}", s) for s in SECTIONS] + [("/about-the-paper", "about"),
                                                                 ("/contact", "contact"),
                                                                 ("/weekly-digest", "digest")] + \
                [(f"/more/{t}", t) for t in self.others]
        if k == "alike":
            return [(f"/{s}-news", s) for s in SECTIONS] + [("/about-us", "about")]
        return []

    def section_ids(self, s: int) -> list[int]:
        return [i for i in range(self.n) if i % len(SECTIONS) == s]

    def paged(self, title: str, ids: list[int], page: int, url_of) -> bytes | None:
        chunk = ids[(page - 1) * PER_LISTING:page * PER_LISTING]
        if page < 1 or (not chunk and page > 1):
            return None
        more = page * PER_LISTING < len(ids)
        return self.listing(f"{title} {page}", chunk, self.nav(), url_of(page + 1) if more else None)

    def video(self, j: int) -> bytes:
        head = _listing_head(self.pages[1]["head"], f"video {j}").replace(
            '<meta property="og:type" content="website">', '<meta property="og:type" content="video.other">')
        return f"{head}<body><h1>video {j}</h1><video src=\"/v/{j}.mp4\"></video></body></html>".encode()

    # -- discovery documents -----------------------------------------------------------------------
    def urlset(self, ids, news: bool = False) -> bytes:
        ns = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' if news else ""
        rows = []
        for i in ids:
            extra = (f"<news:news><news:publication><news:name>x</news:name><news:language>ar</news:language>"
                     f"</news:publication><news:publication_date>2024-05-{1 + i % 28:02d}</news:publication_date>"
                     f"</news:news>") if news else f"<lastmod>2024-05-{1 + i % 28:02d}</lastmod>"
            rows.append(f"<url><loc>{self.base}{self.article_path(i)}</loc>{extra}</url>")
        return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
                f'{ns}>{"".join(rows)}</urlset>').encode()

    def urlset_of(self, paths: list[str]) -> bytes:
        rows = "".join(f"<url><loc>{self.base}{p}</loc></url>" for p in paths)
        return (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                f"{rows}</urlset>").encode()

    def rss(self, ids) -> bytes:
        items = "".join(f"<item><title>{html.escape(self.title(i))}</title><link>{self.base}{self.article_path(i)}"
                        f"</link></item>" for i in ids)
        return f'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>{items}</channel></rss>'.encode()

    # -- resolver -----------------------------------------------------------------------------------
    def resolver(self, path: str, query: str):  # noqa: C901 (one branch per URL kind of the fixture)
        with self._lock:
            self._hits += 1
        k, q = self.kind, dict(p.split("=", 1) for p in query.split("&") if "=" in p)
        page = int(q.get("pi") or q.get("page") or 1) if (q.get("pi") or q.get("page") or "1").isdigit() else 1
        latest = list(range(self.n))
        home_page = self.listing("home", latest[:PER_LISTING], self.nav(), None,
                                 '<link rel="alternate" type="application/rss+xml" href="/rss">'
                                 if k in ("cms", "shift") else
                                 '<link rel="alternate" type="application/rss+xml" href="/feed/">'
                                 if k in ("wordpress", "many_tags") else "")
        if k == "robots_forbid" and path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /\n"
        if k == "home_everywhere":
            return 200, HTML, home_page
        if path == "/robots.txt":
            lines = "User-agent: *\nAllow: /\n"
            if k in ("cms", "shift", "redirect_loop"):
                lines += f"Sitemap: {self.base}/sitemap/news.xml\n"
            if k in ("wordpress", "many_tags"):
                lines += f"Sitemap: {self.base}/wp-sitemap.xml\n"
            return 200, {"Content-Type": "text/plain"}, lines.encode()
        if path == "/":
            if k in ("wordpress", "many_tags") and "p" in q and q["p"].isdigit() and int(q["p"]) < self.n:
                return 301, {"Location": self.base + self.article_path(int(q["p"]))}, b""
            return 200, HTML, home_page
        # articles
        for i in self._article_index(path):
            if k == "shift" and self.shifted and path.startswith("/news/"):
                return 301, {"Location": self.base + self.article_path(i)}, b""
            self.served[path] = self.article(i)
            return 200, HTML, self.served[path]
        m = re.fullmatch(r"/amp/(\d+)", path)
        if m and k in ("cms", "shift") and 0 <= int(m.group(1)) - 100000 < self.n:
            self.served[path] = self.article(int(m.group(1)) - 100000, amp=True)
            return 200, HTML, self.served[path]
        body = self._listing_for(path, page)
        if body is not None:
            return 200, HTML, body
        if k in ("wordpress", "many_tags"):
            if path == "/wp-sitemap.xml":
                maps = ["/wp-sitemap-posts-post-1.xml", "/wp-sitemap-taxonomies-category-1.xml",
                        "/wp-sitemap-users-1.xml"]
                rows = "".join(f"<sitemap><loc>{self.base}{m}</loc></sitemap>" for m in maps)
                return 200, XML, (f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/'
                                  f'sitemap/0.9">{rows}</sitemapindex>').encode()
            if path == "/wp-sitemap-posts-post-1.xml":
                return 200, XML, self.urlset(latest)
            if path == "/wp-sitemap-taxonomies-category-1.xml":
                return 200, XML, self.urlset_of([f"/category/{s}/" for s in SECTIONS])
            if path == "/wp-sitemap-users-1.xml":
                return 200, XML, self.urlset_of(["/author/editor/", "/author/desk/"])
            if path == "/feed/":
                return 200, {"Content-Type": "application/rss+xml"}, self.rss(latest[:PER_LISTING])
        if k in ("cms", "shift", "redirect_loop"):
            if path == "/sitemap/news.xml":
                return 200, XML, self.urlset(latest, news=True)
            if path == "/rss" and k != "redirect_loop":
                return 200, {"Content-Type": "application/rss+xml"}, self.rss(latest[:PER_LISTING])
            m = re.fullmatch(r"/media/(\d+)", path)
            if m:
                return 200, HTML, self.video(int(m.group(1)))
            if k == "redirect_loop" and path in ("/loop/a", "/loop/b"):
                return 302, {"Location": self.base + ("/loop/b" if path == "/loop/a" else "/loop/a")}, b""
        return 404, {"Content-Type": "text/plain"}, b"not found"

    def _article_index(self, path: str) -> list[int]:
        k = self.kind
        if k in ("wordpress", "many_tags"):
            m = re.fullmatch(r"/\d{4}/\d\d/report-(\d+)-[a-j]/?", path)
        elif k == "shift":
            m = re.fullmatch(r"/news/1(\d{5})", path) or re.fullmatch(r"/story/\d{4}/1(\d{5})/report-\d+-[a-j]", path)
        elif k in ("cms", "redirect_loop"):
            m = re.fullmatch(r"/news/1(\d{5})", path)
        elif k == "plain":
            m = re.fullmatch(r"/articles/report-(\d+)-[a-j]\.html", path)
        elif k == "alike":
            m = re.fullmatch(r"/report-(\d+)-[a-j]", path)
        else:
            m = None
        if m and int(m.group(1)) < self.n:
            return [int(m.group(1))]
        return []

    def _listing_for(self, path: str, page: int) -> bytes | None:
        k = self.kind
        for s, name in enumerate(SECTIONS):
            ids = self.section_ids(s)
            if k in ("wordpress", "many_tags"):
                m = re.fullmatch(rf"/category/{name}/(?:page/(\d+)/)?", path)
                if m:
                    return self.paged(name, ids, int(m.group(1) or 1), lambda p, n=name: f"/category/{n}/page/{p}/")
            elif k in ("cms", "shift", "redirect_loop") and path == f"/service/{name}":
                return self.paged(name, ids, page, lambda p, n=name: f"/service/{n}?pi={p}")
            elif k == "plain" and path == f"/section/{name}":
                return self.paged(name, ids, page, lambda p, n=name: f"/section/{n}?page={p}")
            elif k == "alike" and path == f"/{name}-news":
                return self.paged(name, ids, page, lambda p, n=name: f"/{n}-news?page={p}")
        if k in ("wordpress", "many_tags"):
            m = re.fullmatch(r"/page/(\d+)/", path)
            if m:
                return self.paged("home", list(range(self.n)), int(m.group(1)), lambda p: f"/page/{p}/")
            m = re.fullmatch(r"/tag/tag-(\d+)/", path)
            n_tags = 6 if k == "wordpress" else 10_000
            if m and int(m.group(1)) < n_tags:
                j = int(m.group(1))
                others = [(f"/tag/tag-{(j + d) % n_tags}/", "tag") for d in range(1, 51)]
                return self.listing(f"tag {j}", [j % self.n, (j * 7) % self.n], others, None)
            m = re.fullmatch(r"/author/(\w+)/", path)
            if m:
                return self.listing(m.group(1), list(range(min(3, self.n))), self.nav()[:5], None)
        if k in ("cms", "shift", "redirect_loop"):
            m = re.fullmatch(r"/tag/(\d+)", path)
            if m:
                return self.listing(f"tag {m.group(1)}", [0, 1], self.nav()[:5], None)
        # At slug URLs (one page among many, as an article's): their content, not their URL, must tell.
        if k == "plain" and path == "/about-the-paper":
            return self.about()
        if k == "plain" and path == "/weekly-digest":
            return self.digest()
        m = re.fullmatch(r"/more/(\w+)", path)
        if k == "plain" and m and m.group(1) in self.others:
            return self.others[m.group(1)]
        if k in ("plain", "alike") and path in ("/contact", "/about-us"):
            return self.listing(path.strip("/"), [], [], None)
        return None

    def prose(self, i: int) -> list[str]:
        """The punctuated lines of article ``i``'s extraction: real prose for the non-article pages."""
        import mcecrawl
        from mcecrawl.spiders.evidence import _SENTENCE_END

        page = self.pages[i % len(self.pages)]
        return [ln for ln in mcecrawl.extract(page["text"]).text.split("\n")[1:] if _SENTENCE_END.search(ln)]

    def about(self) -> bytes:
        """An about page: a headline and two paragraphs of real prose, no date, no list."""
        lines = [ln for i in range(len(self.pages)) for ln in self.prose(i) if len(ln) > 150][:2]
        head = _listing_head(self.pages[0]["head"], "about")
        paras = "".join(f"<p>{html.escape(ln)}</p>" for ln in lines)
        return (f"{head}<body><header><nav><a href=\"/\">home</a></nav></header><main><h1>about us</h1>{paras}"
                f"</main></body></html>").encode()

    def digest(self) -> bytes:
        """A listing with long teasers: each article's headline (a link) and its first paragraph."""
        head = _listing_head(self.pages[0]["head"], "digest")
        items = []
        for i in range(min(self.n, PER_LISTING)):
            teaser = " ".join(self.prose(i)[:2]) or self.title(i)
            items.append(f'<article><h2><a href="{self.teaser_href(i)}">{html.escape(self.title(i))}</a></h2>'
                         f"<p>{html.escape(teaser)}</p></article>")
        return (f"{head}<body><main><h1>digest</h1>{''.join(items)}</main></body></html>").encode()
