"""Peak memory and time of extraction on hostile pages, one fresh process per case.

    python benchmarks/bench_memory.py                         # every known algorithm, every case
    python benchmarks/bench_memory.py dana xpath_blocks       # some algorithms (any registered name)
    python benchmarks/bench_memory.py r2l --cases short_lines --mb 50 --double
    python benchmarks/bench_memory.py scored_regions --cases listing_items --mb 4 --double --page-type product

Cases (each built in the child, deterministic): the hostile inputs of the extraction core (empty
bytes, binary, invalid UTF-8, a page without R2L text, unclosed markup, a page of scripts only,
deeply nested markup), a page of many short lines (alternating paragraph and link rows: the
crawler's worst case for per-line costs), a page of list items (linked headline, teaser, date: judged a
listing, so the default reads it from a tree of the whole page) and a page of 20,000 unclosed ``<head>``
tags.  Sized
cases are built to ``--mb`` megabytes (default 50); ``--double`` also runs them at twice the size
and reports the time ratio (linear time: at most ~2.5x).  ``--page-type`` reads every page as that
type (``mcecrawl.extract(page, page_type=...)``), the way a typed reading meets a page under the
10 MiB it parses (``typed.TYPED_MAX_SIZE``): at the default 50 MB a page is read as an article.

Measure: the child builds the page, collects garbage, reads ``VmRSS`` (the baseline: interpreter,
modules, the page itself), resets the peak with ``/proc/self/clear_refs`` (Linux >= 4.0), runs
``mcecrawl.extract(page_bytes, algorithm=...)`` with every parameter at its default, then reads
``VmHWM``.  Reported: (VmHWM - baseline) / page size, i.e. peak RSS above the process baseline,
not traced Python allocations.  Times are wall-clock on a shared machine: noisy.

Second measure, the fresh-process one (``--fresh``, column "fresh"): ``ru_maxrss`` of a
fresh process that imports mcecrawl, reads the page from a file and extracts it, minus
``ru_maxrss`` of a fresh process that only imports mcecrawl, over the page size.  It counts what
the first leaves out: the page's bytes, the decoded text the caller holds, modules imported on
first use, and the peak of the whole run rather than of the extraction alone.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Target of the extraction core and of the robustness issue: peak RSS above baseline per page byte.
MEMORY_TARGET_X = 10.0
# Linear time: doubling the input may cost at most this factor (noise included).
TIME_DOUBLING_MAX = 2.5
# 100,000 nested elements: far beyond libxml2's depth limit (256 by default, 2048 with huge_tree).
NESTING_DEPTH = 100_000
UNCLOSED_HEADS = 20_000

PARA = ("بارش برف سنگین از بامداد امروز در تهران باعث شد مدارس و ادارات در بیشتر مناطق پایتخت "
        "تعطیل شوند و شهرداری از شهروندان خواست از سفرهای غیرضروری خودداری کنند.")
ENGLISH = "Heavy snowfall since this morning in Tehran closed schools and offices in most districts. "


def _repeat(unit: bytes, size: int, head: bytes = b"<html><body>", tail: bytes = b"</body></html>") -> bytes:
    n = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * n + tail


def build(case: str, size: int) -> bytes:
    """The page of ``case``, about ``size`` bytes when the case is sized."""
    if case == "empty":
        return b""
    if case == "binary":  # a PNG signature, then incompressible bytes
        import random

        return b"\x89PNG\r\n\x1a\n" + random.Random(0).randbytes(size)
    if case == "invalid_utf8":  # Persian paragraphs with stray continuation and lead bytes
        return _repeat(b"<p>" + PARA.encode() + b"\xff\x80\xc3(</p>\n", size)
    if case == "no_r2l":
        return _repeat(b"<p>" + ENGLISH.encode() * 3 + b"</p>\n", size)
    if case == "unclosed_markup":  # <div><p><span> opened and never closed
        return _repeat(b"<div><p><span>" + PARA.encode() + b"\n", size, tail=b"")
    if case == "scripts_only":
        return _repeat(b'<script>var t = "' + PARA.encode() + b'";</script>\n', size)
    if case == "short_lines":  # alternating paragraph and link rows, ~300 bytes a row
        return _repeat(b"<p>" + PARA.encode()[:180] + b"</p>\n<a href=\"/news/1\">" + PARA.encode()[:60] + b"</a>\n",
                       size)
    if case == "listing_items":  # a list of items, each a linked headline, a teaser and a date: judged a listing,
        # so the default reads it as one too, from a tree of the whole page
        headline, teaser = PARA[:40].encode(), PARA[40:].encode()
        item = (b'<li class="item"><h3><a href="/news/%d">' + headline + b" %d</a></h3><p>" + teaser
                + b'</p><span class="date">2025-01-%02d</span></li>\n')
        return b"<html><body><ul>" + b"".join(item % (i, i, i % 28 + 1) for i in range(size // len(item))) + \
            b"</ul></body></html>"
    if case == "unclosed_heads":
        body = b"<body>" + b"".join(b"<p>" + PARA.encode() + b"</p>\n" for _ in range(200))
        return b"<html>" + b"<head><title>t</title>\n" * UNCLOSED_HEADS + body
    if case == "deep_nesting":
        return (b"<html><body>" + b"<div>" * NESTING_DEPTH + b"<p>" + PARA.encode() + b"</p>"
                + b"</div>" * NESTING_DEPTH + b"</body></html>")
    raise ValueError(f"unknown case {case!r}")


SIZED = ("binary", "invalid_utf8", "no_r2l", "unclosed_markup", "scripts_only", "short_lines", "listing_items")
FIXED = ("empty", "unclosed_heads", "deep_nesting")
CASES = SIZED + FIXED


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def child(algorithm: str, case: str, size: int, page_type: str | None = None) -> dict:
    import gc

    import mcecrawl
    from mcecrawl.algorithms import get_algorithm

    get_algorithm(algorithm)  # import the module before the baseline
    mcecrawl.extract(b"<html><body><p>" + PARA.encode() + b"</p></body></html>", algorithm=algorithm)
    page = build(case, size)
    gc.collect()
    baseline = _status_kb("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:  # VmHWM := VmRSS
        f.write("5")
    t0 = time.perf_counter()
    result = mcecrawl.extract(page, algorithm=algorithm, page_type=page_type)
    seconds = time.perf_counter() - t0
    peak = _status_kb("VmHWM")
    return {"algorithm": algorithm, "case": case, "bytes": len(page), "seconds": round(seconds, 3),
            "status": result.status, "reason": result.reason[:120], "text_chars": len(result.text),
            "extra_mb": round((peak - baseline) / 1024, 1),
            "extra_x": round((peak - baseline) * 1024 / max(len(page), 1), 2)}


def fresh_child(algorithm: str, path: str | None, page_type: str | None = None) -> int:
    """``ru_maxrss`` (KB) of this process after importing mcecrawl and, given a page, extracting it."""
    import resource

    import mcecrawl

    if path is not None:
        with open(path, "rb") as f:
            page = f.read()
        mcecrawl.extract(page, algorithm=algorithm, page_type=page_type)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _fresh_kb(algorithm: str, path: str | None, page_type: str | None = None) -> int | None:
    proc = subprocess.run([sys.executable, __file__, "--fresh-child", algorithm, path or "-", page_type or "-"],
                          capture_output=True, text=True, cwd=ROOT)
    return int(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None


def fresh_ratio(algorithm: str, case: str, size: int, page_type: str | None = None) -> float | None:
    """The fresh-process measure (module docstring) of one case: peak RSS above import-only / page size."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{case}.html"
        # Built in another process: ru_maxrss survives exec, so a child forked from a parent that
        # held the page would start its count at the parent's size.
        subprocess.run([sys.executable, __file__, "--build-child", case, str(size), str(path)], check=True, cwd=ROOT)
        peak, base = _fresh_kb(algorithm, str(path), page_type), _fresh_kb(algorithm, None, page_type)
        if peak is None or base is None:
            return None
        return round((peak - base) * 1024 / max(path.stat().st_size, 1), 2)


