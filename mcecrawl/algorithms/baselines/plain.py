"""Plain: all the text of the page, the lower bound of the seeds' DANAg table (Table 2, row "Plain").

Every paragraph a browser would render — the whole page fed to the parser that ends DANA and
DANAg (:func:`mcecrawl.algorithms.parse.parse_region`: scripts, styles, the head and form
widgets dropped).  Its recall is the best any method can reach; its precision shows how much of
the page is boilerplate.
"""
from __future__ import annotations

from typing import Any

from mcecrawl.algorithms import common
from mcecrawl.algorithms.parse import parse_region
from mcecrawl.algorithms.result import Extraction

NAME = "plain"


def plain(text: str, **params: Any) -> Extraction:
    """All the text of the page (no parameters)."""
    p = common.resolve_params(NAME, {}, {}, params)
    # UTF-8 bytes: lxml refuses a str with an XML encoding declaration
    return common.result(NAME, p, text, parse_region(text.encode("utf-8", "replace")), None,
                         empty_reason="the page has no text")
