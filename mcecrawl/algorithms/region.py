"""Finding the main-content region in a line profile (shared by R2L, DANA, DANAg).

Phases
------
:func:`smooth`
    Formula (2) of the R2L paper [1]_ (§4.1) = the DANA slides' "smoothed diagram" [2]_ =
    formula (1) of DANAg [3]_ (§3.2): the content-minus-code difference of each line summed
    with its neighbours i-1 and i+1.
:func:`longest_column`
    R2L/DANA: the line with the longest column above the x-axis of the smoothed diagram.
:func:`largest_region`
    DANAg (§3.2): among the runs of lines above the axis, the run with the most characters.
:func:`grow_boundaries`
    R2L §4.1 (parameter P), DANA (P), DANAg §3.3 (gap): move up and down from the seed while
    another content line lies within P lines.

Every function is O(number of lines) with numpy; none loops over lines in Python.

References
----------
.. [1] H. Mohammadzadeh, F. Schweiggert, G. Nakhaeizadeh (2011). Using UTF-8 to extract main
   content of right to left language web pages. ICSOFT 2011. DOI 10.5220/0003508502430249.
.. [2] H. Mohammadzadeh, T. Gottron, F. Schweiggert, G. Nakhaeizadeh (2011). A fast and accurate
   approach for main content extraction based on character encoding. TIR 2011 (slides).
.. [3] H. Mohammadzadeh, T. Gottron, F. Schweiggert, G. Nakhaeizadeh (2011). Extracting the main
   content of web documents based on a naive smoothing method. KDIR 2011.
"""
from __future__ import annotations

import numpy as np

# Lines on each side summed by the smoothing: 1 gives the papers' i-1, i, i+1 (formula (2) of [1]).
SMOOTHING_RADIUS = 1


def smooth(content: np.ndarray, code: np.ndarray, *, radius: int = SMOOTHING_RADIUS) -> np.ndarray:
    """Smoothed difference ``diff_i = sum_{j=i-r}^{i+r} (content_j - code_j)``.

    Parameters
    ----------
    content, code : numpy.ndarray
        Per-line counts (NEPL/EPL of [1]_, T1/T2 of [2]_ and [3]_).
    radius : int
        Neighbours on each side; lines beyond the page count 0.

    Returns
    -------
    numpy.ndarray of int64

    Notes
    -----
    .. math:: diff_i = \\sum_{j=i-1}^{i+1} length(NEPL_j) - length(EPL_j)   \\qquad (2)

    Examples
    --------
    >>> smooth(np.array([0, 0, 10, 0, 0]), np.zeros(5, dtype=int)).tolist()
    [0, 10, 10, 10, 0]
    """
    diff = np.asarray(content, dtype=np.int64) - np.asarray(code, dtype=np.int64)
    if radius <= 0 or len(diff) == 0:
        return diff
    # Windowed sum through a cumulative sum: O(n) whatever the radius.
    padded = np.concatenate((np.zeros(radius + 1, dtype=np.int64), diff, np.zeros(radius, dtype=np.int64)))
    csum = np.cumsum(padded)
    return csum[2 * radius + 1:] - csum[:len(diff)]


def longest_column(smoothed: np.ndarray) -> int | None:
    """R2L/DANA: index of the longest column above the x-axis (first one on ties), or None.

    R2L paper §4.1, second step: "we find a column with the longest length above the x-axis".
    """
    if len(smoothed) == 0:
        return None
    i = int(np.argmax(smoothed))
    return i if smoothed[i] > 0 else None


def positive_runs(smoothed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and last line (inclusive) of each maximal run of lines above the axis."""
    above = np.concatenate(([False], smoothed > 0, [False]))
    edges = np.flatnonzero(above[1:] != above[:-1])
    return edges[0::2], edges[1::2] - 1


def largest_region(smoothed: np.ndarray, content: np.ndarray) -> tuple[int, int] | None:
    """DANAg §3.2: the run above the axis holding the most content characters, or None.

    "we count the number of characters for each region above the x-axis and then among all
    regions we specify the position of just one region with the maximum number of characters".
    The characters counted are the content characters (T1) of the run's lines.
    """
    firsts, lasts = positive_runs(smoothed)
    if not len(firsts):
        return None
    csum = np.concatenate(([0], np.cumsum(content, dtype=np.int64)))
    totals = csum[lasts + 1] - csum[firsts]
    best = int(np.argmax(totals))
    return int(firsts[best]), int(lasts[best])


def grow_boundaries(is_content: np.ndarray, first: int, last: int, gap: int) -> tuple[int, int]:
    """Extend the seed lines ``first..last`` up and down over content lines at most ``gap`` apart.

    R2L paper §4.1: "we go up or down, respectively until we can not find a line containing
    characters which are members of S1" within P lines.  Growth continues across exactly ``gap``
    non-content lines and stops at ``gap + 1``.

    Parameters
    ----------
    is_content : numpy.ndarray of bool
        Which lines count as content (literal reading: the line has R2L/non-ASCII/content
        characters; smoothed reading: its smoothed difference is above the axis).
    first, last : int
        The seed (one line for R2L/DANA, a run for DANAg).
    gap : int
        P of the R2L paper and DANA, the gap of DANAg.

    Returns
    -------
    (first, last) : tuple of int
        The region, inclusive.

    Examples
    --------
    >>> grow_boundaries(np.array([1, 0, 0, 1, 1, 0, 0, 0, 1], dtype=bool), 3, 3, gap=2)
    (0, 4)
    """
    mask = np.asarray(is_content, dtype=bool).copy()
    mask[first:last + 1] = True
    pos = np.flatnonzero(mask)
    blank = np.diff(pos) - 1  # non-content lines between consecutive content lines
    breaks = np.flatnonzero(blank > gap)  # break b lies between pos[b] and pos[b + 1]
    i0 = int(np.searchsorted(pos, first))
    i1 = int(np.searchsorted(pos, last))
    left = breaks[breaks < i0]
    right = breaks[breaks >= i1]
    lo = int(pos[left[-1] + 1]) if len(left) else int(pos[0])
    hi = int(pos[right[0]]) if len(right) else int(pos[-1])
    return lo, hi




def column_region(text: np.ndarray, other: np.ndarray, *, P: int, radius: int, growth: str
                  ) -> tuple[int | None, int | None, np.ndarray]:
    """R2L §4.1 second step, DANA phase two: smoothing, the longest column above the axis, its
    boundaries grown over lines at most ``P`` apart (``growth`` "literal": lines with ``text``
    characters; "smoothed": lines above the axis).  Returns (first, last, smoothed), first/last
    None when no column lies above the axis."""
    smoothed = smooth(text, other, radius=radius)
    seed = longest_column(smoothed)
    if seed is None:
        return None, None, smoothed
    is_content = text > 0 if growth == "literal" else smoothed > 0
    first, last = grow_boundaries(is_content, seed, seed, P)
    return first, last, smoothed
