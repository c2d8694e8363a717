"""``mcecrawl tune``: the R2L paper's heuristic fitness function (HFF, seed 000 §4.4) per site."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import cast

from mcecrawl.exceptions import MceError

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
    parser.add_argument("dataset", metavar="DATASET", help="dataset folder in the format of docs/evaluation.md")
    parser.add_argument("--site", help="site to tune for (manifest 'site' or URL host without www.); '*' = all pages")
    parser.add_argument("--each-site", action="store_true",
                        help="run the HFF for every site of the dataset and print a table (writes no profile)")
    parser.add_argument("--algorithm", "-a", required=True, help="registered algorithm, e.g. r2l or dana")
    parser.add_argument("--param", required=True, metavar="NAME=RANGE",
                        help="parameter and values: P=1..20 (the paper's interval), P=1..20:2, or w=0.1,0.5")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", help="other fixed parameters (repeatable)")
    parser.add_argument("--gold", choices=("gold", "gold_in_page"), default="gold", help="gold variant (default: gold)")
    parser.add_argument("--profile", metavar="PATH",
                        help="profile JSON to write/merge (default, in a source checkout only: the bundled profile "
                             "whose name or live_hosts match --site; an installed package's are never written)")
    parser.add_argument("--dry-run", action="store_true", help="print the curve and the choice, write nothing")
    parser.add_argument("--json", metavar="OUT", help="also write the curve as JSON")


# Mean F1s closer than this are equal: they differ only by float summation order.
F1_TIE = 1e-9


def choose(values: list, f1: list[float]) -> int:
    """Index of the chosen value: the highest mean F1; on a plateau of equal best values, the
    middle of the longest run of them (the value farthest from a drop on either side, so the
    choice survives small changes of the site), lower middle when the run has even length."""
    best = max(f1)
    runs, current = [], []
    for i, v in enumerate(f1):
        if best - v <= F1_TIE:
            current.append(i)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    longest = max(runs, key=len)  # first of equally long runs
    return longest[(len(longest) - 1) // 2]


class TuneError(MceError):
    """A usage problem reported as ``mcecrawl tune: ...`` with exit status 2."""


def hff_curve(pages, algorithm: str, runner, name: str, values: list, fixed: dict, gold: str) -> list[float]:
    """Mean primary F1 of ``pages`` for each value of parameter ``name`` (the HFF's curve)."""
    from mcecrawl.evaluation.runner import primary_f1, run_pages

    curve = []
    for value in values:
        try:
            recs = run_pages(pages, algorithm, {**fixed, name: value}, gold_variant=gold, runner=runner,
                             primary_only=True)
        except ValueError as exc:  # the algorithm's ParamError: unknown parameter or bad value
            raise TuneError(str(exc)) from None
        if all(r["status"] == "error" for r in recs):
            raise TuneError(f"{algorithm} failed on every page with {name}={value!r}: {recs[0]['reason']}")
        curve.append(sum(cast(float, primary_f1(r)) for r in recs) / len(recs))  # scored pages: never None
    return curve


def gold_pages(pages) -> tuple[tuple, str]:
    """Full-gold pages carry the figure when there are any; snippet gold only when that is all."""
    kind = "full" if any(p.gold_kind == "full" for p in pages) else "snippets"
    return tuple(p for p in pages if p.gold_kind == kind), ("word-token LCS-F1" if kind == "full" else "snippet F1")


def run(args: argparse.Namespace) -> int:
    from mcecrawl.commands import parse_params
    from mcecrawl.evaluation.datasets import load_dataset
    from mcecrawl.evaluation.gate import in_source_checkout
    from mcecrawl.evaluation.runner import UnknownAlgorithm, resolve
    from mcecrawl.evaluation.tuning import PROFILES_DIR, find_profiles, merge_extraction

    if not (args.profile or args.dry_run or args.each_site or in_source_checkout()):
        # As evaluate --update-baseline: an installed package's files are not the user's to rewrite.
        print(f"mcecrawl tune: the installed package's profiles ({PROFILES_DIR}) are not written; give --profile "
              f"PATH (a copy of the site's profile, or a new file), or --dry-run", file=sys.stderr)
        return 2
    try:
        name, values = parse_range(args.param)
        fixed = parse_params(args.set)
        dataset = load_dataset(args.dataset)
        runner = resolve(args.algorithm)
        if args.site is None and not args.each_site:
            raise TuneError("give --site SITE (or '*' for all pages), or --each-site")
        if args.each_site:
            return _each_site(dataset, args, runner, name, values, fixed)
        pages = dataset.scored() if args.site == "*" else dataset.filter(site=args.site).scored()
        if not pages:
            sites = sorted({p.site for p in dataset.scored()})
            raise TuneError(f"no scored page of site {args.site!r} in {dataset.name} (sites: {', '.join(sites)})")
        pages, measure = gold_pages(pages)
        curve = hff_curve(pages, args.algorithm, runner, name, values, fixed, args.gold)
    except (argparse.ArgumentTypeError, FileNotFoundError, ValueError, UnknownAlgorithm, TuneError) as exc:
        print(f"mcecrawl tune: {exc}", file=sys.stderr)
        return 2
    for value, f1 in zip(values, curve):
        print(f"{name}={value!s:>6}  mean F1 {f1:.4f}  " + "#" * round(f1 * 50))
    best = choose(values, curve)
    print(f"best {name}={values[best]} (mean {measure} {curve[best]:.4f} on {len(pages)} pages of {args.site} "
          f"in {dataset.name})")
    tuning = {"param": name, "values": values, "f1": [round(v, 6) for v in curve], "dataset": dataset.name,
              "pages": len(pages), "site": args.site, "measure": measure, "gold": args.gold}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"best": values[best], **tuning}, f, ensure_ascii=False, indent=1)
    if args.dry_run:
        return 0
    matches = [args.profile] if args.profile else find_profiles(args.site)
    if len(matches) != 1:
        which = f"several bundled profiles match site {args.site!r} ({', '.join(Path(m).stem for m in matches)})" \
            if matches else f"no bundled profile matches site {args.site!r}"
        print(f"{which}; pass --profile PATH to choose (nothing written)")
        return 0
    path = matches[0]
    measured = (f"mcecrawl tune: {name}={values[best]} gives mean {measure} {curve[best]:.3f} on {len(pages)} pages "
                f"of {args.site} in {dataset.name} (best of {name}={values[0]}..{values[-1]}"
                f"{'; fixed ' + json.dumps(fixed) if fixed else ''}; curve in 'tuning')")
    merge_extraction(path, args.algorithm, {**fixed, name: values[best]}, tuning, measured)
    print(f"wrote extraction of {path}")
    return 0


def _each_site(dataset, args, runner, name: str, values: list, fixed: dict) -> int:
    """The paper's Table 2, columns 5-6: the HFF's value and its F1 for every site (writes nothing)."""
    rows = {}
    print(f"{'site':24} {'pages':>5} {'measure':18} {'best ' + name:>8} {'F1':>6}  F1 over {values[0]}..{values[-1]}")
    for site in sorted({p.site for p in dataset.scored()}):
        pages, measure = gold_pages(dataset.filter(site=site).scored())
        curve = hff_curve(pages, args.algorithm, runner, name, values, fixed, args.gold)
        best = choose(values, curve)
        rows[site] = {"best": values[best], "param": name, "values": values, "f1": [round(v, 6) for v in curve],
                      "pages": len(pages), "measure": measure}
        spark = "".join(" .:-=+*#%@"[min(9, int(v * 10))] for v in curve)
        print(f"{site[:24]:24} {len(pages):5d} {measure:18} {values[best]!s:>8} {curve[best]:6.3f}  {spark}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"dataset": dataset.name, "algorithm": args.algorithm, "sites": rows}, f, ensure_ascii=False,
                      indent=1)
    return 0
