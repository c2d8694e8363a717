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
   landmarks of chrome, hidden elements (tab panels aside) and Readability's boilerplate class/id
   words (outside the content's ``<main>``/``<article>``) are dropped, unless the element holds
   :data:`CHROME_MAX_SHARE` of the page's words or more (a ``"page has-sidebar"`` wrapper around
   everything is layout, not chrome); for listings and collections an ``<article>``'s own header
   and footer stay (the item's byline and date).
4. :func:`main_container` — the page's ``<main>`` (or ``role=main``) when it holds enough of what
   is left.
5. :func:`drop_link_lists` — lists that are mostly link text (a table of contents, a "related"
   list) for the types whose content is prose (product, documentation, service).
   :func:`drop_link_buttons` — calls to action (a link or button alone in its parent) for product
   and service pages.
6. :func:`text_blocks` — one block per line (:func:`mcecrawl.algorithms.parse.tree_paragraphs`).
"""
from __future__ import annotations

import re
from typing import Any

from lxml import etree

from mcecrawl.algorithms import cleaning
from mcecrawl.algorithms.parse import DROPPED_TAGS, html_tree, tree_paragraphs

# Dropped as :func:`mcecrawl.algorithms.parse.parse_tree` drops them, except <noscript>: its
# content is what the page shows without scripts (Discourse serves whole threads only there).
PAGE_DROPPED_TAGS = tuple(t for t in DROPPED_TAGS if t != "noscript")
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
# (docs/history.md, "Page types: each type's main content"); 0.5, the middle of a flat range.
CHROME_MAX_SHARE = 0.5
# <main> is taken as the content when it holds more than this share of the page's words left
# after the chrome (a <main> around a hero banner only is not the content).
MAIN_MIN_SHARE = 0.3
# A list (:data:`LINK_LIST_TAGS`) with at least this many links and more than this share of its
# words in links is navigation inside the content (a table of contents, a "related" list).
# wcxb_dev, gold types, documentation / service: no dropping 0.913 / 0.792; lists at 0.8 or 0.95
# 0.926 / 0.793; any box (div, section, table too) at 0.8 0.913 / 0.793 (docs/history.md, "Page types:
# each type's main content").
LINK_LIST_MIN_LINKS = 3
LINK_LIST_MAX_SHARE = 0.8
LINK_LIST_TAGS = frozenset({"ul", "ol", "menu"})
# Characters libxml2 keeps in a page's text but refuses to be given back (outside XML 1.0's Char):
# the C0 controls but tab, newline and carriage return, and U+FFFE/U+FFFF.  A page's vertical tab
# in a tail moved by :func:`remove` raised ValueError before.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def page_tree(text: str | bytes) -> Any:
    """Phase 1: the page's ``<body>`` (or root) as an lxml element, or None when it is blank or
    libxml2 cannot build it (a tree cut short at libxml2's depth limit is read as far as it goes)."""
    root, _ = html_tree(text, PAGE_DROPPED_TAGS)
    if root is None:
        return None
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


# Tab panels (WAI-ARIA role ``tabpanel``, or a tab panel's class/id words): hidden until their tab
# is chosen, each panel is the page's content (a documentation page's code in every language, a
# product's description and specifications).  wcxb_dev, gold types, kept rather than dropped as
# hidden: documentation 0.926 -> 0.936, product 0.628 -> 0.631, service 0.808 -> 0.812.
TAB_PANEL = re.compile(r"tab.?pane|tab.?content", re.I)
# The content's own landmarks: inside them, class/id words are the content's parts (an
# article's "header" with its title and notes, a "sidebar-first" column), not the site's chrome;
# tags, roles and hidden elements are chrome there as anywhere.  wcxb_dev, gold types, class/id
# words ignored inside these: collection 0.638 -> 0.653, documentation 0.936 -> 0.938, product
# 0.631 -> 0.639, service 0.812 -> 0.821, forum 0.727 -> 0.724, listing 0.692 -> 0.691.
CONTENT_LANDMARKS = "descendant::main | descendant::article | descendant::*[@role='main']"


def hidden_panel(get: Any) -> bool:
    """Whether an element (``get`` reads its attributes) is a tab panel (:data:`TAB_PANEL`)."""
    return (get("role") or "").lower() == "tabpanel" or bool(
        TAB_PANEL.search(" ".join(filter(None, (get("class"), get("id"))))))


def is_chrome(el: Any, keep: re.Pattern[str] | None = None, *, in_content: bool = False) -> bool:
    """Whether an element is page chrome by its tag, role, visibility (a hidden tab panel is
    content) or class/id words; class/id words matching ``keep`` are content whatever else they
    say (a thread's "comment" posts), and so are all class/id words ``in_content`` (inside one of
    :data:`CONTENT_LANDMARKS`)."""
    tag = el.tag
    if tag in CHROME_TAGS:
        return True
    get = el.get
    if (get("role") or "").lower() in CHROME_ROLES or (cleaning.invisible(get) and not hidden_panel(get)):
        return True
    words = " ".join(filter(None, (get("class"), get("id"))))
    if in_content or not words or (keep is not None and keep.search(words)):
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


def strip_chrome(body: Any, keep: re.Pattern[str] | None = None, *, item_parts: bool = False) -> None:
    """Phase 3: drop the chrome (:func:`is_chrome`, ``keep`` as there) holding less than
    :data:`CHROME_MAX_SHARE` of the page's words, in place; with ``item_parts``, an ``<article>``'s
    own ``<header>`` and ``<footer>`` (an item's byline and date, HTML's sectioning) stay.  The walk
    does not enter what it drops, and counts the words of chrome only (the decisions do not depend
    on each other)."""
    limit = CHROME_MAX_SHARE * max(words(body), 1)
    inside = {d for landmark in body.xpath(CONTENT_LANDMARKS) for d in landmark.iterdescendants()}
    chrome = []
    walk = etree.iterwalk(body, events=("start",))
    next(walk)  # the body itself is never dropped
    for _, el in walk:
        if not (el.tag in CHROME_TAGS or el.attrib):
            continue  # no tag, role, visibility or class/id that could make it chrome
        if item_parts and el.tag in ("header", "footer") and _section_of(el) == "article":
            continue
        if is_chrome(el, keep, in_content=el in inside) and words(el) < limit:
            chrome.append(el)
            walk.skip_subtree()
    for el in chrome:
        remove(el)


def _section_of(el: Any) -> str | None:
    """The tag of ``el``'s nearest sectioning ancestor (HTML: article, aside, nav, section) or body."""
    return next((a.tag for a in el.iterancestors() if a.tag in ("article", "aside", "nav", "section", "body")), None)


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


def drop_marked(root: Any, marked: re.Pattern[str]) -> None:
    """Drop the descendants of ``root`` whose class/id words match ``marked`` and that hold less than
    :data:`CHROME_MAX_SHARE` of its words (a wrapper around everything is layout), in place."""
    limit = CHROME_MAX_SHARE * max(words(root), 1)
    for el in list(root.iterdescendants()):
        if (isinstance(el.tag, str) and el.getparent() is not None
                and marked.search(" ".join(filter(None, (el.get("class"), el.get("id")))))
                and words(el) < limit):
            remove(el)


# A link or button standing alone in its parent ("Learn more", "Read the case study", "Get a free
# audit") is a call to action, not copy, when it has at most this many words: dropped on service
# and product pages (:func:`drop_link_buttons`).  wcxb_dev, gold types, service / product /
# documentation: not dropped 0.821 / 0.639 / 0.938; 3 words 0.825 / 0.640 / 0.936; 5 words
# 0.826 / 0.640 / 0.934; 8 words 0.828 / 0.640 / 0.933; 12 words 0.827 / 0.640 (documentation
# keeps its links: its stand-alone links are the API's names).
CTA_MAX_WORDS = 8
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def drop_link_buttons(root: Any) -> None:
    """Phase 5b: drop links and buttons of at most :data:`CTA_MAX_WORDS` words whose parent holds
    no text outside its links and buttons (calls to action), headings' links aside, in place.
    Each parent is measured once (a parent of thousands of links costs one pass over them)."""
    by_parent: dict[Any, list[Any]] = {}
    for a in root.iter("a", "button"):
        parent = a.getparent()
        if parent is not None:
            by_parent.setdefault(parent, []).append(a)
    for parent, links in by_parent.items():
        if parent.tag in _HEADINGS or any(x.tag in _HEADINGS for x in parent.iterancestors()):
            continue
        own = len("".join(parent.itertext()).split())
        linked = sum(len("".join(x.itertext()).split()) for x in parent.iter("a", "button")
                     if not any(y.tag in ("a", "button") for y in _ancestors_below(x, parent)))
        if own > linked:
            continue
        for a in links:
            if len("".join(a.itertext()).split()) <= CTA_MAX_WORDS:
                remove(a)


def _ancestors_below(el: Any, top: Any) -> Any:
    """``el``'s ancestors below ``top``."""
    for a in el.iterancestors():
        if a is top:
            return
        yield a


def text_blocks(root: Any) -> list[str]:
    """Phase 6: the element's text, one block per line."""
    return tree_paragraphs(root)


def content_root(text: str | bytes, keep: re.Pattern[str] | None = None, *, item_parts: bool = False) -> Any:
    """Phases 1-4: the page's content container with the chrome removed (``keep``: class/id words
    that are content, :func:`is_chrome`), or None (blank page)."""
    body = page_tree(text)
    if body is None:
        return None
    strip_chrome(body, keep, item_parts=item_parts)
    return main_container(body)


__all__ = ["CHROME_MAX_SHARE", "CTA_MAX_WORDS", "content_root", "drop_link_buttons", "drop_link_lists", "drop_marked",
           "hidden_panel", "is_chrome", "main_container", "page_tree",
           "strip_chrome", "text_blocks", "word_counts", "words", "xml_text"]
