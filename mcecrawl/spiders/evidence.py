"""Page evidence and metadata, read from the page itself: is this an article, and what does it say
about itself (title, publication date, authors)?

Used by every spider (:class:`mcecrawl.spiders.base.ProfileSpider` and the generic
:class:`mcecrawl.spiders.news.NewsSpider`).  The page is never parsed whole here: evidence and metadata
are read from ``<head>`` (:func:`head_selector`) or from the page's signal elements cut from its bytes
(:func:`signal_elements`: JSON-LD, ``<meta>``, ``<time>``, ``<h1>``, ``<title>``).
"""
from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from datetime import date, datetime
from typing import Any, Iterable

import scrapy

from mcecrawl.profile import ARTICLE, NO_SIGNAL, NOT_ARTICLE

# The <head> of a real news page ends within its first ~100 KB (inline CSS/JSON included).
HEAD_MAX_CHARS = 262_144

# Page types, read from the page itself (see page_evidence).  An Article-family type
# anywhere in the page is positive evidence and wins; only an explicit non-article type that is
# the page's main entity vetoes; every other type (WebPage, WebSite, Organization, BreadcrumbList,
# og:type "website" or "text/html", ...) is no signal.  Many CMSs put og:type "website" on every
# page, articles included, so reading such weak types as "not an article" lost real articles.
# Source: the schema.org type hierarchy (https://schema.org/Article, https://schema.org/CreativeWork).
ARTICLE_JSONLD_TYPES = frozenset({
    "Article", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle", "BackgroundNewsArticle",
    "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle", "BlogPosting", "Report",
    "ScholarlyArticle", "SatiricalArticle", "TechArticle",
})
NOT_ARTICLE_JSONLD_TYPES = frozenset({
    "VideoObject", "AudioObject", "MediaObject", "ImageGallery", "VideoGallery", "MediaGallery",
    "CollectionPage", "ItemList", "ProfilePage", "SearchResultsPage",
})
# Types that describe the site or the page's frame, never its main entity (schema.org WebPage,
# WebSite, Organization, BreadcrumbList and the like): skipped when looking for the main entity.
FRAME_JSONLD_TYPES = frozenset({
    "WebPage", "WebSite", "Organization", "NewsMediaOrganization", "Corporation", "BreadcrumbList",
    "SearchAction", "Person", "ImageObject", "SiteNavigationElement", "WPHeader", "WPFooter",
    "WPSideBar", "Brand", "Place", "PostalAddress", "ContactPoint", "Language",
})
# Open Graph (https://ogp.me/#types): "article" is positive; the "video.*", "music.*" and
# "profile" object types (and a bare "video"/"music") are explicit non-articles.
ARTICLE_OG_TYPES = frozenset({"article"})
NOT_ARTICLE_OG_PREFIXES = ("video", "music", "profile")
# Nesting followed when looking for types in JSON-LD (real pages nest 3-5 levels).
JSONLD_MAX_DEPTH = 20


def iso_date(raw: str | None) -> str | None:
    """ISO-8601 form of an ISO-like date string (``2020-11-29T11:57:59Z``, ``2020-11-29``), else None.

    Non-ISO dates (Jalali, Persian digits) are left to the corpus-quality stage
    (:func:`mcecrawl.corpus.dates.parse_date`, which also names the calendar): ``published_raw``
    keeps them."""
    if not raw:
        return None
    s = raw.strip()
    try:
        if len(s) == 10:
            return date.fromisoformat(s).isoformat()
        return datetime.fromisoformat(s.replace("Z", "+00:00")).isoformat()
    except ValueError:
        pass
    try:  # RFC 822 dates of RSS <pubDate>
        from email.utils import parsedate_to_datetime

        return parsedate_to_datetime(s).isoformat()
    except (TypeError, ValueError, IndexError):
        return None


def iso_before(iso: str | None, since: str | None) -> bool:
    """ISO date ``iso`` (an item's ``published``) is before ``since`` (YYYY-MM-DD); False when either is missing."""
    return bool(since and iso and iso[:10] < since)


def too_old(raw: str | None, since: str | None) -> bool:
    """A listed date (sitemap ``lastmod``, feed ``pubDate``), read by :func:`iso_date`, is before ``since``."""
    return iso_before(iso_date(raw), since)


