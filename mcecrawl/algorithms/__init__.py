"""Main-content extraction algorithms, free of Scrapy.

``ALGORITHMS`` maps a name to a function ``(text: str, **params) -> Extraction``;
:func:`extract` decodes bytes once (:func:`mcecrawl.encoding.decode`) and dispatches.
"""
from __future__ import annotations

from mcecrawl.algorithms.result import Extraction, Region

ALGORITHMS: dict = {}


def extract(html, *, algorithm: str = "dana", url: str | None = None, **params) -> Extraction:
    raise NotImplementedError("the extraction core (issue 2) fills this in")


__all__ = ["ALGORITHMS", "Extraction", "Region", "extract"]
