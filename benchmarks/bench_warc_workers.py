"""``mcecrawl from-warc`` with 1 worker against N workers on ``bench_warc.py``'s WARCs, each run a fresh
process (as a user runs it: imports, model loading and worker start-up included), rounds interleaved
so that a shared machine's load falls on both alike.

    python benchmarks/bench_warc_workers.py --records 4000 --files 4 --workers 2 --rounds 3
    python benchmarks/bench_warc_workers.py --startup     # a worker's own CPU to its first page

Prints the wall time of every run, the median speed-up and each run's peak RSS per worker, beside a
control: the same number of pure-CPU processes against one, in the same rounds, i.e. the speed-up the
machine itself gave at that moment (on a shared machine it can be ~1x: then no run can show more).
``--startup`` measures what a worker spends before its first page is written, in CPU seconds of the
worker process itself (load on the machine does not change it): forked from a plain forkserver
(imports and model loading in every worker) and from the run's preloaded one.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_warc import ROOT, SHARED, build  # noqa: E402


def _run(warcs: list[str], out: Path, workers: int) -> tuple[float, dict]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mcecrawl", "from-warc", *warcs, "-o", str(out), "--workers",
                           str(workers), "--json", "--no-progress"], capture_output=True, text=True, cwd=ROOT,
                          check=True)
    return time.perf_counter() - t0, json.loads(proc.stdout.strip().splitlines()[-1])


# The control's work per process: a pure-Python loop of ~1-2 s on this machine.
CONTROL_LOOPS = 20_000_000
_CONTROL = """
import multiprocessing as mp, sys, time
def spin(_):
    x = 0
    for i in range({loops}):
        x += i
    return x
n = int(sys.argv[1])
t = time.perf_counter()
with mp.get_context("fork").Pool(n) as pool:
    pool.map(spin, range(n), chunksize=1)
print(time.perf_counter() - t)
"""


def _control(processes: int) -> float:
    """Wall seconds of ``processes`` processes each running the same loop at once."""
    out = subprocess.run([sys.executable, "-c", _CONTROL.format(loops=CONTROL_LOOPS), str(processes)],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def _first_page(job: tuple[str, str]) -> float:
    """In a worker: make the pages of one small WARC; the worker's CPU seconds so far."""
    import resource

    from mcecrawl.archives.pages import PageConfig
    from mcecrawl.archives.run import _init_worker, process_warc

    _init_worker(PageConfig(), None)
    process_warc(job)
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def startup(workers: int) -> None:

    sys.path.insert(0, str(ROOT / "tests" / "archives"))
    from warcs import PARAS_FA, page, write_warc

    with tempfile.TemporaryDirectory() as tmp_name:
        warc = Path(tmp_name) / "one.warc.gz"
        write_warc(warc, [("http://a.ir/1", page(PARAS_FA).encode())])
        for label, preload in (("plain forkserver", []), ("preloaded forkserver", ["mcecrawl.archives.warm"])):
            # a fresh interpreter per variant: a forkserver keeps the preload it started with
            code = (f"import sys; sys.path[:0] = {[str(ROOT), str(Path(__file__).resolve().parent)]!r}\n"
                    "import multiprocessing as mp, json, bench_warc_workers as b\n"
                    "ctx = mp.get_context('forkserver')\n"
                    f"ctx.set_forkserver_preload({preload!r})\n"
                    f"with ctx.Pool({workers}) as pool:\n"
                    f"    print(json.dumps(pool.map(b._first_page, [({str(warc)!r}, "
                    f"{tmp_name!r} + f'/p{{i}}.jsonl') for i in range({workers})], chunksize=1)))\n")
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
            cpu = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{label}: worker CPU to its first page {', '.join(f'{c:.2f}' for c in cpu)} s", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=4000)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--startup", action="store_true", help="only a worker's CPU to its first page")
    args = ap.parse_args()
    if args.startup:
        startup(args.workers)
        return 0
    if not SHARED.is_dir():
        print(f"dev data absent ({SHARED})", file=sys.stderr)
        return 2
    times: dict[int, list[float]] = {1: [], args.workers: []}
    control: dict[int, list[float]] = {1: [], args.workers: []}
    rss: dict[int, float] = {1: 0.0, args.workers: 0.0}
    kept: set[int] = set()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        corpus = build(tmp / "warcs", args.records, args.files)
        for r in range(args.rounds):
            for n in (1, args.workers) if r % 2 == 0 else (args.workers, 1):
                secs, summary = _run(corpus.warcs, tmp / f"out-{n}-{r}", n)
                times[n].append(secs)
                rss[n] = max(rss[n], summary["peak_rss_mb"])
                kept.add(summary["kept"])
                # the control: N loops in N processes take as long as one loop in one only with N free cores
                control[n].append(_control(n) / n)
                print(f"round {r}: {n} worker(s) {secs:.2f} s, {summary['records']} records, kept {summary['kept']}, "
                      f"peak RSS per worker {summary['peak_rss_mb']} MB", flush=True)
    one, many = statistics.median(times[1]), statistics.median(times[args.workers])
    c_one, c_many = statistics.median(control[1]), statistics.median(control[args.workers])
    print(f"\n{corpus.records} records in {len(corpus.warcs)} WARCs; median wall 1 worker {one:.2f} s, "
          f"{args.workers} workers {many:.2f} s: speed-up {one / many:.2f}x "
          f"(per round: {', '.join(f'{a / b:.2f}' for a, b in zip(times[1], times[args.workers]))}); "
          f"peak RSS per worker {rss[1]} / {rss[args.workers]} MB; same items kept: {len(kept) == 1}")
    print(f"control ({args.workers} pure-CPU processes against 1, same rounds): the machine's own speed-up "
          f"{c_one / c_many:.2f}x; from-warc reached {(one / many) / (c_one / c_many):.0%} of it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
