"""The page without its chrome: the shared phases of the non-article page types' extraction.

A listing, a forum thread, a product, a documentation or a service page has its main content
spread over many blocks (items, posts, sections) that no single dense region of the line
profile holds; what is *not* main content there is the site's chrome: its header, navigation,
footer, sidebars, forms, hidden elements and boxes whose class/id says so.  Phases, one
function each:

1. :func:`page_tree` — the whole page parsed once (lxml), scripts and styles removed, ``<noscript>``
   kept: a page built by scripts (Discourse forums) serves its text there to readers without them.
2. :func:`word_counts` — words per element, one bottom-up pass (a thread's share test reads it);
   :func:`words` — one element's, and :func:`least_words` — a lower bound of it that libxml2
   answers at a third of the cost, enough for most share tests.
3. :func:`strip_chrome` — HTML's sectioning chrome (header, nav, footer, aside, form), ARIA
   landmarks of chrome, hidden elements (tab panels aside) and Readability's boilerplate class/id
   words (outside the content's ``<main>``/``<article>``) are dropped, unless the element holds
   :data:`CHROME_MAX_SHARE` of the page's words or more (a ``"page has-sidebar"`` wrapper around
   everything is layout, not chrome; a modal or closed dialog, :func:`overlay`, is chrome at any
   size); for listings and collections an ``<article>``'s own header and footer stay (the item's
   byline and date).  One walk, not entering the chrome it drops,
   judging each element by a per-page memo of the attributes the test reads (:func:`chrome_walk`,
   compiled over libxml2's nodes when built); the words left are kept up to date through each
   removal for phase 4.
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
from typing import Any, Callable

from lxml import etree

from mcecrawl.algorithms import cleaning
from mcecrawl.algorithms import profile_impl as profile
from mcecrawl.algorithms.parse import DROPPED_TAGS, html_tree, tree_paragraphs
from mcecrawl.textpieces import count_chars, count_words

# Dropped as :func:`mcecrawl.algorithms.parse.parse_tree` drops them, except <noscript>: its
# content is what the page shows without scripts (Discourse serves whole threads only there).
PAGE_DROPPED_TAGS = tuple(t for t in DROPPED_TAGS if t != "noscript")
# HTML sectioning elements that are page chrome (HTML §4.3: header, nav, footer, aside), forms
# (search, log-in, sign-up) and the parts of forms left where a page has no <form> around them
# (HTML §4.10: a <fieldset> groups form controls, a <label> captions one; the controls themselves
# are dropped with the page's widgets): a listing's or a collection's filter and sort panels
# ("Sort by:", "Price range", "In stock").  wcxb_dev, the two parts as chrome: 0.8434 -> 0.8441
# in-sample (collection 0.640 -> 0.649; better on 35 domains, worse on 6), most of it one site's
# filter panels (without it +0.0001); judged held out by domain 0.83938 -> 0.83943; the article
# sets unchanged (docs/history.md, "Dialogs and forms' parts are chrome").
CHROME_TAGS = frozenset({"header", "nav", "footer", "aside", "form", "fieldset", "label"})
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
            running.append(count_words(text) if text else 0)
            continue
        n = counts[el] = running.pop()
        tail = el.tail
        running[-1] += n + (count_words(tail) if tail else 0)
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
    bits = profile.word_bits(words)  # compiled: a page's many one-off ids cost no regular expression
    return cleaning.is_boilerplate(tag, words, bits) or bool(bits & cleaning.WORD_BITS["notice"])


def overlay(tag: str, role: str | None, get: Any) -> bool:
    """Whether an element (``get`` reads its attributes) is a dialog that is chrome at any size: a
    modal one (:func:`mcecrawl.algorithms.cleaning.is_modal`: the page behind it is inert while it
    shows, WAI-ARIA 1.2 §6.7; a consent manager, a sign-up form, a legal text) or an HTML
    ``<dialog>`` without ``open`` (not rendered, HTML §4.11.4).  Neither is the layout around the
    content, whatever share of the page's words it holds: a consent manager's preference centre held
    most of the words of a short thread (wcxb_dev, gold types: forum 0.765 -> 0.775, listing 0.718
    -> 0.725, service 0.833 -> 0.833; docs/history.md, "Dialogs and forms' parts are chrome")."""
    if tag == "dialog" and get("open") is None:
        return True
    return role is not None and cleaning.is_modal(role, get("aria-modal"))


def xml_text(text: str) -> str:
    """``text`` with the characters lxml refuses to set (:data:`_NOT_XML`) as spaces."""
    return _NOT_XML.sub(" ", text)


def remove(el: Any) -> int:
    """Remove ``el`` from its tree, keeping its tail (the text after it belongs to its parent);
    the change in the words of the text its tail joins (:func:`xml_text` may split a word, two
    pieces joined may merge one), its tail's own words off, for a count kept up to date."""
    parent = el.getparent()
    if parent is None:
        return 0
    tail = el.tail
    change = 0
    if tail and tail.strip():
        prev = el.getprevious()
        old = (prev.tail if prev is not None else parent.text) or ""
        new = xml_text(old + tail)
        if prev is not None:
            prev.tail = new
        else:
            parent.text = new
        change = count_words(new) - count_words(old) - count_words(tail)
    parent.remove(el)
    return change


