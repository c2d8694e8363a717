"""Content Code Blurring: CCB, ACCB and TCCB (Gottron 2008).

Gottron [1]_ writes the page as a *content code vector* (CCV): one entry per element of the
source, 1 where it is content (text) and 0 where it is code (markup).  Blurring the vector with
a Gaussian gives each element its *content code ratio* (CCR), the share of content around it;
content elements whose CCR reaches a threshold ``t`` are the main content.  Three variants:

* ``ccb`` — the CCV over characters: each character of a tag is code, of a word content.
* ``accb`` — adapted CCB: anchor tags (``<a ...>``, ``</a>``) are left out of the CCV, so the
  links inside an article's sentences do not break it up (the variant the seeds call ACCB-40).
* ``tccb`` — token-based CCB: one entry per token, a tag is code and a word content (TCCB-18/25).

The number in the seeds' names (ACCB-40, TCCB-18, TCCB-25) is read as the blurring range ``K``,
in the CCV's unit (characters for ACCB, tokens for TCCB): a character window of 40 and a token
window of 18-25 cover about the same stretch of source.  The Gaussian has standard deviation
``K / 2`` and is cut at ``K`` elements each side; one pass of it, normalised by the weights that
fall inside the page, so the ratio is in [0, 1] up to the edges.  A word is kept when the mean
CCR of its characters (its single entry for TCCB) is at least ``t`` (default 0.5: more content
than code around).  docs/algorithms.md says why these readings were chosen.  Time is
``O(n K)``: linear in the page for a fixed ``K``.

References
----------
.. [1] T. Gottron (2008). Content code blurring: a new approach to content extraction. 19th
   International Workshop on Database and Expert Systems Applications (DEXA), pp. 29-33.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.tokens import Tokens, paragraphs, tokenize
from mcecrawl.algorithms.result import Extraction

# Blurring ranges of the seeds' names: CCB-40 (the character-level range of ACCB-40, the seeds
# give CCB none), ACCB-40, TCCB-18 (TCCB-25 is ``-p K=25``).
K_CHARS_DEFAULT = 40
K_TOKENS_DEFAULT = 18
THRESHOLD_DEFAULT = 0.5  # more content than code around the element


def content_code_vector(tokens: Tokens, *, level: str, ignore_anchors: bool) -> tuple[np.ndarray, np.ndarray]:
    """(CCV, owner): the 0/1 vector over characters or tokens, and for each entry its token index."""
    use = np.ones(len(tokens), dtype=bool)
    if ignore_anchors:
        use &= ~tokens.is_anchor_tag
    index = np.flatnonzero(use)
    content = (~tokens.is_tag[index]).astype(np.float64)
    if level == "tokens":
        return content, index
    lengths = tokens.lengths[index]
    return np.repeat(content, lengths), np.repeat(index, lengths)


def gaussian(k: int) -> np.ndarray:
    """Gaussian weights at -K..K with standard deviation K / 2."""
    if k == 0:
        return np.ones(1)
    x = np.arange(-k, k + 1, dtype=np.float64)
    return np.exp(-0.5 * (x / (k / 2)) ** 2)


def content_code_ratio(ccv: np.ndarray, k: int) -> np.ndarray:
    """The blurred CCV: per entry, the Gaussian-weighted share of content around it."""
    kernel = gaussian(k)
    pad = np.zeros(k)  # zeros beyond the page's ends; "valid" keeps one value per entry, any length
    blurred = np.convolve(np.concatenate((pad, ccv, pad)), kernel, mode="valid")
    inside = np.concatenate((pad, np.ones_like(ccv), pad))
    weight = np.convolve(inside, kernel, mode="valid")  # the kernel's mass inside the page
    return blurred / weight


def word_ratios(tokens: Tokens, ccr: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """Per token, the mean CCR of its entries (NaN for a token left out of the CCV)."""
    total = np.bincount(owner, weights=ccr, minlength=len(tokens))
    count = np.bincount(owner, minlength=len(tokens))
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count


def _blur(name: str, text: str, params: dict[str, Any], *, level: str, ignore_anchors: bool, k_default: int
          ) -> Extraction:
    p = common.resolve_params(name, {"K": k_default, "t": THRESHOLD_DEFAULT}, {}, params)
    tokens = tokenize(text)
    if not tokens.is_word.any():
        return common.empty(name, p, "the page has no word outside tags, scripts and styles", text)
    ccv, owner = content_code_vector(tokens, level=level, ignore_anchors=ignore_anchors)
    ratios = word_ratios(tokens, content_code_ratio(ccv, p["K"]), owner)
    keep = np.nan_to_num(ratios, nan=0.0) >= p["t"]
    return common.result(name, p, text, paragraphs(tokens, keep), None,
                         empty_reason=f"no word has a content code ratio of {p['t']} or more")


def ccb(text: str, **params: Any) -> Extraction:
    """CCB over characters (``K`` characters, threshold ``t``)."""
    return _blur("ccb", text, params, level="chars", ignore_anchors=False, k_default=K_CHARS_DEFAULT)


def accb(text: str, **params: Any) -> Extraction:
    """ACCB: CCB over characters with anchor tags left out (``K`` characters, threshold ``t``)."""
    return _blur("accb", text, params, level="chars", ignore_anchors=True, k_default=K_CHARS_DEFAULT)


def tccb(text: str, **params: Any) -> Extraction:
    """TCCB: CCB over tokens (``K`` tokens, threshold ``t``)."""
    return _blur("tccb", text, params, level="tokens", ignore_anchors=False, k_default=K_TOKENS_DEFAULT)
