"""The DOM phases the DOM-based baselines share (LQF and Crunch): the tree, link quotas, pruning.

The page is parsed whole by :func:`mcecrawl.algorithms.parse.parse_tree` (lxml; scripts, styles,
the head and form widgets removed) and the kept tree read back by
:func:`mcecrawl.algorithms.parse.tree_paragraphs`.  :func:`prune_link_lists` walks the tree once,
bottom-up, counting text and link text per element and emptying the containers whose links
dominate; a container emptied is not counted in its parents, so a page's article keeps its
enclosing ``<div>`` however many link lists sat inside it (linear in the tree).
"""
from __future__ import annotations

from typing import Any, Callable

from lxml import etree

from mcecrawl.algorithms import common
from mcecrawl.algorithms.parse import parse_tree, tree_paragraphs
from mcecrawl.algorithms.result import Extraction
from mcecrawl.exceptions import MceError


class TreeError(MceError, ValueError):
    """libxml2 built no tree (a blank page, or nesting past its depth limit)."""


def page_tree(text: str) -> Any:
    """The page's tree, parsed from its UTF-8 bytes (lxml refuses a ``str`` with an XML encoding
    declaration, and the bytes' encoding is fixed, so no ``<meta charset>`` can mislead it)."""
    root = parse_tree(text.encode("utf-8", "replace"))
    if root is None:
        raise TreeError("libxml2 built no tree of the page (markup nested deeper than its depth limit); "
                        "the DOM-based method cannot see its text")
    return root


def count(text: str | None, unit: str) -> int:
    """Characters (whitespace excluded) or words of a text node."""
    if not text:
        return 0
    parts = text.split()
    return len(parts) if unit == "words" else sum(map(len, parts))


def prune_link_lists(root: Any, containers: frozenset[str], too_many_links: Callable[[int, int], bool], *,
                     unit: str = "chars") -> int:
    """Empty every container element whose (text, link text) counts make ``too_many_links`` true.

    Counts are taken bottom-up: an emptied container adds nothing to its ancestors.  Returns the
    number of containers emptied.
    """
    stack: list[list[int]] = [[0, 0]]  # per open element: [all text, link text]
    anchors = 0
    emptied = []
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            if tag == "a":
                anchors += 1
            n = count(el.text, unit)
            stack.append([n, n if anchors else 0])
            continue
        total, links = stack.pop()
        if tag == "a":
            anchors -= 1
        if tag in containers and total and too_many_links(total, links):
            emptied.append(el)
        else:
            stack[-1][0] += total
            stack[-1][1] += links
        n = count(el.tail, unit)
        stack[-1][0] += n
        stack[-1][1] += n if anchors else 0
    for el in emptied:
        el.clear(keep_tail=True)
    return len(emptied)


def run(name: str, params: dict[str, Any], text: str, prune: Callable[[Any], object]) -> Extraction:
    """Parse, prune with ``prune``, read the rest; a page without a tree is an error result."""
    try:
        root = page_tree(text)
    except TreeError as exc:
        return Extraction("", (), name, params, status="error", reason=str(exc))
    prune(root)
    return common.result(name, params, text, tree_paragraphs(root), None,
                         empty_reason="every block of the page was filtered out")
