"""Benchmark of each page type's main content on wcxb_dev, peers in the same run, held out by domain.

    python benchmarks/bench_pagetypes.py accuracy [--peers]   # per type: ours (gold type, judged type,
                                                               # article only) vs the peers
    python benchmarks/bench_pagetypes.py heldout              # the typed extraction's constants,
                                                               # leave-one-domain-out
    python benchmarks/bench_pagetypes.py speed [--rounds 3]   # CPU of the typed extraction (+ judgement)
                                                               # over the article extraction
    python benchmarks/bench_pagetypes.py gate --cache rows.json  # the prose types' gate and a
                                                               # collection's own growth guard, from
                                                               # gate_pagetype.py's per-page rows
    python benchmarks/bench_pagetypes.py all --peers          # everything, as Markdown
    python benchmarks/bench_pagetypes.py snapshot --out F     # every page's outputs, to a JSON file
    python benchmarks/bench_pagetypes.py identity --against F # the same outputs now, page by page
    python benchmarks/bench_pagetypes.py speed-against --checkout /work/main [--rounds 5]
                                                               # CPU of the typed readings and of the
                                                               # default extraction, this code vs a checkout's

Accuracy is WCXB's own metric (:func:`mcecrawl.evaluation.metrics.wcxb_f1`: bag-of-words F1 over
lowercase ``\\w+`` tokens, per page, averaged), per ``page_type`` of the manifest.  "ours, gold type"
reads each page as its manifest type (``extract(..., page_type=...)``): the extraction's figure
with a perfect judgement.  "ours, judged" lets ``mcecrawl.algorithms.pagetype`` judge (shown only
when that module is installed).  "ours, article" is the article extraction alone (the default
before page types).

Held out: each constant of the typed extraction (:data:`TUNABLES`) is chosen among its values by
leave-one-domain-out: for each domain (the manifest's site, ``www.`` dropped), the value with the
best mean on the pages of every other domain is applied to that domain's pages; the held-out
figure is the mean over all pages so scored, beside the in-sample figure of the shipped value.
The prose types' gate (``typed.PROSE_MIN_CONFIDENCE``, ``typed.PROSE_MIN_GROWTH``) is measured on
the per-page rows of ``benchmarks/gate_pagetype.py --cache rows.json`` (wcxb_dev judged held out by
domain, the article sets judged by the shipped model): per pair, every set's figure, the article
pages read as another type and the new whole-page misses; the pair chosen is admissible (as
gate_pagetype.py: every article set within 0.002, no miss), reads no more article pages as another
type than the list types' gate alone, and is the best such on wcxb_dev; held out by leaving one
dataset out (wcxb_dev: by its folds of domains).  A collection's own growth guard
(``typed.COLLECTION_MIN_GROWTH``) is chosen the same way, one type at a
time among :data:`OWN_GROWTHS` (a thread's own guard was measured so and not kept); the guard of a
prose judgement under its bound (``typed.PROSE_UNSURE_MIN_GROWTH``) is the smallest of :data:`UNSURE_GROWTHS`
that reads no article page as another type that was not before, the article sets also without their URL
and stripped of their markup.
Identity: ``snapshot`` records, for every page of :data:`IDENTITY_SETS`, the default extraction
(judged: text, title, status, reason, page type and its reason) and each typed reading
(:data:`READINGS`, read from the page's article extraction as :func:`mcecrawl.algorithms._judged`
reads it, whether or not the gate would keep it); ``identity`` recomputes them and lists every page
that differs.  A change meant to cost less CPU and change nothing is checked so against a snapshot
of the code before it.
Speed against a checkout: the typed-reading modules (:data:`TYPED_MODULES`) of another checkout of
the project (e.g. a worktree of main) are loaded beside ours in one process; rounds alternate (ours,
theirs, ours, ...) over wcxb_dev's non-article pages: the typed readings alone (each page read as
its gold type from its article extraction, made once outside the timing) and the default
extraction (judged), ``time.process_time`` per round, best round of each.
Speed: one process, rounds of the article extraction and the typed one interleaved (A B A B),
``time.process_time`` per round, best round of each, decoding included.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from mcecrawl.algorithms import _judge, chrome, extract, threads, typed  # noqa: E402
from mcecrawl.evaluation import load_dataset  # noqa: E402
from mcecrawl.evaluation.metrics import wcxb_f1  # noqa: E402
from mcecrawl.evaluation.peers import available_peers, run_peer  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
TYPES = ("article", "collection", "documentation", "forum", "listing", "product", "service")
PEERS = ("trafilatura", "resiliparse", "readability")
# The typed extraction's constants chosen on wcxb_dev: (module, name) -> values tried, and the
# page types each one changes (the others keep their figure).
TUNABLES: dict[tuple[Any, str], tuple[tuple[float, ...], tuple[str, ...]]] = {
    (chrome, "CHROME_MAX_SHARE"): ((0.3, 0.5, 0.7), ("collection", "documentation", "forum", "listing", "product",
                                                     "service")),
    (chrome, "LINK_LIST_MAX_SHARE"): ((0.5, 0.8, 0.95), ("documentation", "product", "service")),
    (chrome, "CTA_MAX_WORDS"): ((0, 3, 5, 8, 12), ("product", "service")),
    (threads, "THREAD_MIN_SHARE"): ((0.3, 0.5, 0.7), ("forum",)),
    (typed, "PRODUCT_MIN_SHARE"): ((0.15, 0.25, 0.35), ("product",)),
    (typed, "ARTICLE_MIN_COVER"): ((0.3, 0.5, 0.7), ("collection", "documentation", "forum", "listing", "product",
                                                     "service")),
}


# The prose types' gates tried: (confidence bound, growth guard), typed.PROSE_MIN_CONFIDENCE and
# typed.PROSE_MIN_GROWTH.
PROSE_BOUNDS = (0.5, 0.6, 0.7, 0.8, 0.9)
PROSE_GROWTHS = (1.0, 1.1, 1.25, 1.5, 2.0, 4.0)
# The own growth guards tried for a collection's reading (typed.COLLECTION_MIN_GROWTH), at most the
# list types' typed.TYPED_MIN_GROWTH.
OWN_GROWTHS = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0)


def with_constants(values: dict[str, float], fn: Callable[[], Any]) -> Any:
    """``fn()`` with typed's constants set to ``values`` (gate_pagetype.acts reads them through
    typed.min_growth), as shipped again after."""
    shipped = {name: getattr(typed, name) for name in values}
    for name, v in values.items():
        setattr(typed, name, v)
    try:
        return fn()
    finally:
        for name, v in shipped.items():
            setattr(typed, name, v)


def domain(site: str) -> str:
    return site.lower().removeprefix("www.")


def ours(page: Any, page_type: str | None) -> str:
    return extract(page.body, url=page.url, content_type=page.content_type, page_type=page_type).text


def score(page: Any, text: str) -> float:
    return wcxb_f1(text, page.gold_text()).f1


def table(rows: dict[str, dict[str, list[float]]], title: str) -> str:
    head = "| extractor | all | " + " | ".join(TYPES) + " |"
    out = [f"**{title}**", "", head, "|---" + "|---:" * (len(TYPES) + 1) + "|"]
    for name, by_type in rows.items():
        every = [v for t in TYPES for v in by_type.get(t, [])]
        cells = [f"{statistics.fmean(every):.3f}" if every else "-"]
        cells += [f"{statistics.fmean(by_type[t]):.3f}" if by_type.get(t) else "-" for t in TYPES]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    n = {t: len(next(iter(rows.values())).get(t, [])) for t in TYPES}
    out.append(f"\npages: {sum(n.values())} ({', '.join(f'{t} {n[t]}' for t in TYPES)})")
    return "\n".join(out)


def accuracy(root: Path, with_peers: bool) -> str:
    pages = load_dataset(root).scored()
    judged = _judge() is not None
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    peers = [p for p in PEERS if p in available_peers()] if with_peers else []
    for page in pages:
        t = page.page_type or "other"
        rows["ours, gold type"][t].append(score(page, ours(page, page.page_type)))
        if judged:
            rows["ours, judged type"][t].append(score(page, ours(page, None)))
        rows["ours, article only"][t].append(score(page, ours(page, "article")))
        for peer in peers:
            rows[peer][t].append(score(page, run_peer(peer, page.text, page.url, page.lang).text))
    note = "" if judged else "\n\n(the page-type judgement is not installed here: no judged row)"
    return table(rows, f"WCXB's metric on {root.name}, per page type") + note


def heldout(root: Path) -> str:
    pages = [p for p in load_dataset(root).scored() if p.page_type]
    base = {p.id: score(p, ours(p, p.page_type)) for p in pages}
    lines = ["**Constants of the typed extraction, leave-one-domain-out (gold types)**", "",
             "| constant | shipped | values | in-sample (all) | held out (all) | difference |",
             "|---|---:|---|---:|---:|---:|"]
    for (module, name), (values, types) in TUNABLES.items():
        shipped = getattr(module, name)
        per_value: dict[float, dict[str, float]] = {}
        try:
            for v in values:
                setattr(module, name, v)
                per_value[v] = {p.id: (score(p, ours(p, p.page_type)) if p.page_type in types else base[p.id])
                                for p in pages}
        finally:
            setattr(module, name, shipped)
        by_domain: dict[str, list[str]] = defaultdict(list)
        for p in pages:
            by_domain[domain(p.site)].append(p.id)
        totals = {v: sum(s.values()) for v, s in per_value.items()}
        held = []
        for ids in by_domain.values():
            # the best value on every other domain (ties: the value listed first)
            best = max(values, key=lambda v: totals[v] - sum(per_value[v][i] for i in ids))
            held += [per_value[best][i] for i in ids]
        inside = statistics.fmean(per_value[shipped].values())
        out = statistics.fmean(held)
        lines.append(f"| `{module.__name__.rsplit('.', 1)[-1]}.{name}` | {shipped} | "
                     f"{', '.join(map(str, values))} | {inside:.4f} | {out:.4f} | {out - inside:+.4f} |")
    lines.append(f"\n{len(pages)} pages of {len({domain(p.site) for p in pages})} domains")
    return "\n".join(lines)


def _by_folds(sets: dict[str, list[dict[str, Any]]], name: str, choose: Callable[[Any], Any],
              score: Callable[[Any, list[dict[str, Any]]], list[float]]) -> tuple[list[float], set[Any]]:
    """``name`` (wcxb_dev) held out by its 10 folds of domains: on each fold, the choice made on the other
    folds and every other set (``choose(sets)``), scored on the fold (``score(choice, rows)``); the
    scores of every page, and the choices made."""
    import gate_pagetype as gp

    parts = gp.wcxb_folds(DATA, sets[name], 10)
    held: list[float] = []
    chosen: set[Any] = set()
    for k, part in enumerate(parts):
        rest = [r for j, q in enumerate(parts) if j != k for r in q]
        choice = choose({**sets, name: rest})
        chosen.add(choice)
        held += score(choice, part)
    return held, chosen


def _prose_gate(rows_file: Path) -> str:
    import json

    import gate_pagetype as gp

    sets = json.loads(rows_file.read_text())
    shipped = (typed.PROSE_MIN_CONFIDENCE, typed.PROSE_MIN_GROWTH)
    gate = (typed.TYPED_MIN_CONFIDENCE, typed.TYPED_MIN_GROWTH)
    pairs = [(b, k) for b in PROSE_BOUNDS for k in PROSE_GROWTHS]
    never = (1.01, math.inf)  # prose readings never acted on
    same = gate  # the prose types under the list types' gate (as before the prose gate)

    unsure = typed.PROSE_UNSURE_MIN_GROWTH  # the judgements under the bound: as shipped, but for never and same

    def run(prose: tuple[float, float], fn: Callable[[], Any]) -> Any:
        return with_constants({"PROSE_MIN_CONFIDENCE": prose[0], "PROSE_MIN_GROWTH": prose[1],
                               "PROSE_UNSURE_MIN_GROWTH": math.inf if prose in (never, same) else unsure}, fn)

    def acted(part: dict[str, list[dict[str, Any]]], prose: tuple[float, float]) -> int:
        return run(prose, lambda: sum(gp.acted(v, gate) for n, v in part.items() if n != "wcxb_dev" and "," not in n))

    def choose(part: dict[str, list[dict[str, Any]]]) -> tuple[float, float]:
        """Admissible (gate_pagetype.py's test), no more article pages acted on than with the list
        types' gate for every type, best on wcxb_dev (ties: the higher bound, then the higher guard)."""
        most = acted(part, same)
        ok = [p for p in pairs if run(p, lambda: gp.admissible(part, gate)) and acted(part, p) <= most]
        if "wcxb_dev" not in part:
            return max(ok)
        return max(ok, key=lambda p: (round(run(p, lambda: gp.figure("wcxb_dev", part["wcxb_dev"], gate)), 4), p))

    names = [n for n in sets if "," not in n]  # the sets as served; their variants count in admissible
    arts = [n for n in names if n != "wcxb_dev"]
    lines = [f"**The prose types' gate** (list types: p >= {gate[0]:.2f}, typed >= {gate[1]:g}x article; rows "
             f"of {rows_file.name})", "",
             "| prose gate (p, growth) | " + " | ".join(names) + " | article pages acted on | misses |",
             "|---|" + "---:|" * (len(names) + 2)]
    for p in [never, same] + pairs:
        cells = run(p, lambda: [f"{gp.figure(n, sets[n], gate):.4f}" for n in names])
        miss = run(p, lambda: sum(gp.misses(sets[n], gate) for n in arts))
        name = ("never acted on" if p == never else "as the list types" if p == same else
                f"{p[0]:.2f}, {p[1]:g}x" + (" (shipped)" if p == shipped else ""))
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {acted(sets, p)} | {miss} |")
    best = choose(sets)
    lines.append(f"\nchosen on all sets: {best[0]:.2f}, {best[1]:g}x (shipped {shipped[0]:.2f}, {shipped[1]:g}x)")
    lines += ["", "leave one dataset out (wcxb_dev: by 10 folds of domains, the gate chosen on the other folds "
              "and the article sets)", "",
              "| left out | prose gate chosen | figure | shipped gate's figure | acted on |",
              "|---|---|---:|---:|---:|"]
    for n in names:
        if n == "wcxb_dev":
            held, chosen = _by_folds(sets, n, choose, lambda g, part: run(
                g, lambda: [r["typed"] if gp.acts(r, gate) else r["article"] for r in part]))
            lines.append(f"| wcxb_dev (by domain) | {'; '.join(f'{c[0]:.2f}, {c[1]:g}x' for c in sorted(chosen))} | "
                         f"{statistics.fmean(held):.4f} | {gp.figure(n, sets[n], gate):.4f} | - |")
            continue
        g = choose({m: v for m, v in sets.items() if m.split(",")[0] != n})
        lines.append(f"| {n} | {g[0]:.2f}, {g[1]:g}x | {run(g, lambda: gp.figure(n, sets[n], gate)):.4f} | "
                     f"{gp.figure(n, sets[n], gate):.4f} | {run(g, lambda: gp.acted(sets[n], gate))} |")
    return "\n".join(lines)


# The growth guards tried for a prose judgement under typed.PROSE_MIN_CONFIDENCE
# (typed.PROSE_UNSURE_MIN_GROWTH; inf: such judgements never acted on).
UNSURE_GROWTHS = (1.5, 2.0, 3.0, 4.0, 6.0, math.inf)


def _unsure_guard(rows_file: Path) -> str:
    """The growth guard of a prose judgement under its bound (typed.PROSE_UNSURE_MIN_GROWTH): the smallest
    under which no article page is read as another type that was not without it, in the article sets as
    served and in every one of their gate_pagetype.VARIANTS (without URL, stripped of markup), and
    admissible; each set's figure, and wcxb_dev held out by its folds of domains."""
    import json

    import gate_pagetype as gp

    sets = json.loads(rows_file.read_text())
    gate = (typed.TYPED_MIN_CONFIDENCE, typed.TYPED_MIN_GROWTH)
    shipped = typed.PROSE_UNSURE_MIN_GROWTH
    names = [n for n in sets if "," not in n]

    def run(growth: float, fn: Callable[[], Any]) -> Any:
        return with_constants({"PROSE_UNSURE_MIN_GROWTH": growth}, fn)

    def acted_pages(part: dict[str, list[dict[str, Any]]], growth: float) -> set[tuple[str, str]]:
        return run(growth, lambda: {(n, r["id"]) for n, v in part.items() if n != "wcxb_dev"
                                    for r in v if gp.acts(r, gate)})

    def choose(part: dict[str, list[dict[str, Any]]]) -> float:
        before = acted_pages(part, math.inf)
        return min(g for g in UNSURE_GROWTHS if run(g, lambda: gp.admissible(part, gate))
                   and acted_pages(part, g) <= before)

    lines = [f"**The prose judgements under p {typed.PROSE_MIN_CONFIDENCE:.2f}: their growth guard** (list types: "
             f"p >= {gate[0]:.2f}, typed >= {gate[1]:g}x article; rows of {rows_file.name}; article pages newly "
             "read as another type counted over the sets as served and their variants)", "",
             "| guard under the bound | " + " | ".join(names) + " | article pages newly read as another type |",
             "|---|" + "---:|" * (len(names) + 1)]
    before = acted_pages(sets, math.inf)
    for g in UNSURE_GROWTHS:
        cells = run(g, lambda: [f"{gp.figure(n, sets[n], gate):.4f}" for n in names])
        new = sorted(acted_pages(sets, g) - before)
        label = ("never acted on" if g == math.inf else f"{g:g}x") + (" (shipped)" if g == shipped else "")
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {len(new)}"
                     + (f": {', '.join(f'{n} {i}' for n, i in new)}" if new else "") + " |")
    lines.append(f"\nchosen on all sets: {choose(sets):g}x (shipped {shipped:g}x)")
    held, chosen = _by_folds(sets, "wcxb_dev", choose, lambda g, part: run(
        g, lambda: [r["typed"] if gp.acts(r, gate) else r["article"] for r in part]))
    lines.append(f"wcxb_dev by folds of domains: {'; '.join(f'{c:g}x' for c in sorted(chosen))}, "
                 f"{statistics.fmean(held):.4f} (never acted on: "
                 f"{run(math.inf, lambda: gp.figure('wcxb_dev', sets['wcxb_dev'], gate)):.4f})")
    return "\n".join(lines)


