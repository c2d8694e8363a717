"""The frozen result every extraction algorithm returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterator, Mapping, Sequence, overload

# What an extraction can end in; the crawl's items add their own (mcecrawl.items.ITEM_STATUSES).
EXTRACTION_STATUSES = ("ok", "empty", "error")
# What kind of page an extraction was made of (WCXB's seven types, and "other"): listing covers home,
# section, tag, archive and search pages; forum covers threads, Q&A and comment pages.
PAGE_TYPES = ("article", "listing", "forum", "product", "collection", "documentation", "service", "other")


class LineCounts(Sequence[float]):
    """A per-line array of a line profile as a read-only sequence of Python numbers, converted
    when first read: most extractions are never plotted, and converting every line's three counts
    cost ~5 % of danag's CPU on wcxb_dev.  Equal to the tuple of its numbers (and to another one)."""

    __slots__ = ("_array", "_numbers")

    def __init__(self, array: Any) -> None:
        self._array = array
        self._numbers: tuple[float, ...] | None = None

    def _tuple(self) -> tuple[float, ...]:
        if self._numbers is None:
            self._numbers = tuple(self._array.tolist())
            self._array = None
        return self._numbers

    def __len__(self) -> int:
        return len(self._numbers) if self._numbers is not None else len(self._array)

    @overload
    def __getitem__(self, index: int) -> float: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[float, ...]: ...

    def __getitem__(self, index: int | slice) -> float | tuple[float, ...]:
        return self._tuple()[index]

    def __iter__(self) -> Iterator[float]:
        return iter(self._tuple())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LineCounts):
            other = other._tuple()
        return self._tuple() == other

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return repr(self._tuple())


@dataclass(frozen=True)
class Region:
    """The selected region and the line profile behind the choice (for explaining/plotting).

    ``first_line``/``last_line`` index the algorithm's lines (inclusive).  ``content`` and
    ``code`` are the per-line counts (e.g. R2L vs ASCII characters), ``smoothed`` the smoothed
    difference the region was chosen on.
    """

    first_line: int
    last_line: int
    content: Sequence[float] = ()
    code: Sequence[float] = ()
    smoothed: Sequence[float] = ()


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
