"""``mcecrawl tune``: the R2L paper's heuristic fitness function (HFF, seed 000 §4.4) per site."""
from __future__ import annotations

import argparse
import json
import sys

HELP = "pick a parameter per site by mean F1 over a range (the HFF, e.g. P=1..20) and write it into the site profile"


def parse_range(spec: str) -> tuple[str, list]:
    """``"P=1..20"`` (inclusive), ``"P=1..20:2"`` (step) or ``"w=0.1,0.2,0.5"`` -> (name, values)."""
    name, sep, values = spec.partition("=")
    if not sep or not name or not values:
        raise argparse.ArgumentTypeError(f"--param wants NAME=A..B[:STEP] or NAME=V1,V2,..., not {spec!r}")
    if ".." in values:
        bounds, _, step = values.partition(":")
        lo, _, hi = bounds.partition("..")
        try:
            lo_i, hi_i, step_i = int(lo), int(hi), int(step or 1)
        except ValueError:
            raise argparse.ArgumentTypeError(f"integer range wanted in {spec!r}") from None
        if step_i <= 0 or hi_i < lo_i:
            raise argparse.ArgumentTypeError(f"empty range {spec!r}")
        return name, list(range(lo_i, hi_i + 1, step_i))
    out = []
    for v in values.split(","):
        try:
            out.append(json.loads(v))
        except json.JSONDecodeError:
            out.append(v)
    return name, out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", metavar="DATASET", help="dataset folder in the ../shared/data format")
    parser.add_argument("--site", required=True,
                        help="site to tune for (manifest 'site' or URL host without www.); '*' = all pages")
    parser.add_argument("--algorithm", "-a", required=True, help="registered algorithm, e.g. r2l or dana")
    parser.add_argument("--param", required=True, metavar="NAME=RANGE",
                        help="parameter and values: P=1..20 (the paper's interval), P=1..20:2, or w=0.1,0.5")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", help="other fixed parameters (repeatable)")
    parser.add_argument("--gold", choices=("gold", "gold_in_page"), default="gold", help="gold variant (default: gold)")
    parser.add_argument("--profile", metavar="PATH",
                        help="profile JSON to write/merge (default: the bundled profile whose name or live_hosts "
                             "match --site)")
    parser.add_argument("--dry-run", action="store_true", help="print the curve and the choice, write nothing")
    parser.add_argument("--json", metavar="OUT", help="also write the curve as JSON")


def choose(values: list, f1: list[float]) -> int:
    """Index of the chosen value: the highest mean F1; on a plateau of equal best values, the
    middle of the longest run of them (the value farthest from a drop on either side, so the
    choice survives small changes of the site), lower middle when the run has even length."""
    best = max(f1)
    runs, current = [], []
    for i, v in enumerate(f1):
        if v == best:
            current.append(i)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    longest = max(runs, key=len)  # first of equally long runs
    return longest[(len(longest) - 1) // 2]


def run(args: argparse.Namespace) -> int:
    from mcecrawl.commands.evaluate import parse_params
    from mcecrawl.evaluation.datasets import load_dataset
    from mcecrawl.evaluation.runner import UnknownAlgorithm, primary_f1, resolve, run_pages
    from mcecrawl.evaluation.tuning import find_profile, merge_extraction

    try:
        name, values = parse_range(args.param)
        fixed = parse_params(args.set)
        dataset = load_dataset(args.dataset)
        runner = resolve(args.algorithm)
    except (argparse.ArgumentTypeError, FileNotFoundError, ValueError, UnknownAlgorithm) as exc:
        print(f"mcecrawl tune: {exc}", file=sys.stderr)
        return 2
    pages = dataset.scored() if args.site == "*" else dataset.filter(site=args.site).scored()
    if not pages:
        sites = sorted({p.site for p in dataset.scored()})
        print(f"mcecrawl tune: no scored page of site {args.site!r} in {dataset.name} (sites: {', '.join(sites)})",
              file=sys.stderr)
        return 2
    # Full-gold pages carry the figure when there are any; snippet gold only when that is all.
    kinds = "full" if any(p.gold_kind == "full" for p in pages) else "snippets"
    pages = tuple(p for p in pages if p.gold_kind == kinds)

    curve = []
    for value in values:
        try:
            recs = run_pages(pages, args.algorithm, {**fixed, name: value}, gold_variant=args.gold, runner=runner,
                             primary_only=True)
        except ValueError as exc:  # the algorithm's ParamError: unknown parameter or bad value
            print(f"mcecrawl tune: {exc}", file=sys.stderr)
            return 2
        if all(r["status"] == "error" for r in recs):
            print(f"mcecrawl tune: {args.algorithm} failed on every page with {name}={value!r}: {recs[0]['reason']}",
                  file=sys.stderr)
            return 2
        curve.append(sum(primary_f1(r) for r in recs) / len(recs))
        print(f"{name}={value!s:>6}  mean F1 {curve[-1]:.4f}  " + "#" * round(curve[-1] * 50))
    best = choose(values, curve)
    measure = "word-token LCS-F1" if kinds == "full" else "snippet F1"
    print(f"best {name}={values[best]} (mean {measure} {curve[best]:.4f} on {len(pages)} pages of {args.site} "
          f"in {dataset.name})")
    tuning = {"param": name, "values": values, "f1": [round(v, 6) for v in curve], "dataset": dataset.name,
              "pages": len(pages), "site": args.site, "measure": measure, "gold": args.gold}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"best": values[best], **tuning}, f, ensure_ascii=False, indent=1)
    if args.dry_run:
        return 0
    path = args.profile or find_profile(args.site)
    if path is None:
        print(f"no bundled profile matches site {args.site!r}; pass --profile PATH to write one (nothing written)")
        return 0
    merge_extraction(path, args.algorithm, {**fixed, name: values[best]}, tuning)
    print(f"wrote extraction of {path}")
    return 0