def _own_guards(rows_file: Path) -> str:
    """The list types' own growth guards (gate_pagetype.OWN_GUARDS: a collection's), one type at a
    time (any other as shipped), chosen as the prose types' gate is (:func:`_prose_gate`), held out alike."""
    import json

    import gate_pagetype as gp

    sets = json.loads(rows_file.read_text())
    gate = (typed.TYPED_MIN_CONFIDENCE, typed.TYPED_MIN_GROWTH)
    shipped = {page_type: getattr(typed, name) for page_type, name in gp.OWN_GUARDS.items()}
    names = [n for n in sets if "," not in n]  # the sets as served; their variants count in admissible
    arts = [n for n in names if n != "wcxb_dev"]

    def run(page_type: str, growth: float, fn: Callable[[], Any]) -> Any:
        return with_constants({gp.OWN_GUARDS[page_type]: growth}, fn)

    def acted(part: dict[str, list[dict[str, Any]]]) -> int:
        return sum(gp.acted(v, gate) for n, v in part.items() if n != "wcxb_dev" and "," not in n)

    def choose(page_type: str, part: dict[str, list[dict[str, Any]]]) -> float:
        """Admissible, no more article pages acted on than under the list types' guard, best on
        wcxb_dev (ties: the higher guard)."""
        most = run(page_type, gate[1], lambda: acted(part))
        ok = [g for g in OWN_GROWTHS if run(page_type, g, lambda: gp.admissible(part, gate) and acted(part) <= most)]
        if "wcxb_dev" not in part:
            return max(ok)
        return max(ok, key=lambda g: (round(run(page_type, g, lambda: gp.figure("wcxb_dev", part["wcxb_dev"], gate)),
                                            4), g))

    lines = [f"**The list types' own growth guards** (list types: p >= {gate[0]:.2f}, typed >= "
             f"{gate[1]:g}x article; rows of {rows_file.name})"]
    for page_type in sorted(shipped):
        lines += ["", f"| {page_type} guard | " + " | ".join(names) + " | article pages acted on | misses |",
                  "|---|" + "---:|" * (len(names) + 2)]
        for g in OWN_GROWTHS:
            cells = run(page_type, g, lambda: [f"{gp.figure(n, sets[n], gate):.4f}" for n in names])
            miss = run(page_type, g, lambda: sum(gp.misses(sets[n], gate) for n in arts))
            mark = " (shipped)" if g == shipped[page_type] else ""
            lines.append(f"| {g:g}x{mark} | " + " | ".join(cells) + f" | {run(page_type, g, lambda: acted(sets))} | "
                         f"{miss} |")
        lines.append(f"\nchosen on all sets: {choose(page_type, sets):g}x (shipped {shipped[page_type]:g}x)")
        lines += ["", "| left out | guard chosen | figure | shipped guard's figure |", "|---|---|---:|---:|"]
        for n in names:
            if n == "wcxb_dev":
                held, chosen = _by_folds(sets, n, lambda part: choose(page_type, part), lambda g, part: run(
                    page_type, g, lambda: [r["typed"] if gp.acts(r, gate) else r["article"] for r in part]))
                lines.append(f"| wcxb_dev (by domain) | {'; '.join(f'{c:g}x' for c in sorted(chosen))} | "
                             f"{statistics.fmean(held):.4f} | {gp.figure(n, sets[n], gate):.4f} |")
                continue
            g = choose(page_type, {m: v for m, v in sets.items() if m.split(",")[0] != n})
            lines.append(f"| {n} | {g:g}x | {run(page_type, g, lambda: gp.figure(n, sets[n], gate)):.4f} | "
                         f"{gp.figure(n, sets[n], gate):.4f} |")
    return "\n".join(lines)


