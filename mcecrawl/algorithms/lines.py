"""Line segmentation of HTML source and per-line character counts (shared by R2L, DANA, DANAg).

The three papers work on *lines* of the HTML source, not on a DOM.  A line is "a sequence of
characters terminated by \\n" (R2L paper [1]_, §4.1, footnote 1), and a preprocessing step
"divide[s] a single-line HTML file ... as if each HTML tag places on one line" (ibid.).  Modern
pages are often minified into a few huge lines, so that step is essential; it is implemented
here on the UTF-8 bytes with numpy (no DOM parse, which would give up the method's speed).

Phases
------
:func:`segment_lines`
    Split the source at newlines and before tags (every tag, or only block-level tags), never
    inside comments, ``<script>``/``<style>``/``<template>``/``<textarea>`` bodies or quoted
    attribute values; the ends of tags and bodies are found as the HTML tokenizer finds them.
    Lines inside those bodies (and the ``<head>``) are flagged ``protected`` so that their text
    (e.g. JSON page data full of R2L strings) can never win a region.  Whitespace-only lines are merged into
    the line before them, so indentation and empty lines change neither the line profile nor P.
:func:`count_ascii`, :func:`count_non_ascii`, :func:`count_r2l`, :func:`count_content_code`
    Per-line counts (the papers' EPL/NEPL lengths, T1/T2 arrays), weighted in characters or in
    UTF-8 bytes.

All work is O(page size) in time and memory: a handful of numpy passes over the bytes, no loop
over lines or characters in Python (only over ``<script>``/``<style>``/comment openings).

References
----------
.. [1] H. Mohammadzadeh, F. Schweiggert, G. Nakhaeizadeh (2011). Using UTF-8 to extract main
   content of right to left language web pages. ICSOFT 2011, pp. 243-249.
   DOI 10.5220/0003508502430249.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, cast

import numpy as np

# Segmentation modes.  "tag": split before every tag, the R2L paper's literal preprocessing
# (§4.1), the default (measured better); "block": split before block-level tags only, so a
# paragraph with inline links stays one line (closer to the hand-written 2011 pages).
SPLIT_MODES = ("block", "tag")
# Weighting of line lengths: "chars" are the papers' string lengths of EPL/NEPL (§4.1);
# "bytes" weighs each UTF-8 byte, as the papers' byte-stream reading (§3.2, §4.1 step 1) allows.
WEIGHTS = ("chars", "bytes")

# Block-level (and line-breaking) elements of HTML Living Standard §15.3 "Rendering", plus the
# table/list/heading family; splitting before them makes one line per paragraph-like block.
BLOCK_TAGS = frozenset(
    b"address article aside blockquote body br center dd details dialog dir div dl dt fieldset "
    b"figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html "
    b"iframe legend li link main menu meta nav noscript ol optgroup option p pre script section "
    b"select style summary table tbody td textarea tfoot th thead title tr ul".split()
)
# Bytes of a tag name compared (one uint64): 8 tells every name above apart ("blockquo…").
_NAME_BYTES = 8
_BLOCK_KEYS = np.array(sorted({int.from_bytes(t[:8].ljust(8, b"\0"), "little") for t in BLOCK_TAGS}), dtype=np.uint64)

# Openings of the bodies that are never split and never count as content.  Their ends are
# searched case-insensitively (HTML tag names are ASCII case-insensitive).  A <template>'s content
# is inert, never rendered (HTML §4.12.3: the markup of a client-side template, "{{ post.title }}"),
# and a <textarea>'s is a form field's value (RCDATA, §13.2.5.2): parse.DROPPED_TAGS drops both, so
# the line profile does not count them as text either.
_PROTECTED_OPEN = re.compile(rb"<!--|<script\b|<style\b|<head\b|<template\b|<textarea\b", re.IGNORECASE)


def _end_tag(name: bytes) -> bytes:
    """The pattern of ``</name>``: an end tag runs to the next ">" whatever follows its name
    (WHATWG HTML §13.2.5.7-10: after whitespace or "/" the tokenizer reads attributes), so
    "</script\n<!--x-->" closes at "-->"."""
    return rb"</" + name + rb"(?:[\s/][^>]*)?>"


# The closings of the bodies :func:`_body_end` searches (the head's is :func:`_head_end`'s, the
# script's :func:`_script_end`'s).
_PROTECTED_CLOSE = {b"<!--": re.compile(rb"-->")} | {
    b"<" + name: re.compile(_end_tag(name), re.IGNORECASE) for name in (b"style", b"template", b"textarea")}
# Inside the head, a script, style or comment is its own body (WHATWG HTML §13.2.6.4.4, "in head"
# insertion mode: each switches the tokenizer to its own state), so a "</head>" in a script string
# (a popup document written from JavaScript) ends nothing: the head's end is searched after them.
_HEAD_SCAN = re.compile(_end_tag(b"head") + rb"|<!--|<script\b|<style\b", re.IGNORECASE)

_LT, _GT, _NL, _SLASH, _BANG, _EQUALS = 0x3C, 0x3E, 0x0A, 0x2F, 0x21, 0x3D
_QUOTES = (0x22, 0x27)
_ALPHA = np.zeros(256, dtype=bool)
_ALPHA[ord("A"):ord("Z") + 1] = _ALPHA[ord("a"):ord("z") + 1] = True


@dataclass(frozen=True)
class Lines:
    """The source split into lines.

    Attributes
    ----------
    data : bytes
        The page as UTF-8 bytes (line boundaries fall on ASCII bytes, so any slice
        ``data[starts[i]:ends[j]]`` decodes cleanly).
    starts, ends : numpy.ndarray
        Byte offsets of each line, ``ends[i] == starts[i + 1]``.
    protected : numpy.ndarray of bool
        The line lies in a comment, ``<script>``, ``<style>``, ``<template>``, ``<textarea>`` or
        ``<head>`` element (tags included).
    tag_starts, tag_ends : numpy.ndarray
        Byte spans ``[start, end]`` (inclusive) of every tag outside protected bodies.
    """

    data: bytes
    starts: np.ndarray
    ends: np.ndarray
    protected: np.ndarray
    tag_starts: np.ndarray
    tag_ends: np.ndarray

    def __len__(self) -> int:
        return len(self.starts)

    def source(self, first: int, last: int) -> str:
        """Source text of lines ``first..last`` (inclusive)."""
        return self.data[self.starts[first]:self.ends[last]].decode("utf-8", errors="replace")

    def pieces(self, first: int, last: int, max_bytes: int) -> list[tuple[int, int]]:
        """Byte ranges covering lines ``first..last``, cut at line starts every ``max_bytes`` or so."""
        b0, b1 = int(self.starts[first]), int(self.ends[last])
        cuts = [first]
        while b1 - int(self.starts[cuts[-1]]) > max_bytes:
            nxt = int(np.searchsorted(self.starts, int(self.starts[cuts[-1]]) + max_bytes, side="right")) - 1
            if nxt <= cuts[-1] or nxt > last:
                break
            cuts.append(nxt)
        offsets = [int(self.starts[c]) for c in cuts] + [b1]
        offsets[0] = b0
        return list(zip(offsets[:-1], offsets[1:]))


def utf8_error_at(data: bytes) -> int:
    """Where ``data`` stops being UTF-8 (the start of the first ill-formed sequence, as Python's strict
    codec reports it), or -1: the check a page passes before it is read as UTF-8 bytes
    (:func:`mcecrawl.encoding.decode`'s step 2).  The codec is the specification; the compiled twin
    answers without building the text."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return -1


# Where an og:title / twitter:title tag can start: what every match of the title search's meta pattern
# (:data:`mcecrawl.algorithms.parse._META_TITLE`) holds between its ``<meta`` and its first ``>``.
_TITLE_META = re.compile(rb"<meta\b[^>]*?(?:og|twitter):title", re.I)


def title_meta_at(data: bytes) -> int:
    """The offset of the first ``<meta`` (ASCII letters in any case, then a byte that is no word's)
    whose bytes before its next ``>`` hold ``og:title`` or ``twitter:title`` (any case), or -1.  No
    og:title / twitter:title tag starts before it, so the title search starts there (a page without
    one, searched through, costs the compiled twin a ``memchr`` per tag)."""
    m = _TITLE_META.search(data)
    return m.start() if m else -1


def protected_spans(data: bytes) -> np.ndarray:
    """Byte spans ``[start, end)`` of comments, ``<script>``/``<style>``/``<template>``/``<textarea>``
    elements and ``<head>``.

    A scan that resumes after each closing, so that ``<!--`` inside a script (or ``<script``
    inside a comment) opens nothing.  An unclosed script/style/comment runs to the end of the
    page, as in the HTML tokenizer (WHATWG HTML §13.2.5, script data state).  The head (its
    ``<title>`` and ``<meta content="...">`` often repeat the lead in R2L text) is never main
    content; its ``</head>`` is searched after the scripts, styles and comments inside it
    (:func:`_head_end`), and without one only its tag is protected.
    """
    spans = []
    pos, n = 0, len(data)
    unclosed: set[bytes] = set()  # openings whose closing tag is nowhere after the scan position
    while True:
        m = _PROTECTED_OPEN.search(data, pos)
        if m is None:
            break
        opening = m.group().lower()
        # Once a closing tag is missing after some position it is missing after every later
        # one: not searched again, so 20,000 unclosed <head> tags cost one search, not 20,000.
        if opening in unclosed:
            close = None
        elif opening == b"<head":
            close = _head_end(data, m.end())
        else:
            close = _body_end(opening, data, m.end())
        if close is None:
            unclosed.add(opening)
        if close is None and opening == b"<head":
            # No </head>: the head ends where the parser would guess; protect only the tag.
            gt = data.find(b">", m.end())
            end = n if gt < 0 else gt + 1
        else:
            end = n if close is None else close
        spans.append((m.start(), end))
        pos = end
    return np.array(spans, dtype=np.int64).reshape(-1, 2)


# A script's data after "<!--" is "escaped"; a "<script" there starts a "double escaped" part in
# which "</script>" ends nothing, up to the next "</script" or "-->" (WHATWG HTML §13.2.5.4 and
# §13.2.5.20-31: `<!-- document.write("<script src=x></script>") -->`).
_SCRIPT_DATA = re.compile(_end_tag(b"script") + rb"|<!--", re.IGNORECASE)
_SCRIPT_ESCAPED = re.compile(_end_tag(b"script") + rb"|-->|<script[\s/>]", re.IGNORECASE)
_SCRIPT_DOUBLE_ESCAPED = re.compile(rb"-->|</script[\s/>]", re.IGNORECASE)


def _script_end(data: bytes, pos: int) -> int | None:
    """End of the script's end tag at or after ``pos`` as the tokenizer finds it (escaped and
    double escaped script data, see above); None if it has none."""
    state = _SCRIPT_DATA
    while True:
        m = state.search(data, pos)
        if m is None:
            return None
        token = m.group()
        if token[:2] == b"</" and (state is not _SCRIPT_DOUBLE_ESCAPED):
            return m.end()
        if token == b"<!--":
            state, pos = _SCRIPT_ESCAPED, m.start() + 2  # "<!-->" is escaped and ended at once
        elif token == b"-->":
            state, pos = _SCRIPT_DATA, m.end()
        elif state is _SCRIPT_ESCAPED:  # "<script" + space, "/" or ">"
            state, pos = _SCRIPT_DOUBLE_ESCAPED, m.end()
        else:  # "</script" + space, "/" or ">" ends the double escaped part
            state, pos = _SCRIPT_ESCAPED, m.end()


def _head_end(data: bytes, pos: int) -> int | None:
    """End of the head's ``</head>`` at or after ``pos``, searched as the tokenizer reads the head:
    scripts, styles and comments inside it are skipped whole; None if it has none (or one of
    those bodies is unclosed: it runs to the end of the page)."""
    while True:
        m = _HEAD_SCAN.search(data, pos)
        if m is None:
            return None
        if m.group()[1:2] == b"/":
            return m.end()
        close = _body_end(m.group().lower(), data, m.end())
        if close is None:
            return None
        pos = close


def _body_end(opening: bytes, data: bytes, pos: int) -> int | None:
    """End of the comment, script or style opened by ``opening`` (lower case), searched from ``pos``."""
    if opening == b"<script":
        return _script_end(data, pos)
    found = _PROTECTED_CLOSE[opening].search(data, pos)
    return found.end() if found else None


_TAG_NAME = re.compile(rb"[^\s/>]*")
_BETWEEN_ATTRS = re.compile(rb"[\s/]*")
_ATTR_NAME = re.compile(rb"[^\s/>][^\s/>=]*\s*")  # and the whitespace after it
_SPACES = re.compile(rb"\s*")
_UNQUOTED = re.compile(rb"[^\s>]*")


def tag_end(data: bytes, lt: int) -> int:
    """Offset of the ">" that ends the tag opening at ``lt`` (``n - 1`` if none), read as the
    tokenizer reads it (WHATWG HTML §13.2.5.32-39): a ">" inside a quoted attribute value ends
    nothing, so markup held in an attribute (``data-props='{"html": "<p>…<\\/p>"}'``) is part of
    its tag, never text.  ``<!…>`` and ``</`` + non-letter (bogus comments) end at the first ">"."""
    n = len(data)
    pos = lt + 1
    if pos < n and data[pos] == _SLASH:
        pos += 1
        if pos >= n or not _ALPHA[data[pos]]:
            gt = data.find(b">", pos)
            return n - 1 if gt < 0 else gt
    elif pos < n and data[pos] == _BANG:
        gt = data.find(b">", pos)
        return n - 1 if gt < 0 else gt
    pos = _TAG_NAME.match(data, pos).end()  # type: ignore[union-attr]  # matches the empty string
    while True:
        pos = _BETWEEN_ATTRS.match(data, pos).end()  # type: ignore[union-attr]
        if pos >= n:
            return n - 1
        if data[pos] == _GT:
            return pos
        pos = _ATTR_NAME.match(data, pos).end()  # type: ignore[union-attr]
        if pos < n and data[pos] == _EQUALS:
            pos = _SPACES.match(data, pos + 1).end()  # type: ignore[union-attr]
            if pos >= n:
                return n - 1
            if data[pos] in _QUOTES:
                close = data.find(data[pos:pos + 1], pos + 1)
                if close < 0:
                    return n - 1
                pos = close + 1
            else:
                pos = _UNQUOTED.match(data, pos).end()  # type: ignore[union-attr]


def _quoted_tag_ends(data: bytes, arr: np.ndarray, tag_starts: np.ndarray, tag_ends: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Tags (ending at their first ">") with the tags inside their quoted attribute values
    dropped and their ends moved past them (:func:`tag_end`), one tokenizer pass per tag that can
    end later, in page order.

    A tag ends after its first ">" only if that ">" lies in a quoted value, opened by a quote that
    follows "=" (and whitespace) and not closed before the ">": the last quote of its kind before
    the ">".  Only the tags whose last double or single quote before their first ">" follows "="
    are read by the tokenizer (numpy finds them); every other tag ends at its first ">"."""
    if not len(tag_starts):
        return tag_starts, tag_ends
    candidate = np.zeros(len(tag_starts), dtype=bool)
    quotes = _positions(arr, _QUOTES)
    kinds = arr[quotes]
    for quote in _QUOTES:
        at = quotes[kinds == quote]
        if not len(at):
            continue
        k = np.searchsorted(at, tag_ends) - 1  # the last such quote before the tag's first ">"
        last = at[np.maximum(k, 0)]
        inside = (k >= 0) & (last > tag_starts)
        candidate[inside] |= _after_equals(arr, last[inside])
    quoted = np.flatnonzero(candidate)
    if not len(quoted):
        return tag_starts, tag_ends
    alive = np.ones(len(tag_starts), dtype=bool)
    tag_ends = tag_ends.copy()
    # One forward pass: a numpy call per tag (np.searchsorted with a Python int against int32
    # offsets casts the whole array each time) made this quadratic on pages with many such tags.
    # ``after`` only moves forward: the tags a longer tag swallows lie past it.
    count, after = len(tag_starts), 0
    for chunk in range(0, len(quoted), _TOLIST_CHUNK):  # Python ints a chunk at a time: memory stays small
        for i in quoted[chunk:chunk + _TOLIST_CHUNK].tolist():
            if not alive[i]:
                continue
            end = tag_end(data, int(tag_starts[i]))
            if end > tag_ends[i]:
                tag_ends[i] = end
                after = max(after, i + 1)
                while after < count and tag_starts[after] <= end:
                    alive[after] = False
                    after += 1
    return tag_starts[alive], tag_ends[alive]


# Indices turned into Python ints at a time by the loop above (a list of every tag's would cost
# ~36 bytes per tag, more than the page on a page of tags).
_TOLIST_CHUNK = 65536


# Whitespace bytes of a bytes regex's \s; quotes after more of them than this are read by the
# tokenizer whatever precedes them (a cheap test may only let more tags through, never fewer).
_SPACE_BYTES = np.zeros(256, dtype=bool)
_SPACE_BYTES[list(b" \t\n\r\x0b\x0c")] = True
_EQUALS_LOOKBACK = 4


def _after_equals(arr: np.ndarray, quotes: np.ndarray) -> np.ndarray:
    """Mask of the quote offsets whose previous non-whitespace byte is "=" (or that follow more
    than :data:`_EQUALS_LOOKBACK` whitespace bytes: kept, undecided)."""
    found = np.zeros(len(quotes), dtype=bool)
    open_ = np.ones(len(quotes), dtype=bool)  # only whitespace between the quote and `back` so far
    for back in range(1, _EQUALS_LOOKBACK + 1):
        at = quotes - back
        valid = at >= 0
        byte = arr[np.maximum(at, 0)]
        found |= open_ & valid & (byte == _EQUALS)
        open_ &= valid & _SPACE_BYTES[byte]
        if not open_.any():  # most quotes are decided by the byte before them
            break
    return found | open_


def _inside(positions: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """Mask of ``positions`` lying inside one of the sorted, disjoint ``spans`` [start, end)."""
    if not len(spans) or not len(positions):
        return np.zeros(len(positions), dtype=bool)
    k = np.searchsorted(spans[:, 0], positions, side="right") - 1
    return cast(np.ndarray, (k >= 0) & (positions < spans[np.maximum(k, 0), 1]))


def is_start_protected(starts: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """Mask of line starts that open or close a protected span (kept as line boundaries)."""
    if not len(spans):
        return np.zeros(len(starts), dtype=bool)
    return np.isin(starts, spans.ravel())


def _tag_name_keys(arr: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """uint64 keys (first 8 bytes, zero padded) of the lower-cased names of the tags opening at ``starts``."""
    n = len(arr)
    first = starts + 1 + (arr[np.minimum(starts + 1, n - 1)] == _SLASH)
    window = np.zeros((len(starts), _NAME_BYTES), dtype=np.uint8)
    alive = np.ones(len(starts), dtype=bool)
    for j in range(_NAME_BYTES):  # a fixed 8 passes over the tags, not a loop over the page
        col = arr[np.minimum(first + j, n - 1)] | 0x20  # ASCII lower case; digits unchanged
        alive &= _ALPHA[col] | ((col >= ord("0")) & (col <= ord("9")))
        window[:, j] = np.where(alive, col, 0)
    return window.view("<u8").ravel()


def segment_lines(text: str | bytes, *, split: str = "tag", merge_blank: bool = True) -> Lines:
    """Split an HTML source into lines, putting tags on their own lines (R2L paper §4.1).

    Parameters
    ----------
    text : str or bytes
        The page (``bytes`` must be UTF-8).
    split : {"tag", "block"}
        Split before every tag (default), or before block-level tags only.
    merge_blank : bool
        Merge whitespace-only lines into the line before them (default).

    Returns
    -------
    Lines

    Notes
    -----
    A tag opens at ``<`` followed by a letter, ``/`` or ``!`` (WHATWG HTML §13.2.5.6, tag open
    state).  A tag ends at its ``>`` outside quoted attribute values (:func:`tag_end`); a ``<``
    before the end of the previous tag is inside an attribute value and opens nothing.  Newlines
    always end a line; nothing is split inside a protected body.
    """
    if split not in SPLIT_MODES:
        raise ValueError(f"split must be one of {SPLIT_MODES}, not {split!r}")
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else bytes(text)
    n = len(data)
    arr = np.frombuffer(data, dtype=np.uint8)
    pos = _index_dtype(n)
    empty = np.zeros(0, dtype=pos)
    if n == 0:
        return Lines(data, empty, empty, np.zeros(0, dtype=bool), empty, empty)
    spans = protected_spans(data).astype(pos)

    # Tag openings: "<" + letter | "/" | "!" outside protected bodies.
    lt = _positions(arr, _LT)
    lt = lt[lt + 1 < n]
    nxt = arr[lt + 1]
    lt = lt[(_ALPHA[nxt] | (nxt == _SLASH) | (nxt == _BANG))]
    lt = lt[~_inside(lt, spans)]
    gt = _positions(arr, _GT)
    k = np.searchsorted(gt, lt)
    tag_ends = np.where(k < len(gt), gt[np.minimum(k, len(gt) - 1)] if len(gt) else 0, n - 1).astype(pos)
    # "<" inside the previous tag (an attribute value such as title="a<b") opens nothing; then
    # the tags with a quote before their first ">" are read to their real end (tag_end).
    keep = np.ones(len(lt), dtype=bool)
    keep[1:] = lt[1:] > tag_ends[:-1]
    tag_starts, tag_ends = lt[keep], tag_ends[keep]
    del lt, gt, k, keep, nxt
    tag_starts, tag_ends = _quoted_tag_ends(data, arr, tag_starts, tag_ends)

    if split == "block" and len(tag_starts):
        cuts = tag_starts[np.isin(_tag_name_keys(arr, tag_starts), _BLOCK_KEYS)]
    else:
        cuts = tag_starts
    is_start = np.zeros(n + 1, dtype=bool)  # a mask, not np.unique: O(n) and faster than sorting
    is_start[[0, n]] = True
    is_start[cuts] = is_start[_positions(arr, _NL) + 1] = is_start[spans.ravel()] = True
    starts = _positions(is_start[:n], True)
    del is_start
    if merge_blank and len(starts) > 1:
        # A whitespace-only line is trailing space of the line before it: merged, so that
        # pretty-printing (indentation, empty lines) changes neither the line profile nor P.
        solid = _sum_per_line(arr, starts, lambda chunk, _: chunk > 0x20) > 0
        solid[0] = True
        starts = starts[solid | is_start_protected(starts, spans)]
    ends = np.append(starts[1:], n).astype(pos)
    protected = _inside(starts, spans)
    return Lines(data, starts, ends, protected, tag_starts, tag_ends)


# Bytes processed per numpy pass on big pages: temporaries stay this small, whatever the page
# size (a 50 MB page must peak below 10x its size); small pages take one pass.
CHUNK_BYTES = 1 << 20


def _index_dtype(n: int) -> type[np.signedinteger[Any]]:
    """int32 offsets while they fit (half the memory of int64), else int64."""
    return np.int32 if n < 2**31 - 1 else np.int64


def _positions(arr: np.ndarray, value: int | tuple[int, int]) -> np.ndarray:
    """``np.flatnonzero(arr == value)`` (or equal to either of two values) computed chunk by
    chunk, in the offset dtype."""
    pos = _index_dtype(len(arr))

    def hits(chunk: np.ndarray) -> np.ndarray:
        if isinstance(value, tuple):
            return cast(np.ndarray, (chunk == value[0]) | (chunk == value[1]))
        return cast(np.ndarray, chunk == value)

    parts = [np.flatnonzero(hits(arr[c:c + CHUNK_BYTES])).astype(pos) + pos(c)
             for c in range(0, len(arr), CHUNK_BYTES)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=pos)


def _sum_per_line(arr: np.ndarray, starts: np.ndarray, mask_fn: Callable[[np.ndarray, int], np.ndarray]) -> np.ndarray:
    """Per line, the number of bytes where ``mask_fn(chunk, offset)`` is true (chunked, O(n)).

    Lines are grouped into chunks of about :data:`CHUNK_BYTES`; ``mask_fn`` gets the bytes of one
    chunk and its offset in the page, so no page-sized temporary exists besides the page itself.
    A chunk starts at a line start (a "<" or after a newline), never inside a UTF-8 sequence.
    """
    n = len(arr)
    out = np.zeros(len(starts), dtype=np.int32)
    if not len(starts):
        return out
    bounds = np.unique(np.searchsorted(starts, np.arange(0, n, CHUNK_BYTES), side="right") - 1)
    bounds = np.append(bounds[bounds >= 0], len(starts))
    for i, j in zip(bounds[:-1], bounds[1:]):
        b0 = int(starts[i])
        b1 = int(starts[j]) if j < len(starts) else n
        chunk = arr[b0:b1]
        mask = mask_fn(chunk, b0)
        if j - i == 1:  # one (long) line: count without the reduceat cast buffer
            out[i] = np.count_nonzero(mask)
        else:
            out[i:j] = np.add.reduceat(mask.view(np.uint8), starts[i:j] - b0, dtype=np.int32)
    return out


def _per_line(lines: Lines, mask_fn: Callable[[np.ndarray, int], np.ndarray]) -> np.ndarray:
    """Per line, the count of bytes selected by ``mask_fn(chunk_of_bytes, offset)``."""
    return _sum_per_line(_byte_array(lines), lines.starts, mask_fn)


def _byte_array(lines: Lines) -> np.ndarray:
    return np.frombuffer(lines.data, dtype=np.uint8)


def _visible_ascii(arr: np.ndarray) -> np.ndarray:
    """Mask of printable ASCII bytes 0x21-0x7E (one wrapping subtraction, no lookup table)."""
    return cast(np.ndarray, np.subtract(arr, 0x21, dtype=np.uint8) < 0x5E)


def count_ascii(lines: Lines, *, weight: str = "chars") -> np.ndarray:
    """T2 / EPL: ASCII characters per line, whitespace and control characters excluded.

    Whitespace is neither content nor code: counted as ASCII, the indentation of pretty-printed
    markup would weigh as code and the spaces between R2L words against the text (measured:
    BENCHMARKS.md).  Protected lines (comments, scripts, styles, head) count all their visible
    characters (or bytes) as code, whatever their script, so that a script's R2L strings push
    the line below the axis.
    """
    counts = _per_line(lines, lambda c, _: _visible_ascii(c))
    if lines.protected.any():
        lead = 0xC0 if weight == "chars" else 0x80
        other = _per_line(lines, lambda c, _: c >= lead)
        counts = np.where(lines.protected, counts + other, counts)
    return counts


def count_non_ascii(lines: Lines, *, weight: str = "chars") -> np.ndarray:
    """T1 / NEPL of DANA: non-ASCII characters (or UTF-8 bytes >= 128) per line; 0 if protected.

    In UTF-8 every non-ASCII character has exactly one lead byte >= 0xC0 and its continuation
    bytes lie in 0x80-0xBF (RFC 3629 §3), so characters are counted by their lead bytes.
    """
    lead = 0xC0 if weight == "chars" else 0x80
    counts = _per_line(lines, lambda c, _: c >= lead)
    counts[lines.protected] = 0
    return counts


# Lead (and second) UTF-8 bytes of the R2L paper's S1 (§4.1): the Arabic block U+0600-06FF, Arabic
# Supplement U+0750-077F, Arabic Extended-B U+0870-089F and Extended-A U+08A0-08FF (Unicode 14+
# Arabic script), Presentation Forms-A U+FB50-FDFF and -B U+FE70-FEFE (U+FEFF is the byte order
# mark, not a letter); ZWNJ U+200C inside Persian words counts with the text.  Hebrew U+0590-05FF
# and its presentation forms U+FB1D-FB4F are optional.  Must match parse.R2L_CLASS/HEBREW_CLASS.
def r2l_mask(arr: np.ndarray, *, hebrew: bool = False, weight: str = "chars") -> np.ndarray:
    """Per-byte mask of the lead bytes (``weight="chars"``) or all bytes of R2L characters."""
    n = len(arr)
    b1 = np.empty_like(arr)
    b2 = np.empty_like(arr)
    b1[:-1], b1[-1:] = arr[1:], 0
    b2[:-2], b2[-2:] = arr[2:], 0
    lead = (arr >= 0xD8) & (arr <= 0xDB)                       # U+0600-06FF
    lead |= (arr == 0xDD) & (b1 >= 0x90)                         # U+0750-077F
    lead |= (arr == 0xE0) & (((b1 == 0xA1) & (b2 >= 0xB0)) | (b1 == 0xA2) | (b1 == 0xA3))  # U+0870-08FF
    lead |= (arr == 0xEF) & (((b1 == 0xAD) & (b2 >= 0x90)) | ((b1 >= 0xAE) & (b1 <= 0xB7)))  # FB50-FDFF
    lead |= (arr == 0xEF) & (((b1 == 0xB9) & (b2 >= 0xB0)) | (b1 == 0xBA) | ((b1 == 0xBB) & (b2 != 0xBF)))  # FE70-FEFE
    lead |= (arr == 0xE2) & (b1 == 0x80) & (b2 == 0x8C)         # ZWNJ U+200C
    if hebrew:
        lead |= ((arr == 0xD6) & (b1 >= 0x90)) | (arr == 0xD7)  # U+0590-05FF
        lead |= (arr == 0xEF) & (((b1 == 0xAC) & (b2 >= 0x9D)) | ((b1 == 0xAD) & (b2 < 0x90)))  # FB1D-FB4F
    if weight == "chars" or n == 0:
        return lead
    # Widen each lead to its whole sequence: 2 bytes below 0xE0, 3 bytes for 0xE0-0xEF leads; only
    # over continuation bytes (0x80-0xBF), so a cut sequence ends at the next other byte and never
    # reaches past a line start ("<", or after "\n"): per line, whatever the chunking.
    cont = (arr >= 0x80) & (arr <= 0xBF)
    full = lead.copy()
    second = lead[:-1] & cont[1:]
    full[1:] |= second
    three = lead & (arr >= 0xE0)
    full[2:] |= three[:-2] & cont[1:-1] & cont[2:]
    return full


def count_r2l(lines: Lines, *, hebrew: bool = False, weight: str = "chars") -> np.ndarray:
    """NEPL of the R2L paper (set S1, §4.1 step 1): R2L characters per line; 0 if protected."""
    if not len(lines):
        return np.zeros(0, dtype=np.int64)
    counts = _per_line(lines, lambda c, _: r2l_mask(c, hebrew=hebrew, weight=weight))
    counts[lines.protected] = 0
    return counts


def count_total(lines: Lines, *, weight: str = "chars") -> np.ndarray:
    """Visible characters (or bytes) per line: printable ASCII plus non-ASCII."""
    return _per_line(lines, lambda c, _: _counted(c, weight))


def _counted(chunk: np.ndarray, weight: str) -> np.ndarray:
    """Bytes that count as one unit: printable ASCII plus UTF-8 leads (chars) or all >= 0x80 (bytes)."""
    return _visible_ascii(chunk) | (chunk >= (0xC0 if weight == "chars" else 0x80))


def count_content_code(lines: Lines, *, weight: str = "chars") -> tuple[np.ndarray, np.ndarray]:
    """DANAg phase 1 (§3.1): characters of content and of code per line.

    Content is the text between tags (the parser's text tokens, located in their lines), code
    the markup of the tags; whitespace counts as neither.  Protected lines (comments, scripts,
    styles, head) were removed by DANAg's preprocessing (§3): both counts are 0 there.

    Returns
    -------
    content, code : numpy.ndarray

    Notes
    -----
    One pass over the bytes: the page is cut at every line start, tag start and tag end into
    pieces that lie wholly inside or outside one tag and one line; each piece's characters are
    counted once and summed per line, as code when the piece is inside a tag.
    """
    if not len(lines):
        z = np.zeros(0, dtype=np.int32)
        return z, z
    arr = _byte_array(lines)
    tag_starts, after_tags = lines.tag_starts, lines.tag_ends + 1
    cuts = np.sort(np.concatenate((lines.starts, tag_starts, after_tags[after_tags < len(arr)])))
    cuts = cuts[np.concatenate(([True], cuts[1:] != cuts[:-1]))]
    chars = _sum_per_line(arr, cuts, lambda c, _: _counted(c, weight))
    if len(tag_starts):
        k = np.searchsorted(tag_starts, cuts, side="right") - 1  # the last tag opened at or before the cut
        in_tag = (k >= 0) & (after_tags[np.maximum(k, 0)] > cuts)
        code_chars = np.where(in_tag, chars, 0)
    else:
        code_chars = np.zeros_like(chars)
    first = np.searchsorted(cuts, lines.starts)  # every line start is a cut: its first piece
    code = np.add.reduceat(code_chars, first).astype(np.int32)
    content = np.add.reduceat(chars, first).astype(np.int32) - code
    code[lines.protected] = 0
    content[lines.protected] = 0
    return content, code


def block_starts(lines: Lines) -> np.ndarray:
    """Mask of the lines that begin with a block-level tag (opening or closing, e.g. ``<p``, ``</div``)."""
    arr = _byte_array(lines)
    if not len(lines):
        return np.zeros(0, dtype=bool)
    at_tag = arr[lines.starts] == _LT
    keys = _tag_name_keys(arr, lines.starts[at_tag])
    out = np.zeros(len(lines), dtype=bool)
    out[np.flatnonzero(at_tag)] = np.isin(keys, _BLOCK_KEYS)
    return out


def name_key(name: bytes) -> int:
    """The key :func:`tag_keys` gives a tag called ``name`` (lower case ASCII)."""
    return int.from_bytes(name[:_NAME_BYTES].lower().ljust(_NAME_BYTES, b"\0"), "little")


def tag_keys(lines: Lines) -> tuple[np.ndarray, np.ndarray]:
    """Per tag of ``lines.tag_starts``: its name key (:func:`name_key`) and whether it closes."""
    arr = _byte_array(lines)
    if not len(lines.tag_starts):
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=bool)
    closing = arr[np.minimum(lines.tag_starts + 1, len(arr) - 1)] == _SLASH
    return _tag_name_keys(arr, lines.tag_starts), closing


# ---------------------------------------------------------------------------------------------
# Per-line features of scored_regions' line profile (mcecrawl.algorithms.scored_regions, phase 1)

# Containers that always have an end tag (HTML §13.1.2.4 lists p, li, td… as optional); depth
# counted over these alone stays right on pages that leave optional end tags out.
CONTAINER_TAGS = frozenset({"div", "section", "article", "main", "aside", "nav", "header", "footer", "ul", "ol",
                            "table", "form", "figure", "body"})

# Sentence punctuation, as UTF-8 byte sequences: the marks that end a sentence (ASCII . ! ?;
# Arabic question mark U+061F, Urdu full stop U+06D4, Devanagari danda U+0964, CJK full stop and
# full-width exclamation and question marks U+3002, FF01, FF1F) and those inside one (ASCII comma;
# Arabic comma and semicolon U+060C, 061B; full-width comma U+FF0C).
SENTENCE_ENDS = tuple(m.encode() for m in (".", "!", "?", "\u061f", "\u06d4", "\u0964", "\u3002", "\uff01", "\uff1f"))
CLAUSE_MARKS = tuple(m.encode() for m in (",", "\u060c", "\u061b", "\uff0c"))
PUNCTUATION = SENTENCE_ENDS + CLAUSE_MARKS


CONTAINER_KEYS = np.array(sorted(name_key(t.encode()) for t in CONTAINER_TAGS), dtype=np.uint64)
A_KEY = name_key(b"a")
# Closing tags that end an unclosed link: the paragraph-like blocks (HTML §15.3.3 block boxes).
LINK_END_KEYS = np.array(sorted(name_key(t.encode()) for t in (
    "p", "div", "li", "td", "th", "tr", "table", "ul", "ol", "dl", "dd", "dt", "section", "article", "h1", "h2",
    "h3", "h4", "h5", "h6", "blockquote", "header", "footer", "aside", "nav", "main", "form")), dtype=np.uint64)
_PUNCT_FIRST = np.zeros(256, dtype=bool)
_PUNCT_FIRST[[m[0] for m in PUNCTUATION]] = True
_PUNCT_ASCII = np.zeros(256, dtype=bool)
_PUNCT_ASCII[[m[0] for m in PUNCTUATION if len(m) == 1]] = True
_PUNCT_KEYS2 = np.array([m[0] << 8 | m[1] for m in PUNCTUATION if len(m) == 2], dtype=np.uint32)
_PUNCT_KEYS3 = np.array([m[0] << 16 | m[1] << 8 | m[2] for m in PUNCTUATION if len(m) == 3], dtype=np.uint32)


def links_and_depth(lines: Lines, kept: np.ndarray, content: np.ndarray,
                    tags: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per kept line, its content characters inside a link and its container depth; and every
    container opening as one sorted ``depth << 32 | byte offset`` key.  ``tags``: :func:`tag_keys`
    of ``lines`` when the caller has them.

    Returns
    -------
    link, depth, opens : numpy.ndarray
    """
    starts = lines.starts[kept]
    keys, closing = tag_keys(lines) if tags is None else tags
    tag_starts = lines.tag_starts

    # Link text: a line's text follows the tag at its start, so it is link text when the last
    # <a>, </a> or closing block tag before that start is an <a>.  Links do not nest (an <a>
    # start tag closes an open one, HTML §13.2.6.4.7) and an unclosed one ends with its block
    # (as a cell or paragraph end closes it in a browser), so one <a name> cannot spread.
    at = np.searchsorted(tag_starts, starts, side="right").astype(np.int32)
    ends_link = np.flatnonzero((keys == A_KEY) | (closing & np.isin(keys, LINK_END_KEYS)))
    last = np.searchsorted(ends_link, at, side="left") - 1  # among the first `at` tags
    if len(ends_link):
        tag = ends_link[np.maximum(last, 0)]
        in_link = (last >= 0) & (keys[tag] == A_KEY) & ~closing[tag]
        del tag
    else:
        in_link = np.zeros(len(starts), dtype=bool)
    del ends_link, last
    link = np.where(in_link, content, 0).astype(np.int32)
    del in_link

    # Container depth, over the container tags only; the openings sorted by (depth, offset) so
    # that the container around any line at any depth is one binary search (containers()).
    is_box = np.isin(keys, CONTAINER_KEYS)
    box_delta = np.where(is_box, np.where(closing, -1, 1), 0).astype(np.int8)
    box_depth = np.concatenate(([0], np.cumsum(box_delta, dtype=np.int32)))
    del box_delta
    depth = box_depth[at]
    open_idx = np.flatnonzero(is_box & ~closing)
    open_depth = box_depth[open_idx + 1]
    # One sorted key per opening, depth in the high bits and offset in the low ones: the
    # container at depth d around offset x is the last key <= (d, x) (one vectorised search).
    opens = np.sort(open_depth.astype(np.uint64) << np.uint64(32) | tag_starts[open_idx].astype(np.uint64))
    del keys, closing, is_box, box_depth, open_idx, open_depth, at

    return link, depth, opens


def enclosing_tags(lines: Lines, opens: np.ndarray, top: int, at: int, limit: int) -> list[tuple[int, int]]:
    """(start, end) byte offsets of the opening tags of the containers around byte ``at``, which
    lies at container depth ``top``, innermost first; at most ``limit`` of them.  ``opens`` are the
    sorted ``depth << 32 | offset`` keys of :func:`links_and_depth`: the container at depth d is
    the last key <= (d, at), when its depth is d."""
    depths = np.arange(top, max(top - limit, 0), -1, dtype=np.uint64)
    if not len(depths) or not len(opens):
        return []
    i = np.searchsorted(opens, depths << np.uint64(32) | np.uint64(at), side="right") - 1
    ok = i >= 0
    found = opens[i[ok]]
    found = found[(found >> np.uint64(32)) == depths[ok]] & np.uint64(0xFFFFFFFF)
    ends = lines.tag_ends[np.searchsorted(lines.tag_starts, found)]
    return [(int(s), int(e)) for s, e in zip(found, ends)]


def count_punctuation(lines: Lines, kept: np.ndarray, content: np.ndarray) -> np.ndarray:
    """Sentence punctuation in the text of each kept line (after the tag it starts with, R2L
    §4.1).  Only the text of lines with content is read, chunk by chunk: a table lookup finds the
    candidate bytes (ASCII marks, the lead bytes of the others) and multi-byte marks are checked
    by their next bytes."""
    arr = _byte_array(lines)
    n = len(arr)
    rows, text_starts, text_ends = text_spans(lines, kept, content)
    lengths = np.maximum(text_ends - text_starts, 0).astype(np.int64)
    out = np.zeros(len(kept), dtype=np.int32)
    bounds = np.concatenate(([0], np.cumsum(lengths)))
    # Rows in groups of about CHUNK_BYTES of text: the gathered bytes stay small on any page.
    cuts = np.unique(np.minimum(np.searchsorted(bounds, np.arange(0, int(bounds[-1]) + CHUNK_BYTES, CHUNK_BYTES)),
                                len(lengths)))
    for r0, r1 in zip(cuts[:-1], cuts[1:]):
        lens = lengths[r0:r1]
        total = int(lens.sum())
        if not total:
            continue
        # Byte offsets of the rows' text, concatenated, and the row each belongs to.
        row_of = np.repeat(np.arange(r0, r1), lens)
        idx = np.arange(total, dtype=np.int64) - np.repeat(bounds[r0:r1] - bounds[r0], lens) + \
            np.repeat(text_starts[r0:r1].astype(np.int64), lens)
        vals = arr[idx]
        hit = np.flatnonzero(_PUNCT_FIRST[vals])
        lead = vals[hit]
        multi = ~_PUNCT_ASCII[lead]
        if multi.any():
            at = idx[hit[multi]]
            b1 = arr[np.minimum(at + 1, n - 1)].astype(np.uint32)
            b2 = arr[np.minimum(at + 2, n - 1)].astype(np.uint32)
            key2 = lead[multi].astype(np.uint32) << 8 | b1
            ok = np.isin(key2, _PUNCT_KEYS2) | np.isin(key2 << 8 | b2, _PUNCT_KEYS3)
            keep = ~multi
            keep[np.flatnonzero(multi)[ok]] = True
            hit = hit[keep]
        np.add.at(out, rows[row_of[hit]], 1)
    return out


def text_spans(lines: Lines, kept: np.ndarray, content: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kept lines with content (their indices) and the byte span of each one's text: from
    after the tag it starts with (R2L §4.1: one tag per line) to its end."""
    rows = np.flatnonzero(content > 0)
    line_starts = lines.starts[kept[rows]]
    k = np.minimum(np.searchsorted(lines.tag_starts, line_starts), max(len(lines.tag_starts) - 1, 0))
    if len(lines.tag_starts):
        text_starts = np.where(lines.tag_starts[k] == line_starts, lines.tag_ends[k] + 1, line_starts)
    else:
        text_starts = line_starts
    return rows, text_starts, lines.ends[kept[rows]]
