"""Repeated items: the list of a listing or collection page, the posts of a thread.

A listing (home, section, tag, archive, search page) or a collection (a category grid) is a
sequence of items made from one template: siblings with the same tag and class words, each a
link, a headline, a date and a teaser.  Its main content is every item, in order.  Phases, one
function each (the page's tree and chrome: :mod:`mcecrawl.algorithms.chrome`):

1. :func:`repeated_items` — the parent whose children of one template (:func:`template`) hold the
   most words, at least :data:`MIN_ITEMS` of them: the list (or the thread, :mod:`threads`).
2. :func:`list_content` — the blocks of the content container with the chrome removed: every
   item's headline and teaser on their own lines, in page order, link text kept (an item's
   headline is a link).  The whole container, not the repeated group alone, measured better on
   wcxb_dev's listings and collections (0.691 / 0.623 against 0.676 / 0.612, gold types): a
   listing's intro and its second list of items are gold too.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from mcecrawl.algorithms import chrome

# Fewest children of one template that make a list (a pair of "previous / next" boxes is not).
MIN_ITEMS = 3


def template(el: Any) -> tuple[str, frozenset[str]]:
    """(tag, class words without digits) of an element: items of one template share it, whatever
    their number (``post-17``, ``item_3``)."""
    words = (el.get("class") or "").lower().split()
    return el.tag, frozenset(w for w in words if not any(c.isdigit() for c in w))


def repeated_items(root: Any, counts: dict[Any, int], *, min_items: int = MIN_ITEMS) -> tuple[Any, list[Any], int]:
    """Phase 1: (parent, its items, their words) of the largest group of at least ``min_items``
    sibling elements of one template; (None, [], 0) when the page has none."""
    best: tuple[Any, list[Any], int] = (None, [], 0)
    templates: dict[tuple[str, str | None], tuple[str, frozenset[str]]] = {}  # (tag, class) -> template
    for el in root.iter():
        if len(el) < min_items:
            continue
        groups: dict[tuple[str, frozenset[str]], list[Any]] = defaultdict(list)
        for child in el:
            tag = child.tag
            if isinstance(tag, str):
                key = (tag, child.get("class"))
                kind = templates.get(key)
                if kind is None:
                    kind = templates[key] = template(child)
                groups[kind].append(child)
        for items in groups.values():
            if len(items) >= min_items:
                words = sum(counts.get(i, 0) for i in items)
                if words > best[2]:
                    best = (el, items, words)
    return best


def list_content(text: str | bytes) -> list[str]:
    """Phase 2: the blocks of a listing or collection page (every item, in order), each item's own
    ``<header>``/``<footer>`` kept (:func:`mcecrawl.algorithms.chrome.strip_chrome`): wcxb_dev, gold
    types, listing 0.691 -> 0.696, collection 0.653 -> 0.656 (forum, measured alike, 0.724 -> 0.720:
    a post's header there is "Original poster", reply counts)."""
    root = chrome.content_root(text, item_parts=True)
    return [] if root is None else chrome.text_blocks(root)


__all__ = ["MIN_ITEMS", "list_content", "repeated_items", "template"]