def _cpu(pages: list[Any], run: Callable[[Any], Any]) -> float:
    start = time.process_time()
    for p in pages:
        run(p)
    return time.process_time() - start


def speed(rounds: int) -> str:
    lines = ["**CPU of the typed extraction over the article extraction** (interleaved rounds, best of "
             f"{rounds}; noisy on a shared machine)", "",
             "| set | article only (s) | gold type (s) | judged (s) | typed cost |", "|---|---:|---:|---:|---:|"]
    judged = _judge() is not None
    for name in ("wcxb_dev", "r2l"):
        root = DATA / name
        if not root.is_dir():
            continue
        pages = list(load_dataset(root))
        for p in pages:
            p.body  # read once, outside the timing
        best: dict[str, float] = defaultdict(lambda: float("inf"))
        for _ in range(rounds):
            best["article"] = min(best["article"], _cpu(pages, lambda p: ours(p, "article")))
            best["gold"] = min(best["gold"], _cpu(pages, lambda p: ours(p, p.page_type or "article")))
            if judged:
                best["judged"] = min(best["judged"], _cpu(pages, lambda p: ours(p, None)))
        worst = best["judged"] if judged else best["gold"]
        lines.append(f"| {name} | {best['article']:.2f} | {best['gold']:.2f} | "
                     f"{best['judged']:.2f} | {worst / best['article'] - 1:+.1%} |" if judged else
                     f"| {name} | {best['article']:.2f} | {best['gold']:.2f} | - | "
                     f"{worst / best['article'] - 1:+.1%} |")
    return "\n".join(lines)


