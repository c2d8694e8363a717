"""The extraction core's implementation: the compiled twins when they are built, else the reference.

:mod:`mcecrawl.algorithms.lines` is the reference of the line profile (numpy, readable, the
specification); ``_lineprofile`` (Cython, ``_lineprofile.pyx``) computes the same arrays in plain C
loops over the page's bytes.  :func:`mcecrawl.algorithms.cleaning.blocks` (the cleaning walk) and
:func:`mcecrawl.algorithms.cleaning.paragraphs` (the plain walk) are the references of the walk
over a region's tree, and :func:`mcecrawl.algorithms.chrome.chrome_walk` and
:func:`mcecrawl.algorithms.cleaning.words` those of the typed readings' chrome walk and word counts;
``_cleaning`` (Cython over lxml's public C API) walks the same trees with the same rules.
:func:`mcecrawl.algorithms.pagescan.scan` (regular expressions over bytes) is the reference of the
page-type judgement's pass; ``_pagescan`` counts the same in one C loop.  This module gives both
one interface, as msgpack-python pairs its ``_cmsgpack`` with its ``fallback``: the algorithms call
the functions below and never know which one ran.

The compiled modules are optional: a machine without a C compiler installs and runs the reference
(``setup.py`` builds them with ``optional=True``).  ``MCE_PURE_PYTHON=1`` in the environment forces
the reference; ``mcecrawl --version`` says which one is in use.  Both give identical results on
every dev page and on a fuzz corpus (``tests/algorithms/test_profile_impl.py``).
"""
from __future__ import annotations

import math
import os
from types import ModuleType
from typing import Any, Callable

import numpy as np

from mcecrawl.algorithms import cleaning as cleaning_reference
from mcecrawl.algorithms import lines as reference
from mcecrawl.algorithms import pagescan as pagescan_reference
from mcecrawl.algorithms.cleaning_words import (
    ARTICLE_MARK,
    BLOCK_TAGS,
    BOILERPLATE_TAGS,
    CLUTTER_ATTRIBUTES,
    CODE_TAGS,
    INVISIBLE_STYLE,
    LINK_BOX_TAGS,
    METADATA_ITEMPROPS,
    SKIPPED_TAGS,
    STREAMED_ID,
    WORDLESS_TAGS,
)
from mcecrawl.algorithms.lines import Lines

# Set (to anything but "" or "0") to use the numpy reference even where the compiled twin is built.
FORCE_REFERENCE_ENV = "MCE_PURE_PYTHON"
COMPILED, REFERENCE = "compiled", "reference"
IMPLEMENTATIONS = (COMPILED, REFERENCE)

compiled: ModuleType | None
try:
    from mcecrawl.algorithms import _lineprofile as compiled  # type: ignore[attr-defined,no-redef]
except ImportError:  # not built (no compiler, or a source checkout without `pip install -e .`)
    compiled = None

cleaning: ModuleType | None
try:
    from mcecrawl.algorithms import _cleaning as cleaning  # type: ignore[attr-defined,no-redef]
except ImportError:  # not built, or built against an lxml whose C API this one lacks
    cleaning = None

pagescan: ModuleType | None
try:
    from mcecrawl.algorithms import _pagescan as pagescan  # type: ignore[attr-defined,no-redef]
except ImportError:  # not built
    pagescan = None



def _all_built() -> bool:
    return compiled is not None and cleaning is not None and pagescan is not None


_use_compiled = _all_built() and os.environ.get(FORCE_REFERENCE_ENV, "") in ("", "0")


def current() -> str:
    """The implementation in use: ``"compiled"`` or ``"reference"``."""
    return COMPILED if _use_compiled else REFERENCE


def available() -> tuple[str, ...]:
    """The implementations this installation has (compiled: every compiled module is built)."""
    return (COMPILED, REFERENCE) if _all_built() else (REFERENCE,)


def use(name: str) -> None:
    """Switch the implementation (tests run every extraction on both)."""
    global _use_compiled
    if name not in available():
        raise ValueError(f"implementation {name!r} is not available here (available: {', '.join(available())})")
    _use_compiled = name == COMPILED


