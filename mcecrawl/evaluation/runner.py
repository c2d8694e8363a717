"""Run extraction algorithms (and optionally peers) over a dataset and score every page.

One record per (page, algorithm) with every measure of :mod:`mcecrawl.evaluation.metrics`;
:func:`summarize` turns a list of records into means with seeded bootstrap 95% intervals, so
re-runs give identical accuracy figures (only the speeds vary with the machine).
"""
from __future__ import annotations

import importlib
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from mcecrawl.algorithms.result import Extraction
from mcecrawl.evaluation import metrics
from mcecrawl.evaluation.datasets import Dataset, Page
from mcecrawl.evaluation.peers import PEER_PREFIX, PEERS, available_peers, run_peer
from mcecrawl.exceptions import MceError

# Bootstrap: 1000 resamples is the usual minimum for a percentile 95% interval (Efron &
# Tibshirani 1993, ch. 13); a fixed seed makes the interval reproducible run to run.
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20110101
CI_LEVEL = 0.95

# Language -> script group, so Hebrew is never averaged into Arabic-script figures.
ARABIC_SCRIPT_LANGS = frozenset({"ar", "fa", "ur", "ps", "ckb", "ku", "sd", "ug", "bal", "prs", "azb", "arz"})
HEBREW_SCRIPT_LANGS = frozenset({"he", "yi", "iw"})


def script_of(lang: str | None) -> str:
    """"arabic-script", "hebrew" or "other" for an ISO language code."""
    base = (lang or "").split("-")[0].lower()
    if base in ARABIC_SCRIPT_LANGS:
        return "arabic-script"
    if base in HEBREW_SCRIPT_LANGS:
        return "hebrew"
    return "other"


class UnknownAlgorithm(MceError, LookupError):
    """Neither a registered algorithm nor an installed peer."""


Runner = Callable[[Page, dict[str, Any]], Extraction]


def resolve(name: str) -> Runner:
    """A callable ``(page, params) -> Extraction`` for an algorithm of :data:`mcecrawl.ALGORITHMS`,
    a peer ``peer:<name>`` or stored predictions ``file:<path>``; raise :class:`UnknownAlgorithm`
    with the available names."""
    from mcecrawl import algorithms

    if name.startswith(FILE_PREFIX):
        return predictions_runner(name[len(FILE_PREFIX):])
    if name.startswith(PEER_PREFIX):
        peer = name[len(PEER_PREFIX):]
        if peer not in PEERS or peer not in available_peers():
            raise UnknownAlgorithm(f"peer {peer!r} is not installed (pip install 'mcecrawl[peers]'); "
                                   f"installed: {', '.join(available_peers()) or 'none'}")
        importlib.import_module(PEERS[peer][0])  # import now, not inside the first page's timing
        return lambda page, params: run_peer(peer, page.text, page.url, page.lang)
    if name not in algorithms.ALGORITHMS and name not in algorithms.BASELINES:
        known = ", ".join(sorted(algorithms.ALGORITHMS)) or "none registered yet"
        raise UnknownAlgorithm(f"unknown algorithm {name!r} (available: {known}; "
                               f"baselines: {', '.join(algorithms.BASELINES)})")

    usage_error = getattr(algorithms, "ParamError", ())

    def run(page: Page, params: dict[str, Any]) -> Extraction:
        # Pages are decoded once by the loader (with the manifest's Content-Type), so the
        # algorithms get text.  A bad parameter is the caller's mistake and propagates; any
        # other crash is a result for that page.
        try:
            return algorithms.extract(page.text, algorithm=name, url=page.url, **params)
        except usage_error:
            raise
        except Exception as exc:
            return Extraction("", (), name, params, status="error", reason=f"{type(exc).__name__}: {exc}")

    return run


FILE_PREFIX = "file:"