# The sets of the identity check (every page of each), and the typed readings recorded per page.
IDENTITY_SETS = ("wcxb_dev", "r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval")
READINGS = ("listing", "collection", "forum", "documentation", "product", "service")


def _digest(result: Any) -> dict[str, Any]:
    import hashlib

    return {"text": hashlib.sha1(result.text.encode("utf-8", "surrogatepass")).hexdigest(),
            "title": result.title, "status": result.status, "reason": result.reason,
            "page_type": result.page_type, "page_type_reason": getattr(result, "page_type_reason", None)}


def _readings(page: Any) -> dict[str, Any]:
    """One page's recorded outputs: the default extraction and each typed reading."""
    from mcecrawl.algorithms import DEFAULT_ALGORITHM, get_algorithm
    from mcecrawl.encoding import decode

    out = {"default": _digest(extract(page.body, url=page.url, content_type=page.content_type))}
    decoded = decode(page.body, page.content_type)
    text: str | bytes = decoded.page
    if not text.strip():
        return out
    article = get_algorithm(DEFAULT_ALGORITHM)(text)
    for kind in READINGS:
        try:
            out[kind] = _digest(typed.extract_as(text, kind, url=page.url, base=article))
        except Exception as e:  # recorded: a reading that fails must fail alike
            out[kind] = {"error": repr(e)}
    return out


