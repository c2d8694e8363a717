"""The page without its chrome: the shared phases of the non-article page types' extraction.

A listing, a forum thread, a product, a documentation or a service page has its main content
spread over many blocks (items, posts, sections) that no single dense region of the line
profile holds; what is *not* main content there is the site's chrome: its header, navigation,
footer, sidebars, forms, hidden elements and boxes whose class/id says so.  Phases, one
function each:

1. :func:`page_tree` — the whole page parsed once (lxml), scripts and styles removed, ``<noscript>``
   kept: a page built by scripts (Discourse forums) serves its text there to readers without them.
2. :func:`word_counts` — words per element, one bottom-up pass (every later share test reads it).
3. :func:`strip_chrome` — HTML's sectioning chrome (header, nav, footer, aside, form), ARIA
   landmarks of chrome, hidden elements and Readability's boilerplate class/id words are dropped,
   unless the element holds :data:`CHROME_MAX_SHARE` of the page's words or more (a
   ``"page has-sidebar"`` wrapper around everything is layout, not chrome).
4. :func:`main_container` — the page's ``<main>`` (or ``role=main``) when it holds enough of what
   is left.
5. :func:`drop_link_lists` — lists that are mostly link text (a table of contents, a "related"
   list) for the types whose content is prose (product, documentation, service).
6. :func:`text_blocks` — one block per line (:func:`mcecrawl.algorithms.parse.tree_paragraphs`).
"""
from __future__ import annotations

import re
from typing import Any

from lxml import etree

from mcecrawl.algorithms import cleaning
from mcecrawl.algorithms.parse import DROPPED_TAGS, tree_paragraphs

# Dropped as :func:`mcecrawl.algorithms.parse.parse_tree` drops them, except <noscript>: its
# content is what the page shows without scripts (Discourse serves whole threads only there).
PAGE_DROPPED_TAGS = tuple(t for t in DROPPED_TAGS if t != "noscript")
_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, recover=True,
                           huge_tree=True, default_doctype=False)
_BYTES_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, recover=True,
                                 huge_tree=True, default_doctype=False, encoding="utf-8")

# HTML sectioning elements that are page chrome (HTML §4.3: header, nav, footer, aside) and forms
# (search, log-in, sign-up).
CHROME_TAGS = frozenset({"header", "nav", "footer", "aside", "form"})
# ARIA landmark and widget roles of chrome (WAI-ARIA 1.2: banner, navigation, contentinfo,
# complementary, search; menus and dialogs as Readability's UNLIKELY_ROLES).
CHROME_ROLES = frozenset({"banner", "navigation", "contentinfo", "complementary", "search", "menu", "menubar",
                          "dialog", "alertdialog", "alert"})
# An element holding at least this share of the page's words is never dropped as chrome: it is
# the layout around the content.  Measured on wcxb_dev's non-article pages with their gold types:
# 0.3 / 0.5 / 0.7 give documentation 0.908 / 0.913 / 0.910 and product 0.581 / 0.578 / 0.610
# (BENCHMARKS.md, "Page types"); 0.5, the middle of a flat range.
CHROME_MAX_SHARE = 0.5
# <main> is taken as the content when it holds more than this share of the page's words left
# after the chrome (a <main> around a hero banner only is not the content).
MAIN_MIN_SHARE = 0.3
# A list (:data:`LINK_LIST_TAGS`) with at least this many links and more than this share of its
# words in links is navigation inside the content (a table of contents, a "related" list).
# wcxb_dev, gold types, documentation / service: no dropping 0.913 / 0.792; lists at 0.8 or 0.95
# 0.926 / 0.793; any box (div, section, table too) at 0.8 0.913 / 0.793 (BENCHMARKS.md, "Page types").
LINK_LIST_MIN_LINKS = 3
LINK_LIST_MAX_SHARE = 0.8
LINK_LIST_TAGS = frozenset({"ul", "ol", "menu"})
# Characters libxml2 keeps in a page's text but refuses to be given back (outside XML 1.0's Char):
# the C0 controls but tab, newline and carriage return, and U+FFFE/U+FFFF.  A page's vertical tab
# in a tail moved by :func:`remove` raised ValueError before.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def page_tree(text: str | bytes) -> Any:
    """Phase 1: the page's ``<body>`` (or root) as an lxml element, or None when it is blank or
    libxml2 cannot build it."""
    if not text.strip():
        return None
    parser = _BYTES_PARSER if isinstance(text, bytes) else _PARSER
    try:
        root = etree.fromstring(text, parser)
    except (etree.ParserError, ValueError):
        return None
    if root is None:
        return None
    etree.strip_elements(root, *PAGE_DROPPED_TAGS, with_tail=False)
    body = root.find("body")
    return root if body is None else body