def predictions_runner(path: str) -> Runner:
    """Score stored outputs instead of running an extractor: a JSON-lines file of
    ``{"id": page id, "text": extracted text}`` (e.g. another tool's output or a crawl's items
    with ids added).  A page without a line is an error result ("no prediction")."""
    import json

    label = FILE_PREFIX + path
    texts: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    rec = json.loads(line)
                    texts[str(rec["id"])] = rec.get("text") or ""
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UnknownAlgorithm(f"cannot read predictions {path}: {type(exc).__name__}: {exc}") from None

    def run(page: Page, params: dict[str, Any]) -> Extraction:
        if page.id not in texts:
            return Extraction("", (), label, status="error", reason="no prediction for this page")
        text = texts[page.id]
        paragraphs = tuple(line for line in text.splitlines() if line.strip())
        return Extraction(text, paragraphs, label, status="ok" if paragraphs else "empty")

    return run


def score_page(page: Page, result: Extraction, *, gold_variant: str = "gold", seconds: float = 0.0,
               primary_only: bool = False) -> dict[str, Any]:
    """All measures of one extraction against the page's gold, as a flat JSON-able record
    (``primary_only``: word-token LCS and snippets only, for tuning loops and the gate)."""
    output = result.text if result.status != "error" else ""
    rec: dict[str, Any] = {
        "id": page.id, "dataset": page.dataset, "site": page.site, "lang": page.lang, "script": script_of(page.lang),
        "page_type": page.page_type, "gold_kind": page.gold_kind, "algorithm": result.algorithm,
        "params": dict(result.params),
        "status": result.status, "reason": result.reason, "bytes": len(page.body), "seconds": seconds,
    }
    if page.gold_kind == "full":
        gold = page.gold_text(gold_variant)
        lcs = metrics.lcs_f1(output, gold)
        rec.update(precision=lcs.precision, recall=lcs.recall, f1=lcs.f1,
                   wcxb_f1=metrics.wcxb_f1(output, gold).f1)
        if primary_only:
            return rec
        length = metrics.length_pr(output, gold)
        rec.update(precision=lcs.precision, recall=lcs.recall, f1=lcs.f1,
                   char_f1=metrics.char_lcs_f1(output, gold).f1, bow_f1=metrics.bow_f1(output, gold).f1,
                   length_p=length.precision, length_r=length.recall, length_f1=length.f1,
                   shingle=list(metrics.shingle_counts(output, gold)))
    elif page.gold_kind == "snippets":
        snip = metrics.snippet_score(output, page.with_, page.without)
        s = snip.score
        rec.update(snippet_accuracy=snip.accuracy, snippet_p=s.precision, snippet_r=s.recall, snippet_f1=s.f1,
                   with_found=snip.with_found, with_total=snip.with_total,
                   without_found=snip.without_found, without_total=snip.without_total)
    return rec