def snapshot(out: Path, sets: tuple[str, ...]) -> str:
    import json

    data = {name: {p.id: _readings(p) for p in load_dataset(DATA / name)} for name in sets}
    out.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True))
    return f"{sum(len(v) for v in data.values())} pages of {len(data)} sets recorded in {out}"


def identity(against: Path, sets: tuple[str, ...]) -> tuple[str, bool]:
    import json

    old = json.loads(against.read_text())
    lines = ["| set | pages | identical | different |", "|---|---:|---:|---:|"]
    diffs = []
    for name in sets:
        if name not in old:
            continue
        now = {p.id: _readings(p) for p in load_dataset(DATA / name)}
        bad = sorted(i for i in set(now) | set(old[name]) if now.get(i) != old[name].get(i))
        lines.append(f"| {name} | {len(now)} | {len(now) - len(bad)} | {len(bad)} |")
        for i in bad:
            a, b = old[name].get(i) or {}, now.get(i) or {}
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            diffs.append(f"{name}/{i}: " + "; ".join(f"{k}: {a.get(k)} -> {b.get(k)}" for k in keys))
    return "\n".join(lines + diffs), not diffs


# The modules of the typed readings, as swapped by ``speed-against`` (the rest of the code is shared;
# the article extraction keeps this checkout's parse module, bound when it was imported).
TYPED_MODULES = ("parse", "chrome", "lists", "threads", "typed")