def describe() -> str:
    """One line for ``mcecrawl --version``."""
    if not _all_built():
        missing = " and ".join(n for n, m in (("_lineprofile", compiled), ("_cleaning", cleaning),
                                              ("_pagescan", pagescan)) if m is None)
        return f"extraction core: reference (numpy and Python; {missing} not built)"
    if not _use_compiled:
        return f"extraction core: reference (numpy and Python; forced by {FORCE_REFERENCE_ENV})"
    return "extraction core: compiled (Cython: _lineprofile, _cleaning, _pagescan)"


def _c() -> Any:
    return compiled if _use_compiled else None


def _compiled_words() -> Any:
    """The compiled word_bits, given the reference's word lists; None when it cannot read them."""
    if cleaning is None:
        return None
    try:
        cleaning.set_words(*cleaning_reference.token_rules(), cleaning_reference.word_bits)
    except ValueError:  # a word-list alternative the compiled matcher does not know: the reference answers
        return None
    return cleaning.word_bits


_word_bits = _compiled_words()


def word_bits(words: str) -> int:
    """:func:`mcecrawl.algorithms.cleaning.word_bits` (compiled: one automaton pass over the value)."""
    if _use_compiled and _word_bits is not None:
        bits: int = _word_bits(words)
        return bits
    return cleaning_reference.word_bits(words)


if cleaning is not None:  # the marks the compiled link_stats counts and the rules it answers are the reference's own
    cleaning.set_marks(cleaning_reference.SENTENCE_END_MARKS, cleaning_reference.COMMA_MARKS)
    cleaning.set_rules(
        _word_bits or cleaning_reference.word_bits, INVISIBLE_STYLE.search, ARTICLE_MARK, METADATA_ITEMPROPS,
        BOILERPLATE_TAGS, cleaning_reference.WORD_BITS, cleaning_reference.LINK_BOX_MAX_LINK_SHARE,
        cleaning_reference.CONTENT_BOX_MAX_LINK_SHARE, cleaning_reference.LINK_BOX_MAX_COMMAS,
        cleaning_reference.LINK_BOX_MIN_LINKS, cleaning_reference.NEGATIVE_BOX_MAX_LINK_SHARE, STREAMED_ID.match,
        WORDLESS_TAGS, CODE_TAGS)


def link_stats(el: Any) -> cleaning_reference.LinkStats:
    """:func:`mcecrawl.algorithms.cleaning.link_stats` (compiled: one C pass over the subtree)."""
    if _use_compiled and cleaning is not None:
        stats: cleaning_reference.LinkStats | None = cleaning.link_stats(el)
        if stats is not None:  # None: a node kind the reference reads differently
            return stats
    return cleaning_reference.link_stats(el)


def words(el: Any) -> int:
    """:func:`mcecrawl.algorithms.cleaning.words` (compiled: one C pass over the subtree's text nodes)."""
    if _use_compiled and cleaning is not None:
        n: int | None = cleaning.text_words(el)
        if n is not None:  # None: a node kind the reference reads differently
            return n
    return cleaning_reference.words(el)


def chrome_walk(body: Any, judge: Callable[[Any, bool], bool], limit: float, item_parts: bool,
                reference: Callable[..., tuple[list[list[Any]], list[Any]]]) -> tuple[list[list[Any]], list[Any]]:
    """:func:`mcecrawl.algorithms.chrome.chrome_walk`, given as ``reference`` (chrome builds on this
    module, so it hands its walk in; compiled: ``_cleaning.chrome_walk`` over libxml2's nodes)."""
    if _use_compiled and cleaning is not None:
        out: tuple[list[list[Any]], list[Any]] | None = cleaning.chrome_walk(body, judge, limit, item_parts)
        if out is not None:  # None: a node kind the compiled walk leaves to the reference
            return out
    return reference(body, judge, limit, item_parts)


def compiled_is_clutter(el: Any, tag: str) -> bool:
    """:func:`mcecrawl.algorithms.cleaning.is_clutter` with the compiled link counts (the compiled walk's callback)."""
    return cleaning_reference.is_clutter(el, tag, link_stats)


def cleaning_blocks(root: Any) -> list[str]:
    """:func:`mcecrawl.algorithms.cleaning.blocks`: a region's tree, cleaned, one block per line."""
    if _use_compiled and cleaning is not None:
        out: list[str] | None = cleaning.blocks(
            root, compiled_is_clutter, CLUTTER_ATTRIBUTES, BLOCK_TAGS, SKIPPED_TAGS, LINK_BOX_TAGS,
            cleaning_reference.TEXT_BLOCK_MAX_LINK_SHARE, decide=True)
        if out is not None:  # None: a node kind the compiled walk leaves to the reference
            return out
    return cleaning_reference.blocks(root)