def words(el: Any) -> int:
    """Whitespace-separated words of an element's text (its own tail not): :func:`word_counts` of
    one element, without a walk of proxies (:func:`mcecrawl.algorithms.cleaning.words`; compiled:
    one C pass over its text nodes)."""
    return profile.words(el)


def least_words(el: Any) -> int:
    """A lower bound of :func:`words`, at a third of its cost (libxml2 joins the text, no string per
    piece): the words of the element's text pieces joined with nothing between them (two pieces may
    make one word, never one piece two)."""
    return count_words(_joined_text(el))


_LANDMARK_TAGS = frozenset({"main", "article"})
_ITEM_PARTS = frozenset({"header", "footer"})
def strip_chrome(body: Any, keep: re.Pattern[str] | None = None, *, item_parts: bool = False) -> None:
    """Phase 3: drop the chrome (:func:`is_chrome`, ``keep`` as there) holding less than
    :data:`CHROME_MAX_SHARE` of the page's words, and every :func:`overlay`, in place; with
    ``item_parts``, an ``<article>``'s own ``<header>`` and ``<footer>`` (an item's byline and date,
    HTML's sectioning) stay.  The walk
    does not enter what it drops, and counts the words of chrome only (the decisions do not depend
    on each other)."""
    _strip(body, keep, item_parts)


def _strip(body: Any, keep: re.Pattern[str] | None, item_parts: bool) -> tuple[list[Any], int, Callable[[], int]]:
    """:func:`strip_chrome`'s work.  Returns the ``<main>``/``role=main`` elements left in ``body``
    in document order (:func:`main_container`'s candidates), an upper bound of the words left in
    ``body``, and a function counting them exactly: the count before, kept up to date through each
    removal (:func:`remove`), with the words of the chrome dropped counted exactly only then (most
    chrome is dropped on its characters alone: fewer than the limit's words)."""
    total = words(body)
    limit = CHROME_MAX_SHARE * max(total, 1)

    def judge(el: Any, in_content: bool) -> bool:
        return is_chrome(el, keep, in_content=in_content)

    chrome, mains = profile.chrome_walk(body, judge, limit, item_parts, reference=chrome_walk)
    total_changes = 0
    for record in chrome:
        total_changes += remove(record[0])
    most = total + total_changes - sum(r[1] if r[1] is not None else r[2] for r in chrome)

    def exact() -> int:
        return total + total_changes - sum(r[1] if r[1] is not None else words(r[0]) for r in chrome)

    return mains, most, exact


# After this many chrome elements kept as layout (each holding the limit's words or more, counted
# over its subtree), the walk counts every element's words once (:func:`word_counts`) and reads a
# kept one's there: a chain of nested chrome wrappers costs one count, not one per level (1,500
# nested <nav> around 1 MB took 1.5 s compiled).  A page keeps a few layout wrappers; the bound only
# says when one pass over the page costs less than counting again.  It changes no decision.
LAYOUT_COUNTS = 16


