"""``mcecrawl evaluate``: accuracy of the algorithms (and peers) on gold datasets; the CI gate."""
from __future__ import annotations

import argparse
import json
import sys
import time

HELP = ("score algorithms on gold datasets: LCS P/R/F1 with 95% CIs and WCXB's F1, per site/language/page type; "
        "--gate checks the floors")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("datasets", nargs="*", metavar="DATASET",
                        help="dataset folders in the format of docs/evaluation.md (manifest.jsonl, pages/, gold/)")
    parser.add_argument("--algorithm", "-a", default=None,
                        help="comma-separated algorithms (default: every algorithm of the product; the seed papers' "
                             "baselines, e.g. bte or tccb, only when named); peers as peer:NAME")
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm parameter (repeatable)")
    parser.add_argument("--by", action="append", choices=("site", "lang", "script", "page_type"), default=[],
                        help="add a breakdown (repeatable); per-script rows are always shown for R2L data, "
                             "per-page-type rows whenever the manifest has page_type (wcxb_dev)")
    parser.add_argument("--peers", action="store_true", help="also run the installed peers (trafilatura, "
                        "readability-lxml, resiliparse; pip install 'mcecrawl[peers]')")
    parser.add_argument("--gold", choices=("gold", "gold_in_page"), default="gold",
                        help="gold variant: gold_in_page keeps only gold text present in the stored page, where a "
                             "dataset provides it (default: gold)")
    parser.add_argument("--json", metavar="OUT", help="write every figure and per-page record as JSON ('-' = stdout)")
    parser.add_argument("--predictions", action="append", metavar="FILE.jsonl", default=[],
                        help="also score stored outputs: JSON lines of {\"id\": page id, \"text\": ...} (repeatable)")
    parser.add_argument("--worst", type=int, default=0, metavar="N",
                        help="list the N pages with the lowest F1 per algorithm (to see what fails)")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown summary table at the end")
    parser.add_argument("--gate", action="store_true",
                        help="check the pinned floors of --baseline instead (CI quality gate); exit 1 on a drop")
    parser.add_argument("--update-baseline", action="store_true",
                        help="measure and pin the floors of --baseline; refuses to lower one without --allow-lower")
    parser.add_argument("--allow-lower", action="store_true", help="with --update-baseline: allow lowering a floor")
    parser.add_argument("--baseline", default=None,
                        help="baseline file (default: the package's mcecrawl/evaluation/baseline.json; "
                             "--update-baseline of an installed package needs this)")
    parser.add_argument("--data-root", default=None,
                        help="with --gate/--update-baseline: folder holding the pinned datasets "
                             "(default: $MCE_DATA_ROOT; docs/evaluation.md)")


def run(args: argparse.Namespace) -> int:
    from mcecrawl import algorithms
    from mcecrawl.commands import parse_params
    from mcecrawl.evaluation import gate
    from mcecrawl.evaluation.datasets import load_dataset
    from mcecrawl.evaluation.peers import PEER_PREFIX, available_peers
    from mcecrawl.evaluation.report import dataset_table, markdown_summary
    from mcecrawl.evaluation.runner import FILE_PREFIX, evaluate_dataset, primary_f1, worst_pages

    try:
        params = parse_params(args.param)
    except argparse.ArgumentTypeError as exc:
        print(f"mcecrawl evaluate: {exc}", file=sys.stderr)
        return 2
    if args.gate or args.update_baseline:
        return gate.main(baseline=args.baseline, data_root=args.data_root, update=args.update_baseline,
                         allow_lower=args.allow_lower, datasets=args.datasets or None,
                         algorithms=args.algorithm.split(",") if args.algorithm else None)
    if not args.datasets:
        print("mcecrawl evaluate: give at least one DATASET folder", file=sys.stderr)
        return 2
    names = ([n.strip() for n in args.algorithm.split(",") if n.strip()] if args.algorithm
             else sorted(algorithms.ALGORITHMS))
    if args.peers:
        names += [PEER_PREFIX + p for p in available_peers() if PEER_PREFIX + p not in names]
    names += [FILE_PREFIX + p for p in args.predictions]
    if not names:
        print("mcecrawl evaluate: no algorithm is registered yet and none was named", file=sys.stderr)
        return 2

    out: dict = {"algorithms": names, "params": params, "gold_variant": args.gold, "datasets": {}}
    ran_any = False
    for path in args.datasets:
        try:
            dataset = load_dataset(path)
        except (FileNotFoundError, ValueError) as exc:
            print(f"mcecrawl evaluate: {exc}", file=sys.stderr)
            return 2
        start = time.perf_counter()
        reports = evaluate_dataset(dataset, names, params, gold_variant=args.gold)
        elapsed = time.perf_counter() - start
        ran_any |= any(not r.unavailable for r in reports)
        print(dataset_table(dataset.name, len(dataset.scored()), reports, args.by, args.gold))
        for rep in reports if args.worst > 0 else ():
            if rep.unavailable:
                continue
            print(f"-- {rep.algorithm}: {args.worst} worst pages")
            for r in worst_pages(rep.records, args.worst):
                print(f"   F1 {primary_f1(r):.3f}  {r['status']:5}  {r['site'][:24]:24} {r['id']}"
                      + (f"  ({r['reason']})" if r["reason"] else ""))
        print(f"({elapsed:.1f} s wall for {dataset.name})\n")
        out["datasets"][dataset.name] = {"path": str(path), "pages": len(dataset.scored()), "seconds": elapsed,
                                         "results": [r.as_dict(args.by) for r in reports]}
    if args.markdown:
        print(markdown_summary(out))
    if args.json:
        text = json.dumps(out, ensure_ascii=False, indent=1)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    return 0 if ran_any else 2