def worst_pages(records: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """The ``n`` records with the lowest primary F1 (ties by id, so the list is stable)."""
    scored = [r for r in records if primary_f1(r) is not None]
    return sorted(scored, key=lambda r: (primary_f1(r), r["id"]))[:n]


def primary_f1(rec: dict[str, Any]) -> float | None:
    """The page's headline F1: word-token LCS-F1 for full gold, snippet F1 for snippet gold."""
    return rec.get("f1", rec.get("snippet_f1"))


def run_pages(pages: Iterable[Page], name: str, params: dict[str, Any] | None = None, *, gold_variant: str = "gold",
              runner: Runner | None = None, primary_only: bool = False) -> list[dict[str, Any]]:
    """Extract and score each page with algorithm ``name``; raise UnknownAlgorithm up front."""
    runner = runner or resolve(name)
    params = dict(params or {})
    records = []
    for page in pages:
        if page.gold_kind not in ("full", "snippets"):
            continue
        page.text  # decode outside the timed region: MB/s is the algorithm's own speed
        start = time.perf_counter()
        result = runner(page, params)
        elapsed = time.perf_counter() - start
        rec = score_page(page, result, gold_variant=gold_variant, seconds=elapsed, primary_only=primary_only)
        rec["algorithm"] = name
        records.append(rec)
    return records


def bootstrap_ci(values: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                 level: float = CI_LEVEL) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean (seeded: identical on every run)."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return (float("nan"), float("nan"))
    if data.size == 1:
        return (float(data[0]), float(data[0]))
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    alpha = (1 - level) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return (float(lo), float(hi))


def _mean(values: list[float]) -> float | None:
    return float(np.mean(values)) if values else None


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Means (with 95% CIs for P, R, F1), counts and speed of a group of records."""
    full = [r for r in records if r["gold_kind"] == "full"]
    snip = [r for r in records if r["gold_kind"] == "snippets"]
    out: dict[str, Any] = {
        "pages": len(records), "full": len(full), "snippets": len(snip),
        "errors": sum(r["status"] == "error" for r in records),
        "empties": sum(r["status"] == "empty" for r in records),
    }
    seconds = sum(r["seconds"] for r in records)
    out["mb_per_s"] = (sum(r["bytes"] for r in records) / 1e6 / seconds) if seconds > 0 else None
    for key in ("precision", "recall", "f1"):
        values = [r[key] for r in full]
        out[key] = _mean(values)
        out[f"{key}_ci"] = list(bootstrap_ci(values)) if values else None
    for key in ("wcxb_f1", "char_f1", "bow_f1", "length_p", "length_r", "length_f1"):
        out[key] = _mean([r[key] for r in full if key in r])
    shingles = [tuple(r["shingle"]) for r in full if "shingle" in r]
    out["shingle_f1"] = metrics.shingle_f1(shingles).f1 if shingles else None
    for key in ("snippet_accuracy", "snippet_p", "snippet_r", "snippet_f1"):
        out[key] = _mean([r[key] for r in snip])
    return out


def breakdown(records: list[dict[str, Any]], by: str) -> dict[str, dict[str, Any]]:
    """:func:`summarize` per value of ``by`` ("site", "lang", "script" or "page_type"), sorted by key."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[str(r.get(by) or "unknown")].append(r)
    return {key: summarize(groups[key]) for key in sorted(groups)}


@dataclass
class AlgorithmReport:
    algorithm: str
    params: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)
    unavailable: str | None = None  # reason when the algorithm could not run at all

    def summary(self) -> dict[str, Any]:
        return summarize(self.records)

    def as_dict(self, by: Sequence[str] = ()) -> dict[str, Any]:
        d: dict[str, Any] = {"algorithm": self.algorithm, "params": self.params}
        if self.unavailable:
            d["unavailable"] = self.unavailable
            return d
        d["summary"] = self.summary()
        keys = ["script", *by]
        if "page_type" not in keys and any(r.get("page_type") for r in self.records):
            keys.append("page_type")
        d["by"] = {key: breakdown(self.records, key) for key in keys}
        d["pages"] = self.records
        return d


def evaluate_dataset(dataset: Dataset, names: Sequence[str], params: dict[str, Any] | None = None, *,
                     gold_variant: str = "gold") -> list[AlgorithmReport]:
    """Every algorithm/peer in ``names`` on every scored page; unknown names are reported."""
    reports = []
    for name in names:
        try:
            runner = resolve(name)
        except UnknownAlgorithm as exc:
            reports.append(AlgorithmReport(name, dict(params or {}), unavailable=str(exc)))
            continue
        p = {} if name.startswith((PEER_PREFIX, FILE_PREFIX)) else dict(params or {})
        try:
            records = run_pages(dataset.scored(), name, p, gold_variant=gold_variant, runner=runner)
        except ValueError as exc:  # ParamError: unknown parameter or bad value for this algorithm
            reports.append(AlgorithmReport(name, p, unavailable=f"bad parameters: {exc}"))
            continue
        reports.append(AlgorithmReport(name, p, records))
    return reports


__all__ = ["AlgorithmReport", "FILE_PREFIX", "UnknownAlgorithm", "predictions_runner", "worst_pages", "bootstrap_ci",
           "breakdown", "evaluate_dataset", "primary_f1",
           "resolve", "run_pages", "score_page", "script_of", "summarize"]
