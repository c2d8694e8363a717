"""DSC, the Document Slope Curve (Pinto, Branstein, Coleman, Croft, King 2002).

Pinto et al. [1]_ (QuASM, §3) plot the running count of tag tokens over the token sequence: the
curve climbs in markup and is flat where text runs.  A window slides along it and the low-slope
stretches are text.  Unlike BTE this keeps several text regions.  The paper gives the idea and
not the constants (Gottron's comparison [2]_ describes DSC the same way: "a windowing technique
to locate regions in which word tokens are more frequent than tag tokens"); the window and the
slope threshold are the choices of docs/algorithms.md:

* the slope at a word is the share of tag tokens among the ``2 * window + 1`` tokens centred on
  it (the curve's rise over the window), computed from prefix sums in linear time;
* a word is content when that slope is below ``slope`` (default 0.5: more words than tags
  around it, Gottron's reading).

References
----------
.. [1] D. Pinto, M. Branstein, R. Coleman, W. B. Croft, M. King (2002). QuASM: a system for
   question answering using semi-structured data. JCDL 2002, pp. 46-55.
.. [2] T. Gottron (2007). Evaluating content extraction on HTML documents. ITA 2007, pp. 123-132.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.tokens import Tokens, paragraphs, tokenize
from mcecrawl.algorithms.result import Extraction

NAME = "dsc"
WINDOW_DEFAULT = 10  # tokens either side: about a sentence, so one link or <b> does not break text
SLOPE_DEFAULT = 0.5  # "word tokens more frequent than tag tokens" (Gottron 2007)
DEFAULTS: dict[str, Any] = {"window": WINDOW_DEFAULT, "slope": SLOPE_DEFAULT}


def slope_curve(tokens: Tokens, window: int) -> np.ndarray:
    """Per token: the document slope curve's rise over the window centred on it (tags / tokens)."""
    n = len(tokens)
    curve = np.concatenate(([0], np.cumsum(tokens.is_tag)))  # the DSC: tags up to each token
    idx = np.arange(n)
    lo = np.maximum(idx - window, 0)
    hi = np.minimum(idx + window + 1, n)
    rise: np.ndarray = (curve[hi] - curve[lo]) / (hi - lo)
    return rise


def dsc(text: str, **params: Any) -> Extraction:
    """Extract the main content with DSC (``window`` tokens each side, ``slope`` threshold)."""
    p = common.resolve_params(NAME, DEFAULTS, {}, params)
    tokens = tokenize(text)
    if not tokens.is_word.any():
        return common.empty(NAME, p, "the page has no word outside tags, scripts and styles", text)
    keep = slope_curve(tokens, p["window"]) < p["slope"]
    return common.result(NAME, p, text, paragraphs(tokens, keep), None,
                         empty_reason="no stretch of the slope curve is flat enough")
