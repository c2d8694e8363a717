"""The R2L paper's Figures 2 and 3 (seed 000 §4.1) for one page, from ``Extraction.region``.

Figure 2: for each line of the page, a column of the content count above the x-axis (R2L
characters, ``NEPL``) and one of the code count below it (``EPL``).  Figure 3: the (smoothed)
difference the region is chosen on, formula (1)/(2), positive above and negative below.  The
selected main-content region ``[first_line, last_line]`` is shaded on both.  matplotlib is the
optional extra ``plot``; it is imported only here.
"""
from __future__ import annotations

from pathlib import Path

from mcecrawl.algorithms.result import Extraction
from mcecrawl.exceptions import MceError

# Colours: content (above) blue, code (below) grey, selected region a light green band.
CONTENT_COLOUR, CODE_COLOUR, REGION_COLOUR = "#1f77b4", "#7f7f7f", "#2ca02c"
REGION_ALPHA = 0.18
FIGSIZE = (12, 9)  # inches; 100 dpi gives a 1200x900 PNG, readable for pages of a few thousand lines
DPI = 100
# One inline <script> line can hold 40,000 code characters next to content lines of 100-500:
# a symmetric-log y axis, linear up to this many characters, keeps both visible.
SYMLOG_LINEAR = 20
# The zoom panel shows the region plus this many lines (at least) on each side.
ZOOM_MARGIN = 40
# The algorithms whose Extraction.region carries a per-line profile (tests/commands/test_plot.py checks each).
LINE_PROFILE_ALGORITHMS = ("r2l", "dana", "danag", "scored_regions")


class NoLineProfile(MceError, ValueError):
    """The extraction carries no per-line profile to draw."""


def plot_region(result: Extraction, out: str | Path, *, title: str = "") -> Path:
    """Draw Figures 2 and 3 of ``result.region`` into ``out`` (format from the suffix)."""
    region = result.region
    if region is None or not (region.content or region.code or region.smoothed):
        raise NoLineProfile(f"{result.algorithm} returned no per-line profile (status {result.status}"
                            f"{': ' + result.reason if result.reason else ''}); the line-based algorithms "
                            f"({', '.join(LINE_PROFILE_ALGORITHMS)}) provide one")
    import matplotlib

    matplotlib.use("Agg")  # files only: works on machines without a display
    import matplotlib.pyplot as plt
    import numpy as np

    content = np.asarray(region.content, dtype=float)
    code = np.asarray(region.code, dtype=float)
    if region.smoothed:
        diff, diff_label = np.asarray(region.smoothed, dtype=float), "smoothed difference"
    else:
        n = min(len(content), len(code))
        diff, diff_label = content[:n] - code[:n], "difference (formula 1)"

    fig, (ax2, ax3, axz) = plt.subplots(3, 1, figsize=FIGSIZE)
    if len(content):
        ax2.vlines(np.arange(len(content)), 0, content, colors=CONTENT_COLOUR, linewidth=1, label="content characters")
    if len(code):
        ax2.vlines(np.arange(len(code)), 0, -code, colors=CODE_COLOUR, linewidth=1, label="code characters")
    ax2.set_ylabel("chars per line (symlog)\ncontent up, code down")
    ax2.set_title("Figure 2: per-line content and code")
    pos = np.where(diff > 0, diff, 0)
    neg = np.where(diff < 0, diff, 0)
    x = np.arange(len(diff))
    for ax in (ax3, axz):
        ax.vlines(x, 0, pos, colors=CONTENT_COLOUR, linewidth=1 if ax is ax3 else 3, label=f"{diff_label} > 0")
        ax.vlines(x, 0, neg, colors=CODE_COLOUR, linewidth=1 if ax is ax3 else 3, label=f"{diff_label} < 0")
    ax3.set_ylabel(f"{diff_label}\n(symlog)")
    ax3.set_title("Figure 3: " + diff_label)
    lo, hi = region.first_line, region.last_line
    margin = max(ZOOM_MARGIN, hi - lo + 1)
    axz.set_xlim(max(-0.5, lo - margin), min(len(diff) - 0.5, hi + margin) if len(diff) else hi + margin)
    window = diff[max(0, lo - margin):hi + margin + 1]
    if window.size:
        span = max(1.0, float(np.abs(window).max()))
        axz.set_ylim(-span * 1.05, span * 1.05)
    axz.set_title("Figure 3, zoomed on the selected region (linear)")
    axz.set_ylabel(diff_label)
    axz.set_xlabel("line of the page")
    for ax in (ax2, ax3):
        ax.set_yscale("symlog", linthresh=SYMLOG_LINEAR)
        ax.set_xlim(-0.5, max(len(content), len(code), len(diff), 1) - 0.5)
    for ax in (ax2, ax3, axz):
        ax.axhline(0, color="black", linewidth=0.6)
        if result.status == "ok":
            ax.axvspan(lo - 0.5, hi + 0.5, color=REGION_COLOUR, alpha=REGION_ALPHA,
                       label=f"selected region, lines {lo}-{hi}")
        ax.legend(loc="lower right", fontsize=8)
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    fig.suptitle(f"{title}: {result.algorithm}, {result.status}, {len(result.text)} characters extracted"
                 + (f"\n{params}" if params else ""), fontsize=10)
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=DPI)
    plt.close(fig)
    return out


__all__ = ["NoLineProfile", "plot_region"]
