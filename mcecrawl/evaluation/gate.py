"""The CI quality gate: pinned mean-F1 floors per algorithm and dataset.

``mcecrawl/evaluation/baseline.json``, package data next to this module (``peer_ok``: per dataset,
the page ids where the best peer reaches :data:`MISS_PEER_F1`; a ``misses`` figure is a ceiling)::

    {"epsilon": 0.005,
     "measure": "...",
     "datasets": {"r2l": {"path": "r2l", "sha256": "<dataset_sha256>", "files": 37}, ...},
     "floors": {"r2l": {"r2l": {"f1": 0.61, "snippet_accuracy": 0.8}, ...}, ...}}

:func:`check` fails when the pinned data changed (its SHA-256 differs: the floors no longer
mean anything) or when any measured figure is below ``floor - epsilon``; a pinned algorithm that
is no longer registered is a failure too.  :func:`repin` re-measures and pins, and refuses to
lower any floor unless ``allow_lower`` is given.  Used by ``mcecrawl evaluate --gate`` /
``--update-baseline`` and by ``tests/test_quality_gate.py``.

The datasets' folder is always given: ``--data-root`` or the ``MCE_DATA_ROOT`` environment variable
(docs/evaluation.md, "Data").  ``--update-baseline`` writes the packaged file only in a source
checkout; an installed package's copy is read-only, so there it needs ``--baseline PATH``.
"""
from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence, cast

from mcecrawl.evaluation.datasets import data_files, dataset_sha256, load_dataset
from mcecrawl.evaluation.runner import UnknownAlgorithm, run_pages, summarize

# The pinned floors: package data (pyproject.toml [tool.setuptools.package-data]), read from the
# installed package or the checkout alike.
DEFAULT_BASELINE = Path(__file__).resolve().with_name("baseline.json")
# Environment variable naming the folder that holds the pinned datasets (when --data-root is not given).
DATA_ROOT_ENV = "MCE_DATA_ROOT"
# Run-to-run accuracy is deterministic, so epsilon only absorbs float noise across platforms
# and library versions (lxml parsing differences); a real regression on 13-181 pages moves the
# mean by more than half a point.
DEFAULT_EPSILON = 0.005
# Floors are pinned rounded *down* to this many decimals so that the pinned value never sits
# above the figure it was measured from.
FLOOR_DECIMALS = 4
# Figures the gate pins, from :func:`mcecrawl.evaluation.runner.summarize`.
GATED = ("f1", "snippet_accuracy")
# Whole-page misses: pages scoring below MISS_F1 where the best peer (pinned per page as
# ``peer_ok``, measured by benchmarks/bench_default.py) reaches MISS_PEER_F1.  A count, gated as a
# ceiling: it may not grow.
MISS_F1, MISS_PEER_F1 = 0.5, 0.8
CEILINGS = ("misses",)
MEASURE = ("f1: mean word-token LCS-F1 (R2L paper formula 3, folded) over full-gold pages; "
           "snippet_accuracy: mean share of with/without snippets handled correctly; gold variant 'gold', "
           "default algorithm parameters")


@dataclass(frozen=True)
class Finding:
    dataset: str
    algorithm: str
    figure: str
    floor: float | None
    measured: float | None
    ok: bool
    note: str = ""

    def line(self) -> str:
        f = "-" if self.floor is None else f"{self.floor:.4f}"
        m = "-" if self.measured is None else f"{self.measured:.4f}"
        return (f"{'ok  ' if self.ok else 'FAIL'} {self.dataset:18} {self.algorithm:14} {self.figure:17} "
                f"floor {f:>6}  now {m:>6}  {self.note}")


def in_source_checkout() -> bool:
    """Whether this package is the ``mcecrawl/`` folder of a source checkout (not an installed copy)."""
    package = Path(__file__).resolve().parents[1]
    return (package.parent / "pyproject.toml").is_file() and (package.parent / "tests").is_dir()


