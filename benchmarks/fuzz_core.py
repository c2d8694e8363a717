"""Fuzz the compiled extraction core against its reference (the full run; a bounded one is in the tests).

    python benchmarks/fuzz_core.py                  # 100,000 inputs, seed 1
    python benchmarks/fuzz_core.py --count 20000 --seed 7
    python benchmarks/fuzz_core.py --langid-only          # language ID's compiled walk alone (faster)

Inputs (tests/fuzz_pages.py): random bytes, random markup over the tokens the segmentation reacts
to, and dev pages (``../shared/data``, or ``MCE_DATA_ROOT``) mutated at random.  For each input
both cores compute every line-profile array and every line-based algorithm's result, and the
compiled cleaning walk is compared with the reference walks directly on the input's whole trees
(the region parser's, and one keeping comments and processing instructions); language ID's compiled
walk (``mcecrawl/corpus/_langid.pyx``) is compared with py3langid's own on each input too; any
difference is reported.  Before each input the input is written to ``--last`` (default
``benchmarks/results/fuzz_last_input.bin``): if the compiled code crashes the process, that file
holds the input that did it.  Exit status 0 only when every input ran and none differed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fuzz_pages import differences, fuzz_inputs, langid_differences, seed_pages, walk_differences  # noqa: E402
from mcecrawl.algorithms import profile_impl  # noqa: E402
from mcecrawl.corpus import langid  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--last", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz_last_input.bin")
    ap.add_argument("--langid-only", action="store_true", help="compare language ID's walks only")
    args = ap.parse_args()
    if profile_impl.COMPILED not in profile_impl.available() or (args.langid_only and langid.compiled is None):
        print(f"nothing to fuzz: {profile_impl.describe()}; {langid.describe()}", file=sys.stderr)
        return 2
    data_root = Path(os.environ.get("MCE_DATA_ROOT") or ROOT.parent / "shared" / "data")
    pages = seed_pages(data_root)
    args.last.parent.mkdir(parents=True, exist_ok=True)
    bad, total_bytes, t0 = 0, 0, time.perf_counter()
    for i, data in enumerate(fuzz_inputs(args.seed, args.count, pages)):
        args.last.write_bytes(data)
        total_bytes += len(data)
        diff = langid_differences(data)
        if not args.langid_only:
            diff += differences(data) + walk_differences(data)
        if diff:
            bad += 1
            keep = args.last.with_name(f"fuzz_diff_{args.seed}_{i}.bin")
            keep.write_bytes(data)
            print(f"input {i}: {', '.join(diff)} (kept in {keep})")
        if (i + 1) % 10_000 == 0:
            print(f"{i + 1} inputs, {bad} differing, {time.perf_counter() - t0:.0f} s", flush=True)
    print(f"fuzz: {args.count} inputs ({total_bytes / 1e6:.1f} MB, {len(pages)} seed pages, seed {args.seed}): "
          f"no crash, {bad} differing, {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
