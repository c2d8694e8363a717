"""LQF, the Link Quota Filter (Kaiser, Gupta, Stolfo 2005; Gupta et al. 2003).

The link list remover of Crunch [1]_, as a method of its own [2]_: a block of the DOM whose text
is mostly link text is navigation, and is removed.  The seeds run it at three quotas, LQF-25,
LQF-50 and LQF-75 (the DANA slides); DANAg's single "LQF" row is taken as the middle one.  Here:

* the blocks are the block-level containers (:data:`CONTAINERS`: tables and their cells, lists
  and items, ``div``/``section``-like elements, paragraphs);
* a block is removed when its link characters exceed ``q`` percent of its text characters,
  counted bottom-up so that a removed block no longer counts in its parents (else a whole page
  body would be removed for the menus it contains).

References
----------
.. [1] S. Gupta, G. Kaiser, D. Neistadt, P. Grimm (2003). DOM-based content extraction of HTML
   documents. WWW 2003, pp. 207-214.
.. [2] G. Kaiser, S. Gupta, S. Stolfo (2005). Extracting context to improve accuracy for HTML
   content extraction. WWW 2005 posters, pp. 1114-1115.
"""
from __future__ import annotations

from typing import Any

from mcecrawl.algorithms import common
from mcecrawl.algorithms.baselines.dom import prune_link_lists, run
from mcecrawl.algorithms.parse import BLOCK_TAGS
from mcecrawl.algorithms.result import Extraction

NAME = "lqf"
Q_DEFAULT = 50  # percent; the seeds' LQF-25 / LQF-50 / LQF-75 are q=25, 50, 75
# Containers a link list lives in: the block-level elements that hold others or text (no br/hr).
CONTAINERS = frozenset(BLOCK_TAGS - {"br", "hr"})
DEFAULTS: dict[str, Any] = {"q": Q_DEFAULT}


def lqf(text: str, **params: Any) -> Extraction:
    """Extract the main content with the link quota filter (``q`` percent, 25/50/75 in the seeds)."""
    p = common.resolve_params(NAME, DEFAULTS, {}, params)
    quota = p["q"] / 100

    def prune(root: Any) -> int:
        return prune_link_lists(root, CONTAINERS, lambda total, links: links > quota * total)

    return run(NAME, p, text, prune)
