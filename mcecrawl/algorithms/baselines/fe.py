"""FE and KFE: FeatureExtractor and K-FeatureExtractor (Debnath, Mitra, Giles 2005).

Debnath et al. [1]_ partition a page into blocks at its partitioning tags (tables, rows,
paragraphs, lists, rules, ...), give every block the probability of a desired feature — here
*text*, the feature of main content — and pick the winners:

* ``fe`` — FeatureExtractor: the one block with the highest probability (winner takes all; ties
  go to the block with more words);
* ``kfe`` — K-FeatureExtractor: the blocks of the highest group when the probabilities are
  clustered (the paper's adaptive k-means; here the exact two-cluster split of the sorted
  probabilities, so that k adapts to the page).

The blocks are the runs of tokens between block-level tags (the token stream of
:mod:`mcecrawl.algorithms.baselines.tokens`, each block-level tag a partition, as the paper's
partitioning tags); a block's text probability is its words outside links over all its tokens
(words, link words, tags).  These readings of the paper are discussed in docs/algorithms.md.
FE's single winner is often a short block of pure text: the seeds measure it at F1 0.002-0.8.

References
----------
.. [1] S. Debnath, P. Mitra, C. L. Giles (2005). Identifying content blocks from web documents.
   ISMIS 2005, LNCS 3488, pp. 285-293.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.tokens import Tokens, paragraphs, tokenize
from mcecrawl.algorithms.result import Extraction


def partition_blocks(tokens: Tokens) -> np.ndarray:
    """Block index of every token: a block-level tag opens a new block (and belongs to it)."""
    return np.cumsum(tokens.is_block_tag)


def text_probability(tokens: Tokens, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(probability of the text feature, words outside links) per block."""
    n = int(block[-1]) + 1
    plain_words = tokens.is_word & ~tokens.in_anchor
    words = np.bincount(block, weights=plain_words, minlength=n)
    size = np.bincount(block, minlength=n)
    return words / np.maximum(size, 1), words


def two_means_split(values: np.ndarray) -> float:
    """The threshold of the best split of ``values`` into a low and a high cluster (least squares)."""
    v = np.sort(values)
    m = v.size
    if m < 2 or v[0] == v[-1]:
        return float(v[0]) if m else 0.0
    prefix = np.cumsum(v)
    prefix2 = np.cumsum(v * v)
    k = np.arange(1, m)  # low cluster v[:k], high cluster v[k:]
    low_sse = prefix2[k - 1] - prefix[k - 1] ** 2 / k
    high_sse = (prefix2[-1] - prefix2[k - 1]) - (prefix[-1] - prefix[k - 1]) ** 2 / (m - k)
    best = int(np.argmin(low_sse + high_sse)) + 1
    return float(v[best])


def _run(name: str, text: str, params: dict[str, Any], *, k_blocks: bool) -> Extraction:
    p = common.resolve_params(name, {}, {}, params)
    tokens = tokenize(text)
    if not tokens.is_word.any():
        return common.empty(name, p, "the page has no word outside tags, scripts and styles", text)
    block = partition_blocks(tokens)
    prob, words = text_probability(tokens, block)
    has_text = words > 0
    if not has_text.any():
        return common.empty(name, p, "every word of the page is link text", text)
    if k_blocks:
        winners = has_text & (prob >= two_means_split(prob[has_text]))
    else:
        best = np.lexsort((words, prob))[-1]  # highest probability, then most words
        winners = np.zeros(prob.size, dtype=bool)
        winners[best] = True
    return common.result(name, p, text, paragraphs(tokens, winners[block]), None)


def fe(text: str, **params: Any) -> Extraction:
    """FeatureExtractor: the block most likely to be text (no parameters)."""
    return _run("fe", text, params, k_blocks=False)


def kfe(text: str, **params: Any) -> Extraction:
    """K-FeatureExtractor: the blocks of the top cluster of text probability (no parameters)."""
    return _run("kfe", text, params, k_blocks=True)