def _jsonld_nodes(selector) -> list[dict]:
    """The top-level JSON-LD nodes of the page (each script's object, list items, ``@graph`` members)."""
    tops: list[dict] = []
    for raw in selector.css('script[type="application/ld+json"]::text').getall():
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        stack = [data]
        while stack:
            node = stack.pop(0)
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                if "@graph" in node:
                    stack.extend(node["@graph"] if isinstance(node["@graph"], list) else [node["@graph"]])
                if "@type" in node:
                    tops.append(node)
    return tops


def _text(value: Any) -> str | None:
    """A JSON-LD value as text: a string, or the first string of a list (real pages give both)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    return value if isinstance(value, str) and value.strip() else None


def _types(node: dict) -> list[str]:
    t = node.get("@type")
    return [t] if isinstance(t, str) else [x for x in (t or []) if isinstance(x, str)]


def _all_types(nodes: list, depth: int = 0) -> Iterable[str]:
    """Every ``@type`` in ``nodes`` and the objects nested in them, except the members of a list
    (``itemListElement``: teasers of other pages, not this page)."""
    if depth > JSONLD_MAX_DEPTH:
        return
    for node in nodes:
        if isinstance(node, list):
            yield from _all_types(node, depth + 1)
        elif isinstance(node, dict):
            yield from _types(node)
            yield from _all_types([v for k, v in node.items() if k != "itemListElement"
                                   and isinstance(v, (dict, list))], depth + 1)


def _main_entity_types(tops: list[dict]) -> list[str]:
    """Types of the page's main entity in JSON-LD (schema.org ``mainEntity``/``mainEntityOfPage``).

    The main entity is, in this order: what a node's ``mainEntity`` names (inline or by ``@id``)
    and the nodes that declare ``mainEntityOfPage``; else the page node itself when it is a page
    type of its own (``CollectionPage``, ``ProfilePage``, ...); else the one top-level node that is
    not part of the frame (:data:`FRAME_JSONLD_TYPES`).  Several candidates: no main entity."""
    by_id = {n["@id"]: n for n in tops if isinstance(n.get("@id"), str)}
    named: list[dict] = []
    for n in tops:
        me = n.get("mainEntity")
        for m in me if isinstance(me, list) else [me]:
            if isinstance(m, dict):
                named.append(by_id.get(m.get("@id"), m) if "@type" not in m else m)
        if "mainEntityOfPage" in n:
            named.append(n)
    if named:
        return [t for n in named for t in _types(n)]
    pages = [t for n in tops for t in _types(n) if t in NOT_ARTICLE_JSONLD_TYPES and t.endswith(("Page", "Gallery"))]
    if pages:
        return pages
    content = [n for n in tops if not FRAME_JSONLD_TYPES.issuperset(_types(n))]
    return _types(content[0]) if len(content) == 1 else []


_SCRIPT_ID = re.compile(r"script#([\w-]+)")


def head_selector(text: str) -> scrapy.Selector | None:
    """A selector over ``<head>`` only (JSON-LD, og:, meta live there on most news sites), or None
    when the head does not end within :data:`HEAD_MAX_CHARS`.  Parsing 3 KB instead of 300 KB is
    what keeps the spider's share of a crawl small (BENCHMARKS.md)."""
    end = text.find("</head>", 0, HEAD_MAX_CHARS)
    if end < 0:
        end = text.find("</HEAD>", 0, HEAD_MAX_CHARS)
    if end < 0:
        return None
    return scrapy.Selector(text=text[:end] + "</head></html>", type="html")


# The elements the generic page evidence and metadata read: JSON-LD, <meta>, <time>, <h1>, <title>.
# Comments and the bodies of other scripts, styles and textareas are stepped over, as a parser does.
_SIGNAL_OPEN = re.compile(rb"<(!--|script|style|textarea|title|h1|meta|time)[\s>/]")
_SIGNAL_END = {b"!--": b"-->", b"script": b"</script", b"style": b"</style", b"textarea": b"</textarea",
               b"title": b"</title", b"h1": b"</h1"}


