"""Highlighted snippets of the *faithful* text (ZWNJ, harakat and original letters kept).

The index matches folded text; here every faithful word is folded on its own
(:func:`~mcecrawl.search.analysis.word_key`) and compared with the folded query terms, so the
highlight lands on the word as the site wrote it (``مُحَمَّد`` for the query ``محمد``).  A term
split by a space in the document (``می خواهم`` for ``میخواهم``) highlights both words.
"""
from __future__ import annotations

from collections.abc import Set

from mcecrawl.search.analysis import WORD_RE, word_key

# Words shown per snippet: about two lines of a terminal, like a search engine result.
SNIPPET_WORDS = 30
HIGHLIGHT = ("**", "**")  # markdown bold: survives terminals, JSON and R2L rendering


def _marked(keys: list[str], terms: Set[str]) -> list[bool]:
    marked = [False] * len(keys)
    for i, key in enumerate(keys):
        if key in terms:
            marked[i] = True
        elif i + 1 < len(keys) and key + keys[i + 1] in terms:
            marked[i] = marked[i + 1] = True
    return marked


def snippet(text: str, terms: Set[str], *, words: int = SNIPPET_WORDS,
            highlight: tuple[str, str] = HIGHLIGHT) -> str:
    """The ``words``-word window of ``text`` with the most query terms, terms highlighted.

    Parameters
    ----------
    text : str
        Faithful document text.
    terms : set of str
        Folded query tokens (all segmentation variants).
    """
    spans = [m.span() for m in WORD_RE.finditer(text)]
    if not spans:
        return ""
    marked = _marked([word_key(text[a:b]) for a, b in spans], terms)
    hits = [i for i, m in enumerate(marked) if m]
    # Sliding window over the hit positions: the start whose window holds the most hits.
    best_start, best_count, j = 0, 0, 0
    for k, start in enumerate(hits):
        while hits[j] < start:
            j += 1
        count = sum(1 for h in hits[k:] if h < start + words)
        if count > best_count:
            best_start, best_count = max(0, start - words // 5), count
    end = min(len(spans), best_start + words)
    out, pos = [], spans[best_start][0]
    for i in range(best_start, end):
        a, b = spans[i]
        out.append(text[pos:a])
        out.append(f"{highlight[0]}{text[a:b]}{highlight[1]}" if marked[i] else text[a:b])
        pos = b
    if end < len(spans):
        out.append(text[pos:spans[end][0]].rstrip())
    body = " ".join("".join(out).split())
    return ("… " if best_start else "") + body + (" …" if end < len(spans) else "")
