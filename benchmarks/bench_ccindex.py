"""``mcecrawl from-cc-index`` against ``mcecrawl from-warc`` reading the whole WARCs, both over HTTP
from the same local server (a separate process on 127.0.0.1, Range support).

    python benchmarks/bench_ccindex.py --records 4000 --files 4 --rounds 3
    python benchmarks/bench_ccindex.py --records 600 --files 2 --rounds 1     # a check that it runs

The WARCs are bench_warc.py's (per-record gzip, Arabic-script pages about 5 % of the records, the rest
general and Hebrew pages).  Their columnar index is built with Common Crawl's column names and types
(tests/archives/ccfixture.py); ``content_languages`` is the language mcecrawl's identifier gives each
record's decoded text (the stand-in for Common Crawl's CLD2).  Measured, rounds interleaved:

* wall time of each run (from-cc-index: reading the index included), and the ratio; the CPU time of
  this process (``--workers 1`` runs the page path in-process; less sensitive to load than wall time);
* bytes received: the whole WARCs vs the selected records' ranges (+ the index columns read),
  against the selected records' lengths;
* the kept items: from-cc-index's equal from-warc's restricted to the selected records.

``--rate-mbps`` caps each response's bandwidth (the local server sleeps between chunks), a stand-in
for a link to data.commoncrawl.org; the default is the local server at full speed.

Timings are load-sensitive: the ratio of interleaved rounds is the figure to compare.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks"), str(ROOT / "tests" / "archives")]

_TAGS = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.S | re.I)
# Our language codes -> Common Crawl's (mcecrawl.archives.ccindex.CC_LANGUAGES, plus the rest the
# identifier may say).
_CC = {"fa": "fas", "ar": "ara", "ur": "urd", "ps": "pus", "en": "eng", "he": "heb"}


def languages(url: str, body: bytes) -> str:
    """content_languages of a record: the identifier on its decoded, de-tagged text."""
    from mcecrawl.corpus.langid import detect
    from mcecrawl.encoding import decode

    text = _TAGS.sub(" ", decode(body, None).text)
    return _CC.get(detect(" ".join(text.split())[:5000]).lang or "", "und")


def serve(root: Path, rate: float) -> tuple[subprocess.Popen, str]:
    port_file = root / "server.url"
    port_file.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "archives" / "httpserver.py"), str(root),
                             str(port_file), str(rate)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not port_file.is_file():
        time.sleep(0.05)
    return proc, port_file.read_text()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=4000)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None, metavar="OUT.json")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--rate-mbps", type=float, default=0.0,
                    help="cap each response at this many MB/s (a WAN link's stand-in; default: none)")
    args = ap.parse_args()

    from bench_warc import build
    from ccfixture import build_index

    from mcecrawl.archives.ccindex import select
    from mcecrawl.archives.pages import PageConfig
    from mcecrawl.archives.remote import FetchOptions
    from mcecrawl.archives.run import RunOptions, run
    from mcecrawl.corpus.files import iter_items

    tmp = Path(tempfile.mkdtemp(prefix="bench-ccindex-"))
    corpus = build(tmp / "crawl", args.records, args.files)
    warcs = [Path(w) for w in corpus.warcs]
    index = tmp / "cc-index" / "subset=warc" / "part-00000.parquet"
    rows = build_index(warcs, tmp, index, languages)
    server, url = serve(tmp, args.rate_mbps * 1e6)
    fetch = FetchOptions(concurrency=4)
    config = PageConfig()
    rounds: list[dict[str, Any]] = []
    try:
        urls = [f"{url}/crawl/{w.name}" for w in warcs]
        for r in range(-1, args.rounds):  # round -1 warms both up (imports, models, profiles): not reported
            t0, c0 = time.perf_counter(), time.process_time()
            whole = run(RunOptions(urls, str(tmp / f"whole{r + 1}.jsonl"), config=config, workers=args.workers,
                                   fetch=fetch))
            t_whole, c_whole = time.perf_counter() - t0, time.process_time() - c0
            t0, c0 = time.perf_counter(), time.process_time()
            sel = select([f"{url}/cc-index/subset=warc/part-00000.parquet"], langs=config.langs, base_url=url,
                         fetch=fetch)
            cc = run(RunOptions(list(sel.sets), str(tmp / f"cc{r + 1}.jsonl"), config=config, workers=args.workers,
                                fetch=fetch))
            t_cc, c_cc = time.perf_counter() - t0, time.process_time() - c0
            if r < 0:
                continue
            rounds.append({"from_warc_s": round(t_whole, 3), "from_cc_index_s": round(t_cc, 3),
                           "ratio": round(t_cc / t_whole, 3), "from_warc_cpu_s": round(c_whole, 3),
                           "from_cc_index_cpu_s": round(c_cc, 3), "cpu_ratio": round(c_cc / max(c_whole, 1e-9), 3),
                           "whole_bytes": whole.bytes, "cc_bytes": cc.bytes,
                           "index_bytes": sel.index_bytes, "selected": sel.records,
                           "selected_bytes": sel.record_bytes, "kept_whole": whole.kept, "kept_cc": cc.kept})
            print(json.dumps(rounds[-1]), file=sys.stderr)
    finally:
        server.kill()
        server.wait()
    selected = {u for s in sel.sets for u in s.urls}
    strip = lambda items: sorted(  # noqa: E731
        ({k: v for k, v in i.items() if k != "extraction_ms"} for i in items), key=lambda i: i["url"])
    whole_items = [i for i in iter_items([tmp / "whole0.jsonl"]) if i["url"] in selected]
    cc_items = list(iter_items([tmp / "cc0.jsonl"]))
    sizes = sum(w.stat().st_size for w in warcs)
    report = {"records": corpus.records, "rate_mbps": args.rate_mbps,
              "index_rows": rows, "warc_bytes": sizes, "workers": args.workers,
              "r2l_share": round(sel.records / max(rows, 1), 4), "rounds": rounds,
              "median_ratio": sorted(x["ratio"] for x in rounds)[len(rounds) // 2],
              "median_cpu_ratio": sorted(x["cpu_ratio"] for x in rounds)[len(rounds) // 2],
              "bytes_over_selected": round(rounds[0]["cc_bytes"] / max(sel.record_bytes, 1), 4),
              "items_equal": strip(cc_items) == strip(whole_items), "kept_cc": len(cc_items),
              "kept_whole_r2l_outside_selection": sum(1 for i in iter_items([tmp / "whole0.jsonl"])
                                                      if i["url"] not in selected)}
    print(json.dumps(report, indent=1))
    if not args.keep:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