def load_baseline(path: str | Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        return cast("dict[str, Any]", json.load(f))


def measure(data_root: Path, dataset: str, algorithm: str, peer_ok: Sequence[str] | None = None) -> dict[str, Any]:
    """Gated figures of one algorithm on one pinned dataset (default parameters); with
    ``peer_ok`` (the pages where the best peer reaches :data:`MISS_PEER_F1`), also the number of
    whole-page misses among them (F1 below :data:`MISS_F1`)."""
    ds = load_dataset(data_root / dataset)
    records = run_pages(ds.scored(), algorithm, {}, primary_only=True)
    s = summarize(records)
    out = {key: s[key] for key in GATED if s.get(key) is not None}
    if peer_ok is not None:
        wanted = set(peer_ok)
        out["misses"] = sum(1 for r in records if r["id"] in wanted and (r.get("f1") or 0.0) < MISS_F1)
    return out


def _holds(figure: str, value: float | None, pinned: float, eps: float) -> bool:
    """A floor for accuracies; a ceiling for counts of misses."""
    if value is None:
        return False
    return value <= pinned if figure in CEILINGS else value >= pinned - eps


def check(baseline: dict[str, Any], data_root: str | Path, *, datasets: Sequence[str] | None = None,
          algorithms: Sequence[str] | None = None) -> list[Finding]:
    """Compare current figures with the floors; one :class:`Finding` per pinned figure."""
    data_root = Path(data_root)
    eps = float(baseline.get("epsilon", DEFAULT_EPSILON))
    findings = []
    for ds_name, pin in baseline["datasets"].items():
        if datasets and ds_name not in datasets:
            continue
        root = data_root / pin.get("path", ds_name)
        if not (root / "manifest.jsonl").is_file():
            findings.append(Finding(ds_name, "*", "data", None, None, False, f"missing: {root}"))
            continue
        digest = dataset_sha256(root)
        if digest != pin["sha256"]:
            findings.append(Finding(ds_name, "*", "data sha256", None, None, False,
                                    f"data changed ({digest[:12]} != pinned {pin['sha256'][:12]}): re-pin"))
            continue
        for algorithm, floors in baseline["floors"].get(ds_name, {}).items():
            if algorithms and algorithm not in algorithms:
                continue
            try:
                now = measure(data_root, pin.get("path", ds_name), algorithm,
                              baseline.get("peer_ok", {}).get(ds_name) if "misses" in floors else None)
            except UnknownAlgorithm as exc:
                findings.append(Finding(ds_name, algorithm, "available", None, None, False, str(exc)))
                continue
            for figure, floor in floors.items():
                value = now.get(figure)
                ok = _holds(figure, value, floor, eps)
                note = "more whole-page misses than pinned" if figure in CEILINGS else \
                    f"dropped by more than epsilon {eps}"
                findings.append(Finding(ds_name, algorithm, figure, floor, value, ok, "" if ok else note))
    return findings


def repin_hint(failed: Sequence[Finding]) -> str:
    """How to re-pin after an intended change (printed with every failure)."""
    datasets = " ".join(sorted({f.dataset for f in failed}))
    algs = ",".join(sorted({f.algorithm for f in failed if f.algorithm != "*"})) or "<algorithms>"
    return (f"if the change is intended, re-pin: mcecrawl evaluate {datasets} --update-baseline -a {algs} "
            f"--allow-lower   (and say why in the commit message)")


def _floor(value: float) -> float:
    scale: int = 10 ** FLOOR_DECIMALS
    return math.floor(value * scale) / scale


def repin(baseline: dict[str, Any] | None, data_root: str | Path, datasets: Sequence[str], algorithms: Sequence[str], *,
           allow_lower: bool = False, epsilon: float | None = None) -> tuple[dict[str, Any], list[str]]:
    """Re-measure ``algorithms`` on ``datasets`` and pin; return (new baseline, refusals).

    Every floor that would go down is listed in the refusals and the baseline is returned
    unchanged unless ``allow_lower``.  Floors of other algorithms/datasets are kept.
    """
    data_root = Path(data_root)
    old = baseline or {"epsilon": DEFAULT_EPSILON if epsilon is None else epsilon, "datasets": {}, "floors": {}}
    new = json.loads(json.dumps(old))
    if epsilon is not None:
        new["epsilon"] = epsilon
    new["measure"] = MEASURE
    refusals = []
    for ds_name in datasets:
        root = data_root / ds_name
        new["datasets"][ds_name] = {"path": ds_name, "sha256": dataset_sha256(root), "files": len(data_files(root))}
        for algorithm in algorithms:
            was = old.get("floors", {}).get(ds_name, {}).get(algorithm, {})
            peer_ok = new.get("peer_ok", {}).get(ds_name)
            now = measure(data_root, ds_name, algorithm, peer_ok)
            pinned = new["floors"].setdefault(ds_name, {}).setdefault(algorithm, {})
            for figure, value in now.items():
                floor = value if figure in CEILINGS else _floor(value)
                before = was.get(figure)
                worse = before is not None and (floor > before if figure in CEILINGS else floor < before)
                if worse and not allow_lower:
                    refusals.append(f"{ds_name}/{algorithm}/{figure}: {before:.4f} -> {floor:.4f}")
                pinned[figure] = floor
    new["pinned_at"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (old if refusals else new), refusals


def main(*, baseline: str | None = None, data_root: str | None = None, update: bool = False,
         allow_lower: bool = False, datasets: Sequence[str] | None = None,
         algorithms: Sequence[str] | None = None) -> int:
    """CLI entry (``mcecrawl evaluate --gate`` / ``--update-baseline``); exit 0, 1 (drop/refusal), 2 (usage)."""
    path = Path(baseline) if baseline else DEFAULT_BASELINE
    data_root = data_root or os.environ.get(DATA_ROOT_ENV)
    if not data_root:
        print(f"mcecrawl evaluate --gate/--update-baseline: give the datasets' folder with --data-root or "
              f"{DATA_ROOT_ENV} (docs/evaluation.md)", file=sys.stderr)
        return 2
    root = Path(data_root)
    current = load_baseline(path) if path.is_file() else None
    if update:
        if baseline is None and not in_source_checkout():
            print(f"mcecrawl evaluate --update-baseline: the installed package's baseline ({path}) is not "
                  f"written; give --baseline PATH (a copy of it, or a new file)", file=sys.stderr)
            return 2
        ds = list(datasets or (current or {}).get("datasets", {}) or ())
        algs = list(algorithms or sorted({a for f in (current or {}).get("floors", {}).values() for a in f}))
        if not ds or not algs:
            print("mcecrawl evaluate --update-baseline: name the datasets (folder names under --data-root) and "
                  "--algorithm", file=sys.stderr)
            return 2
        ds = [Path(d).name for d in ds]
        new, refusals = repin(current, root, ds, algs, allow_lower=allow_lower)
        if refusals:
            print("refusing to lower floors (pass --allow-lower if this is intended):", file=sys.stderr)
            for r in refusals:
                print("  " + r, file=sys.stderr)
            return 1
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        for ds_name, algs_floors in new["floors"].items():
            for alg, floors in algs_floors.items():
                print(f"pinned {ds_name:18} {alg:14} " + "  ".join(f"{k}={v:.4f}" for k, v in floors.items()))
        print(f"wrote {path}")
        return 0
    if current is None:
        print(f"mcecrawl evaluate --gate: no baseline at {path}", file=sys.stderr)
        return 2
    findings = check(current, root, datasets=[Path(d).name for d in datasets] if datasets else None,
                     algorithms=algorithms)
    for f in findings:
        print(f.line())
    failed = [f for f in findings if not f.ok]
    print(f"quality gate: {'FAILED' if failed else 'passed'} ({len(findings) - len(failed)}/{len(findings)} ok, "
          f"epsilon {current.get('epsilon', DEFAULT_EPSILON)})")
    if failed:
        print(repin_hint(failed))
    return 1 if failed else 0


__all__ = ["CEILINGS", "DATA_ROOT_ENV", "DEFAULT_BASELINE", "DEFAULT_EPSILON", "Finding", "GATED", "check",
           "in_source_checkout", "load_baseline",
           "main", "measure", "repin", "repin_hint"]
