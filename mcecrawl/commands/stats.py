"""``mcecrawl stats``: what is in a corpus.

Counts per site, language (declared and detected) and status, duplicates, token and character
totals, the date range, and a self-contained HTML page with inline SVG charts (languages, text
lengths, articles per month) that opens in any browser without extra packages.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

HELP = "summarize corpus JSON lines: sites, languages, statuses, duplicates, sizes, dates (+ an HTML picture)"

# Text-length histogram bins (characters): news articles are 1-10k characters (the r2l dev set, docs/evaluation.md).
LENGTH_BINS = (0, 1, 500, 1000, 2000, 5000, 10000, 20000, 50000)
# Chart labels longer than this are cut (site names can be long).
LABEL_CHARS = 24


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="+", metavar="CORPUS.jsonl",
                        help="JSON-lines files written by a crawl or reextract")
    parser.add_argument("--html", metavar="STATS.html", default=None,
                        help="write a self-contained HTML page with charts")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON instead of text")


def _month(iso: str | None) -> str | None:
    return iso[:7] if isinstance(iso, str) and len(iso) >= 7 and iso[:4].isdigit() else None


def summarize_corpus(records) -> dict:
    """The summary dict of an iterable of corpus records."""
    from collections import Counter

    s: dict[str, Any] = {
        "records": 0, "sites": Counter(), "lang": Counter(), "lang_detected": Counter(), "status": Counter(),
        "lang_mismatch": 0, "mismatch_pairs": Counter(), "duplicates": Counter(), "duplicates_cross_site": 0,
        "calendar": Counter(), "months": Counter(), "chars": 0, "tokens": 0, "chars_ok": [], "date_min": None,
        "date_max": None, "with_date": 0, "warc_record_ids": 0, "unchanged": 0, "updated": 0}
    firsts: dict[str, str] = {}
    for rec in records:
        s["records"] += 1
        s["sites"][rec.get("site") or "?"] += 1
        s["lang"][rec.get("lang") or "?"] += 1
        s["status"][rec.get("status") or "?"] += 1
        if rec.get("lang_detected"):
            s["lang_detected"][rec["lang_detected"]] += 1
        if rec.get("lang_mismatch"):
            s["lang_mismatch"] += 1
            s["mismatch_pairs"][f"{rec.get('lang')}->{rec.get('lang_detected')}"] += 1
        text = rec.get("text") or ""
        s["chars"] += len(text)
        s["tokens"] += len(text.split())
        if rec.get("status") == "ok":
            s["chars_ok"].append(len(text))
        url = rec.get("canonical_url") or rec.get("url")
        if url and rec.get("site"):
            firsts.setdefault(url, rec["site"])
        if rec.get("duplicate_of"):
            s["duplicates"][rec.get("duplicate_kind") or "?"] += 1
            origin = firsts.get(rec["duplicate_of"])
            if rec.get("duplicate_cross_site") or (origin and origin != rec.get("site")):
                s["duplicates_cross_site"] += 1
        s["unchanged"] += bool(rec.get("unchanged_since"))  # re-crawled, same text: not a duplicate
        s["updated"] += bool(rec.get("previous_content_sha1"))
        if rec.get("warc_record_id"):
            s["warc_record_ids"] += 1
        published = rec.get("published")
        if isinstance(published, str) and published[:4].isdigit():
            day = published[:10]
            s["with_date"] += 1
            s["date_min"] = min(s["date_min"] or day, day)
            s["date_max"] = max(s["date_max"] or day, day)
            s["months"][_month(published)] += 1
            s["calendar"][rec.get("calendar") or "gregorian"] += 1
    return s


def _read(paths):
    import json

    from mcecrawl.corpus.files import corpus_files, iter_lines

    for path in corpus_files(paths):
        for n, line in enumerate(iter_lines(path), 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError:
                    print(f"mcecrawl stats: {path}:{n}: not JSON, skipped", file=sys.stderr)


def _length_hist(lengths) -> list[tuple[str, int]]:
    import bisect

    counts = [0] * len(LENGTH_BINS)
    for n in lengths:
        counts[bisect.bisect_right(LENGTH_BINS, n) - 1] += 1
    labels = [f"{lo}–{hi - 1}" if hi - lo > 1 else str(lo) for lo, hi in zip(LENGTH_BINS, LENGTH_BINS[1:])]
    labels.append(f"≥{LENGTH_BINS[-1]}")
    return list(zip(labels, counts))


def text_report(s: dict) -> str:
    import statistics

    def top(counter, n=20):
        return ", ".join(f"{k} {v}" for k, v in counter.most_common(n)) or "-"

    lines = [
        f"records: {s['records']}",
        f"sites: {top(s['sites'])}",
        f"status: {top(s['status'])}",
        f"lang (declared): {top(s['lang'])}",
        f"lang (detected): {top(s['lang_detected'])}",
        f"language mismatches: {s['lang_mismatch']}"
        + (f" ({top(s['mismatch_pairs'], 5)})" if s["lang_mismatch"] else ""),
        f"duplicates: {sum(s['duplicates'].values())} ({top(s['duplicates'])}; "
        f"cross-site {s['duplicates_cross_site']})",
        f"re-crawled: {s['unchanged']} unchanged, {s['updated']} updated",
        f"characters: {s['chars']}, tokens: {s['tokens']}"
        + (f", median ok text {int(statistics.median(s['chars_ok']))} chars" if s["chars_ok"] else ""),
        f"dates: {s['with_date']} dated, {s['date_min'] or '-'} .. {s['date_max'] or '-'} ({top(s['calendar'])})",
        f"with warc_record_id: {s['warc_record_ids']}",
    ]
    return "\n".join(lines)


def _json_ready(s: dict) -> dict:
    out = {k: (dict(v.most_common()) if hasattr(v, "most_common") else v) for k, v in s.items() if k != "chars_ok"}
    out["length_histogram"] = dict(_length_hist(s["chars_ok"]))
    return out


def _bar_svg(title: str, pairs: list[tuple[str, int]], color: str) -> str:
    """A horizontal bar chart as inline SVG (labels may be R2L: rendered with direction auto)."""
    from html import escape

    width, row, left = 560, 22, 170
    height = 30 + row * max(1, len(pairs))
    top = max((v for _, v in pairs), default=0) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}"><text x="0" y="16" font-weight="bold">{escape(title)}</text>']
    for i, (label, value) in enumerate(pairs):
        label = str(label)
        if len(label) > LABEL_CHARS:  # the label column is ~170 px wide
            label = label[:LABEL_CHARS - 1] + "…"
        y = 26 + i * row
        w = int((width - left - 60) * value / top)
        parts.append(f'<text x="{left - 6}" y="{y + 14}" text-anchor="end" direction="ltr">'
                     f'<tspan unicode-bidi="plaintext">{escape(str(label))}</tspan></text>'
                     f'<rect x="{left}" y="{y}" width="{w}" height="{row - 6}" fill="{color}"/>'
                     f'<text x="{left + w + 4}" y="{y + 14}">{value}</text>')
    if not pairs:
        parts.append('<text x="0" y="44">no data</text>')
    parts.append("</svg>")
    return "".join(parts)


def html_report(s: dict, sources: list[str]) -> str:
    from html import escape

    langs = sorted(set(s["lang"]) | set(s["lang_detected"]))
    charts = [
        _bar_svg("Articles per site", s["sites"].most_common(15), "#4c78a8"),
        _bar_svg("Declared language", [(k, s["lang"][k]) for k in langs if s["lang"][k]], "#72b7b2"),
        _bar_svg("Detected language", [(k, s["lang_detected"][k]) for k in langs if s["lang_detected"][k]], "#54a24b"),
        _bar_svg("Status", s["status"].most_common(), "#e45756"),
        _bar_svg("Text length of ok articles (characters)", _length_hist(s["chars_ok"]), "#f58518"),
        _bar_svg("Articles per month (published)", sorted(s["months"].items()), "#b279a2"),
    ]
    return (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>mcecrawl corpus stats</title>"
        "<style>body{font-family:sans-serif;margin:2em}svg{display:block;margin:1.5em 0;font-size:13px}"
        "pre{background:#f4f4f4;padding:1em}</style></head><body>"
        f"<h1>Corpus statistics</h1><p>{escape(', '.join(sources))}</p><pre>{escape(text_report(s))}</pre>"
        + "".join(charts) + "</body></html>\n"
    )


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    missing = [p for p in args.corpus if not Path(p).exists()]
    if missing:
        print(f"mcecrawl stats: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    s = summarize_corpus(_read(args.corpus))
    if args.json:
        print(json.dumps(_json_ready(s), ensure_ascii=False, indent=2))
    else:
        print(text_report(s))
    if args.html:
        Path(args.html).write_text(html_report(s, args.corpus), encoding="utf-8")
        print(f"wrote {args.html}", file=sys.stderr)
    return 0
