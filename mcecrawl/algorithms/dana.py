"""DANA: main-content extraction by ASCII vs non-ASCII character density (Mohammadzadeh et al. 2011).

Phases (DANA slides [1]_, "Algorithm, named DANA"), each one function:

1. :func:`count_characters` — phase one: per line, the number of ASCII (T1) and non-ASCII (T2)
   characters, on lines made by :func:`mcecrawl.algorithms.lines.segment_lines` (the R2L
   paper's preprocessing of single-line files).
2. :func:`find_main_content_area` — phase two: the smoothed diagram (formula of slide "Phase
   Two", = R2L formula (2)), the longest column above the x-axis, the boundaries found by moving
   up and down while a content line lies within P lines.
3. :func:`extract_main_content` — phase three: the selected lines fed to a parser (lxml).

The slides name the arrays T1 = ASCII and T2 = non-ASCII but draw "T1_i - T2_i" above the axis;
what matters (and what is implemented) is that non-ASCII content counts positive.

Decisions the slides leave open, taken by measurement on the r2l dev set of docs/evaluation.md (8 full-gold
Arabic-script pages, mean word-LCS F1; ``python benchmarks/bench_extract.py sweep``, figures
in BENCHMARKS.md):

* ``split``: every tag on its own line (the R2L paper's literal preprocessing, §4.1) beat
  splitting before block tags only (0.957 vs 0.929).
* ``growth``: "smoothed" (grow over lines above the axis of the smoothed diagram) beat the
  literal "any line with a non-ASCII character" (0.957 vs 0.785): the literal rule lets
  a menu of one-word Arabic links bridge the article and the boilerplate.
* ``P``: 30 lines.  With a tag per line a paragraph block spans several lines, so the slides'
  20 (and R2L's 8) shrink in effect: 8: 0.869, 12: 0.902, 16-25: 0.933 (flat), 30: 0.957,
  40: 0.959.  The independent ``chinese_wce`` set (69 pages, DANA works on any non-ASCII
  script) agrees: 8: 0.744, 20: 0.803, 30: 0.817, 40: 0.830; 30 is the value DANAg's sweep
  on ``scrapinghub_aeb`` also peaks at, so both algorithms share it.
* ``weight``: characters (0.957) over UTF-8 bytes (0.940), as the papers' string lengths.
* Whitespace counts as neither ASCII nor non-ASCII and whitespace-only lines merge into the
  line before (see :mod:`mcecrawl.algorithms.lines`): without this 0.897 (at P=20).

References
----------
.. [1] H. Mohammadzadeh, T. Gottron, F. Schweiggert, G. Nakhaeizadeh (2011). A fast and accurate
   approach for main content extraction based on character encoding. TIR'11, Toulouse (slides).
.. [2] H. Mohammadzadeh, F. Schweiggert, G. Nakhaeizadeh (2011). Using UTF-8 to extract main
   content of right to left language web pages. ICSOFT 2011. DOI 10.5220/0003508502430249.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.lines import (
    SPLIT_MODES,
    WEIGHTS,
    Lines,
)
from mcecrawl.algorithms.parse import parse_lines
from mcecrawl.algorithms.profile_impl import count_non_ascii_and_ascii, segment_lines
from mcecrawl.algorithms.region import SMOOTHING_RADIUS, column_region
from mcecrawl.algorithms.result import Extraction

NAME = "dana"
GROWTH_MODES = ("literal", "smoothed")
# Lines crossed between two content paragraphs.  Slides: 20; R2L paper: 8.  Re-tuned after
# tag-per-line segmentation on r2l, chinese_wce and scrapinghub_aeb: 30 (module docstring).
P_DEFAULT = 30
WEIGHT_DEFAULT = "chars"  # papers' string lengths; measured better than bytes (module docstring)
GROWTH_DEFAULT = "smoothed"  # measured better than the literal reading (module docstring)
SPLIT_DEFAULT = "tag"  # R2L paper §4.1 preprocessing; measured better than "block"

DEFAULTS = {"P": P_DEFAULT, "radius": SMOOTHING_RADIUS, "weight": WEIGHT_DEFAULT,
            "growth": GROWTH_DEFAULT, "split": SPLIT_DEFAULT}
CHOICES = {"weight": WEIGHTS, "growth": GROWTH_MODES, "split": SPLIT_MODES}


def count_characters(lines: Lines, *, weight: str = WEIGHT_DEFAULT) -> tuple[np.ndarray, np.ndarray]:
    """Phase one: non-ASCII (content) and ASCII (code) characters of each line.

    Parameters
    ----------
    lines : Lines
    weight : {"chars", "bytes"}
        Count characters (one per UTF-8 lead byte) or UTF-8 bytes.

    Returns
    -------
    non_ascii, ascii : numpy.ndarray
        Text in comments, scripts and styles counts wholly as ASCII (code), so page data in a
        script can never win the region.
    """
    return count_non_ascii_and_ascii(lines, weight=weight)


def find_main_content_area(non_ascii: np.ndarray, ascii: np.ndarray, *, P: int = P_DEFAULT,
                           radius: int = SMOOTHING_RADIUS, growth: str = GROWTH_DEFAULT
                           ) -> tuple[int | None, int | None, np.ndarray]:
    """Phase two: smoothed diagram, longest column, boundaries with parameter P.

    .. math:: diff_i = \\sum_{j=i-1}^{i+1} T^{non-ASCII}_j - T^{ASCII}_j

    Returns
    -------
    (first, last, smoothed) or (None, None, smoothed) when no column lies above the axis.
    """
    return column_region(non_ascii, ascii, P=P, radius=radius, growth=growth)


def extract_main_content(lines: Lines, first: int, last: int) -> list[str]:
    """Phase three: parse the selected lines; the parser's output is the main content."""
    return parse_lines(lines, first, last)


def dana(text: str, **params: Any) -> Extraction:
    """Extract the main content of an HTML page with DANA.

    Parameters
    ----------
    text : str
        The decoded page.
    **params
        ``P`` (lines, default :data:`P_DEFAULT`), ``radius`` (smoothing neighbours, 1),
        ``weight`` ("chars"/"bytes"), ``growth`` ("literal"/"smoothed"), ``split``
        ("block"/"tag").

    Returns
    -------
    Extraction
        ``region`` holds the selected lines and the line profile (content = non-ASCII,
        code = ASCII, smoothed difference).
    """
    p = common.resolve_params(NAME, DEFAULTS, CHOICES, params)
    lines = segment_lines(text, split=p["split"])
    non_ascii, ascii = count_characters(lines, weight=p["weight"])
    if not non_ascii.any():
        return common.empty(NAME, p, "no non-ASCII characters outside scripts, styles and comments "
                                     "(DANA needs non-ASCII text; try danag)", text)
    first, last, smoothed = find_main_content_area(non_ascii, ascii, P=p["P"], radius=p["radius"], growth=p["growth"])
    if first is None:
        return common.empty(NAME, p, "no line has more non-ASCII than ASCII characters", text)
    assert last is not None  # column_region gives both bounds or neither
    paragraphs = extract_main_content(lines, first, last)
    del lines  # the page's bytes and line arrays: freed before the line-profile tuples are built
    return common.result(NAME, p, text, paragraphs, common.chosen_region(first, last, non_ascii, ascii, smoothed))