def run_case(algorithm: str, case: str, size: int, page_type: str | None = None) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", algorithm, case, str(size), page_type or "-"],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:  # a crash (e.g. a segfault in the parser) is a result too
        return {"algorithm": algorithm, "case": case, "bytes": size, "seconds": None, "status": "crash",
                "reason": (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:120],
                "text_chars": 0, "extra_mb": None, "extra_x": None}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _given(arg: str) -> str | None:
    """A child's argument: ``-`` stands for none."""
    return None if arg == "-" else arg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("algorithms", nargs="*", help="algorithm names (default: every registered one)")
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--mb", type=float, default=50.0, help="size of the sized cases (default 50)")
    parser.add_argument("--double", action="store_true",
                        help="also run the sized cases at 2x and report the time ratio")
    parser.add_argument("--json", type=Path, help="write the rows as JSON")
    parser.add_argument("--fresh", action="store_true",
                        help="also report the fresh-process measure for the sized cases (see above)")
    parser.add_argument("--page-type", help="read every page as this type (see above)")
    parser.add_argument("--build-child", nargs=3, metavar=("CASE", "BYTES", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--fresh-child", nargs=3, metavar=("ALGORITHM", "PATH", "TYPE"), help=argparse.SUPPRESS)
    parser.add_argument("--child", nargs=4, metavar=("ALGORITHM", "CASE", "BYTES", "TYPE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], int(args.child[2]), _given(args.child[3]))))
        return 0
    if args.build_child:
        Path(args.build_child[2]).write_bytes(build(args.build_child[0], int(args.build_child[1])))
        return 0
    if args.fresh_child:
        print(fresh_child(args.fresh_child[0], _given(args.fresh_child[1]), _given(args.fresh_child[2])))
        return 0
    from mcecrawl.algorithms import ALGORITHMS

    algorithms = args.algorithms or list(ALGORITHMS)
    size = int(args.mb * 2**20)
    rows = []
    print("| algorithm | case | MB | s | status | peak RSS above baseline | / page size (sized cases) |"
          + (" time at 2x / time |" if args.double else "") + (" fresh |" if args.fresh else ""))
    print("|---|---|---:|---:|---|---:|---:|" + ("---:|" if args.double else "") + ("---:|" if args.fresh else ""))
    for algorithm in algorithms:
        for case in args.cases:
            r = run_case(algorithm, case, size, args.page_type)
            if args.double and case in SIZED and r["seconds"]:
                r2 = run_case(algorithm, case, 2 * size, args.page_type)
                r["double_seconds"] = r2["seconds"]
                r["double_extra_x"] = r2["extra_x"]
                r["time_ratio"] = round(r2["seconds"] / max(r["seconds"], 1e-6), 2) if r2["seconds"] else None
            rows.append(r)
            if case not in SIZED:  # fixed small pages: allocator and module costs dominate any ratio
                r["extra_x"] = None
            flag = "" if r["extra_x"] is None or r["extra_x"] < MEMORY_TARGET_X else " **over**"
            reason = f" ({r['reason']})" if r["status"] != "ok" else ""
            ratio = "" if r["extra_x"] is None else f"{r['extra_x']}x{flag}"
            line = (f"| {algorithm} | {case} | {r['bytes'] / 2**20:.2f} | {r['seconds']} | {r['status']}{reason} | "
                    f"{r['extra_mb']} MB | {ratio} |")
            if args.double:
                line += f" {r.get('time_ratio', '')} |"
            if args.fresh:
                r["fresh_x"] = fresh_ratio(algorithm, case, size, args.page_type) if case in SIZED else None
                fresh_flag = "" if r["fresh_x"] is None or r["fresh_x"] < MEMORY_TARGET_X else " **over**"
                line += f" {'' if r['fresh_x'] is None else str(r['fresh_x']) + 'x' + fresh_flag} |"
            print(line, flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