def signal_elements(body: bytes) -> bytes:
    """The page's signal elements (JSON-LD scripts, ``<meta>``, ``<time>``, ``<h1>``, ``<title>``) cut from
    its UTF-8 bytes in document order: what :func:`page_evidence` and the generic metadata read,
    without parsing the page (a 300 KB page: about 0.4 ms against 3.7 ms for a whole-page parse,
    BENCHMARKS.md, crawl throughput)."""
    low = body.lower()  # ASCII only: offsets unchanged
    out, pos, n = [], 0, len(low)
    while (m := _SIGNAL_OPEN.search(low, pos)) is not None:
        name, start = m.group(1), m.start()
        gt = low.find(b">", m.end() - 1)
        if gt < 0:
            break
        closing = _SIGNAL_END.get(name)
        if closing is None:  # <meta>, <time>: their attributes are what is read
            out.append(body[start:gt + 1])
            pos = gt + 1
            continue
        end = low.find(closing, start + 4)
        if end < 0:  # unclosed: a comment or script runs to the end; a heading or title keeps its text
            end = n if name in (b"!--", b"script", b"style") else max(low.find(b"<", gt + 1), gt + 1)
        else:
            end = end + 3 if name == b"!--" else (low.find(b">", end) + 1 or n)
        if name in (b"title", b"h1") or (name == b"script" and b"ld+json" in low[start:gt]):
            out.append(body[start:end])
        pos = end
    return b"".join(out)


def signals_selector(body: bytes) -> scrapy.Selector:
    """A selector over :func:`signal_elements` of the page: the page's evidence and metadata
    without a whole-page parse."""
    return scrapy.Selector(text="<html><head>" + signal_elements(body).decode("utf-8", "replace") + "</head></html>",
                           type="html")


def page_evidence(selector, rules: dict, text: str | None = None) -> tuple[str, str]:
    """Decide article / not-article / no signal from the page itself.

    1. The site's own page type, when the profile names where it lives (``script_json``, e.g.
       Simorgh's ``__NEXT_DATA__``): a value in ``values`` is an article, a value in
       ``not_values`` is not; it is the page's main entity as its CMS declares it, so it decides
       first.  Other values are no signal.
    2. An Article-family type anywhere in the page wins: JSON-LD (:data:`ARTICLE_JSONLD_TYPES`
       plus the profile's ``jsonld_types``) or ``og:type`` (``article`` plus ``og_types``).
    3. An explicit non-article type vetoes only as the page's main entity: JSON-LD
       (:data:`NOT_ARTICLE_JSONLD_TYPES` plus ``not_jsonld_types``, see
       :func:`_main_entity_types`) or ``og:type`` (:data:`NOT_ARTICLE_OG_PREFIXES` plus
       ``not_og_types``).
    4. Anything else (``WebPage``, ``WebSite``, ``BreadcrumbList``, og:type ``website`` or
       ``text/html``, nothing at all) is no signal.

    With ``text`` given, a ``script#id`` selector is found by a regular expression on the text
    instead of on ``selector`` (which may then cover the head only).  Returns ``(verdict,
    explanation)`` with verdict in ``article`` / ``not-article`` / ``no-signal``; the explanation
    names the deciding signal and nothing page-specific, so it can be counted as a reason.
    """
    sj = rules.get("script_json")
    if sj:
        by_id = _SCRIPT_ID.fullmatch(sj["selector"].strip())
        if by_id and text is not None:  # fast path: no full parse for <script id="...">
            m = re.search(r"<script\b[^>]*\bid=[\"']?%s[\"']?[^>]*>(.*?)</script>" % re.escape(by_id.group(1)),
                          text, re.S | re.I)
            raw = m.group(1) if m else None
        else:
            raw = selector.css(f"{sj['selector']}::text").get()
        value: Any = None
        if raw:
            try:
                value = json.loads(raw)
                for key in sj["path"].split("."):
                    value = value.get(key) if isinstance(value, dict) else None
            except ValueError:
                value = None
        if isinstance(value, str) and value in sj.get("values", ()):
            return ARTICLE, f"page type {value!r}"
        if isinstance(value, str) and value in sj.get("not_values", ()):
            return NOT_ARTICLE, f"page type {value!r}"
    tops = _jsonld_nodes(selector)
    article_types = ARTICLE_JSONLD_TYPES.union(rules.get("jsonld_types", ()))
    found = [t for t in _all_types(tops) if t in article_types]
    if found:
        return ARTICLE, f"JSON-LD @type {found[0]}"
    og = (selector.css('meta[property="og:type"]::attr(content)').get() or "").strip().lower()
    if og and og in ARTICLE_OG_TYPES.union(rules.get("og_types", ())):
        return ARTICLE, f"og:type {og!r}"
    not_types = NOT_ARTICLE_JSONLD_TYPES.union(rules.get("not_jsonld_types", ()))
    main = [t for t in _main_entity_types(tops) if t in not_types]
    if main:
        return NOT_ARTICLE, f"JSON-LD main entity {main[0]}"
    if og and (og.split(".")[0] in NOT_ARTICLE_OG_PREFIXES or og in rules.get("not_og_types", ())):
        return NOT_ARTICLE, f"og:type {og!r}"
    return NO_SIGNAL, "no page-type signal"


