"""Long texts a piece at a time: counting, lowercasing and splitting a page-wide text without holding all of it.

``len(text.split())`` holds every word of ``text`` at once, and ``text.lower()`` takes a buffer of 12
bytes a character for a text outside Latin-1 (CPython's case mapping may give three characters for one):
on a page-wide text both cost many times the page.  Here the same results are computed over pieces of
:data:`PIECE_CHARS` characters.  Used by the typed readings (``algorithms.chrome``, ``algorithms.typed``)
and by the duplicate fingerprint (``corpus.dedup``); no other module of the package is imported.
"""
from __future__ import annotations

import re
from typing import Iterator

# A piece's length: one str.split of a 4.9 MB list's text (3.8 M characters) held its 419,000 words at
# once, ~39 MB, the peak of a typed reading (BENCHMARKS.md, "Typed readings under the bound"); a piece's
# list is small, and a text of one piece or less is handled whole, as before.
PIECE_CHARS = 1 << 16

_SPACE = re.compile(r"\s")  # str.isspace's characters: the ones str.split splits at


def count_words(text: str) -> int:
    """``len(text.split())``, without a list of every word of a long text (split a :func:`word_pieces`
    piece at a time)."""
    if len(text) <= PIECE_CHARS:
        return len(text.split())
    return sum(len(piece.split()) for piece in word_pieces(text))


def count_chars(text: str) -> int:
    """Non-whitespace characters of ``text`` (``len("".join(text.split()))``), a long text a
    :func:`word_pieces` piece at a time."""
    if len(text) <= PIECE_CHARS:
        return len("".join(text.split()))
    return sum(len("".join(piece.split())) for piece in word_pieces(text))


def word_pieces(text: str) -> Iterator[str]:
    """``text`` in pieces, each cut at the first whitespace after :data:`PIECE_CHARS` characters (a text
    without whitespace there stays whole): no word spans two pieces, and each piece lowercased is that
    piece of ``text.lower()`` (whitespace is neither cased nor case-ignorable, so even a Greek final sigma
    reads the same)."""
    start = 0
    while len(text) - start > PIECE_CHARS:
        cut = _SPACE.search(text, start + PIECE_CHARS)
        if cut is None:
            break
        yield text[start:cut.start()]
        start = cut.start()
    yield text[start:]


__all__ = ["PIECE_CHARS", "count_chars", "count_words", "word_pieces"]
