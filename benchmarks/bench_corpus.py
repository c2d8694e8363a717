"""Corpus-quality benchmark: speed of normalisation + language ID + dedup per article,
near-duplicate recall/precision on edited copies of real R2L texts, language-ID accuracy.

    python benchmarks/bench_corpus.py [--shared ../shared/data] [--seeds 10] [--repeat 5]

Articles for the timing are 5-10k-character texts made by joining consecutive real article texts
of one language from ../shared/data (r2l gold + Hamshahri) until the length falls in that range.
The dedup store is an on-disk SQLite file pre-filled with every article (so each timed check
queries a populated LSH index), the timed check does not record.  Timings are noisy: the machine
has 2 cores shared with other jobs.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/ for the test helper evalsets

from evalsets import article_texts, langid_samples, near_dup_eval  # noqa: E402
from mcecrawl.corpus.dedup import DedupStore, estimate_jaccard, signature  # noqa: E402
from mcecrawl.corpus.langid import detect  # noqa: E402
from mcecrawl.corpus.normalize import normalize  # noqa: E402

# The range for the timing texts (characters).
MIN_CHARS, MAX_CHARS = 5000, 10000


def long_articles(docs):
    """5-10k-char texts, each made of consecutive real texts of one language."""
    out = []
    for lang in sorted({d.lang for d in docs}):
        buf = ""
        for d in (d for d in docs if d.lang == lang):
            buf = (buf + "\n" + d.text).strip()
            if len(buf) >= MIN_CHARS:
                out.append((lang, buf[:MAX_CHARS]))
                buf = ""
    return out


def time_pipeline(articles, repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = DedupStore(Path(tmp) / "bench.sqlite")
        for i, (lang, text) in enumerate(articles):
            store.check(normalize(text, lang), f"http://bench/{i}", "bench")
        phases = {"normalize": [], "langid": [], "dedup": [], "total": []}
        for _ in range(repeat):
            for i, (lang, text) in enumerate(articles):
                t0 = time.perf_counter()
                norm = normalize(text, lang)
                t1 = time.perf_counter()
                detect(text)
                t2 = time.perf_counter()
                store.check(norm + " ", f"http://bench/copy{i}", "bench", record=False)
                t3 = time.perf_counter()
                for key, v in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t3 - t0)):
                    v and phases[key].append(v * 1000)
        store.close()
    return {k: (statistics.median(v), max(v)) for k, v in phases.items()}


def unrelated_max_similarity(docs) -> float:
    sigs = [signature(normalize(d.text, d.lang)) for d in docs]
    return max(estimate_jaccard(a, b) for i, a in enumerate(sigs) for b in sigs[i + 1:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--seeds", type=int, default=10, help="near-dup test sets (each: 4 edit rates x every text)")
    ap.add_argument("--repeat", type=int, default=5, help="timing passes over the articles")
    args = ap.parse_args()
    docs = article_texts(args.shared)
    articles = long_articles(docs)
    lengths = [len(t) for _, t in articles]
    print(f"timing: {len(articles)} articles of {min(lengths)}-{max(lengths)} chars "
          f"({', '.join(sorted({lang for lang, _ in articles}))}), {args.repeat} passes")
    detect("warm-up")
    for phase, (med, worst) in time_pipeline(articles, args.repeat).items():
        print(f"  {phase:10s} median {med:.3f} ms  max {worst:.3f} ms")

    tp = fp = fn = 0
    min_sim = 1.0
    for seed in range(args.seeds):
        r = near_dup_eval(docs, DedupStore, normalize, seed=seed)
        tp, fp, fn = tp + r["tp"], fp + r["fp"], fn + r["fn"]
        min_sim = min(min_sim, r["min_copy_similarity"])
    print(f"near-dup: {len(docs)} real texts ({len({d.site for d in docs})} sites), {args.seeds} seeds x 4 edit rates "
          f"(1, 2, 5, 10% of words) = {tp + fn} copies; TP {tp} FP {fp} FN {fn}; "
          f"recall {tp / (tp + fn):.4f} precision {tp / (tp + fp) if tp + fp else 1.0:.4f}; "
          f"lowest copy similarity {min_sim:.3f}; highest unrelated pair {unrelated_max_similarity(docs):.3f}")

    paragraphs, titles = langid_samples(args.shared)
    for name, samples in (("paragraphs", paragraphs), ("titles", titles)):
        by_lang: dict[str, list[int]] = {}
        for lang, text in samples:
            by_lang.setdefault(lang, []).append(detect(text).lang == lang)
        total = sum(sum(v) for v in by_lang.values())
        detail = ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by_lang.items()))
        print(f"langid {name}: {total}/{len(samples)} = {total / len(samples):.4f} ({detail})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
