"""BTE, Body Text Extraction (Finn, Kushmerick, Smyth 2001), as a maximum subarray.

Finn et al. [1]_ read the page as tokens, each tag a 1 and each word a 0, and take the span
``i..j`` that maximises the tags before ``i`` plus the words inside plus the tags after ``j``.
The tags outside are all tags minus the tags inside, so the objective is a constant plus
(words - tags) inside ``i..j``: the maximum-subarray problem over +1 per word and -1 per tag,
solved in one linear pass (:func:`~mcecrawl.algorithms.baselines.tokens.max_subarray`) instead
of the paper's quadratic search over all ``(i, j)``.  The words of the span are the main content.

References
----------
.. [1] A. Finn, N. Kushmerick, B. Smyth (2001). Fact or fiction: content classification for
   digital libraries. DELOS Workshop on Personalisation and Recommender Systems in Digital
   Libraries, Dublin.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.tokens import Tokens, max_subarray, paragraphs, tokenize
from mcecrawl.algorithms.result import Extraction, Region

NAME = "bte"


def token_values(tokens: Tokens) -> np.ndarray:
    """+1 for a word token, -1 for a tag token (the paper's 0/1 sequence, turned into gains)."""
    return np.where(tokens.is_tag, -1, 1).astype(np.int64)


def body_span(tokens: Tokens) -> tuple[int, int] | None:
    """The token span with the most words minus tags inside, i.e. the most tags outside plus words inside."""
    return max_subarray(token_values(tokens))


def bte(text: str, **params: Any) -> Extraction:
    """Extract the main content with BTE (no parameters)."""
    p = common.resolve_params(NAME, {}, {}, params)
    tokens = tokenize(text)
    span = body_span(tokens)
    if span is None:
        return common.empty(NAME, p, "the page has no word outside tags, scripts and styles", text)
    first, last = span
    keep = np.zeros(len(tokens), dtype=bool)
    keep[first:last + 1] = True
    return common.result(NAME, p, text, paragraphs(tokens, keep), Region(first, last))
