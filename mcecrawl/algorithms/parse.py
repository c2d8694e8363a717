"""Turning the selected lines into main-content text (the last phase of DANA and DANAg).

DANA slides [2]_, phase three, and DANAg [3]_ §3.4: "we feed all HTML lines determined in the
previous phase as an input to a parser.  ... the output of the parser is exactly the main
content."  The parser here is lxml (libxml2's HTML parser, which repairs the unbalanced tags a
cut-out region always has); the R2L paper's own output [1]_ (§4.1: the S1 characters of the
region) is :func:`r2l_characters`.  The page title is looked up cheaply on the whole page.

References
----------
.. [1] Mohammadzadeh, Schweiggert, Nakhaeizadeh (2011), ICSOFT. DOI 10.5220/0003508502430249.
.. [2] Mohammadzadeh, Gottron, Schweiggert, Nakhaeizadeh (2011), TIR (DANA slides).
.. [3] Mohammadzadeh, Gottron, Schweiggert, Nakhaeizadeh (2011), KDIR (DANAg).
"""
from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

import numpy as np
from lxml import etree

from mcecrawl.algorithms import profile_impl
from mcecrawl.algorithms.cleaning import collapse as collapse  # read from here too
from mcecrawl.algorithms.cleaning import collapse_whitespace, is_blank
from mcecrawl.algorithms.cleaning_words import BLOCK_TAGS as BLOCK_TAGS
from mcecrawl.algorithms.cleaning_words import DROPPED_TAGS as DROPPED_TAGS
from mcecrawl.folding import BIDI_CONTROLS

if TYPE_CHECKING:
    from mcecrawl.algorithms.lines import Lines

# Regions above this size are parsed piece by piece (cut at line starts), so libxml2's tree
# (~20x its source in memory) never holds more than this; articles are far smaller.
PARSE_CHUNK_BYTES = 2 * 1024 * 1024
# Title lookup reads this much of the page (the <head> and the top of <body> are far smaller).
TITLE_WINDOW_CHARS = 512 * 1024

# No table of id attributes (collect_ids): nothing looks an element up by its id, and building it
# costs 7 % of a page's parse (wcxb_dev's 704 non-article pages, best of 5: 1.76 -> 1.64 s).
_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, recover=True,
                           huge_tree=True, default_doctype=False, collect_ids=False)
# The same for UTF-8 bytes (a region cut from Lines.data); the encoding is fixed, so a <meta
# charset> inside the region cannot mislead it.
_BYTES_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, recover=True,
                                 huge_tree=True, default_doctype=False, encoding="utf-8", collect_ids=False)
# libxml2 stops building the tree past its depth limit (2048 with huge_tree) and says so.
_DEPTH_ERROR = "Excessive depth"

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)[^>]*>|<!--.*?-->|<![^>]*>", re.S)
_DROPPED_BODY = re.compile(r"<(script|style|noscript|template)\b.*?</\1\s*>", re.S | re.I)


def _lines_to_paragraphs(text: str) -> list[str]:
    """Collapse whitespace inside each line (ZWNJ and every letter kept); drop lines without a
    letter or digit and stray U+FEFF (a BOM pasted into the markup, not text)."""
    out = []
    for line in text.replace("\ufeff", "").split("\n"):
        line = collapse_whitespace(line)  # U+200C (ZWNJ) is not whitespace: kept
        if any(c.isalnum() for c in line):  # a lone "|" or "-" separator is not a paragraph
            out.append(line)
    return out


def _strip_tags(source: str) -> list[str]:
    """Fallback text of a region without a tree: block tags become newlines, others vanish."""
    source = _DROPPED_BODY.sub(" ", source)

    def repl(m: re.Match[str]) -> str:
        return "\n" if m.group(2) and m.group(2).lower() in BLOCK_TAGS else ""

    return _lines_to_paragraphs(html.unescape(_TAG.sub(repl, source)))


def parse_lines(lines: Lines, first: int, last: int) -> list[str]:
    """Paragraphs of lines ``first..last`` of a :class:`~mcecrawl.algorithms.lines.Lines`.

    Regions larger than :data:`PARSE_CHUNK_BYTES` are parsed in pieces cut at line starts
    (never inside a tag), keeping memory linear and small on pathological pages.
    """
    out: list[str] = []
    for start, stop in lines.pieces(first, last, PARSE_CHUNK_BYTES):
        out.extend(parse_region(lines.data[start:stop]))  # UTF-8 bytes: no str copy for libxml2
    return out