def chrome_walk(body: Any, judge: Callable[[Any, bool], bool], limit: float,
                item_parts: bool) -> tuple[list[list[Any]], list[Any]]:
    """The walk of :func:`strip_chrome` (the reference of the compiled ``_cleaning.chrome_walk``):
    ``body``'s descendants in document order, each judged chrome or not by ``judge(element,
    in_content)`` (``in_content``: inside a content landmark) once per distinct value of the
    attributes :func:`is_chrome` reads, not entering the chrome found; a landmark's descendants are
    walked where it stands, as in content; an :func:`overlay` is chrome without asking ``judge``.
    Returns the chrome holding fewer than ``limit`` words, and every overlay, as ``[element, its
    words or None, a lower bound of them]``, and the ``<main>``/``role=main``
    elements outside it, both in document order.  The tree is not changed."""
    memo: dict[tuple[Any, ...], bool] = {}  # the attributes is_chrome reads -> its answer
    chrome: list[list[Any]] = []
    mains: list[Any] = []
    kept = 0  # chrome elements kept as layout so far
    table: dict[Any, int] | None = None  # every element's words, from the LAYOUT_COUNTS-th on

    def walk(top: Any, in_content: bool) -> None:
        nonlocal kept, table
        it = etree.iterwalk(top, events=("start",))
        next(it)  # ``top`` itself is judged by the caller (the body never)
        for _, el in it:
            tag = el.tag
            get = el.get
            role = get("role")
            is_overlay = is_ = overlay(tag, role, get)  # chrome at any size, not asked of judge
            if not is_overlay:
                style, hidden, aria_hidden = get("style"), get("hidden"), get("aria-hidden")
                if in_content and style is None and hidden is None and aria_hidden is None:
                    key: tuple[Any, ...] = (tag, role)  # visible, in content: its class/id are not read
                else:
                    key = (tag, role, get("class"), get("id"), style, hidden, aria_hidden, in_content)
                known = memo.get(key)
                if known is None:
                    known = memo[key] = judge(el, in_content)
                is_ = known
            main = tag == "main" or role == "main"
            if is_ and not (item_parts and tag in _ITEM_PARTS and _section_of(el) == "article") \
                    and (table is None or is_overlay or table[el] < limit):
                joined = _joined_text(el)
                least = count_words(joined)
                # a word is one non-space character at least: under the limit's characters, under
                # its words; at the limit's words joined, a layout wrapper (kept: an overlay is
                # counted and dropped); between, counted
                n = (None if count_chars(joined) < limit
                     else words(el) if least < limit or is_overlay else least)
                if n is None or n < limit or is_overlay:
                    chrome.append([el, n, least])
                    it.skip_subtree()
                    continue
                kept += 1
                if kept == LAYOUT_COUNTS:
                    table = word_counts(body)
            if main:
                mains.append(el)
            if not in_content and (main or tag in _LANDMARK_TAGS):
                it.skip_subtree()
                walk(el, True)

    walk(body, False)
    return chrome, mains


def _joined_text(el: Any) -> str:
    """The element's text pieces joined with nothing between them, by libxml2 (:func:`least_words`)."""
    return etree.tostring(el, method="text", encoding=str, with_tail=False)


def _section_of(el: Any) -> str | None:
    """The tag of ``el``'s nearest sectioning ancestor (HTML: article, aside, nav, section) or body."""
    return next((a.tag for a in el.iterancestors() if a.tag in ("article", "aside", "nav", "section", "body")), None)


# One step, not the union ``descendant::main | descendant::*[@role='main']``: libxml2 merges a union's
# node sets in quadratic time (40,000 of each: 6.6 s).
_MAINS = etree.XPath("descendant::*[self::main or @role='main']")


def main_container(body: Any) -> Any:
    """Phase 4: the largest ``<main>``/``role=main`` element when it holds more than
    :data:`MAIN_MIN_SHARE` of the words left, else ``body``."""
    mains = _MAINS(body)
    if not mains:
        return body
    left = words(body)
    return _largest_main(body, mains, left, lambda: left)


def _largest_main(body: Any, mains: list[Any], most: int, left: Callable[[], int]) -> Any:
    """The first of the largest of ``mains`` (in document order) when it holds more than
    :data:`MAIN_MIN_SHARE` of the words left in ``body`` (``left()``; ``most``: an upper bound of
    them, which settles most pages with one main, from its lower bound :func:`least_words`),
    else ``body``."""
    if len(mains) == 1 and least_words(mains[0]) > MAIN_MIN_SHARE * max(most, 1):
        return mains[0]
    counts = {m: words(m) for m in mains}
    best = max(mains, key=counts.__getitem__)
    return best if counts[best] > MAIN_MIN_SHARE * max(left(), 1) else body