# The text of every <h1>, the nodes the selector "h1 ::text" reads, in one step with a predicate:
# parsel compiles "h1 ::text" to ``descendant-or-self::h1/descendant-or-self::text()``, whose steps
# libxml2 merges in quadratic time (a page of 40,000 headlines took 33 s).
H1_TEXT = "descendant::text()[ancestor::h1]"


def page_metadata(selector, jsonld_types: Iterable[str] = ()) -> dict[str, Any]:
    """Title, publication date and authors from JSON-LD, then meta tags, then markup.

    ``selector`` covers the page's ``<head>`` or its signal elements (:func:`signal_elements`).
    With ``jsonld_types`` given, only JSON-LD nodes of those types (or with a ``headline``) are read."""
    title = published_raw = None
    authors: list[str] = []
    wanted = set(jsonld_types)
    for node in _jsonld_nodes(selector):
        if wanted and not wanted.intersection(_types(node)) and "headline" not in node:
            continue
        title = title or _text(node.get("headline")) or _text(node.get("name"))
        published_raw = published_raw or _text(node.get("datePublished"))
        people = node.get("author") or []
        for a in people if isinstance(people, list) else [people]:
            if isinstance(a, dict) and "Person" in _types(a):
                a = a.get("name")
            for name in a if isinstance(a, list) else [a]:  # real pages give a name as a list too
                if isinstance(name, str) and name.strip():
                    authors.append(name.strip())
        if title and published_raw:
            break
    meta = selector.css
    published_raw = published_raw or meta('meta[property="article:published_time"]::attr(content)').get() \
        or meta('meta[name="article:published_time"]::attr(content)').get() \
        or meta('meta[itemprop="datePublished"]::attr(content)').get() \
        or meta("time::attr(datetime)").get()
    title = title or meta('meta[property="og:title"]::attr(content)').get() \
        or " ".join(selector.xpath(H1_TEXT).getall()).strip() or meta("title::text").get()
    return {"title": title.strip() if isinstance(title, str) else title,
            "published_raw": published_raw.strip() if published_raw else None,
            "published": iso_date(published_raw), "authors": list(dict.fromkeys(authors))}


# Microdata (https://schema.org/docs/gs.html#microdata_how): an Article-family itemtype, or the
# articleBody property, is the page's own word that it is an article, as JSON-LD is.
# Matched on the lower-cased page (re.I over a 300 KB page costs 1.6 ms, this 0.3 ms); the type's name
# is read from the page itself at the same offsets.
_ITEMTYPE = re.compile(rb"""itemtype\s*=\s*["']?https?://schema\.org/(\w+)""")
_ARTICLE_BODY = re.compile(rb"""itemprop\s*=\s*["']?articlebody\b""")


def microdata_evidence(body: bytes) -> str | None:
    """The microdata that says the page is an article (an Article-family ``itemtype`` or
    ``itemprop=articleBody``), or None."""
    low = body.lower()
    for m in _ITEMTYPE.finditer(low):
        name = body[m.start(1):m.end(1)].decode("ascii", "replace")
        if name in ARTICLE_JSONLD_TYPES:
            return f"microdata itemtype {name}"
    if _ARTICLE_BODY.search(low):
        return "microdata itemprop articleBody"
    return None


# The extraction's own evidence for pages whose markup says "article" only weakly (og:type, microdata):
# at least this many characters in lines that end sentences.  The R2L dev pages (13 Arabic-script,
# 5 Hebrew) extract 86-7,491 such characters; the listing and home pages of the bundled fixture
# sites 0-323, so prose alone cannot tell them apart: it is a veto on top of page evidence.  Held out
# (real articles recognised by og:type or microdata alone, other languages): 1 of 71 scrapinghub_aeb,
# 1 of 60 readability_mozilla, 1 of 63 trafilatura_eval pages fall under it (docs/history.md, "Generic news spider").
MIN_PROSE_CHARS = 200
# Sentence ends: Latin, Arabic question mark, Urdu full stop, Devanagari danda, and the CJK full-width
# stop, exclamation and question marks (which need no space after them).
_SENTENCE_END = re.compile(r"[.!?\u061f\u06d4\u0964]+(?=\s|$|[\"'\u00bb\u201d)\]])|[\u3002\uff01\uff1f]")