def parse_region(source: str | bytes) -> list[str]:
    """Parse the region's source lines with lxml and return its paragraphs.

    Block elements and ``<br>`` end a paragraph; scripts, styles and form widgets are dropped.
    If libxml2 gave up on the nesting depth (deeply nested markup), the paragraphs come from
    a linear tag-stripping pass instead, so no text is lost.
    """
    if is_blank(source):
        return []
    root = parse_tree(source)
    if root is None:
        return _strip_tags(source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source)
    return tree_paragraphs(root)


def tree_paragraphs(root: Any) -> list[str]:
    """Text of an lxml tree (e.g. :func:`parse_tree`'s, pruned by a DOM method), one paragraph per
    block: :func:`mcecrawl.algorithms.cleaning.paragraphs`, compiled where built (profile_impl)."""
    return profile_impl.tree_paragraphs(root)


# The R2L paper's S1 (§4.1) as a character class (the same set as lines.r2l_mask: Arabic script
# with Extended-B, U+FEFF excluded); Hebrew U+0590-05FF and U+FB1D-FB4F are added on request.
R2L_CLASS = "\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFE\u200C"
HEBREW_CLASS = "\u0590-\u05FF\uFB1D-\uFB4F"
# Bidi formatting characters (Unicode UAX #9 §2: LRM, RLM, embeddings, overrides, isolates) are
# invisible and join nothing apart: removed, so that a mark inside a word does not split it.  The
# Arabic letter mark U+061C lies in R2L_CLASS and is kept as Arabic script.  A regex: faster here
# than str.translate with a table.
_BIDI_CONTROLS = re.compile("[" + re.escape(BIDI_CONTROLS.replace("\u061c", "")) + "]")


_NOT_R2L = {False: re.compile(f"[^{R2L_CLASS}]+"), True: re.compile(f"[^{R2L_CLASS}{HEBREW_CLASS}]+")}


def r2l_characters(lines: list[str], *, hebrew: bool = False) -> list[str]:
    """R2L paper §4.1 output: the S1 characters of each line, whitespace kept between words.

    Any run of non-S1 characters becomes one space, so words stay apart and markup vanishes;
    bidi marks are dropped first.  Each item of ``lines`` gives at most one paragraph (items are
    handled one at a time: no copy of the whole region is made).
    """
    other = _NOT_R2L[bool(hebrew)]
    out: list[str] = []
    for line in lines:
        out.extend(_lines_to_paragraphs(other.sub(" ", _BIDI_CONTROLS.sub("", line))))
    return out


_META_TITLE = re.compile(
    r"""<meta\b[^>]*?\b(?:property|name)\s*=\s*["']?(?:og:title|twitter:title)["']?[^>]*>""", re.I)