def word_counts(root: Any) -> dict[Any, int]:
    """Phase 2: whitespace-separated words of each element's text (tails of its children
    included, its own tail not), one walk with a stack of running counts."""
    counts: dict[Any, int] = {}
    running = [0]  # the words so far of each open element, innermost last
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            text = el.text
            running.append(len(text.split()) if text else 0)
            continue
        n = counts[el] = running.pop()
        tail = el.tail
        running[-1] += n + (len(tail.split()) if tail else 0)
    return counts


def is_chrome(el: Any, keep: re.Pattern[str] | None = None) -> bool:
    """Whether an element is page chrome by its tag, role, visibility or class/id words; class/id
    words matching ``keep`` are content whatever else they say (a thread's "comment" posts)."""
    tag = el.tag
    if tag in CHROME_TAGS:
        return True
    get = el.get
    if (get("role") or "").lower() in CHROME_ROLES or cleaning.invisible(get):
        return True
    words = " ".join(filter(None, (get("class"), get("id"))))
    if not words or (keep is not None and keep.search(words)):
        return False
    return cleaning.is_boilerplate(tag, words) or cleaning.word_tests(words)[3]  # NOTICES, memoised per token


def xml_text(text: str) -> str:
    """``text`` with the characters lxml refuses to set (:data:`_NOT_XML`) as spaces."""
    return _NOT_XML.sub(" ", text)


def remove(el: Any) -> None:
    """Remove ``el`` from its tree, keeping its tail (the text after it belongs to its parent)."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail and tail.strip():
        prev = el.getprevious()
        if prev is not None:
            prev.tail = xml_text((prev.tail or "") + tail)
        else:
            parent.text = xml_text((parent.text or "") + tail)
    parent.remove(el)


def words(el: Any) -> int:
    """Whitespace-separated words of an element's text (its own tail not): :func:`word_counts` of
    one element, without a walk of proxies."""
    return len(" ".join(el.itertext()).split())  # joined by a space, no word spans two pieces


def strip_chrome(body: Any, keep: re.Pattern[str] | None = None) -> None:
    """Phase 3: drop the chrome (:func:`is_chrome`, ``keep`` as there) holding less than
    :data:`CHROME_MAX_SHARE` of the page's words, in place.  The walk does not enter what it drops,
    and counts the words of chrome only (the decisions do not depend on each other)."""
    limit = CHROME_MAX_SHARE * max(words(body), 1)
    chrome = []
    walk = etree.iterwalk(body, events=("start",))
    next(walk)  # the body itself is never dropped
    for _, el in walk:
        if (el.tag in CHROME_TAGS or el.attrib) and is_chrome(el, keep) and words(el) < limit:
            chrome.append(el)
            walk.skip_subtree()
    for el in chrome:
        remove(el)


def main_container(body: Any) -> Any:
    """Phase 4: the largest ``<main>``/``role=main`` element when it holds more than
    :data:`MAIN_MIN_SHARE` of the words left, else ``body``."""
    mains = body.xpath("descendant::main | descendant::*[@role='main']")
    if not mains:
        return body
    left = {m: words(m) for m in mains}
    best = max(mains, key=left.__getitem__)
    return best if left[best] > MAIN_MIN_SHARE * max(words(body), 1) else body


def drop_link_lists(root: Any) -> None:
    """Phase 5: drop lists (:data:`LINK_LIST_TAGS`) that are mostly links (at least
    :data:`LINK_LIST_MIN_LINKS`, more than :data:`LINK_LIST_MAX_SHARE` of their words), in place."""
    for el in list(root.iter(*LINK_LIST_TAGS)):
        if el.getparent() is None or cleaning.link_count(el) < LINK_LIST_MIN_LINKS:
            continue
        text = "".join(el.itertext())
        words = len(text.split())
        linked = len(" ".join(cleaning.link_texts(el)).split())
        if words and linked > LINK_LIST_MAX_SHARE * words:
            remove(el)


def text_blocks(root: Any) -> list[str]:
    """Phase 6: the element's text, one block per line."""
    return tree_paragraphs(root)


def content_root(text: str | bytes, keep: re.Pattern[str] | None = None) -> Any:
    """Phases 1-4: the page's content container with the chrome removed (``keep``: class/id words
    that are content, :func:`is_chrome`), or None (blank page)."""
    body = page_tree(text)
    if body is None:
        return None
    strip_chrome(body, keep)
    return main_container(body)


__all__ = ["CHROME_MAX_SHARE", "content_root", "drop_link_lists", "is_chrome", "main_container", "page_tree",
           "strip_chrome", "text_blocks", "word_counts", "words", "xml_text"]
