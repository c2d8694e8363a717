"""DANAg: language-independent main-content extraction by naive smoothing (Mohammadzadeh et al. 2011).

One preprocessing step and four phases of the paper [1]_ (§3), each one function:

0. :func:`remove_scripts_styles_comments` — §3 preprocessing: JavaScript, CSS and comments are
   removed (their lines leave the line profile altogether).
1. :func:`calculate_lengths` — §3.1: characters of content (the parser's text tokens, located in
   their lines) and of code (markup) per line, T1 and T2.
2. :func:`find_first_paragraph` — §3.2: smoothing (formula 1) and, among the regions above the
   x-axis, the one with the most characters.
3. :func:`recognize_boundary` — §3.3: paragraphs around it at most ``gap`` lines apart.
4. :func:`extract_main_content` — §3.4: the area fed to a parser (lxml).

Decisions taken by measurement on the 8 full-gold Arabic-script pages of the r2l dev set (docs/evaluation.md)
(mean word-LCS F1; ``python benchmarks/bench_extract.py sweep``, BENCHMARKS.md):

* ``split`` "tag" (0.948) over "block" (0.936).
* ``growth`` "smoothed" (a paragraph is a run above the axis, as §3.3 reads) over "literal"
  (any line with content characters: 0.804).
* ``weight`` characters (0.948) over UTF-8 bytes (0.933).
* ``gap`` 30.  With a tag per line, a paragraph block spans several lines, so the paper's 20
  shrinks in effect.  r2l: 8: 0.869, 20: 0.926, 30: 0.948, 40: 0.920.  The independent
  ``scrapinghub_aeb`` set (181 pages, mostly English): 8: 0.742, 20: 0.852, 30: 0.868,
  40: 0.862.  ``chinese_wce`` (69 pages): 20: 0.825, 30: 0.829.

References
----------
.. [1] H. Mohammadzadeh, T. Gottron, F. Schweiggert, G. Nakhaeizadeh (2011). Extracting the main
   content of web documents based on a naive smoothing method. KDIR 2011, pp. 470-475.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms.lines import SPLIT_MODES, WEIGHTS, Lines
from mcecrawl.algorithms.parse import parse_lines
from mcecrawl.algorithms.profile_impl import count_content_code, segment_lines
from mcecrawl.algorithms.region import (
    SMOOTHING_RADIUS,
    grow_boundaries,
    largest_region,
    smooth,
)
from mcecrawl.algorithms.result import Extraction

NAME = "danag"
GROWTH_MODES = ("smoothed", "literal")
# Lines between two paragraphs of the main content.  DANAg §3.3: 20; re-tuned after tag-per-line
# segmentation to 30 (module docstring).
GAP_DEFAULT = 30
WEIGHT_DEFAULT = "chars"  # papers' string lengths; measured better than bytes (module docstring)
GROWTH_DEFAULT = "smoothed"  # §3.3 grows over paragraphs = regions above the axis
SPLIT_DEFAULT = "tag"  # R2L paper §4.1 preprocessing; measured better than "block"

DEFAULTS = {"gap": GAP_DEFAULT, "radius": SMOOTHING_RADIUS, "weight": WEIGHT_DEFAULT,
            "growth": GROWTH_DEFAULT, "split": SPLIT_DEFAULT}
CHOICES = {"weight": WEIGHTS, "growth": GROWTH_MODES, "split": SPLIT_MODES}


def remove_scripts_styles_comments(lines: Lines) -> np.ndarray:
    """Preprocessing (§3): indices of the lines left once scripts, styles and comments are removed."""
    return np.flatnonzero(~lines.protected)


def calculate_lengths(lines: Lines, kept: np.ndarray, *, weight: str = WEIGHT_DEFAULT
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Phase 1 (§3.1): content (T1) and code (T2) characters of each kept line.

    Content characters are those of text between tags (whitespace excluded), code characters
    those of the tags themselves; located on the source lines without building a tree.
    """
    content, code = count_content_code(lines, weight=weight)
    return content[kept], code[kept]


def find_first_paragraph(content: np.ndarray, code: np.ndarray, *, radius: int = SMOOTHING_RADIUS
                         ) -> tuple[tuple[int, int] | None, np.ndarray]:
    """Phase 2 (§3.2): smoothing with formula (1), then the region above the axis with most characters.

    .. math:: diff_i = \\sum_{j=i-1}^{i+1} T1_j - T2_j   \\qquad (1)

    Returns
    -------
    ((first, last) or None, smoothed)
    """
    smoothed = smooth(content, code, radius=radius)
    return largest_region(smoothed, content), smoothed


def recognize_boundary(content: np.ndarray, smoothed: np.ndarray, first: int, last: int, *,
                       gap: int = GAP_DEFAULT, growth: str = GROWTH_DEFAULT) -> tuple[int, int]:
    """Phase 3 (§3.3): add the paragraphs around the first one, at most ``gap`` lines apart."""
    is_content = smoothed > 0 if growth == "smoothed" else content > 0
    return grow_boundaries(is_content, first, last, gap)


def extract_main_content(lines: Lines, kept: np.ndarray, first: int, last: int) -> list[str]:
    """Phase 4 (§3.4): parse the area (lines ``first..last`` of the kept lines)."""
    return parse_lines(lines, int(kept[first]), int(kept[last]))


def danag(text: str, **params: Any) -> Extraction:
    """Extract the main content of an HTML page with DANAg (any language).

    Parameters
    ----------
    text : str
        The decoded page.
    **params
        ``gap`` (lines, default 30), ``radius`` (smoothing neighbours, 1), ``weight``
        ("chars"/"bytes"), ``growth`` ("smoothed"/"literal"), ``split`` ("block"/"tag").

    Returns
    -------
    Extraction
        ``region`` indexes the lines left after preprocessing (scripts, styles, comments gone).
    """
    p = common.resolve_params(NAME, DEFAULTS, CHOICES, params)
    lines = segment_lines(text, split=p["split"])
    kept = remove_scripts_styles_comments(lines)
    content, code = calculate_lengths(lines, kept, weight=p["weight"])
    if not content.any():
        return common.empty(NAME, p, "no text outside tags, scripts, styles and comments", text)
    seed, smoothed = find_first_paragraph(content, code, radius=p["radius"])
    if seed is None:
        return common.empty(NAME, p, "no line has more content than code characters", text)
    first, last = recognize_boundary(content, smoothed, *seed, gap=p["gap"], growth=p["growth"])
    paragraphs = extract_main_content(lines, kept, first, last)
    del lines  # the page's bytes and line arrays: freed before the line-profile tuples are built
    return common.result(NAME, p, text, paragraphs, common.chosen_region(first, last, content, code, smoothed))
