"""Benchmark of mcecrawl.encoding.decode: round-trip exactness per scenario and throughput.

    python benchmarks/bench_encoding.py            # all figures, markdown on stdout
    python benchmarks/bench_encoding.py --quick    # fewer timing repetitions
    python benchmarks/bench_encoding.py --json out.json

Cases come from tests/encoding_cases.py (the tests use the same builder): real UTF-8 R2L pages
of ../shared/data/r2l and hand-written paragraphs transcoded to windows-1256 / ISO-8859-6 /
windows-1255 with true, lying (header, meta) and missing labels; other scripts in their own
code pages; UTF-16/32 without a BOM; the legacy samples of ../shared/data/encodings.  Scrapy's own decoding
(``HtmlResponse.text``, Scrapy 2.19 with charset-normalizer) is reported as a reference.

Throughput is bytes of body per second of ``decode`` (best of N runs per page, so the figure
is the function's speed, not the noise of a machine shared with other jobs).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from encoding_cases import (  # noqa: E402
    SHARED_DATA,
    Case,
    corrupted_utf8_cases,
    other_script_cases,
    real_page_cases,
    shared_r2l_pages,
    synthetic_cases,
    wide_cases,
)
from mcecrawl.encoding import decode  # noqa: E402

# Targets: UTF-8 pages >= 200 MB/s, legacy code pages >= 20 MB/s.
TARGET_UTF8_MBPS = 200.0
TARGET_LEGACY_MBPS = 20.0


def shared_sample_cases() -> list[Case]:
    root = SHARED_DATA / "encodings"
    cases = []
    with open(root / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                body = (root / "pages" / f"{rec['id']}.html").read_bytes()
                cases.append(Case(f"{rec['id']}", "shared_sample", body, "text/html",
                                  body.decode(rec["true_encoding"]), rec["true_encoding"]))
    return cases


def scrapy_text(case: Case) -> str | None:
    from scrapy.http import HtmlResponse
    try:
        return HtmlResponse("http://example.com/", body=case.body, headers={"Content-Type": case.content_type}).text
    except Exception:  # noqa: BLE001 - a reference, any failure counts as wrong
        return None


def exactness(groups: dict[str, list[Case]], baseline: bool) -> list[dict]:
    rows = []
    for group, cases in groups.items():
        by_scenario = defaultdict(list)
        for case in cases:
            by_scenario[case.scenario].append(case)
        for scenario, items in sorted(by_scenario.items()):
            ok = sum(decode(c.body, c.content_type).text == c.expected for c in items)
            ref = sum(scrapy_text(c) == c.expected for c in items) if baseline else None
            failures = [c.name for c in items if decode(c.body, c.content_type).text != c.expected]
            rows.append({"group": group, "scenario": scenario, "cases": len(items), "exact": ok,
                         "scrapy_exact": ref, "failures": failures[:5]})
    return rows


def throughput(bodies: list[tuple[bytes, str | None]], repeat: int) -> tuple[float, dict]:
    total_bytes, total_time, steps = 0, 0.0, defaultdict(int)
    for body, ctype in bodies:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            d = decode(body, ctype, read_text=True)  # as the encoding middleware, which reads the text
            best = min(best, time.perf_counter() - t0)
        steps[d.source] += 1
        total_bytes += len(body)
        total_time += best
    return total_bytes / total_time / 1e6, dict(steps)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 timing runs per page instead of 15")
    ap.add_argument("--no-baseline", action="store_true", help="skip Scrapy's decoding as reference")
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = ap.parse_args(argv)
    repeat = 3 if args.quick else 15
    have_shared = SHARED_DATA.is_dir()

    groups = {"hand-written (fa/ar/ur/ps/he, small + 300 KB)": synthetic_cases(),
              "other scripts, true labels": other_script_cases(),
              "UTF-16/32 LE/BE without BOM or label (ASCII, fa, ar, non-BMP)": wide_cases()}
    if have_shared:
        groups["real pages ../shared/data/r2l"] = real_page_cases()
        groups["real UTF-8 pages, one byte corrupted"] = corrupted_utf8_cases()
        groups["../shared/data/encodings"] = shared_sample_cases()
    rows = exactness(groups, baseline=not args.no_baseline)

    print("| cases | scenario | n | exact (decode) | exact (Scrapy 2.19 `.text`) |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        ref = "-" if r["scrapy_exact"] is None else f"{r['scrapy_exact']}/{r['cases']}"
        print(f"| {r['group']} | {r['scenario']} | {r['cases']} | {r['exact']}/{r['cases']} | {ref} |")
    total = sum(r["cases"] for r in rows)
    exact = sum(r["exact"] for r in rows)
    print(f"\nround trips exact: {exact}/{total} ({100 * exact / total:.1f}%)")
    for r in rows:
        if r["failures"]:
            print("  failures:", r["group"], r["scenario"], r["failures"])

    speed = {}
    if have_shared:
        pages = shared_r2l_pages()
        utf8 = [(html.encode("utf-8"), ctype) for _, _, html in pages
                for ctype in ("text/html; charset=utf-8", "text/html; charset=windows-1256")]
        legacy = defaultdict(list)
        for case in groups["real pages ../shared/data/r2l"]:
            legacy[case.scenario].append((case.body, case.content_type))
        print("\n| pages | bytes | MB/s | target | steps |\n|---|---:|---:|---:|---|")
        mbps, steps = throughput(utf8, repeat)
        speed["utf-8"] = mbps
        print(f"| UTF-8 real pages (true and lying header) | {sum(len(b) for b, _ in utf8)} | {mbps:.0f} | "
              f">= {TARGET_UTF8_MBPS:.0f} | {steps} |")
        for scenario, bodies in sorted(legacy.items()):
            mbps, steps = throughput(bodies, max(1, repeat // 3))
            speed[f"legacy/{scenario}"] = mbps
            print(f"| legacy real pages, {scenario} | {sum(len(b) for b, _ in bodies)} | {mbps:.0f} | "
                  f">= {TARGET_LEGACY_MBPS:.0f} | {steps} |")
    small = [(c.body, c.content_type) for c in groups["hand-written (fa/ar/ur/ps/he, small + 300 KB)"]
             if c.name.startswith("small-")]
    heavy = [(c.body, c.content_type) for c in groups["hand-written (fa/ar/ur/ps/he, small + 300 KB)"]
             if c.name.startswith(("heavy-", "sparse-"))]
    for label, bodies in (("legacy hand-written ~0.7 KB pages, all scenarios", small),
                          ("legacy hand-written 300 KB pages, all scenarios", heavy)):
        mbps, steps = throughput(bodies, max(1, repeat // 3))
        speed[label] = mbps
        print(f"| {label} | {sum(len(b) for b, _ in bodies)} | {mbps:.0f} | >= {TARGET_LEGACY_MBPS:.0f} | {steps} |")
    if args.json:
        args.json.write_text(json.dumps({"exactness": rows, "mb_per_s": speed}, indent=1, ensure_ascii=False),
                             encoding="utf-8")
    return 0 if exact == total else 1


if __name__ == "__main__":
    sys.exit(main())