def drop_link_lists(root: Any) -> None:
    """Phase 5: drop lists (:data:`LINK_LIST_TAGS`) that are mostly links (at least
    :data:`LINK_LIST_MIN_LINKS`, more than :data:`LINK_LIST_MAX_SHARE` of their words), in place."""
    for el in list(root.iter(*LINK_LIST_TAGS)):
        if el.getparent() is None or cleaning.link_count(el) < LINK_LIST_MIN_LINKS:
            continue
        words = count_words("".join(el.itertext()))
        linked = count_words(" ".join(cleaning.link_texts(el)))
        if words and linked > LINK_LIST_MAX_SHARE * words:
            remove(el)


def drop_marked(root: Any, marked: re.Pattern[str]) -> None:
    """Drop the descendants of ``root`` whose class/id words match ``marked`` and that hold less than
    :data:`CHROME_MAX_SHARE` of its words (a wrapper around everything is layout), in place."""
    limit = CHROME_MAX_SHARE * max(words(root), 1)
    memo: dict[tuple[str | None, str | None], bool] = {}  # (class, id) -> marked
    found = []
    walk = etree.iterwalk(root, events=("start",))
    next(walk)  # the root itself stays
    for _, el in walk:  # what lies inside a dropped element is not judged: it goes with it
        if not isinstance(el.tag, str):
            continue
        key = (el.get("class"), el.get("id"))
        is_marked = memo.get(key)
        if is_marked is None:
            is_marked = memo[key] = bool(marked.search(" ".join(filter(None, key))))
        if is_marked and words(el) < limit:
            found.append(el)
            walk.skip_subtree()
    for el in found:  # counted first, removed after: a removal moves a tail outside the others' text
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
    under_heading: dict[Any, bool] = {}  # element -> it or an ancestor is a heading (tags never change)
    for parent, links in by_parent.items():
        if _under_heading(parent, under_heading):
            continue
        own = count_words("".join(parent.itertext()))
        linked = sum(count_words("".join(x.itertext())) for x in _outermost_links(parent))
        if own > linked:
            continue
        for a in links:
            if count_words("".join(a.itertext())) <= CTA_MAX_WORDS:
                remove(a)


def _under_heading(el: Any, memo: dict[Any, bool]) -> bool:
    """Whether ``el`` or one of its ancestors is a heading, each ancestor looked at once per page
    (``memo``).  A link dropped in between has no heading above it (it would have stayed): what
    lies below it reads the same whether its ancestors are cut there or not."""
    chain = []
    x, found = el, False
    while x is not None:
        known = memo.get(x)
        if known is not None:
            found = known
            break
        chain.append(x)
        if x.tag in _HEADINGS:
            found = True
            break
        x = x.getparent()
    for y in chain:
        memo[y] = found
    return found


_LINK_TAGS = ("a", "button")


def _outermost_links(parent: Any) -> list[Any]:
    """The links and buttons in ``parent``'s subtree with no link or button between them and
    ``parent``; ``parent`` itself too when it is one and no ancestor of it is.  Asking each link for
    its ancestors instead made a chain of nested boxes, each with a link, cost the cube of its depth
    (1,000 levels: 25 s)."""
    own = parent.tag in _LINK_TAGS and not any(a.tag in _LINK_TAGS for a in parent.iterancestors())
    return [parent] * own + list(cleaning.outermost(parent, _LINK_TAGS))


def text_blocks(root: Any) -> list[str]:
    """Phase 6: the element's text, one block per line."""
    return tree_paragraphs(root)


def content_root(text: str | bytes, keep: re.Pattern[str] | None = None, *, item_parts: bool = False) -> Any:
    """Phases 1-4: the page's content container with the chrome removed (``keep``: class/id words
    that are content, :func:`is_chrome`), or None (blank page)."""
    body = page_tree(text)
    if body is None:
        return None
    mains, most, left = _strip(body, keep, item_parts)
    return _largest_main(body, mains, most, left) if mains else body


__all__ = ["CHROME_MAX_SHARE", "CTA_MAX_WORDS", "chrome_walk", "content_root", "drop_link_buttons", "drop_link_lists",
           "drop_marked", "hidden_panel", "is_chrome", "main_container", "overlay", "page_tree",
           "strip_chrome", "text_blocks", "word_counts", "words", "least_words", "xml_text"]
