"""``mcecrawl plot``: see why a region was chosen (the R2L paper's Figures 2 and 3)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "draw a page's line profile (content/code per line) and the selected region (needs the 'plot' extra: matplotlib)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("page", metavar="PAGE.html", help="an HTML file (any encoding)")
    parser.add_argument("-o", "--output", required=True, metavar="FIG.png", help="image to write (.png, .svg, .pdf)")
    parser.add_argument("--algorithm", "-a", default="dana",
                        help="line-based algorithm: r2l, dana or danag (default: dana)")
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm parameter (repeatable)")
    parser.add_argument("--content-type", default=None,
                        help="HTTP Content-Type to decode with, e.g. 'text/html; charset=windows-1256'")


def run(args: argparse.Namespace) -> int:
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        print("mcecrawl plot: matplotlib is not installed (pip install 'mcecrawl[plot]')", file=sys.stderr)
        return 2
    from mcecrawl import algorithms
    from mcecrawl.commands import parse_params
    from mcecrawl.encoding import decode
    from mcecrawl.evaluation.plot import NoLineProfile, plot_region

    try:
        params = parse_params(args.param)
        body = Path(args.page).read_bytes()
    except (argparse.ArgumentTypeError, OSError) as exc:
        print(f"mcecrawl plot: {exc}", file=sys.stderr)
        return 2
    if args.algorithm not in algorithms.ALGORITHMS and args.algorithm not in algorithms.BASELINES:
        print(f"mcecrawl plot: unknown algorithm {args.algorithm!r} "
              f"(available: {', '.join(sorted(algorithms.ALGORITHMS)) or 'none registered yet'})", file=sys.stderr)
        return 2
    text = decode(body, args.content_type, read_text=True).text
    result = algorithms.extract(text, algorithm=args.algorithm, **params)
    try:
        out = plot_region(result, args.output, title=Path(args.page).name)
    except NoLineProfile as exc:
        print(f"mcecrawl plot: {exc}", file=sys.stderr)
        return 1
    region = result.region
    assert region is not None  # plot_region raised NoLineProfile otherwise
    print(f"{out}: {result.algorithm} {result.status}, region lines {region.first_line}-{region.last_line} "
          f"of {max(len(region.content), len(region.smoothed))}, {len(result.text)} chars")
    return 0