def prose_chars(text: str) -> int:
    """Characters of ``text`` in lines with at least one sentence end (. ! ? ؟ ۔ ।)."""
    return sum(len(line) for line in text.split("\n") if _SENTENCE_END.search(line))


# -- Articles recognised from the page itself ----------------------------------------------------------
# How a candidate page came to be one, which says what its extraction must show (:func:`article_verdict`):
# an Article-family JSON-LD type (markup), og:type article or microdata alone (weak markup), or no markup
# at all (its own content).
BY_MARKUP, BY_WEAK_MARKUP, BY_CONTENT = "markup", "weak markup", "content"
# A page recognised by its own content alone shows an article's body: at least this many characters of
# punctuated prose in at least this many prose lines (paragraphs).  Chosen on the article and non-article
# pages of the dev sets (benchmarks/bench_article_evidence.py, leave one dataset out: BENCHMARKS.md).
ARTICLE_PROSE_CHARS = 500
ARTICLE_PROSE_LINES = 3
# Headline links (anchors of discovery.LINK_TEXT_WORDS words or more) between the prose lines of an
# extraction: in this many gaps, and in half the gaps or more, they make it a list of teasers (a
# listing's items, however long), not an article's body with a few links in its text.
LIST_ITEM_LINKS = 3
LIST_LINKS_PER_LINE = 0.5
# A page recognised by its URL shape alone holds at least this much text: a news flash's headline and
# more (the shortest R2L dev article, a headline-only Walla flash, extracts 55 characters), not the bare
# headline of an empty page ("about-us").  Chosen by hand on that one page: a floor, not a fit.
MIN_TEXT_CHARS = 40
# The end of a verdict refused only for want of an article at the page's URL shape (waits_for_its_shape).
NO_SHAPE_ARTICLE_YET = "at a URL shape with no article yet"
# Words of a line that place it in the page's bytes.
LOCATE_WORDS = 5
_GAP = rb"(?:\s|&nbsp;|&#160;|<[^>]*>)+"


def _locate(body: bytes, line: str, start: int = 0) -> int:
    """Offset of ``line`` (an extracted line) in the page's UTF-8 bytes from ``start``; -1 when not found."""
    import html as _html

    words = line.split()[:LOCATE_WORDS]
    if not words:
        return -1
    pattern = _GAP.join(re.escape(_html.escape(w, quote=False).encode("utf-8")) for w in words)
    m = re.compile(pattern).search(body, start)
    return m.start() if m else -1


def list_items(text: str, body: bytes, headlines: list[int]) -> int:
    """Gaps between consecutive prose lines of ``text`` (placed in the page's ``body``) that hold a headline
    link (``headlines``: their offsets), when they make a list: at least :data:`LIST_ITEM_LINKS` such gaps
    and :data:`LIST_LINKS_PER_LINE` of all gaps (a teaser, a link, a teaser ...); else 0."""
    prose = [ln for ln in text.split("\n") if _SENTENCE_END.search(ln)]
    if len(prose) <= LIST_ITEM_LINKS or len(headlines) < LIST_ITEM_LINKS:
        return 0
    # Each line at its first place after the previous one, from the body on (the head's description
    # often repeats the first sentence).
    at = [max(body.find(b"<body"), 0)]
    for line in prose:
        pos = _locate(body, line, at[-1])
        if pos >= 0:
            at.append(pos)
    at = at[1:]
    heads = sorted(headlines)
    linked = sum(1 for x, y in zip(at, at[1:]) if bisect_right(heads, x) < bisect_left(heads, y))
    gaps = len(at) - 1
    return linked if linked >= LIST_ITEM_LINKS and linked >= LIST_LINKS_PER_LINE * gaps else 0


def _in_link(body: bytes, pos: int) -> bool:
    """The text at ``pos`` of the page sits inside an ``<a>`` element."""
    seg = body[max(0, pos - 2000):pos].lower()
    return max(seg.rfind(b"<a "), seg.rfind(b"<a\n"), seg.rfind(b"<a>")) > seg.rfind(b"</a")


