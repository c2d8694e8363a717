"""The frozen result every extraction algorithm returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

# What an extraction can end in; the crawl's items add their own (mcecrawl.items.ITEM_STATUSES).
EXTRACTION_STATUSES = ("ok", "empty", "error")
# What kind of page an extraction was made of (WCXB's seven types, and "other"): listing covers home,
# section, tag, archive and search pages; forum covers threads, Q&A and comment pages.
PAGE_TYPES = ("article", "listing", "forum", "product", "collection", "documentation", "service", "other")


@dataclass(frozen=True)
class Region:
    """The selected region and the line profile behind the choice (for explaining/plotting).

    ``first_line``/``last_line`` index the algorithm's lines (inclusive).  ``content`` and
    ``code`` are the per-line counts (e.g. R2L vs ASCII characters), ``smoothed`` the smoothed
    difference the region was chosen on.
    """

    first_line: int
    last_line: int
    content: tuple[float, ...] = ()
    code: tuple[float, ...] = ()
    smoothed: tuple[float, ...] = ()


@dataclass(frozen=True)
class Extraction:
    """Main content of one page, or the reason there is none."""

    text: str
    paragraphs: tuple[str, ...]
    algorithm: str
    params: Mapping[str, Any] = field(default_factory=dict)
    status: str = "ok"  # "ok" | "empty" | "error"
    reason: str = ""
    title: str | None = None
    region: Region | None = None
    encoding: str | None = None  # codec the bytes were decoded with (None when given str)
    encoding_source: str | None = None  # deciding step of mcecrawl.encoding.decode
    page_type: str | None = None  # one of PAGE_TYPES; None when the page was not judged (an error, no markup)
    page_type_reason: str = ""  # the evidence that decided the page type, for people and the crawl's reasons

    def __post_init__(self) -> None:
        if self.status not in EXTRACTION_STATUSES:
            raise ValueError(f"status must be one of {EXTRACTION_STATUSES}, not {self.status!r}")
        if self.page_type is not None and self.page_type not in PAGE_TYPES:
            raise ValueError(f"page_type must be one of {PAGE_TYPES} or None, not {self.page_type!r}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        object.__setattr__(self, "paragraphs", tuple(self.paragraphs))

    @property
    def ok(self) -> bool:
        return self.status == "ok"
