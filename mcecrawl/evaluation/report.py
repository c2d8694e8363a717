"""Plain-text tables for evaluation results (what ``mcecrawl evaluate`` prints)."""
from __future__ import annotations

from typing import Any, Sequence

from mcecrawl.evaluation.runner import AlgorithmReport, breakdown


def _num(value: object, width: int = 5, digits: int = 3) -> str:
    if isinstance(value, (int, float)) and value == value:  # value == value: not NaN
        return f"{value:{width}.{digits}f}"
    return " " * (width - 1) + "-"


def _ci(s: dict[str, Any], key: str) -> str:
    if s.get(key) is None:
        return "-".rjust(19)
    ci = s[f"{key}_ci"]
    return f"{s[key]:.3f} [{ci[0]:.3f},{ci[1]:.3f}]"


HEADER = (f"{'':22} {'pages':>5} {'P [95% CI]':>19} {'R [95% CI]':>19} {'F1 [95% CI]':>19} "
          f"{'wcxbF1':>6} {'charF1':>6} {'BoWF1':>6} {'shF1':>6} "
          f"{'snipAcc':>7} {'snipF1':>6} {'err':>4} {'empty':>5} {'MB/s':>6}")


def row(label: str, s: dict[str, Any]) -> str:
    mbps = f"{s['mb_per_s']:6.2f}" if s.get("mb_per_s") else "     -"
    return (f"{label[:22]:22} {s['pages']:5d} {_ci(s, 'precision'):>19} {_ci(s, 'recall'):>19} {_ci(s, 'f1'):>19} "
            f"{_num(s.get('wcxb_f1'), 6)} {_num(s['char_f1'], 6)} {_num(s['bow_f1'], 6)} {_num(s['shingle_f1'], 6)} "
            f"{_num(s['snippet_accuracy'], 7)} {_num(s['snippet_f1'], 6)} {s['errors']:4d} {s['empties']:5d} {mbps}")


def dataset_table(name: str, n_pages: int, reports: Sequence[AlgorithmReport], by: Sequence[str] = (),
                  gold_variant: str = "gold") -> str:
    """One table per dataset, a row per algorithm; then per-script and the requested breakdowns."""
    lines = [f"== {name}: {n_pages} scored pages (gold: {gold_variant}) ==",
             "P/R/F1: word-token LCS (formula 3), mean over full-gold pages; wcxbF1: WCXB's bag of lowercase \\w+ "
             "tokens; charF1: LCS over characters; "
             "BoWF1: bag of words; shF1: 4-gram shingles (Zyte benchmark); snipAcc/snipF1: snippet-gold pages",
             HEADER]
    for rep in reports:
        if rep.unavailable:
            lines.append(f"{rep.algorithm[:22]:22} unavailable: {rep.unavailable}")
        else:
            lines.append(row(rep.algorithm, rep.summary()))
    ran = [r for r in reports if not r.unavailable]
    scripts = {rec["script"] for r in ran for rec in r.records}
    # Per-script rows whenever the dataset has R2L pages: Hebrew never mixes with Arabic script;
    # per page type whenever the manifest gives one (WCXB).
    has_types = any(rec.get("page_type") for r in ran for rec in r.records)
    keys = ((["script"] if scripts & {"arabic-script", "hebrew"} else []) + (["page_type"] if has_types else [])
            + [k for k in by if k not in ("script", "page_type")])
    for key in keys:
        for rep in ran:
            lines.append(f"-- {rep.algorithm} by {key}")
            lines.append(HEADER)
            for value, s in breakdown(rep.records, key).items():
                lines.append(row(value, s))
    return "\n".join(lines)


__all__ = ["HEADER", "dataset_table", "row"]


def markdown_summary(result: dict[str, Any]) -> str:
    """A Markdown table (dataset x algorithm: pages, P, R, F1 [CI], char-F1, shingle F1, snippet
    accuracy, errors/empties) from ``mcecrawl evaluate --json`` output, plus per-script rows for
    datasets with R2L pages (Hebrew and Arabic script apart)."""
    def f(v: float | None) -> str:
        return "–" if v is None else f"{v:.3f}"

    lines = ["| dataset | group | algorithm | pages | P | R | F1 [95% CI] | char F1 | shingle F1 | snippet acc. "
             "| err/empty |",
             "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for name, ds in result["datasets"].items():
        for rep in ds["results"]:
            if "unavailable" in rep:
                lines.append(f"| {name} | all | {rep['algorithm']} | – | unavailable | | | | | | |")
                continue
            groups = [("all", rep["summary"])]
            scripts = rep.get("by", {}).get("script", {})
            if set(scripts) & {"arabic-script", "hebrew"}:
                groups += [(k, v) for k, v in scripts.items() if k in ("arabic-script", "hebrew")]
            for label, s in groups:
                ci = f" [{s['f1_ci'][0]:.3f}, {s['f1_ci'][1]:.3f}]" if s.get("f1_ci") else ""
                lines.append(f"| {name} | {label} | {rep['algorithm']} | {s['pages']} | {f(s['precision'])} | "
                             f"{f(s['recall'])} | {f(s['f1'])}{ci} | {f(s['char_f1'])} | {f(s['shingle_f1'])} | "
                             f"{f(s['snippet_accuracy'])} | {s['errors']}/{s['empties']} |")
    return "\n".join(lines)
