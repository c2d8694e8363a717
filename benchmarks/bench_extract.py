"""Benchmark of the extraction core (r2l, dana, danag): accuracy, speed, memory, parameter sweep.

    python benchmarks/bench_extract.py accuracy     # r2l pages: every algorithm and installed peer
    python benchmarks/bench_extract.py speed        # MB/s on r2l and scrapinghub_aeb, peers too
    python benchmarks/bench_extract.py memory       # 50 MB pages: tracemalloc peak and RSS
    python benchmarks/bench_extract.py sweep        # the measured decisions (split, growth, P, ...)
    python benchmarks/bench_extract.py all          # everything, as Markdown

Accuracy is word-token LCS F1 (:func:`mcecrawl.evaluation.lcs_f1`, Arabic-script folding) on
the full-gold pages of ``../shared/data/r2l``, against ``gold_in_page/`` where it exists, else
``gold/``; Arabic-script (ar, fa, ur) and Hebrew are reported apart.  Speed is raw HTML bytes
per second of wall time, single process, best of ``--repeat`` rounds (the machine is shared:
figures are noisy).  Peers (trafilatura, readability-lxml, resiliparse) are optional extras
(``pip install mcecrawl[peers]``), each given the same decoded text.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mcecrawl  # noqa: E402
from mcecrawl.encoding import decode  # noqa: E402
from mcecrawl.evaluation import lcs_f1, load_dataset  # noqa: E402
from mcecrawl.evaluation.peers import available_peers, run_peer  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
ARABIC_SCRIPT = ("ar", "fa", "ur", "ps")
# Variants measured in "accuracy": label -> (algorithm, params).
VARIANTS = {
    "dana": ("dana", {}),
    "danag": ("danag", {}),
    "r2l (paper output)": ("r2l", {}),
    "r2l output=parse": ("r2l", {"output": "parse"}),
    "r2l as in the paper (P=8, literal growth)": ("r2l", {"P": 8, "growth": "literal"}),
    "xpath_blocks": ("xpath_blocks", {}),
}
# Grid of "sweep": the decisions the papers leave open, each varied alone from the defaults.
SWEEP = {
    "dana": [{}, {"split": "block"}, {"growth": "literal"}, {"weight": "bytes"}, {"P": 8}, {"P": 20}, {"P": 40},
             {"radius": 2}],
    "danag": [{}, {"split": "block"}, {"growth": "literal"}, {"weight": "bytes"}, {"gap": 8}, {"gap": 20},
              {"gap": 40}],
    "r2l": [{}, {"growth": "literal"}, {"P": 8}, {"P": 8, "growth": "literal"}, {"split": "block"},
            {"weight": "bytes"}, {"output": "chars"}],
}
MEMORY_PAGE_BYTES = 50_000_000


def full_gold_pages():
    return [p for p in load_dataset(DATA / "r2l") if p.gold_kind == "full"]


def score(text: str, page) -> float:
    return lcs_f1(text, page.gold_text("gold_in_page")).f1


def run_variant(page, algorithm: str, params: dict) -> str:
    return mcecrawl.extract(page.body, algorithm=algorithm, content_type=page.content_type, **params).text


def accuracy(args) -> dict:
    pages = full_gold_pages()
    rows = dict(VARIANTS)
    if "xpath_blocks" not in mcecrawl.ALGORITHMS:
        rows.pop("xpath_blocks")
    for peer in available_peers():
        rows[f"peer:{peer}"] = (None, peer)
    table = {}
    for label, (algorithm, params) in rows.items():
        per_page = {}
        for page in pages:
            if algorithm is None:
                text = run_peer(params, page.text, page.url).text
            else:
                # r2l counts Hebrew letters only when asked (hebrew=true): asked on Hebrew pages.
                extra = {"hebrew": True} if algorithm == "r2l" and page.lang == "he" else {}
                text = run_variant(page, algorithm, {**params, **extra})
            per_page[page.id] = (score(text, page), lcs_f1(text, page.gold).f1)
        table[label] = per_page
    ar = [p for p in pages if p.lang in ARABIC_SCRIPT]
    he = [p for p in pages if p.lang == "he"]
    print("\n#### Accuracy: word-LCS F1 on the r2l full-gold pages\n")
    print("Arabic-script = the 8 ar/fa/ur pages scored against `gold_in_page/` where it exists, else `gold/`;"
          " `gold/` column = all against `gold/`.\n")
    sites = sorted({p.site for p in ar})
    print("| algorithm | Arabic-script mean | `gold/` mean | Hebrew mean (5) | " + " | ".join(sites) + " |")
    print("|---|---:|---:|---:|" + "---:|" * len(sites))
    for label, per_page in table.items():
        a = statistics.mean(per_page[p.id][0] for p in ar)
        g = statistics.mean(per_page[p.id][1] for p in ar)
        h = statistics.mean(per_page[p.id][0] for p in he)
        by_site = [statistics.mean(per_page[p.id][0] for p in ar if p.site == s) for s in sites]
        print(f"| {label} | **{a:.3f}** | {g:.3f} | {h:.3f} | " + " | ".join(f"{x:.3f}" for x in by_site) + " |")
    print("\nPer page (Arabic-script, gold_in_page):\n")
    labels = list(table)
    print("| page | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    for p in ar + he:
        print(f"| {p.id} ({p.lang}) | " + " | ".join(f"{table[lb][p.id][0]:.3f}" for lb in labels) + " |")
    return table


def _time(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - started)
    return best


def speed(args) -> None:
    print("\n#### Speed: MB/s of raw HTML, single process, best of", args.repeat, "rounds\n")
    peers = available_peers()
    print("| dataset | pages | MB | dana | danag | r2l | " + " | ".join(peers) + " | dana / fastest peer |")
    print("|---|---:|---:|---:|---:|---:|" + "---:|" * len(peers) + "---:|")
    for name in ("r2l", "scrapinghub_aeb"):
        pages = list(load_dataset(DATA / name))
        bodies = [(p.body, p.content_type) for p in pages]
        texts = [decode(b, ct).text for b, ct in bodies]
        total = sum(len(b) for b, _ in bodies) / 1e6
        rates = {}
        for algorithm in ("dana", "danag", "r2l"):
            t = _time(lambda bc: mcecrawl.extract(bc[0], algorithm=algorithm, content_type=bc[1]), bodies,
                      args.repeat)
            rates[algorithm] = total / t
        decode_s = _time(lambda bc: decode(bc[0], bc[1]), bodies, args.repeat)
        for peer in peers:
            # The peer's time plus the same decoding our algorithms pay inside extract().
            t = _time(lambda text: run_peer(peer, text), texts, max(1, args.repeat // 3)) + decode_s
            rates[peer] = total / t
        fastest = max((rates[p] for p in peers), default=None)
        ratio = f"{rates['dana'] / fastest:.1f}×" if fastest else "n/a"
        print(f"| {name} | {len(pages)} | {total:.1f} | "
              + " | ".join(f"{rates[a]:.0f}" for a in ("dana", "danag", "r2l"))
              + " | " + " | ".join(f"{rates[p]:.1f}" for p in peers) + f" | {ratio} |")


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def memory(args) -> None:
    print("\n#### Memory: one 50 MB page (tracemalloc peak of Python + numpy allocations)\n")
    print("| page | algorithm | MB | s (under tracemalloc) | status | peak / page size |")
    print("|---|---|---:|---:|---|---:|")
    fixture = (ROOT / "tests" / "algorithms" / "data" / "fa_article.html").read_bytes()
    real = (DATA / "r2l" / "pages" / "magichtml-youm7-f1e9572d.html").read_bytes()
    one_paragraph = "<p>متن فارسی بسیار طولانی <a href=\"/x\">پیوند</a></p>".encode()
    cases = {
        "youm7 page repeated": real,
        "fixture page repeated": fixture,
        "one line, 600k paragraphs": one_paragraph,
        "plain text, no tag at all": "متن فارسی بدون هیچ برچسبی ".encode(),
    }
    for label, unit in cases.items():
        body = unit * (MEMORY_PAGE_BYTES // len(unit) + 1)
        for algorithm in ("dana", "danag"):
            gc.collect()
            tracemalloc.start()
            started = time.perf_counter()
            result = mcecrawl.extract(body, algorithm=algorithm)
            elapsed = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            del result
            print(f"| {label} | {algorithm} | {len(body) / 1e6:.0f} | {elapsed:.1f} | ok | {peak / len(body):.1f}× |")
        del body


def sweep(args) -> None:
    pages = full_gold_pages()
    ar = [p for p in pages if p.lang in ARABIC_SCRIPT]
    he = [p for p in pages if p.lang == "he"]
    print("\n#### Sweep: each open decision varied alone from the defaults (mean word-LCS F1)\n")
    print("| algorithm | change from defaults | Arabic-script (8) | Hebrew (5) |")
    print("|---|---|---:|---:|")
    for algorithm, grid in SWEEP.items():
        for change in grid:
            params = dict(change)
            if algorithm == "r2l":
                params.setdefault("output", "parse")  # compare the region choice, not the output form
            a = statistics.mean(score(run_variant(p, algorithm, params), p) for p in ar)
            extra = {"hebrew": True} if algorithm == "r2l" else {}
            h = statistics.mean(score(run_variant(p, algorithm, {**params, **extra}), p) for p in he)
            label = ", ".join(f"{k}={v}" for k, v in change.items()) or "(defaults)"
            if algorithm == "r2l" and "output" not in change:
                label += " [output=parse]"
            print(f"| {algorithm} | {label} | {a:.3f} | {h:.3f} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("accuracy", "speed", "memory", "sweep", "all"))
    parser.add_argument("--repeat", type=int, default=5, help="timing rounds (best one counts)")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"{DATA} is absent: the benchmark needs ../shared/data", file=sys.stderr)
        return 2
    for step in ("accuracy", "sweep", "speed", "memory"):
        if args.what in (step, "all"):
            globals()[step](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