_NOTHING: frozenset[str] = frozenset()


def tree_paragraphs(root: Any) -> list[str]:
    """:func:`mcecrawl.algorithms.cleaning.paragraphs`: a tree's text, one paragraph per block."""
    if _use_compiled and cleaning is not None:
        out: list[str] | None = cleaning.blocks(root, None, (), BLOCK_TAGS, _NOTHING, _NOTHING, math.inf)
        if out is not None:
            return out
    return cleaning_reference.paragraphs(root)


def page_scan(body: bytes) -> pagescan_reference.PageScan:
    """:func:`mcecrawl.algorithms.pagescan.scan` (compiled: one C loop over the bytes)."""
    if _use_compiled and pagescan is not None:
        return pagescan_reference.PageScan(*pagescan.scan(body))
    return pagescan_reference.scan(body)


def _i64(buf: bytearray) -> np.ndarray:
    return np.frombuffer(buf, dtype=np.int64)


def _i32(buf: bytearray) -> np.ndarray:
    return np.frombuffer(buf, dtype=np.int32)


def _flags(buf: bytearray) -> np.ndarray:
    return np.frombuffer(buf, dtype=np.bool_)


def utf8_error_at(data: bytes) -> int:
    """:func:`mcecrawl.algorithms.lines.utf8_error_at` (compiled: one C pass, no text built)."""
    c = _c()
    if c is None:
        return reference.utf8_error_at(data)
    at: int = c.utf8_error_at(data)
    return at


def title_meta_at(data: bytes) -> int:
    """:func:`mcecrawl.algorithms.lines.title_meta_at` (compiled: a ``memchr`` per tag, no regex)."""
    c = _c()
    if c is None:
        return reference.title_meta_at(data)
    at: int = c.title_meta_at(data)
    return at


def segment_lines(text: str | bytes, *, split: str = "tag", merge_blank: bool = True) -> Lines:
    """:func:`mcecrawl.algorithms.lines.segment_lines`."""
    c = _c()
    if c is None:
        return reference.segment_lines(text, split=split, merge_blank=merge_blank)
    if split not in reference.SPLIT_MODES:
        raise ValueError(f"split must be one of {reference.SPLIT_MODES}, not {split!r}")
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else bytes(text)
    n = len(data)
    pos = reference._index_dtype(n)
    if n == 0:
        empty = np.zeros(0, dtype=pos)
        return Lines(data, empty, empty, np.zeros(0, dtype=bool), empty, empty)
    spans = _i64(c.protected_spans(data))
    starts_b, tag_starts_b, tag_ends_b = c.segment(data, spans, split == "block", reference._BLOCK_KEYS, merge_blank)
    starts = _i64(starts_b)
    protected = _flags(c.inside(starts, spans))
    ends = np.append(starts[1:], n).astype(pos)
    return Lines(data, starts.astype(pos), ends, protected, _i64(tag_starts_b).astype(pos),
                 _i64(tag_ends_b).astype(pos))


def _counts(c: Any, lines: Lines, weight: str) -> tuple[np.ndarray, ...]:
    lead = 0xC0 if weight == "chars" else 0x80
    return tuple(_i32(b).copy() for b in c.count_lines(
        lines.data, lines.starts.astype(np.int64), lines.tag_starts.astype(np.int64),
        lines.tag_ends.astype(np.int64), lead))


def count_content_code(lines: Lines, *, weight: str = "chars") -> tuple[np.ndarray, np.ndarray]:
    """:func:`mcecrawl.algorithms.lines.count_content_code`."""
    c = _c()
    if c is None or not len(lines):
        return reference.count_content_code(lines, weight=weight)
    content, code, _, _ = _counts(c, lines, weight)
    content[lines.protected] = 0
    code[lines.protected] = 0
    return content, code


def count_ascii(lines: Lines, *, weight: str = "chars") -> np.ndarray:
    """:func:`mcecrawl.algorithms.lines.count_ascii`."""
    c = _c()
    if c is None or not len(lines):
        return reference.count_ascii(lines, weight=weight)
    _, _, ascii, other = _counts(c, lines, weight)
    return np.where(lines.protected, ascii + other, ascii)


