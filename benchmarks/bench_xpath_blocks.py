"""Ablation of the XPath-block extractor: the paper's rules, each deliberate addition, each tunable.

    python benchmarks/bench_xpath_blocks.py                # accuracy table, markdown on stdout
    python benchmarks/bench_xpath_blocks.py --large 50     # also a 50 MB page: time and peak memory
    python benchmarks/bench_xpath_blocks.py --json out.json

Accuracy is the mean word-token LCS-F1 (mcecrawl.evaluation.lcs_f1) with P and R, per set:
"ar" = the Arabic-script full-gold pages of ../shared/data/r2l (gold_in_page where it exists),
"he" = its Hebrew full-gold pages, "aeb" = ../shared/data/scrapinghub_aeb.  These are the figures
quoted next to the constants in mcecrawl/algorithms/xpath_blocks.py.  Module constants that
are not parameters (the form rule, the footer keywords) are varied by patching the module in
this process only.

The large-page run builds a page by repeating the body of a real r2l page, runs it in a child
process, and reports the wall time and the child's peak RSS above its own baseline, divided by
the page size.  Timings on this shared 2-core machine are noisy.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mcecrawl.algorithms.xpath_blocks as xb  # noqa: E402
from mcecrawl.evaluation import lcs_f1, load_dataset  # noqa: E402

SHARED_DATA = ROOT.parent / "shared" / "data"
ARABIC_SCRIPT = ("ar", "fa", "ur", "ps")


@contextmanager
def patched(**constants):
    old = {name: getattr(xb, name) for name in constants}
    for name, value in constants.items():
        setattr(xb, name, value)
    try:
        yield
    finally:
        for name, value in old.items():
            setattr(xb, name, value)


# (label, parameters, module constants patched)
VARIANTS = [
    ("defaults", {}, {}),
    ("paper's R1 only (extra_tags=0, semantic_boilerplate=0)",
     {"extra_tags": False, "semantic_boilerplate": False}, {}),
    ("without nav/aside/header/footer removal", {"semantic_boilerplate": False}, {}),
    ("without the extra non-text tags", {"extra_tags": False}, {}),
    ("paper's form rule (always remove <form>)", {}, {"FORM_WRAPPER_TEXT_SHARE": float("inf")}),
    ("footer keywords: 'powered by' only", {}, {"FOOTER_KEYWORDS": ("powered by",)}),
    ("max_anchor_ratio=0.4", {"max_anchor_ratio": 0.4}, {}),
    ("max_anchor_ratio=0.5", {"max_anchor_ratio": 0.5}, {}),
    ("max_anchor_ratio=0.7", {"max_anchor_ratio": 0.7}, {}),
    ("min_text_length=1", {"min_text_length": 1}, {}),
    ("min_text_length=5", {"min_text_length": 5}, {}),
    ("min_text_length=20", {"min_text_length": 20}, {}),
    ("min_text_length=40", {"min_text_length": 40}, {}),
    ("min_block_elements=2", {"min_block_elements": 2}, {}),
]


def page_sets() -> dict[str, list]:
    r2l = [p for p in load_dataset(SHARED_DATA / "r2l") if p.gold_kind == "full"]
    aeb = [p for p in load_dataset(SHARED_DATA / "scrapinghub_aeb") if p.gold_kind == "full"]
    return {"ar": [p for p in r2l if p.lang in ARABIC_SCRIPT], "he": [p for p in r2l if p.lang == "he"], "aeb": aeb}


def score(pages, params: dict) -> dict:
    scores = [lcs_f1(xb.xpath_blocks(p.text, **params).text, p.gold_text("gold_in_page")) for p in pages]
    n = len(scores)
    return {k: sum(getattr(s, k) for s in scores) / n for k in ("precision", "recall", "f1")} | {"pages": n}


def accuracy_table(sets: dict[str, list]) -> list[dict]:
    rows = []
    for label, params, constants in VARIANTS:
        with patched(**constants):
            rows.append({"variant": label, **{name: score(pages, params) for name, pages in sets.items()}})
    return rows


LARGE_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from mcecrawl.algorithms.xpath_blocks import xpath_blocks
src = open(sys.argv[1], encoding="utf-8").read()
start = src.index(">", src.index("<body")) + 1
inner = src[start:src.rindex("</body>")]
target = int(float(sys.argv[2]) * 1e6)
page = "<html><body>" + inner * (target // len(inner.encode()) + 1) + "</body></html>"
size = len(page.encode())
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
t = time.perf_counter()
ex = xpath_blocks(page)
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"bytes": size, "seconds": seconds, "status": ex.status, "extra_rss_x": (peak - before) / size}))
"""

LARGE_SOURCES = ("magichtml-youm7-4571254b", "magichtml-urdupoint-eee73319", "newspaper-cnnarabic-2013-syria-clashes")


def large_pages(megabytes: float) -> list[dict]:
    rows = []
    for page_id in LARGE_SOURCES:
        path = SHARED_DATA / "r2l" / "pages" / f"{page_id}.html"
        out = subprocess.run([sys.executable, "-c", LARGE_CHILD, str(path), str(megabytes), str(ROOT)],
                             capture_output=True, text=True, check=True)
        rows.append({"source": page_id, **json.loads(out.stdout)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=float, metavar="MB", help="also time a page of about MB megabytes")
    parser.add_argument("--json", metavar="OUT", help="write the figures as JSON")
    args = parser.parse_args(argv)
    if not SHARED_DATA.is_dir():
        print(f"{SHARED_DATA} is absent", file=sys.stderr)
        return 2
    t = time.perf_counter()
    sets = page_sets()
    rows = accuracy_table(sets)
    print("### xpath_blocks ablation (mean word-LCS P/R/F1; pages: "
          + ", ".join(f"{k} {len(v)}" for k, v in sets.items()) + ")\n")
    print("| variant | " + " | ".join(f"{k} P / R / F1" for k in sets) + " |")
    print("|---|" + "---|" * len(sets))
    for row in rows:
        cells = [f"{row[k]['precision']:.3f} / {row[k]['recall']:.3f} / **{row[k]['f1']:.3f}**" for k in sets]
        print(f"| {row['variant']} | " + " | ".join(cells) + " |")
    print(f"\n({time.perf_counter() - t:.1f} s)")
    large = []
    if args.large:
        large = large_pages(args.large)
        print(f"\n### xpath_blocks on a {args.large:g} MB page (body of a real page repeated; one run each)\n")
        print("| source page | MB | seconds | MB/s | status | peak RSS above baseline / page size |")
        print("|---|---:|---:|---:|---|---:|")
        for r in large:
            mb = r["bytes"] / 1e6
            print(f"| {r['source']} | {mb:.1f} | {r['seconds']:.2f} | {mb / r['seconds']:.1f} | {r['status']} "
                  f"| {r['extra_rss_x']:.1f}x |")
    if args.json:
        Path(args.json).write_text(json.dumps({"accuracy": rows, "large": large}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