def _checkout_modules(checkout: Path) -> dict[str, Any]:
    """The typed-reading modules of another checkout, loaded under their own names and wired to each
    other (each imports its siblings from ``sys.modules`` while it loads)."""
    import importlib.util

    import mcecrawl.algorithms as package

    name = "mcecrawl.algorithms."
    ours = {m: sys.modules[name + m] for m in TYPED_MODULES}
    theirs: dict[str, Any] = {}
    try:
        for m in TYPED_MODULES:  # each sibling before the modules importing it
            spec = importlib.util.spec_from_file_location(name + m, checkout / "mcecrawl" / "algorithms" / f"{m}.py")
            assert spec and spec.loader
            module = importlib.util.module_from_spec(spec)
            sys.modules[name + m] = theirs[m] = module
            setattr(package, m, module)  # ``from mcecrawl.algorithms import chrome`` reads the package
            spec.loader.exec_module(module)
    finally:
        sys.modules.update({name + m: mod for m, mod in ours.items()})
        for m, mod in ours.items():
            setattr(package, m, mod)
    assert all(theirs[m].chrome is theirs["chrome"] for m in ("lists", "threads", "typed"))
    return theirs


def speed_against(checkout: Path, rounds: int) -> str:
    from mcecrawl.algorithms import DEFAULT_ALGORITHM, get_algorithm
    from mcecrawl.encoding import decode

    name = "mcecrawl.algorithms."
    ours = {m: sys.modules[name + m] for m in TYPED_MODULES}
    theirs = _checkout_modules(checkout)
    pages = [p for p in load_dataset(DATA / "wcxb_dev") if p.page_type not in (None, "article", "other")]
    inputs = []
    for p in pages:
        decoded = decode(p.body, p.content_type)
        text = decoded.page
        inputs.append((text, p.page_type, get_algorithm(DEFAULT_ALGORITHM)(text)))
    every = list(load_dataset(DATA / "wcxb_dev"))
    for p in every:
        p.body  # read once, outside the timing

    def typed_readings(modules: dict[str, Any]) -> float:
        extract_as = modules["typed"].extract_as
        start = time.process_time()
        for text, kind, article in inputs:
            extract_as(text, kind, base=article)
        return time.process_time() - start

    def default(modules: dict[str, Any]) -> float:
        sys.modules.update({name + m: mod for m, mod in modules.items()})  # _judged imports typed per call
        try:
            return _cpu(every, lambda p: ours_default(p))
        finally:
            sys.modules.update({name + m: mod for m, mod in ours.items()})

    def ours_default(p: Any) -> Any:
        return extract(p.body, url=p.url, content_type=p.content_type)

    best: dict[tuple[str, str], float] = defaultdict(lambda: float("inf"))
    for _ in range(rounds):
        for who, modules in (("this code", ours), (str(checkout), theirs)):
            best["typed", who] = min(best["typed", who], typed_readings(modules))
            best["default", who] = min(best["default", who], default(modules))
    lines = [f"**CPU of the typed readings, this code against {checkout}** (rounds interleaved, best of {rounds}; "
             "process_time)", "",
             f"| measured | {checkout} (s) | this code (s) | ratio |", "|---|---:|---:|---:|"]
    for what, label in (("typed", f"typed readings of wcxb_dev's {len(inputs)} non-article pages (gold types)"),
                        ("default", f"default extraction (judged) of all {len(every)} wcxb_dev pages")):
        old, new = best[what, str(checkout)], best[what, "this code"]
        lines.append(f"| {label} | {old:.2f} | {new:.2f} | {new / old:.2f} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("accuracy", "heldout", "speed", "gate", "all", "snapshot", "identity",
                                        "speed-against"))
    ap.add_argument("--data", type=Path, default=DATA / "wcxb_dev", help="a dataset with page_type (wcxb_dev)")
    ap.add_argument("--peers", action="store_true", help="run trafilatura, resiliparse, readability too")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache", type=Path, help="gate: the per-page rows of gate_pagetype.py --cache")
    ap.add_argument("--out", type=Path, help="snapshot: the JSON file written")
    ap.add_argument("--against", type=Path, help="identity: a snapshot's JSON file")
    ap.add_argument("--checkout", type=Path, help="speed-against: another checkout of the project (e.g. /work/main)")
    ap.add_argument("--sets", default=",".join(IDENTITY_SETS), help="snapshot/identity: the sets, comma-separated")
    args = ap.parse_args()
    ap_checkout = args.checkout
    sets = tuple(s for s in args.sets.split(",") if s)
    if args.what == "speed-against":
        if not ap_checkout or not (ap_checkout / "mcecrawl" / "algorithms" / "typed.py").is_file():
            print("speed-against needs --checkout DIR (another checkout of the project)", file=sys.stderr)
            return 2
        print(speed_against(ap_checkout, args.rounds))
        return 0
    if args.what == "snapshot":
        if not args.out:
            print("snapshot needs --out F", file=sys.stderr)
            return 2
        print(snapshot(args.out, sets))
        return 0
    if args.what == "identity":
        if not args.against or not args.against.is_file():
            print("identity needs --against F (a snapshot's file)", file=sys.stderr)
            return 2
        report, same = identity(args.against, sets)
        print(report)
        return 0 if same else 1
    if not args.data.is_dir():
        print(f"no dataset at {args.data}", file=sys.stderr)
        return 2
    parts = []
    if args.what in ("accuracy", "all"):
        parts.append(accuracy(args.data, args.peers))
    if args.what in ("heldout", "all"):
        parts.append(heldout(args.data))
    if args.what == "gate":
        if not args.cache or not args.cache.is_file():
            print("gate needs --cache rows.json (python benchmarks/gate_pagetype.py --cache rows.json)",
                  file=sys.stderr)
            return 2
        parts.append(_prose_gate(args.cache))
        parts.append(_own_guards(args.cache))
        parts.append(_unsure_guard(args.cache))
    if args.what in ("speed", "all"):
        parts.append(speed(args.rounds))
    print("\n\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
