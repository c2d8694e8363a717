"""Density (Arias Moreno, Deschacht, Moens 2009): the densest stretch of long text fragments.

The seeds' "Density" row is the method of [1]_ (DANAg cites it as "Density, proposed by
(Moreno et al., 2009)"): language-independent, it looks at the text fragments between tags only
and finds the region of the page where long fragments are dense, on the observation that the
main content is written in long runs of text while navigation, headers and footers are short
fragments.  The fragment-length threshold and the region rule are the choices of
docs/algorithms.md, made so that no constant depends on a language or a site:

* fragments: the text between two consecutive tags (scripts, styles, comments removed);
* each fragment scores its length minus the page's mean fragment length (a relative threshold:
  a "long" fragment is longer than the page's average);
* the main content is the contiguous run of fragments with the highest total score — a maximum
  subarray, linear in the page.

References
----------
.. [1] J. Arias Moreno, K. Deschacht, M.-F. Moens (2009). Language independent content
   extraction from web pages. 9th Dutch-Belgian Information Retrieval Workshop (DIR), pp. 50-55.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.tokens import Tokens, max_subarray, paragraphs, tokenize
from mcecrawl.algorithms.result import Extraction, Region

NAME = "density"


def fragments(tokens: Tokens) -> tuple[np.ndarray, np.ndarray]:
    """(fragment index of every token, characters of each fragment): a tag ends a fragment."""
    frag = np.cumsum(tokens.is_tag)  # tokens after the k-th tag belong to fragment k
    chars = np.bincount(frag, weights=np.where(tokens.is_tag, 0, tokens.lengths + 1), minlength=frag[-1] + 1)
    return frag, chars


def densest_region(chars: np.ndarray) -> tuple[int, int] | None:
    """(first, last) fragment of the run with most characters above the mean non-empty fragment."""
    text = chars > 0
    if not text.any():
        return None
    score = np.where(text, chars - chars[text].mean(), 0.0)
    return max_subarray(score)


def density(text: str, **params: Any) -> Extraction:
    """Extract the main content with Density (no parameters)."""
    p = common.resolve_params(NAME, {}, {}, params)
    tokens = tokenize(text)
    if not tokens.is_word.any():
        return common.empty(NAME, p, "the page has no word outside tags, scripts and styles", text)
    frag, chars = fragments(tokens)
    region = densest_region(chars)
    if region is None:  # every fragment as long as the mean: they are all the region
        region = (0, len(chars) - 1)
    first, last = region
    keep = (frag >= first) & (frag <= last)
    return common.result(NAME, p, text, paragraphs(tokens, keep), Region(first, last))