def link_lines(text: str, body: bytes) -> int:
    """Lines of ``text`` after its first (the headline's place) that are link texts of the page (placed
    in ``body``), when they make a list: at least :data:`LIST_ITEM_LINKS` and half of those lines or more;
    else 0."""
    lines = [ln for ln in text.split("\n") if ln.strip()][1:]
    if len(lines) < LIST_ITEM_LINKS or not body:
        return 0
    top, n = max(body.find(b"<body"), 0), 0
    for line in lines:
        pos = _locate(body, line, top)
        if pos >= 0:
            n += _in_link(body, pos)
            top = pos
    return n if n >= LIST_ITEM_LINKS and n >= LIST_LINKS_PER_LINE * len(lines) else 0


def article_verdict(by: str, text: str, page_type: str | None = None, page_type_reason: str = "",
                    body: bytes = b"", headlines: list[int] | tuple[int, ...] = (), shape_articles: int = 0,
                    shape: str = "/{n}") -> str | None:
    """Why the extraction of a candidate page says it is not an article, or None when it is one.

    1. A page type judged by the extraction (``Extraction.page_type``) other than ``article`` decides
       first: a listing, forum, service page ... is never an article, whatever led to it.
    2. Markup (an Article-family JSON-LD type): an article.  A page type ``article`` is no evidence for
       it: the extraction reads a page it is unsure of as an article (its default), so ``article``
       means "not judged otherwise", and the page's own content decides as below.
    3. Weak markup (og:type or microdata alone): :data:`MIN_PROSE_CHARS` of punctuated prose.
    4. Its own content only: a URL that names one page among many (its ``shape`` has a variable part:
       an id, a number, a slug), not a list of teasers (:func:`list_items` on the page's ``body`` and the
       offsets of its ``headlines`` links),
       and an article's body (:data:`ARTICLE_PROSE_CHARS` of prose in :data:`ARTICLE_PROSE_LINES` lines),
       or :data:`MIN_TEXT_CHARS` of text at a URL shape whose pages have been articles (``shape_articles``
       > 0: a news flash of one paragraph, a headline-only flash)."""
    if page_type is not None and page_type != "article":
        return f"page type {page_type}" + (f" ({page_type_reason})" if page_type_reason else "")
    if by == BY_MARKUP:
        return None
    n = prose_chars(text)
    if by == BY_WEAK_MARKUP:
        return None if n >= MIN_PROSE_CHARS else \
            f"og:type or microdata only, and {n} characters of punctuated prose (< {MIN_PROSE_CHARS})"
    if "{" not in shape:
        return f"no markup, and a URL of words only ({shape}): a section or service page"
    items = list_items(text, body, list(headlines))
    if items:
        return f"no markup, and a list: headline links between {items} of its prose lines"
    items = link_lines(text, body)
    if items:
        return f"no markup, and a list of links: {items} of its lines are links"
    paragraphs = sum(1 for ln in text.split("\n") if _SENTENCE_END.search(ln))
    if n >= ARTICLE_PROSE_CHARS and paragraphs >= ARTICLE_PROSE_LINES:
        return None
    if shape_articles and enough_for_its_shape(text):
        return None
    prose = f"no markup, {n} characters of punctuated prose in {paragraphs} lines (< {ARTICLE_PROSE_CHARS} in " \
        f"{ARTICLE_PROSE_LINES})"
    if shape_articles:
        return f"{prose} and {len(text.strip())} characters of text (< {MIN_TEXT_CHARS})"
    return f"{prose}, {NO_SHAPE_ARTICLE_YET}"


def enough_for_its_shape(text: str) -> bool:
    """:data:`MIN_TEXT_CHARS` of text: enough for a page at a URL shape whose pages have been articles."""
    return len(text.strip()) >= MIN_TEXT_CHARS


def waits_for_its_shape(reason: str, text: str) -> bool:
    """Whether :func:`article_verdict`'s ``reason`` is only that the page's URL shape has no article yet:
    with one, the page would be an article (a news flash among the first pages of its shape)."""
    return reason.endswith(NO_SHAPE_ARTICLE_YET) and enough_for_its_shape(text)


def recognised_by(by: str, page_type: str | None, text: str, shape_articles: int) -> str:
    """What made an ``ok`` page an article, for the crawl's summary (see :func:`article_verdict`)."""
    if by == BY_MARKUP:
        return "markup"
    if by == BY_WEAK_MARKUP:
        return "weak markup and prose"
    n = prose_chars(text)
    paragraphs = sum(1 for ln in text.split("\n") if _SENTENCE_END.search(ln))
    if n >= ARTICLE_PROSE_CHARS and paragraphs >= ARTICLE_PROSE_LINES:
        return "own content (prose)"
    return "own content and URL shape"