_CONTENT_ATTR = re.compile(r"""\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_TITLE = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.I | re.S)
_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", re.I | re.S)
# The same patterns over a page's UTF-8 bytes (what the crawl hands the extraction: no decoding).
_BYTES = {pat: re.compile(pat.pattern.encode(), pat.flags & ~re.U) for pat in (_META_TITLE, _CONTENT_ATTR, _TITLE, _H1)}


def _search(pattern: re.Pattern[str], page: str | bytes, pos: int = 0) -> re.Match[Any] | None:
    return (_BYTES[pattern] if isinstance(page, bytes) else pattern).search(page, pos)  # type: ignore[arg-type]


def _title_window(page: str | bytes) -> str | bytes:
    """The first :data:`TITLE_WINDOW_CHARS` characters of the page (of its UTF-8 bytes: the same characters)."""
    if isinstance(page, str) or len(page) <= TITLE_WINDOW_CHARS or page[:TITLE_WINDOW_CHARS].isascii():
        return page[:TITLE_WINDOW_CHARS]  # (an ASCII start: as many characters as bytes)
    # Characters are the bytes that start one (not 10xxxxxx): counted with numpy, not decoded (9x
    # less CPU on wcxb_dev's long pages); each step adds at most the characters still missing.
    data = np.frombuffer(page, np.uint8)
    end = chars = 0
    while chars < TITLE_WINDOW_CHARS and end < len(data):
        stop = min(end + TITLE_WINDOW_CHARS - chars, len(data))
        part = data[end:stop]
        chars += len(part) - int(np.count_nonzero((part & 0xC0) == 0x80))
        end = stop
    while end < len(data) and data[end] & 0xC0 == 0x80:  # the last character whole
        end += 1
    return page[:end]


def _clean(fragment: str | bytes) -> str | None:
    if isinstance(fragment, bytes):
        fragment = fragment.decode("utf-8", "replace")
    return collapse_whitespace(html.unescape(_TAG.sub(" ", fragment))) or None


def _og_title(head: str | bytes) -> str | None:
    """og:title / twitter:title of the page's head, cleaned, or None.  On bytes the search starts where
    such a tag can (:func:`mcecrawl.algorithms.lines.title_meta_at`): a page without one is not searched
    through by the regex engine (~0.3 ms on 300 KB)."""
    at = profile_impl.title_meta_at(head) if isinstance(head, bytes) else 0
    m = _search(_META_TITLE, head, at) if at >= 0 else None
    c = _search(_CONTENT_ATTR, m.group()) if m else None
    return _clean(c.group(1) or c.group(2) or "") if c else None


def find_title(page: str | bytes) -> str | None:
    """Title of the page (``str``, or UTF-8 bytes): og:title / twitter:title, else the first
    ``<h1>``, else ``<title>``.

    The Open Graph title is the headline without the site name that ``<title>`` usually adds.
    """
    head = _title_window(page)
    og = _og_title(head)
    if og:
        return og
    for pattern in (_H1, _TITLE):
        m = _search(pattern, head)
        if m and _clean(m.group(1)):
            return _clean(m.group(1))
    return None


def depth_error(parser: Any) -> str | None:
    """libxml2's message when it stopped building a tree past its depth limit, else None."""
    return next((e.message for e in parser.error_log if _DEPTH_ERROR in e.message), None)


def html_tree(source: str | bytes, dropped: tuple[str, ...] = DROPPED_TAGS) -> tuple[Any, bool]:
    """The lxml tree of ``source`` (``str``, or UTF-8 bytes) with the ``dropped`` elements removed,
    or None when it is blank or libxml2 built nothing; and whether libxml2 stopped building it at
    its depth limit (the tree is then cut short)."""
    if is_blank(source):
        return None, False
    parser = _BYTES_PARSER if isinstance(source, bytes) else _PARSER
    try:
        root = etree.fromstring(source, parser)
    except (etree.ParserError, ValueError):
        return None, False
    if root is None:
        return None, False
    etree.strip_elements(root, *dropped, with_tail=False)
    return root, depth_error(parser) is not None


def parse_tree(source: str | bytes) -> Any:
    """The lxml tree of a region (``str``, or UTF-8 bytes) with scripts, styles and widgets
    removed, or None when it is blank or libxml2 gave up on it (nesting past its depth limit);
    :func:`parse_region` then strips tags instead."""
    root, cut_short = html_tree(source)
    return None if cut_short else root


def page_titles(page: str | bytes) -> list[str]:
    """The titles a page (``str``, or UTF-8 bytes) declares for itself: og:title / twitter:title, then ``<title>``."""
    head = _title_window(page)
    m = _search(_TITLE, head)
    return [t for t in (_og_title(head), _clean(m.group(1)) if m else None) if t]


def matches_at(pattern: re.Pattern[bytes], data: bytes, offsets: Iterable[int]) -> Iterator[re.Match[bytes]]:
    """``pattern.finditer(data)`` for a pattern that can match only where ``offsets`` (ascending) say:
    matched there rather than by the regex engine trying every position (a third of a millisecond on a
    300 KB page)."""
    end = 0
    for at in offsets:
        if at >= end:
            m = pattern.match(data, at)
            if m:
                yield m
                end = m.end()


def h1_headings(data: bytes, starts: Sequence[int] | None = None) -> list[tuple[int, str]]:
    """(byte offset, text) of every non-empty ``<h1>`` of a page's UTF-8 bytes; ``starts``: where its
    ``<h1>`` tags open, when the caller knows: read there alone."""
    pattern = _BYTES[_H1]
    found = pattern.finditer(data) if starts is None else matches_at(pattern, data, starts)
    headings = ((m.start(), _clean(m.group(1).decode("utf-8", "replace"))) for m in found)
    return [(at, text) for at, text in headings if text]
