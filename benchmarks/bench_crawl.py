"""Crawl throughput and memory: the full mcecrawl crawl vs bare Scrapy on the same local site.

    python benchmarks/bench_crawl.py                       # 2,000 articles, bare vs full, twice each
    python benchmarks/bench_crawl.py --articles 20000 --no-bare --repeat 1   # peak RSS of a big crawl
    python benchmarks/bench_crawl.py --serve nginx         # the same site as files, served by nginx
    python benchmarks/bench_crawl.py --repeat 1 --profile  # CPU per article by component, bare beside it
    python benchmarks/bench_crawl.py --spider both --no-bare   # the generic news spider beside the profile spider

The site is ``SyntheticSite`` of ``tests/synthetic_site.py``: N articles of 100–500 KB built from the
gold texts of ``../shared/data/r2l`` (fa/ar/ur) plus multi-line page furniture (discovery:
robots.txt, a sitemap index, sitemaps of 1,000 URLs; paginated ``/archive`` listings).  ``--serve``:
``memory`` (default) generates each page on request in a threaded ``http.server`` in this process;
``disk`` writes the site to files first and serves them with the project's fixture server
(``mcecrawl/demo/server.py``, same process); ``nginx`` serves those files with nginx (one worker,
sendfile, access log off; Debian's ``nginx-light``), a separate process as a real static server.
"Full" is ``scrapy crawl profile`` (``--spider news``: the generic ``scrapy crawl news -a site=https://news.example
-a base_url=MIRROR``, which discovers the site and learns its URL shapes by itself; ``both``: the two, alternating)
with the project settings (robots.txt,
encoding middleware, extraction pipeline with the profile's algorithm, every other enabled pipeline,
the safe JSONL feed), politeness delays off; "bare" is ``scrapy runspider benchmarks/bare_spider.py``
with Scrapy's defaults.  Both use the same concurrency.  Time is Scrapy's own
``elapsed_time_seconds`` (spider open to close; interpreter start-up excluded) and wall time; peak RSS
is the crawl process's ``VmHWM``, and "+ workers" the sum of the ``VmHWM`` of every process in its tree
(each process's own peak, sampled every 0.1 s: an upper bound of the tree's peak); CPU is user+system
of the crawl and its extraction workers (interpreter start-up included).  The machine's 2 cores
are shared with other work: figures are noisy.  Crawls alternate (``--repeat`` rounds of bare, then
full); the report gives the best of each and, since bare Scrapy's own time moves by a fifth between
rounds, each round's full/bare ratio and their median.

``--profile`` adds one more full crawl under cProfile and splits the CPU per article by component,
summed over the crawl process and its extraction workers: the workers' own CPU
(``mcecrawl/extraction/cpu_ms_total``, measured in the worker: the extraction and the corpus text steps run
beside it, ``text_norm`` and dates), the crawl process's CPU (the timed
run's CPU minus the workers') split by each component's share of the profiled run (the cumulative
CPU time of its entry points, profiled with ``time.process_time`` so that waiting for a core on a
loaded machine counts nowhere; cProfile slows the process, so its shares are used, not its times), and
the bare crawl's CPU per article beside it: the floor the 1.5x target is weighed against.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/ for the test helper synthetic_site

from mcecrawl.demo.crawl import crawl_command, crawl_env, stats_from_log  # noqa: E402
from mcecrawl.demo.server import FixtureServer  # noqa: E402
from synthetic_site import HOST, SyntheticSite  # noqa: E402

R2L = ROOT.parent / "shared" / "data" / "r2l"
R2L_LANGS = ("fa", "ar", "ur")  # Arabic-script pages only (no Hebrew)
# Paragraphs shorter than this are menu items or captions, not article text.
MIN_PARAGRAPH_CHARS = 40


def r2l_paragraphs() -> list[str]:
    pool = []
    for line in (R2L / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        m = json.loads(line)
        gold = R2L / "gold" / f"{m['id']}.txt"
        if m["lang"] in R2L_LANGS and gold.exists():
            pool += [p for p in gold.read_text(encoding="utf-8").split("\n") if len(p) >= MIN_PARAGRAPH_CHARS]
    if not pool:
        raise SystemExit(f"no paragraphs found under {R2L}")
    return pool


def _children(pid: int) -> list[int]:
    """The process's children and their descendants (the extraction workers)."""
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                out += [int(child)] + _children(int(child))
    except OSError:
        pass
    return out


