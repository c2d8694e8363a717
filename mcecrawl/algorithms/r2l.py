"""R2L: main content of right-to-left pages from UTF-8 character classes (Mohammadzadeh et al. 2011).

The two steps of the paper [1]_ (§4.1), each one function:

1. :func:`separate_characters` — first step: per line, the characters of S1 (Arabic script:
   U+0600-06FF, Arabic Supplement, Extended-A and Presentation Forms; ZWNJ inside Persian words
   counts with the text; Hebrew U+0590-05FF on request) and of S2 (the first 128 characters of
   UCS), i.e. the lengths of NEPL and EPL.  Lines come from
   :func:`mcecrawl.algorithms.lines.segment_lines` (the paper's single-line preprocessing).
2. :func:`find_region` — second step: formula (2) smoothing, the longest column above the
   x-axis, and boundary growth with parameter P (paper: 8, §4.1 and §4.4; here re-tuned to 30
   for tag-per-line segmentation, growing over lines above the axis; see the constants).

Output (:func:`main_content`): ``output="chars"`` is the paper's own (the R2L characters of the
region, whitespace kept between words); ``output="parse"`` parses the region with lxml, the
paper's future work (§6) and what DANA does.

References
----------
.. [1] H. Mohammadzadeh, F. Schweiggert, G. Nakhaeizadeh (2011). Using UTF-8 to extract main
   content of right to left language web pages. ICSOFT 2011, pp. 243-249.
   DOI 10.5220/0003508502430249.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.lines import SPLIT_MODES, WEIGHTS, Lines, block_starts
from mcecrawl.algorithms.parse import parse_lines, r2l_characters
from mcecrawl.algorithms.profile_impl import count_ascii, count_r2l, segment_lines
from mcecrawl.algorithms.region import SMOOTHING_RADIUS, column_region
from mcecrawl.algorithms.result import Extraction

NAME = "r2l"
GROWTH_MODES = ("literal", "smoothed")
OUTPUT_MODES = ("chars", "parse")
# Lines crossed between paragraphs.  The paper's default is 8 (§4.1; its HFF searches [1, 20],
# §4.4); re-tuned after tag-per-line segmentation: 30, as DANA (chars output on the 8 Arabic-
# script r2l pages: P=8 literal 0.872, 20: 0.913, 30: 0.935, 40: 0.923).
P_DEFAULT = 30
WEIGHT_DEFAULT = "chars"  # the papers' string lengths of EPL/NEPL; measured better than bytes
# §4.1 literally stops when no line with S1 characters lies within P lines, so one Arabic menu
# item bridges two regions; growing over lines above the axis of the smoothed diagram measured
# better (0.913 vs 0.844 at P=20, chars output).  "literal" stays selectable.
GROWTH_DEFAULT = "smoothed"
SPLIT_DEFAULT = "tag"  # §4.1 preprocessing; measured better than "block"
OUTPUT_DEFAULT = "chars"  # the paper's output; "parse" keeps digits, Latin words and punctuation

DEFAULTS = {"P": P_DEFAULT, "radius": SMOOTHING_RADIUS, "weight": WEIGHT_DEFAULT, "growth": GROWTH_DEFAULT,
            "split": SPLIT_DEFAULT, "output": OUTPUT_DEFAULT, "hebrew": False}
CHOICES = {"weight": WEIGHTS, "growth": GROWTH_MODES, "split": SPLIT_MODES, "output": OUTPUT_MODES}


def separate_characters(lines: Lines, *, hebrew: bool = False, weight: str = WEIGHT_DEFAULT
                        ) -> tuple[np.ndarray, np.ndarray]:
    """First step (§4.1): lengths of NEPL (S1, R2L characters) and EPL (S2, ASCII) per line.

    Characters in neither set (Latin-1, other scripts) count in neither.  Scripts, styles and
    comments count wholly as EPL, so R2L strings in page data never win the region.
    """
    return count_r2l(lines, hebrew=hebrew, weight=weight), count_ascii(lines, weight=weight)


def find_region(nepl: np.ndarray, epl: np.ndarray, *, P: int = P_DEFAULT, radius: int = SMOOTHING_RADIUS,
                growth: str = GROWTH_DEFAULT) -> tuple[int | None, int | None, np.ndarray]:
    """Second step (§4.1): smoothing (2), longest column above the axis, boundaries with P.

    .. math:: diff_i = \\sum_{j=i-1}^{i+1} length(NEPL_j) - length(EPL_j)   \\qquad (2)

    Returns
    -------
    (first, last, smoothed), first/last None when no column lies above the axis.
    """
    return column_region(nepl, epl, P=P, radius=radius, growth=growth)


def main_content(lines: Lines, first: int, last: int, *, output: str = OUTPUT_DEFAULT,
                 hebrew: bool = False) -> list[str]:
    """The region's text: its S1 characters (§4.1), or the parsed region (§6).

    With the characters output a paragraph ends only at a block-level tag (or ``<br>``), as
    when the region is parsed: a segmented line is not a paragraph, so an inline link leaves
    its paragraph whole.
    """
    if output == "parse":
        return parse_lines(lines, first, last)
    breaks = block_starts(lines)[first:last + 1].tolist()
    protected = lines.protected[first:last + 1].tolist()
    paragraphs: list[str] = []
    current: list[str] = []  # source of the block so far, one piece per run of unprotected lines
    run = None  # first line of the current run
    for k in range(last - first + 2):  # one step past the end flushes the last block
        end = k == last - first + 1
        if run is not None and (end or breaks[k] or protected[k]):
            current.append(lines.source(first + run, first + k - 1))
            run = None
        if current and (end or breaks[k]):  # each block's source is reduced at once
            paragraphs.extend(r2l_characters(["".join(current)], hebrew=hebrew))
            current = []
        if not end and run is None and not protected[k]:
            run = k
    return paragraphs


def r2l(text: str, **params: Any) -> Extraction:
    """Extract the main content of a right-to-left (Arabic-script) page with R2L.

    Parameters
    ----------
    text : str
        The decoded page.
    **params
        ``P`` (lines, default 30), ``radius`` (1), ``weight`` ("chars"/"bytes"), ``growth``
        ("literal"/"smoothed"), ``split`` ("block"/"tag"), ``output`` ("chars"/"parse"),
        ``hebrew`` (count Hebrew letters in S1, default False).

    Returns
    -------
    Extraction
        Status ``empty`` when the page has no R2L characters outside scripts and styles.
    """
    p = common.resolve_params(NAME, DEFAULTS, CHOICES, params)
    lines = segment_lines(text, split=p["split"])
    nepl, epl = separate_characters(lines, hebrew=p["hebrew"], weight=p["weight"])
    if not nepl.any():
        script = "Arabic-script or Hebrew" if p["hebrew"] else "Arabic-script; hebrew=true counts Hebrew"
        return common.empty(NAME, p, f"no R2L characters ({script}) outside scripts, styles and comments", text)
    first, last, smoothed = find_region(nepl, epl, P=p["P"], radius=p["radius"], growth=p["growth"])
    if first is None:
        return common.empty(NAME, p, "no line has more R2L than ASCII characters", text)
    assert last is not None  # column_region gives both bounds or neither
    paragraphs = main_content(lines, first, last, output=p["output"], hebrew=p["hebrew"])
    del lines  # the page's bytes and line arrays: freed before the line-profile tuples are built
    return common.result(NAME, p, text, paragraphs, common.chosen_region(first, last, nepl, epl, smoothed))
