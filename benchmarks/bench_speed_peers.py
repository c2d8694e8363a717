"""Speed of the default extractor against Resiliparse and trafilatura, on every dev set.

    python benchmarks/bench_speed_peers.py [--rounds 3] [--sets r2l scrapinghub_aeb ...]

MB/s of raw HTML, decoding included, one process: per set, every page once per round, the three
extractors' rounds interleaved (A B C A B C ...) so that load on a shared machine falls on all of them
alike, best round of each.  The peers get the page as ``mcecrawl.encoding.decode`` decodes it, as in
``mcecrawl evaluate --peers``; trafilatura runs with its defaults (``trafilatura.extract``, no comments).
Prints one Markdown table: MB/s per extractor and scored_regions' ratio to each peer.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mcecrawl  # noqa: E402
from mcecrawl.encoding import decode  # noqa: E402
from mcecrawl.evaluation import load_dataset  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SETS = ("r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval", "wcxb_dev")


def extractors():
    import trafilatura
    from resiliparse.extract.html2text import extract_plain_text

    def text(body: bytes, ct: str | None) -> str:  # the peers read text: the codec's one pass builds it
        return decode(body, ct, read_text=True).text

    return {
        "scored_regions": lambda body, ct: mcecrawl.extract(body, content_type=ct),
        "resiliparse": lambda body, ct: extract_plain_text(text(body, ct), main_content=True),
        "trafilatura": lambda body, ct: trafilatura.extract(text(body, ct), include_comments=False),
    }


def best_times(items: list[tuple[bytes, str | None]], runs: dict, rounds: int) -> dict[str, float]:
    best = {k: float("inf") for k in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            gc.collect()
            t0 = time.perf_counter()
            for body, ct in items:
                fn(body, ct)
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sets", nargs="+", default=list(SETS))
    args = ap.parse_args()
    runs = extractors()
    print("| dataset | pages | MB | scored_regions | resiliparse | trafilatura | / resiliparse | / trafilatura |"
          "\n|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.sets:
        if not (DATA / name).is_dir():
            print(f"| {name} | absent | | | | | | |")
            continue
        items = [(p.body, p.content_type) for p in load_dataset(DATA / name)]
        mb = sum(len(b) for b, _ in items) / 1e6
        rate = {k: mb / t for k, t in best_times(items, runs, args.rounds).items()}
        print(f"| {name} | {len(items)} | {mb:.1f} | {rate['scored_regions']:.3g} | {rate['resiliparse']:.3g} | "
              f"{rate['trafilatura']:.3g} | {rate['scored_regions'] / rate['resiliparse']:.2f}× | "
              f"{rate['scored_regions'] / rate['trafilatura']:.2f}× |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
