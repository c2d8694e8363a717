"""A/B against an earlier commit: identical accuracy, and extraction timings measured in one run.

    python benchmarks/bench_ab.py 733ab14                      # every algorithm, all six dev sets
    python benchmarks/bench_ab.py 733ab14 --rounds 5 --algorithms scored_regions dana

The earlier commit is checked out in a temporary ``git worktree``; each side runs in its own
interpreter with its own tree first on ``sys.path``.  Accuracy: the mean word-LCS F1 (and
precision, recall, snippet accuracy) of every algorithm on every dev set must be identical, and so
must a hash of every record's scores and one of every page's text, title, status and reason.
Timing: the pages of ``r2l`` and ``scrapinghub_aeb`` extracted by each algorithm, rounds
alternating A, B, A, B, ... (so both sides share the machine's load); the best round of each side
counts.  Data: ``--data-root`` or ``MCE_DATA_ROOT`` (default ``../shared/data``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ("r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval", "wcxb_dev")
TIMED = ("r2l", "scrapinghub_aeb")
ALGORITHMS = ("scored_regions", "dana", "danag", "r2l", "xpath_blocks")
TOLERANCE = 0.10  # timings within 10 % count as unchanged

# Run inside each tree's interpreter: accuracy summaries and output hashes, or one timing round.
_CHILD = r"""
import hashlib, json, sys, time
from mcecrawl.algorithms import extract
from mcecrawl.evaluation.datasets import load_dataset
from mcecrawl.evaluation.runner import evaluate_dataset
mode, root, algorithms = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
out = {}
if mode == "accuracy":
    for ds in %(datasets)r:
        data = load_dataset(f"{root}/{ds}")
        for report in evaluate_dataset(data, algorithms):
            s = report.summary()
            h = hashlib.sha1()
            for r in report.records:
                h.update(json.dumps([r["id"], r["status"], r.get("f1"), r.get("snippet_accuracy")]).encode())
            out[f"{ds}/{report.algorithm}"] = {k: s.get(k) for k in ("f1", "precision", "recall", "snippet_accuracy",
                                                                   "errors", "empties")} | {"records": h.hexdigest()}
        for name in algorithms:  # the outputs themselves: text, title, status and reason of every page
            h = hashlib.sha1()
            for p in data.pages:
                r = extract(p.body, algorithm=name, content_type=p.content_type)
                h.update(json.dumps([p.id, r.status, r.text, r.title, r.reason], ensure_ascii=False).encode())
            out[f"{ds}/{name}"]["texts"] = h.hexdigest()
else:
    pages = [p.text for ds in %(timed)r for p in load_dataset(f"{root}/{ds}").pages]
    for name in algorithms:
        extract(pages[0], algorithm=name)  # imports and caches outside the timed loop
        t0 = time.process_time()
        for page in pages:
            extract(page, algorithm=name)
        out[name] = time.process_time() - t0
print(json.dumps(out))
""" % {"datasets": DATASETS, "timed": TIMED}


def child(tree: Path, mode: str, data_root: Path, algorithms: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, str(data_root), ",".join(algorithms)], cwd=tree,
                          env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def build(tree: Path) -> str:
    """Build the compiled core in place in ``tree`` when its commit has one (an earlier commit's
    worktree is a bare checkout: timed without it, it would be the reference against the
    compiled core); return which core the tree runs."""
    if list((tree / "mcecrawl" / "algorithms").glob("*.pyx")):
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, check=True,
                       capture_output=True)
    probe = ("import importlib.util as u; m = 'mcecrawl.algorithms.profile_impl'; "
             "print(__import__(m, fromlist=['x']).current() if u.find_spec(m) else 'reference (no compiled core)')")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                          capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commit", help="the earlier commit (A); B is this working tree")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--algorithms", nargs="+", default=list(ALGORITHMS))
    ap.add_argument("--data-root", type=Path,
                    default=Path(os.environ.get("MCE_DATA_ROOT") or ROOT.parent / "shared" / "data"))
    args = ap.parse_args(argv)
    if not args.data_root.is_dir():
        raise SystemExit(f"no evaluation data at {args.data_root}: give --data-root or MCE_DATA_ROOT")
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "a"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.commit], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            sides = {"A": old, "B": ROOT}
            print("cores: " + ", ".join(f"{k} {build(tree)}" for k, tree in sides.items()))
            acc = {k: child(tree, "accuracy", args.data_root, args.algorithms) for k, tree in sides.items()}
            changed = sorted(key for key in acc["A"].keys() | acc["B"].keys() if acc["A"].get(key) != acc["B"].get(key))
            print(f"accuracy: {len(acc['B'])} (dataset, algorithm) pairs, {len(changed)} changed")
            for key in changed:
                print(f"  {key}: A {acc['A'].get(key)}\n  {' ' * len(key)}  B {acc['B'].get(key)}")
            times: dict[str, list[dict]] = {"A": [], "B": []}
            for _ in range(args.rounds):
                for k, tree in sides.items():
                    times[k].append(child(tree, "time", args.data_root, args.algorithms))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, capture_output=True)
    print(f"\nCPU seconds over the pages of {' + '.join(TIMED)}, best of {args.rounds} alternating rounds")
    worst = 0.0
    for name in args.algorithms:
        a, b = (min(r[name] for r in times[k]) for k in ("A", "B"))
        worst = max(worst, b / a - 1)
        print(f"  {name:15} A {a:6.2f} s   B {b:6.2f} s   B/A {b / a:5.2f}")
    ok = not changed and worst <= TOLERANCE
    print(f"\n{'OK' if ok else 'NOT OK'}: accuracy {'identical' if not changed else 'changed'}; "
          f"slowest B/A {1 + worst:.2f} (tolerance {1 + TOLERANCE:.2f})")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
