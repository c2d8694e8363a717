"""One pass over a page's UTF-8 bytes that counts what its page type shows: the reference.

The page-type judgement (:mod:`mcecrawl.algorithms.pagetype`) reads a page through :func:`scan`:
the structural tags (paragraphs, links, headlines, list items, tables, code, forms, time stamps)
with the text that follows each, the words of their class attributes, prices in that text, and the
page's runs of text.  This module is the specification, written with regular expressions over
bytes; ``_pagescan.pyx`` computes the same counts in one C loop, and
:mod:`mcecrawl.algorithms.profile_impl` picks one (identical on every dev page and on a fuzz corpus,
``tests/algorithms/test_pagescan.py``).

It reads bytes, not characters, so that a crawl's UTF-8 page is judged without being decoded:
character classes are ASCII (``\\s``, ``\\d``, a word), lengths of text are counted in characters
(the bytes that start a UTF-8 character), windows and distances in bytes.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

# The structural tags, each with its attributes and the text that follows it (up to TEXT_AFTER
# bytes: 300 characters of a two-byte script such as Arabic or Persian, 600 of ASCII, past the
# 150-character bound of a headline below, which a shorter window would blur on R2L pages).
TEXT_AFTER = 600
TAGS = ("a", "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "code", "table", "tr", "td", "th", "dt",
        "form", "input", "button", "textarea", "select", "img", "article", "time", "blockquote", "nav", "aside")
# Lengths (characters) that sort the text after a tag: a long paragraph; a link with a headline's
# text or a short (menu, tag, pager) link.  Set by reading wcxb_dev's teasers and menus; the model
# weighs what they count.
LONG_PARAGRAPH = 80
HEADLINE_MIN, HEADLINE_MAX = 25, 150
# Runs of text between two tags of at least RUN_CHARS characters (paragraphs, teasers, posts; script
# and style bodies dropped by their braces); runs at most RUN_GAP bytes of markup apart are one
# region; a LONG_RUN run is a paragraph of prose.  The best region's share of the page's text is
# what sets an article apart.
RUN_CHARS = 80
RUN_GAP = 2000
LONG_RUN = 200
# A class value repeated this often is a template (teaser cards, posts, products).
TEMPLATE_REPEAT = 8

# Words of the class attributes that are evidence of a page type (class names are written in
# English on most sites whatever their language): posts and replies, prices and carts, teaser cards,
# code highlighting. Counted once per attribute.
CLASS_WORDS = (
    "comment", "comments", "reply", "replies", "post", "posts", "thread", "topic", "message", "author", "avatar",
    "user", "username", "vote", "votes", "answer", "question", "quote", "signature", "price", "product", "products",
    "cart", "sku", "variant", "swatch", "quantity", "qty", "rating", "review", "reviews", "stock", "buy", "card",
    "cards", "item", "items", "teaser", "excerpt", "summary", "grid", "tile", "list", "listing", "archive", "feed",
    "pagination", "pager", "highlight", "hljs", "code", "syntax", "docs", "doc", "toc", "sidebar", "breadcrumb",
    "hero", "cta", "btn", "button", "feature", "features", "pricing", "plan", "testimonial", "service", "services",
    "entry", "article", "story", "news", "byline", "date", "meta", "tag", "tags", "category", "forum", "spec",
    "specs", "specification", "collection", "filter", "sort", "wishlist", "body", "content", "prose", "markdown",
)
# Literal marks of a dated, authored piece (schema.org, Open Graph, HTML ``<time>``, hAtom), counted
# anywhere in the page as ``bytes.count`` counts them.
MARKS = ("datePublished", "article:published_time", "<time", "author", "byline")
# Where the page's own markup is, if anywhere: JSON-LD types, microdata types and Open Graph's type;
# the judgement reads each from there.
ANCHORS = ('"@type"', "itemtype=", "og:type")
# Currency signs before an amount, and currency words after one.
CURRENCY_BEFORE = ("$", "€", "£", "¥", "₹", "₽")
CURRENCY_AFTER = ("€", "₽", "zł", "kr", "USD", "EUR", "GBP")


class PageScan(NamedTuple):
    """What :func:`scan` counts on a page."""

    tags: tuple[int, ...]  # occurrences of each of TAGS
    p_text: int  # characters of text after <p>
    long_p: int  # <p> followed by at least LONG_PARAGRAPH characters
    a_text: int  # characters of text after <a>
    headline_links: int  # <a> followed by HEADLINE_MIN..HEADLINE_MAX characters
    short_links: int  # <a> followed by 1..HEADLINE_MIN-1 characters
    linked_headlines: int  # <h2-4> then <a> (or <a> then <h2-4>) with no text between
    code_text: int  # characters of text after <pre> and <code>
    prices: int  # amounts with a currency in the text after the tags
    top_class_repeat: int  # occurrences of the most repeated class value
    fifth_class_repeat: int  # of the fifth most repeated (0 when fewer)
    classes_repeated: int  # class values occurring at least TEMPLATE_REPEAT times
    class_words: tuple[int, ...]  # tags whose class attribute holds each of CLASS_WORDS
    runs: int  # runs of text of at least RUN_CHARS characters
    long_runs: int  # of them, at least LONG_RUN characters
    run_chars: int  # their characters
    longest_run: int
    best_region: int  # characters of the richest region of runs
    regions: int
    marks: tuple[int, ...]  # occurrences of each of MARKS
    anchors: tuple[tuple[int, ...], ...]  # every offset of each of ANCHORS (overlapping ones too), in order


_B = {tag.encode(): i for i, tag in enumerate(TAGS)}
_TAG = re.compile(rb"<(%s)(?=[\s>/])([^>]*)>([^<]{0,%d})" % (b"|".join(t.encode() for t in TAGS), TEXT_AFTER))
_CLASS = re.compile(rb"""class=["']([^"']*)""")
_WORD = re.compile(rb"[a-z]+")
_CLASS_INDEX = {w.encode(): i for i, w in enumerate(CLASS_WORDS)}
_PRICE = re.compile(rb"(?:%s)\s?\d|\d\s?(?:%s)\b" % (b"|".join(re.escape(c.encode()) for c in CURRENCY_BEFORE),
                                                    b"|".join(re.escape(c.encode()) for c in CURRENCY_AFTER)))
_RUN = re.compile(rb">([^<]{%d,})" % RUN_CHARS)  # RUN_CHARS bytes at least; characters checked after
_CONTINUATION = bytes(range(0x80, 0xC0))  # the bytes that continue a UTF-8 character
_MARKS = tuple(m.encode() for m in MARKS)
_ANCHORS = tuple(a.encode() for a in ANCHORS)
_HEADLINES = (b"h2", b"h3", b"h4")
_CODE = (b"pre", b"code")


def chars(data: bytes) -> int:
    """Characters of UTF-8 ``data``: the bytes that do not continue a character."""
    return len(data.translate(None, _CONTINUATION))


def scan(body: bytes) -> PageScan:
    """The counts of :class:`PageScan` over the UTF-8 page ``body``."""
    tags = [0] * len(TAGS)
    class_words = [0] * len(CLASS_WORDS)
    class_values: Counter[bytes] = Counter()
    p_text = long_p = a_text = headline_links = short_links = linked_headlines = code_text = 0
    prev = b""
    prev_empty = False
    texts = []
    for tag, attrs, text in _TAG.findall(body):
        tags[_B[tag]] += 1
        n = chars(text.strip())
        if tag == b"p":
            p_text += n
            long_p += n >= LONG_PARAGRAPH
        elif tag == b"a":
            a_text += n
            if HEADLINE_MIN <= n <= HEADLINE_MAX:
                headline_links += 1
            elif 0 < n < HEADLINE_MIN:
                short_links += 1
            if prev in _HEADLINES and prev_empty:
                linked_headlines += 1
        elif tag in _HEADLINES and prev == b"a" and prev_empty:
            linked_headlines += 1
        elif tag in _CODE:
            code_text += n
        if b"class=" in attrs:
            m = _CLASS.search(attrs)
            if m and m.group(1):
                class_values[m.group(1)] += 1
        if n:
            texts.append(text)
        prev, prev_empty = tag, n == 0
    # Words of each distinct class value, counted as often as the value occurs (templates repeat
    # their class values: the same counts as reading every attribute, for a fraction of the work).
    for value, count in class_values.items():
        for w in set(_WORD.findall(value.lower())):
            i = _CLASS_INDEX.get(w)
            if i is not None:
                class_words[i] += count
    # "<" cannot be in a text: joined by it, no amount spans two texts.
    prices = len(_PRICE.findall(b"<".join(texts)))
    repeats = sorted(class_values.values(), reverse=True)
    runs = []
    for m in _RUN.finditer(body):
        t = m.group(1)
        n = chars(t)
        if n >= RUN_CHARS and b"{" not in t and b'":' not in t:
            runs.append((m.start(), len(t), n))
    best = cur = regions = 0
    end = -RUN_GAP - 1
    for start, size, n in runs:
        if start - end > RUN_GAP:
            regions += 1
            cur = 0
        cur += n
        best = max(best, cur)
        end = start + size
    return PageScan(
        tuple(tags), p_text, long_p, a_text, headline_links, short_links, linked_headlines, code_text, prices,
        repeats[0] if repeats else 0, repeats[4] if len(repeats) > 4 else 0,
        sum(1 for c in repeats if c >= TEMPLATE_REPEAT), tuple(class_words),
        len(runs), sum(1 for r in runs if r[2] >= LONG_RUN), sum(r[2] for r in runs),
        max((r[2] for r in runs), default=0),
        best, regions, tuple(body.count(m) for m in _MARKS), tuple(offsets(body, a) for a in _ANCHORS))


def offsets(body: bytes, literal: bytes) -> tuple[int, ...]:
    """Every offset of ``literal`` in ``body``, overlapping ones too (as ``find`` from one past the last)."""
    out = []
    at = body.find(literal)
    while at >= 0:
        out.append(at)
        at = body.find(literal, at + 1)
    return tuple(out)


__all__ = ["ANCHORS", "CLASS_WORDS", "MARKS", "TAGS", "PageScan", "chars", "offsets", "scan"]
