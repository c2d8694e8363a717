"""Benchmark of ``mcecrawl from-warc`` against two peer pipelines on the same WARCs.

    python benchmarks/bench_warc.py --records 2000            # accuracy + throughput, markdown on stdout
    python benchmarks/bench_warc.py --records 400 --quick     # a check that it runs
    python benchmarks/bench_warc.py --records 4000 --files 4 --workers 2   # our --workers 2 vs 1
    python benchmarks/bench_warc.py --prefilter-only          # prefilter recall and CPU cost per page

WARCs (per-record gzip, as Common Crawl ships them) are built from ../shared/data: the Arabic-script
pages with gold of ``r2l`` (repeated at distinct URLs), the same pages re-encoded in windows-1256
(characters it lacks as numeric references, as browsers submit them) with a lying HTTP label
(utf-8 / iso-8859-1) or none, the legacy ``encodings`` samples, and as the non-target majority
the general sets (scrapinghub_aeb, readability_mozilla, chinese_wce, trafilatura_eval) and the
Hebrew r2l pages, so that Arabic-script records are about :data:`TARGET_SHARE` of the whole.

Pipelines, each followed by the same language filter (mcecrawl.corpus.langid on the extracted
text, kept when fa/ar/ur/ps):

* ours: ``mcecrawl.archives.run`` (FastWARC, prefilter, decode, scored_regions, corpus quality);
* (a) datatrove's stock path: its ``WarcReader`` (warcio, UTF-8 else cchardet; needs faust-cchardet and
  python-magic, `pip install faust-cchardet python-magic`, not its whole io extra), then datatrove's
  ``Trafilatura(favour_precision=True).extract``; without those two, its decoding is reproduced over
  warcio records with chardet standing in for cchardet (the row's name says which);
* (b) cc-pyspark's Resiliparse path: FastWARC, ``bytes_to_str(body, detect_encoding(body))``,
  ``extract_plain_text(main_content=True)``.

Accuracy figures (kept gold pages, LCS-F1, mojibake) do not depend on load; throughput does:
run it alone on an idle machine for the throughput rows.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]
# The shared evaluation data: $MCE_DATA_ROOT, else ../shared/data beside the checkout (as the tests).
SHARED = Path(os.environ.get("MCE_DATA_ROOT") or ROOT.parent / "shared" / "data")

ARABIC = ("fa", "ar", "ur", "ps")
# Arabic-script share of the records, as in Common Crawl (about 5 %).
TARGET_SHARE = 0.05
# A target page's extracted text is mojibake when under half of its letters are Arabic script
# (its gold is all Arabic script), or when it holds U+FFFD or the Latin-1 reading of Arabic UTF-8 / cp1256.
MOJIBAKE_MIN_ARABIC_SHARE = 0.5
_MOJIBAKE_RE = re.compile("\ufffd|[ØÙÚÛ][\u0080-\u00bf]|[ÇÈÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß]{3,}")
_META_CHARSET = re.compile(rb"<meta[^>]*charset[^>]*>", re.I)


@dataclass
class Target:
    url: str
    page_id: str
    variant: str
    gold: str


@dataclass
class Corpus:
    warcs: list[str]
    records: int
    targets: dict[str, Target] = field(default_factory=dict)


def _pages(name: str) -> list[Any]:
    from mcecrawl.evaluation.datasets import load_dataset

    return list(load_dataset(SHARED / name))


def build(out_dir: Path, records: int, files: int) -> Corpus:
    """Write ``files`` WARCs of about ``records`` records in all (see the module docstring)."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    r2l = _pages("r2l")
    gold_pages = [p for p in r2l if p.lang in ARABIC and p.gold]
    variants: list[tuple[str, Any, bytes, str | None]] = []  # (variant, page, body, content type)
    for p in gold_pages:
        variants.append(("utf-8", p, p.body, p.content_type or "text/html; charset=utf-8"))
        legacy = _META_CHARSET.sub(b"", p.text.encode("cp1256", errors="xmlcharrefreplace"))
        variants.append(("cp1256 lying utf-8", p, legacy, "text/html; charset=utf-8"))
        variants.append(("cp1256 lying iso-8859-1", p, legacy, "text/html; charset=iso-8859-1"))
        variants.append(("cp1256 no label", p, legacy, "text/html"))
    samples = [("sample " + (s.meta.get("encoding") or ""), s, s.body, s.content_type or "text/html")
               for s in _pages("encodings") if s.lang in ARABIC]
    others = [p for name in ("scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval")
              for p in _pages(name)] + [p for p in r2l if p.lang == "he"]
    n_target = max(len(variants) + len(samples), round(records * TARGET_SHARE))
    n_other = max(0, records - n_target)
    corpus = Corpus([], 0)
    writers = []
    out_dir.mkdir(parents=True, exist_ok=True)
    for k in range(files):
        path = out_dir / f"bench-{k:02d}.warc.gz"
        f = open(path, "wb")
        writers.append((f, WARCWriter(f, gzip=True, warc_version="1.1")))
        corpus.warcs.append(str(path))
    plan: list[tuple[str, Any, bytes, str | None, bool]] = []
    for i in range(n_target):
        variant, p, body, ctype = (variants + samples)[i % (len(variants) + len(samples))]
        plan.append((variant, p, body, ctype, True))
    for i in range(n_other):
        p = others[i % len(others)]
        plan.append(("other", p, p.body, p.content_type or "text/html", False))
    step = max(1, len(plan) // max(1, n_target))
    order = sorted(range(len(plan)), key=lambda i: (i % step, i))  # targets spread through the files
    for n, i in enumerate(order):
        variant, p, body, ctype, target = plan[i]
        url = f"http://bench-{n % 97}.example/{p.dataset}/{p.id}/{n}"
        f, w = writers[n % files]
        headers = [("Content-Type", ctype)] if ctype else []
        w.write_record(w.create_warc_record(url, "response", payload=BytesIO(body),
                                            http_headers=StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")))
        if target and variant != "other" and not variant.startswith("sample"):
            corpus.targets[url] = Target(url, p.id, variant, p.gold_text() or "")
    for f, _ in writers:
        f.close()
    corpus.records = len(plan)
    return corpus


# --- pipelines ----------------------------------------------------------------------------------

def _lang(text: str) -> str:
    from mcecrawl.corpus.langid import detect

    return detect(text).lang if text.strip() else "und"


def run_ours(corpus: Corpus, workers: int, tmp: Path) -> tuple[dict[str, str], dict[str, Any]]:
    from mcecrawl.archives.run import RunOptions, run
    from mcecrawl.corpus.files import iter_items

    out = tmp / f"ours-{workers}-{time.monotonic_ns()}"
    summary = run(RunOptions(corpus.warcs, str(out), workers=workers))
    texts = {i["url"]: i["text"] for i in iter_items([out]) if i["lang"] in ARABIC}
    return texts, summary.as_dict()


def _datatrove_decode(content: bytes) -> str | None:
    """datatrove's WarcReader.process_record decoding: UTF-8, else the detector's answer (chardet
    standing in for cchardet)."""
    import chardet

    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        enc = chardet.detect(content)["encoding"]
        if not enc or enc.lower() in ("utf-8", "utf8"):
            return None
        try:
            return content.decode(enc)
        except (UnicodeDecodeError, LookupError):
            return None


def _peer_a_records(warc: str) -> Iterator[tuple[str, str | None]]:
    from warcio.archiveiterator import ArchiveIterator

    with open(warc, "rb") as f:
        for record in ArchiveIterator(f):
            if record.rec_type != "response":
                continue
            yield record.rec_headers.get_header("WARC-Target-URI"), _datatrove_decode(record.content_stream().read())


def _stock_reader_available() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) for m in ("datatrove", "cchardet", "magic"))


def _peer_a_stock(warc: str) -> Iterator[tuple[str, str | None]]:
    """datatrove's own WarcReader (needs faust-cchardet and python-magic): its documents."""
    from datatrove.pipeline.readers import WarcReader

    reader = WarcReader(str(Path(warc).parent), glob_pattern=Path(warc).name)
    for doc in reader.read_file(Path(warc).name):
        yield doc.metadata.get("url"), doc.text


def run_peer_a(corpus: Corpus) -> tuple[dict[str, str], dict[str, str]]:
    from datatrove.pipeline.extractors import Trafilatura

    # deduplicate=False: datatrove's default (True) makes trafilatura drop text it has seen in this
    # process, and the benchmark repeats its gold pages at distinct URLs by design.
    extractor = Trafilatura(favour_precision=True, deduplicate=False)
    records = _peer_a_stock if _stock_reader_available() else _peer_a_records
    kept, all_targets = {}, {}
    for warc in corpus.warcs:
        for url, html in records(warc):
            text = (extractor.extract(html) or "") if html else ""
            if url in corpus.targets:
                all_targets[url] = text
            if text and _lang(text) in ARABIC:
                kept[url] = text
    return kept, all_targets


def run_peer_b(corpus: Corpus) -> tuple[dict[str, str], dict[str, str]]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    kept, all_targets = {}, {}
    for warc in corpus.warcs:
        with open(warc, "rb") as f:
            for record in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
                url = record.headers.get("WARC-Target-URI")
                body = record.reader.read()
                text = extract_plain_text(bytes_to_str(body, detect_encoding(body)), main_content=True) or ""
                if url in corpus.targets:
                    all_targets[url] = text
                if text and _lang(text) in ARABIC:
                    kept[url] = text
    return kept, all_targets


def is_mojibake(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    arabic = sum(1 for c in letters if "\u0600" <= c <= "\u06ff" or "\ufb50" <= c <= "\ufeff")
    return arabic < MOJIBAKE_MIN_ARABIC_SHARE * len(letters) or bool(_MOJIBAKE_RE.search(text))


def score(name: str, corpus: Corpus, kept: dict[str, str], seconds: float, cpu: float,
          all_targets: dict[str, str] | None = None) -> dict[str, Any]:
    from mcecrawl.evaluation.metrics import lcs_f1

    f1s = [lcs_f1(kept.get(t.url, ""), t.gold).f1 for t in corpus.targets.values()]
    garbled = [t for t in corpus.targets.values()
               if is_mojibake((all_targets or {}).get(t.url) or kept.get(t.url, ""))]
    by_variant: dict[str, list[float]] = {}
    for t, f in zip(corpus.targets.values(), f1s):
        by_variant.setdefault(t.variant, []).append(f)
    return {"pipeline": name, "records": corpus.records, "seconds": round(seconds, 2), "cpu_s": round(cpu, 2),
            "records_per_s": round(corpus.records / seconds, 1) if seconds else None,
            "gold_kept": sum(1 for t in corpus.targets if t in kept), "gold_total": len(corpus.targets),
            "mean_lcs_f1": round(sum(f1s) / len(f1s), 4) if f1s else None,
            "f1_by_variant": {k: round(sum(v) / len(v), 4) for k, v in sorted(by_variant.items())},
            "mojibake_pages": len(garbled), "kept_arabic_script": len(kept)}


def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """Result, wall seconds and CPU seconds of this process (worker processes not included)."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def prefilter_report() -> dict[str, Any]:
    """Recall of the prefilter on every dev set and the encoding samples, and its CPU cost per page."""
    from mcecrawl.archives.prefilter import Prefilter, script_letters
    from mcecrawl.evaluation.datasets import load_dataset

    arabic, hebrew = Prefilter(("arabic",)), Prefilter(("hebrew",))
    rows = {}
    for d in sorted(SHARED.iterdir()):
        if not (d / "manifest.jsonl").is_file():
            continue
        pages = list(load_dataset(d))
        bodies = [(p.lang, p.body) for p in pages]
        t0 = time.process_time()
        for _ in range(5):
            verdicts = [(lang, arabic.passes(b), hebrew.passes(b)) for lang, b in bodies]
        cpu_us = (time.process_time() - t0) / 5 / max(1, len(bodies)) / 2 * 1e6
        ar = [v for v in verdicts if v[0] in ARABIC]
        he = [v for v in verdicts if v[0] == "he"]
        other = [v for v in verdicts if v[0] not in ARABIC + ("he",)]
        wanted = [script_letters(b, "arabic" if lang in ARABIC else "hebrew") for lang, b in bodies
                  if lang in ARABIC + ("he",)]
        unwanted = [script_letters(b, "arabic") for lang, b in bodies if lang not in ARABIC + ("he",)]
        rows[d.name] = {"pages": len(pages), "arabic_kept": f"{sum(v[1] for v in ar)}/{len(ar)}",
                        "min_letters_wanted": min(wanted) if wanted else None,
                        "max_letters_other": max(unwanted) if unwanted else None,
                        "hebrew_kept": f"{sum(v[2] for v in he)}/{len(he)}",
                        "other_passing_arabic": f"{sum(v[1] for v in other)}/{len(other)}",
                        "cpu_us_per_page": round(cpu_us, 1),
                        "mean_kb": round(sum(len(b) for _, b in bodies) / max(1, len(bodies)) / 1024, 1)}
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--files", type=int, default=2, help="WARC files to spread the records over")
    ap.add_argument("--workers", type=int, default=1, help="also time ours with this many workers")
    ap.add_argument("--quick", action="store_true", help="skip the peers' throughput repetition")
    ap.add_argument("--prefilter-only", action="store_true")
    ap.add_argument("--json", default=None, metavar="OUT.json")
    args = ap.parse_args()
    if not SHARED.is_dir():
        print(f"dev data absent ({SHARED})", file=sys.stderr)
        return 2
    report: dict[str, Any] = {"prefilter": prefilter_report()}
    if not args.prefilter_only:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            corpus = build(tmp / "warcs", args.records, args.files)
            report["warcs"] = {"records": corpus.records, "targets_with_gold": len(corpus.targets),
                               "files": len(corpus.warcs),
                               "mb": round(sum(os.path.getsize(w) for w in corpus.warcs) / 1e6, 1)}
            rows = []
            (ours, summary), secs, cpu = _timed(lambda: run_ours(corpus, 1, tmp))
            rows.append(score("mcecrawl from-warc (1 worker)", corpus, ours, secs, cpu) | {"summary": summary})
            if args.workers > 1:
                (ours_n, summary_n), secs_n, _ = _timed(lambda: run_ours(corpus, args.workers, tmp))
                rows.append(score(f"mcecrawl from-warc ({args.workers} workers)", corpus, ours_n, secs_n, 0.0)
                            | {"summary": summary_n})
            (kept_a, all_a), secs, cpu = _timed(lambda: run_peer_a(corpus))
            reader = "WarcReader" if _stock_reader_available() else "WarcReader's decoding (chardet) on warcio"
            rows.append(score(f"(a) datatrove {reader} + Trafilatura(favour_precision)", corpus, kept_a,
                              secs, cpu, all_a))
            (kept_b, all_b), secs, cpu = _timed(lambda: run_peer_b(corpus))
            rows.append(score("(b) FastWARC + Resiliparse extract_plain_text(main_content)", corpus, kept_b, secs,
                              cpu, all_b))
            report["pipelines"] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1), "utf-8")
    print(markdown(report))
    return 0


def markdown(report: dict[str, Any]) -> str:
    lines = ["### Prefilter (recall on every dev set, CPU per page per script)", "",
             "| set | pages | Arabic-script kept | Hebrew kept | non-target passing (Arabic test) | fewest letters, "
             "wanted page | most Arabic letters, other page | CPU µs/page | mean KB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, r in report["prefilter"].items():
        lines.append(f"| {name} | {r['pages']} | {r['arabic_kept']} | {r['hebrew_kept']} | "
                     f"{r['other_passing_arabic']} | {r['min_letters_wanted']} | {r['max_letters_other']} | "
                     f"{r['cpu_us_per_page']} | {r['mean_kb']} |")
    if "pipelines" in report:
        w = report["warcs"]
        lines += ["", f"### Pipelines on {w['records']} records ({w['files']} WARCs, {w['mb']} MB, "
                  f"{w['targets_with_gold']} Arabic-script records with gold)", "",
                  "| pipeline | records/s | CPU s | gold R2L pages kept | mean LCS-F1 | mojibake pages |",
                  "|---|---:|---:|---:|---:|---:|"]
        for r in report["pipelines"]:
            lines.append(f"| {r['pipeline']} | {r['records_per_s']} | {r['cpu_s']} | {r['gold_kept']}/"
                         f"{r['gold_total']} | {r['mean_lcs_f1']} | {r['mojibake_pages']} |")
        lines += ["", "LCS-F1 by variant:", ""]
        for r in report["pipelines"]:
            lines.append(f"- {r['pipeline']}: " + ", ".join(f"{k} {v}" for k, v in r["f1_by_variant"].items()))
        for r in report["pipelines"]:
            if "summary" in r:
                s = r["summary"]
                lines.append(f"- {r['pipeline']}: rejected {s['rejected']}, peak RSS per worker {s['peak_rss_mb']} MB")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