def _vmhwm_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def write_site(site: SyntheticSite, root: Path) -> Path:
    """The generated site as files in the fixture server's layout (``/news/1`` -> ``news/1.html``,
    ``/archive?page=2`` -> ``archive@page=2.html``)."""
    (root / "news").mkdir(parents=True)
    files = {"robots.txt": site.resolver("/robots.txt", "")[2], "sitemap.xml": site.sitemap_index()}
    for k in range((site.n + site.per_sitemap - 1) // site.per_sitemap):
        files[f"sitemap-{k}.xml"] = site.sitemap(k)
    page = 1
    while (listing := site.listing(page)) is not None:
        files[f"archive@page={page}.html"] = listing
        page += 1
    files["archive.html"] = site.listing(1)
    for name, body in files.items():
        (root / name).write_bytes(body)
    for i in range(site.n):
        (root / "news" / f"{i}.html").write_bytes(site.article(i))
    return root


class Nginx:
    """nginx serving ``root`` on 127.0.0.1 (a free port), as files: sendfile, no access log."""

    CONF = """user root; worker_processes 1; daemon off; pid {tmp}/nginx.pid; error_log {tmp}/nginx-error.log;
events {{ worker_connections 512; }}
http {{
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy; fastcgi_temp_path {tmp}/fcgi;
  uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
  types {{ text/html html; application/xml xml; text/plain txt; }}
  charset utf-8;
  server {{
    listen 127.0.0.1:{port}; root {root};
    location / {{ try_files $uri $uri.html =404; }}
    location = /archive {{ try_files /archive@page=$arg_page.html /archive.html =404; }}
  }}
}}
"""

    def __init__(self, root: Path, tmp: Path):
        import shutil
        import socket

        self.exe = shutil.which("nginx") or "/usr/sbin/nginx"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.conf = tmp / "nginx.conf"
        self.conf.write_text(self.CONF.format(tmp=tmp, port=self.port, root=root), encoding="utf-8")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "Nginx":
        import socket

        self.proc = subprocess.Popen([self.exe, "-c", str(self.conf)])
        for _ in range(100):  # until it listens
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        raise SystemExit(f"nginx did not start (see {self.conf.parent}/nginx-error.log)")

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def run(cmd: list[str], env: dict, cwd: Path) -> dict:
    log = cwd / f"log-{time.monotonic_ns()}.txt"
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(log, "w", encoding="utf-8") as f:
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
        peak, peaks = 0, {}  # the crawl process; every process of its tree (workers), each its own peak
        while proc.poll() is None:
            peak, own = max(peak, _vmhwm_kb(proc.pid)), _cmdline(proc.pid)
            for pid in [proc.pid] + _children(proc.pid):
                # A child between fork and exec is still the crawl process (with vfork, its very
                # memory): its VmHWM would count the crawl twice.  Workers count once exec'd.
                if pid == proc.pid or _cmdline(pid) != own:
                    peaks[pid] = max(peaks.get(pid, 0), _vmhwm_kb(pid))
            time.sleep(0.1)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the crawl and its extraction workers
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    text = log.read_text(encoding="utf-8", errors="replace")
    stats = stats_from_log(text)
    if proc.returncode != 0:
        print(text[-3000:], file=sys.stderr)
        raise SystemExit(f"crawl failed: {' '.join(cmd)}")
    num = lambda k: float(stats.get(k, "0").strip("'"))  # noqa: E731
    return {"wall_s": round(wall, 2), "elapsed_s": num("elapsed_time_seconds"), "cpu_s": round(cpu, 2),
            "extraction_cpu_ms": num("mcecrawl/extraction/cpu_ms_total"),
            "responses": int(num("response_received_count")), "items": int(num("item_scraped_count")),
            "peak_rss_mb": round(peak / 1024, 1), "peak_rss_tree_mb": round(sum(peaks.values()) / 1024, 1),
            "peak_rss_each_mb": [round(v / 1024, 1) for v in peaks.values()],
            "mb_received": round(num("downloader/response_bytes") / 2**20, 1),
            "statuses": {k.rsplit("/", 1)[-1]: int(num(k)) for k in stats if k.startswith("mcecrawl/items/status/")},
            "enabled": [ln.strip(" '[],") for ln in text.splitlines() if ln.strip(" [").startswith("'mcecrawl.")]}


# Components of the crawl process: (label, [functions]); the cumulative time of these entry
# points, matched on their code objects (the two pipelines' process_item share a name).
def _components():
    from mcecrawl import downloadermiddlewares, exporters, pipelines
    from mcecrawl.extraction import pool as extraction_worker
    from mcecrawl.spiders import base

    return [
        ("start-up: corpus pipeline (dedup store, langid model)", [pipelines.CorpusQualityPipeline.from_crawler]),
        ("encoding middleware (decode, re-encode)",
         [downloadermiddlewares.EncodingNormalizationMiddleware.process_response]),
        ("spider: discovery (sitemaps, listings)",
         [base.ProfileSpider.parse_sitemap, base.ProfileSpider.parse_listing]),
        ("spider: page evidence and metadata", [base.ProfileSpider.parse_article]),
        ("extraction pipeline (hand-off to the worker, item fill)", [pipelines.ExtractionPipeline.process_item]),
        ("  of which: transfer to/from the worker",
         [extraction_worker.WorkerPool.run, extraction_worker.WorkerPool._read]),
        ("corpus quality pipeline (langid, dedup; what the worker did not)",
         [pipelines.CorpusQualityPipeline.process_item]),
        ("feed writing (JSON line, flush)", [exporters.SafeJsonLinesItemExporter.export_item]),
    ]


# ``python -m cProfile`` times with the wall clock: on a shared machine the shares would count the time
# the process waits for a core.  This profiles ``python -m scrapy ARGS`` with the process's CPU time.
CPU_PROFILE = """
import cProfile, runpy, sys, time
out = sys.argv[1]
sys.argv = ["scrapy"] + sys.argv[2:]
prof = cProfile.Profile(time.process_time)
try:
    prof.runcall(runpy.run_module, "scrapy", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    prof.dump_stats(out)
"""


def print_components(path: Path, timed: dict, bare: dict | None) -> None:
    """CPU per article of the timed full crawl, by component (shares from the profiled run in ``path``)."""
    import pstats

    st = pstats.Stats(str(path))
    total = st.total_tt
    pages = max(timed["items"], 1)
    workers = timed["extraction_cpu_ms"] / pages
    crawl = max(1000 * timed["cpu_s"] / pages - workers, 0.0)
    print(f"\nCPU per article, crawl process + extraction workers: {1000 * timed['cpu_s'] / pages:.2f} ms"
          + (f" (bare Scrapy: {1000 * bare['cpu_s'] / max(bare['responses'], 1):.2f} ms per response)" if bare else ""))
    print(f"  {'extraction + text_norm/dates (worker processes, their own CPU)':60} {workers:6.2f} ms")
    print(f"  {'crawl process (start-up included)':60} {crawl:6.2f} ms")
    rest = 1.0
    for label, funcs in _components():
        keys = {(f.__code__.co_filename, f.__code__.co_firstlineno, f.__name__) for f in funcs}
        share = sum(v[3] for key, v in st.stats.items() if key in keys) / total
        rest -= share if not label.startswith(" ") else 0.0
        print(f"    {label:58} {share * crawl:6.2f} ms ({100 * share:4.1f} % of the process)")
    print(f"    {'the rest: Scrapy engine, downloader, scheduler, Twisted':58} {rest * crawl:6.2f} ms "
          f"({100 * rest:4.1f} %)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=2000)
    ap.add_argument("--size-kb", type=int, nargs=2, default=(100, 500))
    ap.add_argument("--algorithm", default="scored_regions",
                    help="extraction algorithm of the generated profile (default: the project's default)")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--signals-in-body", action="store_true",
                    help="a profile without signals_in_head: the spider reads the page's signal elements, not <head>")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each crawl, alternating (the best is kept)")
    ap.add_argument("--no-bare", action="store_true", help="only the full crawl (memory runs)")
    ap.add_argument("--serve", choices=("memory", "disk", "nginx"), default="memory",
                    help="pages generated per request (memory), or files served by the fixture server (disk) or nginx")
    ap.add_argument("--json", default=None, help="write the results here too")
    ap.add_argument("--profile", action="store_true",
                    help="one more full crawl under cProfile: CPU per article by component")
    ap.add_argument("--profile-out", default=None, metavar="FILE",
                    help="with --profile: keep the crawl process's cProfile stats here (read with pstats)")
    ap.add_argument("--spider", choices=("profile", "news", "both"), default="profile",
                    help="the full crawl's spider: the profile spider, the generic news spider, or both")
    ap.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                    help="extra setting for the full crawl only, e.g. -s MCE_EXTRACTION_WORKERS=0")
    args = ap.parse_args(argv)

    site = SyntheticSite(args.articles, r2l_paragraphs(), size_kb=tuple(args.size_kb))
    conc = {"CONCURRENT_REQUESTS": str(args.concurrency), "CONCURRENT_REQUESTS_PER_DOMAIN": str(args.concurrency),
            "LOG_LEVEL": "INFO", "DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "0", "TELNETCONSOLE_ENABLED": "0"}
    full_names = {"profile": ["full"], "news": ["news"], "both": ["full", "news"]}[args.spider]
    results: dict[str, list[dict]] = {"bare": [], **{name: [] for name in full_names}}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        tmp = Path(tmp)
        if args.serve == "memory":
            srv = stack.enter_context(FixtureServer(resolver=site.resolver))
        else:
            t0 = time.perf_counter()
            root = write_site(site, tmp / "site")
            print(f"site written to disk in {time.perf_counter() - t0:.1f} s", flush=True)
            srv = stack.enter_context(FixtureServer(root) if args.serve == "disk" else Nginx(root, tmp))
        profile = site.write_profile(tmp / "bench.json", algorithm=args.algorithm,
                                     signals_in_head=not args.signals_in_body)
        extra = dict(x.split("=", 1) for x in args.set)
        full_cmd = crawl_command("profile", base_url=srv.url, output=tmp / "full.jsonl",
                                 args={"profile": str(profile)}, settings={**conc, **extra})
        news_cmd = crawl_command("news", base_url=srv.url, output=tmp / "news.jsonl",
                                 args={"site": f"https://{HOST}"}, settings={**conc, **extra})
        profiled_cmd = list(full_cmd if "full" in full_names else news_cmd)  # python -c CPU_PROFILE FILE crawl ...
        profiled_cmd[1:3] = ["-c", CPU_PROFILE, str(tmp / "crawl.prof")]
        bare_env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
        bare_cmd = [sys.executable, "-m", "scrapy", "runspider", str(ROOT / "benchmarks" / "bare_spider.py"),
                    "-a", f"base_url={srv.url}"] + [x for k, v in conc.items() for x in ("-s", f"{k}={v}")]
        for _ in range(args.repeat):
            if not args.no_bare:
                results["bare"].append(run(bare_cmd, bare_env, tmp))
                print("bare", results["bare"][-1], flush=True)
            for name in full_names:
                results[name].append(run(full_cmd if name == "full" else news_cmd, crawl_env(), tmp))
                print(name, {k: v for k, v in results[name][-1].items() if k != "enabled"}, flush=True)
        enabled = results[full_names[0]][-1]["enabled"]
        if args.profile:
            run(profiled_cmd, crawl_env(), tmp)
            timed = min(results[full_names[0]], key=lambda r: r["elapsed_s"])
            print_components(tmp / "crawl.prof", timed,
                             min(results["bare"], key=lambda r: r["elapsed_s"]) if results["bare"] else None)
            if args.profile_out:
                import shutil

                shutil.copyfile(tmp / "crawl.prof", args.profile_out)
    best = {k: min(v, key=lambda r: r["elapsed_s"]) for k, v in results.items() if v}
    if args.set:
        print("full crawl settings: " + " ".join(args.set))
    print(f"\n{args.articles} articles of {args.size_kb[0]}-{args.size_kb[1]} KB served by {args.serve}, "
          f"concurrency {args.concurrency}, "
          f"algorithm {args.algorithm}; best of {args.repeat}")
    for name, r in best.items():
        print(f"  {name:5} {r['elapsed_s']:7.1f} s elapsed ({r['wall_s']:.1f} s wall, {r['cpu_s']:.1f} s CPU)  "
              f"{r['responses'] / max(r['elapsed_s'], 1e-9):6.1f} responses/s  peak RSS {r['peak_rss_mb']} MB "
              f"(+ workers: {r['peak_rss_tree_mb']} MB)  "
              f"{r['mb_received']} MB received  items {r['items']} {r['statuses']}")
    if "news" in best and "full" in best:
        print(f"  news/profile spider elapsed: {best['news']['elapsed_s'] / best['full']['elapsed_s']:.2f}x "
              f"(target <= 1.10x); responses {best['news']['responses']} vs {best['full']['responses']}")
    if "bare" in best and "full" in best:
        print(f"  full/bare elapsed: {best['full']['elapsed_s'] / best['bare']['elapsed_s']:.2f}x "
              f"(target <= 1.5x); wall: {best['full']['wall_s'] / best['bare']['wall_s']:.2f}x")
        # Each round's own ratio (its bare and full crawls ran one after the other): the best of each
        # pairs two rounds, and bare Scrapy's time moves by a fifth between rounds.
        ratios = [f["elapsed_s"] / b["elapsed_s"] for b, f in zip(results["bare"], results["full"])]
        print(f"  full/bare elapsed per round: {', '.join(f'{r:.2f}x' for r in ratios)}; "
              f"median {statistics.median(ratios):.2f}x")
    print("  mcecrawl components on in the full crawl: " + ", ".join(enabled))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"args": vars(args), "runs": results}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
