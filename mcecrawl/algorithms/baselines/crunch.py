"""Crunch (Gupta, Kaiser, Neistadt, Grimm 2003): DOM filters for content extraction.

Crunch [1]_ runs a chain of DOM filters, each a setting of the proxy; those that change the text
of a page are kept here, each one function:

1. :func:`remove_advertisements` — links, images and frames pointing to a known ad server are
   removed (the paper compares link targets with a list of ad-server hosts; :data:`AD_SERVERS`
   lists the well-known ones).
2. :func:`remove_link_lists` — table cells, lists and layout blocks whose ratio of linked words
   to non-linked words is above ``ratio`` are removed (the paper's link list remover; it counts
   words, and its threshold is a user setting: default 1.0, links outnumber other words).  The
   paper's layout was tables; ``div``-like blocks are their modern counterpart and are included.

The paper's empty-table remover changes no text and is left out; the filters removing scripts,
styles, forms' widgets and images come with the parser (:data:`mcecrawl.algorithms.parse.DROPPED_TAGS`).

References
----------
.. [1] S. Gupta, G. Kaiser, D. Neistadt, P. Grimm (2003). DOM-based content extraction of HTML
   documents. WWW 2003, pp. 207-214.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.dom import prune_link_lists, run
from mcecrawl.algorithms.result import Extraction

NAME = "crunch"
RATIO_DEFAULT = 1.0  # linked words per non-linked word above which a block is a link list
# Hosts (and their subdomains) of ad servers: the paper's filter list, with today's big networks.
AD_SERVERS = ("doubleclick.net", "googlesyndication.com", "googleadservices.com", "adnxs.com",
              "advertising.com", "adform.net", "criteo.com", "taboola.com", "outbrain.com", "yieldmo.com")
LINK_LIST_CONTAINERS = frozenset({"table", "tbody", "thead", "tfoot", "tr", "td", "th", "ul", "ol", "li", "dl",
                                  "dd", "dt", "div", "section", "aside", "nav", "header", "footer", "menu"})
DEFAULTS: dict[str, Any] = {"ratio": RATIO_DEFAULT}


def is_ad_server(url: str | None) -> bool:
    host = (urlsplit(url.strip()).hostname or "") if url else ""
    return any(host == ad or host.endswith("." + ad) for ad in AD_SERVERS)


def remove_advertisements(root: Any) -> int:
    """Empty links, images and frames whose target is an ad server; the number emptied."""
    ads = [el for el in root.iter("a", "img", "iframe", "embed")
           if is_ad_server(el.get("href") or el.get("src"))]
    for el in ads:
        el.clear(keep_tail=True)
    return len(ads)


def remove_link_lists(root: Any, ratio: float) -> int:
    """Empty the blocks whose linked words outnumber their other words ``ratio`` to one."""
    return prune_link_lists(root, LINK_LIST_CONTAINERS, lambda total, links: links > ratio * (total - links),
                            unit="words")


def crunch(text: str, **params: Any) -> Extraction:
    """Extract the main content with Crunch's filters (``ratio`` of linked to other words)."""
    p = common.resolve_params(NAME, DEFAULTS, {}, params)

    def prune(root: Any) -> None:
        remove_advertisements(root)
        remove_link_lists(root, p["ratio"])

    return run(NAME, p, text, prune)