def count_non_ascii(lines: Lines, *, weight: str = "chars") -> np.ndarray:
    """:func:`mcecrawl.algorithms.lines.count_non_ascii`."""
    c = _c()
    if c is None or not len(lines):
        return reference.count_non_ascii(lines, weight=weight)
    other = _counts(c, lines, weight)[3]
    other[lines.protected] = 0
    return other


def count_non_ascii_and_ascii(lines: Lines, *, weight: str = "chars") -> tuple[np.ndarray, np.ndarray]:
    """:func:`count_non_ascii` and :func:`count_ascii` from one counting pass (DANA needs both)."""
    c = _c()
    if c is None or not len(lines):
        return reference.count_non_ascii(lines, weight=weight), reference.count_ascii(lines, weight=weight)
    _, _, ascii, other = _counts(c, lines, weight)
    ascii = np.where(lines.protected, ascii + other, ascii)
    other[lines.protected] = 0
    return other, ascii


def count_r2l(lines: Lines, *, hebrew: bool = False, weight: str = "chars") -> np.ndarray:
    """:func:`mcecrawl.algorithms.lines.count_r2l`."""
    c = _c()
    if c is None or not len(lines):
        return reference.count_r2l(lines, hebrew=hebrew, weight=weight)
    counts = _i32(c.count_r2l(lines.data, lines.starts.astype(np.int64), hebrew, weight != "chars")).copy()
    counts[lines.protected] = 0
    return counts


def tag_keys(lines: Lines) -> tuple[np.ndarray, np.ndarray]:
    """:func:`mcecrawl.algorithms.lines.tag_keys`."""
    c = _c()
    if c is None or not len(lines.tag_starts):
        return reference.tag_keys(lines)
    keys, closing = c.tag_keys(lines.data, lines.tag_starts.astype(np.int64))
    return np.frombuffer(keys, dtype=np.uint64), _flags(closing)


def links_and_depth(lines: Lines, kept: np.ndarray, content: np.ndarray,
                    tags: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`mcecrawl.algorithms.lines.links_and_depth`."""
    c = _c()
    if c is None:
        return reference.links_and_depth(lines, kept, content, tags)
    keys, closing = tag_keys(lines) if tags is None else tags
    link, depth, open_depth, open_idx = c.links_and_depth(
        lines.starts[kept].astype(np.int64), lines.tag_starts.astype(np.int64), keys,
        closing.view(np.uint8), np.ascontiguousarray(content, dtype=np.int32), reference.A_KEY,
        reference.LINK_END_KEYS, reference.CONTAINER_KEYS)
    # As the reference: depth in the high bits (a negative depth wraps, as its int32 -> uint64 cast).
    opens = np.sort(_i64(open_depth).astype(np.uint64) << np.uint64(32)
                    | lines.tag_starts[_i64(open_idx)].astype(np.uint64))
    return _i32(link), _i32(depth).astype(np.int64), opens  # the reference's cumsum after [0] is int64


def enclosing_tags(lines: Lines, opens: np.ndarray, top: int, at: int, limit: int) -> list[tuple[int, int]]:
    """:func:`mcecrawl.algorithms.lines.enclosing_tags` (compiled: binary searches in C, no numpy
    call per region)."""
    c = _c()
    if c is None or lines.tag_starts.dtype != np.int32 or lines.tag_ends.dtype != np.int32 or opens.dtype != np.uint64:
        return reference.enclosing_tags(lines, opens, top, at, limit)
    out: list[tuple[int, int]] = c.enclosing_tags(opens, lines.tag_starts, lines.tag_ends, top, at, limit)
    return out


def count_punctuation(lines: Lines, kept: np.ndarray, content: np.ndarray) -> np.ndarray:
    """:func:`mcecrawl.algorithms.lines.count_punctuation`."""
    c = _c()
    if c is None:
        return reference.count_punctuation(lines, kept, content)
    rows, text_starts, text_ends = reference.text_spans(lines, kept, content)
    out = np.zeros(len(kept), dtype=np.int32)
    out[rows] = _i32(c.count_punctuation(lines.data, text_starts.astype(np.int64),
                                          np.maximum(text_ends, text_starts).astype(np.int64)))
    return out
