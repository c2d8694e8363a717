"""Figures for BENCHMARKS.md, history section "Evaluation and quality gate" (docs/history.md).

    python benchmarks/evaluation.py [--data ../shared/data] [--peers]

1. LCS speed: a 20,000 x 20,000-token pair (target: well under 1 s).
2. ``mcecrawl evaluate`` wall time on all 181 scrapinghub_aeb pages per algorithm (target: < 60 s),
   and whether two runs give identical accuracy figures.
3. Agreement of the word-token LCS-F1 with an independent O(n·m) dynamic programme on the r2l
   pages (target: within 0.01 per page).
Timings are wall-clock on a shared 2-core machine: expect noise of tens of percent.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcecrawl import algorithms  # noqa: E402
from mcecrawl.evaluation import gate  # noqa: E402
from mcecrawl.evaluation.datasets import load_dataset  # noqa: E402
from mcecrawl.evaluation.metrics import lcs_length, prf, tokenize  # noqa: E402
from mcecrawl.evaluation.runner import resolve, run_pages, summarize  # noqa: E402

# Independent reference is O(n·m) in pure Python: pages above this many cells are skipped.
DP_MAX_CELLS = 2_000_000


def dp_lcs(a, b) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--peers", action="store_true")
    args = ap.parse_args()
    data = Path(args.data)

    rng = random.Random(0)
    a = [rng.randrange(5000) for _ in range(20000)]
    b = [x if rng.random() > 0.1 else rng.randrange(5000) for x in a]
    start = time.perf_counter()
    lcs_length(a, b)
    print(f"LCS 20,000 x 20,000 tokens: {time.perf_counter() - start:.3f} s")

    aeb = load_dataset(data / "scrapinghub_aeb")
    names = sorted(algorithms.ALGORITHMS) + (["peer:trafilatura", "peer:readability", "peer:resiliparse"]
                                             if args.peers else [])
    for name in names:
        try:
            runner = resolve(name)
        except LookupError as exc:
            print(f"{name}: {exc}")
            continue
        figures, walls = [], []
        for _ in range(2):
            start = time.perf_counter()
            s = summarize(run_pages(aeb.scored(), name, {}, runner=runner))
            walls.append(time.perf_counter() - start)
            figures.append((s["precision"], s["recall"], s["f1"], s["char_f1"], s["shingle_f1"]))
        print(f"scrapinghub_aeb {name:18} {len(aeb.scored())} pages, all measures: {walls[0]:5.1f} s wall "
              f"(first run, incl. reading/decoding), {walls[1]:5.1f} s (second); "
              f"F1 {s['f1']:.4f}; re-run identical: {figures[0] == figures[1]}")

    r2l = load_dataset(data / "r2l")
    name = "r2l" if "r2l" in algorithms.ALGORITHMS else next(iter(algorithms.ALGORITHMS))
    worst, checked = 0.0, 0
    for page in r2l.scored():
        if page.gold_kind != "full":
            continue
        out = tokenize(algorithms.extract(page.text, algorithm=name).text)
        gold = tokenize(page.gold)
        if len(out) * len(gold) > DP_MAX_CELLS:
            continue
        fast, ref = prf(lcs_length(out, gold), len(out), len(gold)), prf(dp_lcs(out, gold), len(out), len(gold))
        worst = max(worst, abs(fast.f1 - ref.f1))
        checked += 1
    print(f"LCS-F1 vs independent DP on {checked} r2l pages ({name} output): max |difference| {worst:.2e}")

    start = time.perf_counter()
    rc = gate.main(data_root=str(data))  # what `mcecrawl evaluate --gate` runs
    print(f"quality gate: exit {rc}, {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
