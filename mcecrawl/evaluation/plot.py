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

# Colours: content (above) blue, code (below) grey, selected region a light green band.
CONTENT_COLOUR, CODE_COLOUR, REGION_COLOUR = "#1f77b4", "#7f7f7f", "#2ca02c"
REGION_ALPHA = 0.18
FIGSIZE = (12, 7)  # inches; 100 dpi gives a 1200x700 PNG, readable for pages of a few thousand lines
DPI = 100


class NoProfile(ValueError):
    """The extraction carries no per-line profile to draw."""


def plot_region(result: Extraction, out: str | Path, *, title: str = "") -> Path:
    """Draw Figures 2 and 3 of ``result.region`` into ``out`` (format from the suffix)."""
    region = result.region
    if region is None or not (region.content or region.code or region.smoothed):
        raise NoProfile(f"{result.algorithm} returned no per-line profile (status {result.status}"
                        f"{': ' + result.reason if result.reason else ''}); the line-based algorithms "
                        "(r2l, dana, danag) provide one")
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

    fig, (ax2, ax3) = plt.subplots(2, 1, figsize=FIGSIZE, sharex=True)
    if len(content):
        ax2.vlines(np.arange(len(content)), 0, content, colors=CONTENT_COLOUR, linewidth=1, label="content characters")
    if len(code):
        ax2.vlines(np.arange(len(code)), 0, -code, colors=CODE_COLOUR, linewidth=1, label="code characters")
    ax2.set_ylabel("characters per line\n(content up, code down)")
    ax2.set_title("Figure 2: per-line content and code")
    pos = np.where(diff > 0, diff, 0)
    neg = np.where(diff < 0, diff, 0)
    x = np.arange(len(diff))
    ax3.vlines(x, 0, pos, colors=CONTENT_COLOUR, linewidth=1, label=f"{diff_label} > 0")
    ax3.vlines(x, 0, neg, colors=CODE_COLOUR, linewidth=1, label=f"{diff_label} < 0")
    ax3.set_ylabel(diff_label)
    ax3.set_xlabel("line of the page")
    ax3.set_title("Figure 3: " + diff_label)
    for ax in (ax2, ax3):
        ax.axhline(0, color="black", linewidth=0.6)
        if result.status == "ok":
            ax.axvspan(region.first_line - 0.5, region.last_line + 0.5, color=REGION_COLOUR, alpha=REGION_ALPHA,
                       label=f"selected region, lines {region.first_line}-{region.last_line}")
        ax.legend(loc="upper right", fontsize=8)
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    fig.suptitle(f"{title}  [{result.algorithm}{' ' + params if params else ''}; {result.status}; "
                 f"{len(result.text)} chars extracted]".strip())
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=DPI)
    plt.close(fig)
    return out


__all__ = ["NoProfile", "plot_region"]
