"""Benchmark of the default extractor (scored_regions) against the papers' algorithms and the peers.

    python benchmarks/bench_default.py accuracy [--peers]   # every dev set, misses, headline line
    python benchmarks/bench_default.py heldout              # leave-one-dataset-out, leave-one-site-out
    python benchmarks/bench_default.py speed [--rounds 7]   # MB/s vs resiliparse, interleaved rounds
    python benchmarks/bench_default.py all --peers          # everything, as Markdown for BENCHMARKS.md
    python benchmarks/bench_default.py pin-peers            # pin the gate's peer_ok pages (baseline.json)

Accuracy is word-token LCS F1 (:func:`mcecrawl.evaluation.lcs_f1`, Arabic-script folding); r2l
Arabic-script pages are scored against ``gold_in_page/`` where it exists; snippet pages
(trafilatura_eval, r2l snippets) by snippet F1.  A *whole-page miss* is a page where the
extractor scores below 0.5 while the best peer reaches 0.8.  Speed: one process, all pages of a
set per round, rounds of scored_regions and resiliparse interleaved (A B A B ...), best round of
each, decoding included, no caching across rounds.
"""
from __future__ import annotations

import argparse
import gc
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mcecrawl  # noqa: E402
from mcecrawl.algorithms import cleaning  # noqa: E402
from mcecrawl.algorithms import scored_regions as sr  # noqa: E402
from mcecrawl.encoding import decode  # noqa: E402
from mcecrawl.evaluation import gate, load_dataset  # noqa: E402
from mcecrawl.evaluation.metrics import fold_for_scoring, lcs_f1, snippet_score  # noqa: E402
from mcecrawl.evaluation.peers import available_peers, run_peer  # noqa: E402
from mcecrawl.evaluation.runner import script_of  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SETS = ("r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval")
GROUPS = ("r2l Arabic-script", "r2l Hebrew", "scrapinghub_aeb", "readability_mozilla", "chinese_wce",
          "trafilatura_eval")
# Sets where whole-page misses are counted, with the gate's thresholds (gate.MISS_F1, MISS_PEER_F1).
MISS_GROUPS = ("r2l Arabic-script", "scrapinghub_aeb", "chinese_wce")
ALGORITHMS = ("scored_regions", "dana", "danag", "xpath_blocks")
# Sets timed by `speed` (wcxb_dev: 1,497 pages of 2025, the general web pages of today).
SPEED_SETS = ("r2l", "scrapinghub_aeb", "wcxb_dev")
PEERS = ("trafilatura", "trafilatura_precision", "readability", "resiliparse", "justext")

# Constants of scored_regions chosen on data, each with the values tried (held-out check).
TUNABLES = {
    "PUNCT_PER_100_FULL": (0.5, 1.0, 2.0),
    "PUNCT_FLOOR": (0.0, 0.1, 0.25),
    "BOILERPLATE_WEIGHT": (0.1, 0.2, 0.5),
    "LABELLED_WEIGHT": (1.0, 2.0, 4.0),
    "HEADLINE_WEIGHT": (1.0, 2.0, 4.0),
    "JOIN_MAX_LEVELS": (1, 2, 3),
    "CLOSE_LINES": (30, 100),
    "gap": (20, 30, 40),
    "MEDIA": (cleaning.MEDIA, re.compile(r"(?!)")),  # our caption/gallery words: on, off
    "MEDIA_MAX_CHARS": (100, 200, 500, 1000),
    "NOTICES": (cleaning.NOTICES, re.compile(r"(?!)")),  # our notice words: on, off
    "UNRELATED": (cleaning.UNRELATED, re.compile(r"(?!)")),  # "related" unredeemed: on, off
    "LINK_BOX_MAX_LINK_SHARE": (0.2, 0.33, 0.5),
    "ABOVE_HEADLINE_MAX_CHARS": (-1, 100, 200, 500),  # -1: keep what precedes the headline
}


class Page:
    def __init__(self, dataset: str, p):
        self.dataset, self.id, self.site, self.lang, self.kind = dataset, p.id, p.site, p.lang, p.gold_kind
        self.body, self.content_type, self.url = p.body, p.content_type, p.url
        self.text = p.text
        self.gold = p.gold_text("gold_in_page") if dataset == "r2l" else p.gold
        self.with_, self.without = list(p.with_ or ()), list(p.without or ())
        self.synthetic = bool(p.meta.get("synthetic"))

    @property
    def group(self) -> str:
        if self.dataset == "r2l":
            if self.kind != "full":
                return "r2l snippets"
            return "r2l Arabic-script" if script_of(self.lang) == "arabic-script" else "r2l Hebrew"
        return self.dataset

    def score(self, text: str) -> float:
        if self.kind == "full":
            return lcs_f1(text, self.gold).f1
        return snippet_score(text, self.with_, self.without).score.f1


def load_pages() -> list[Page]:
    pages = []
    for name in SETS:
        for p in load_dataset(DATA / name):
            if p.gold_kind in ("full", "snippets"):
                pages.append(Page(name, p))
    return pages


def run_all(pages, name: str, **params) -> dict[str, tuple[float, str]]:
    out = {}
    for pg in pages:
        if name.startswith("peer:"):
            text = run_peer(name[5:], pg.text, pg.url, pg.lang).text
        else:
            # with the page's URL, as a crawl and an archive pass it (the page-type judgement reads its shape)
            text = mcecrawl.extract(pg.text, algorithm=name, url=pg.url, **params).text
        out[pg.dataset + "/" + pg.id] = (pg.score(text), text)
    return out


def means(pages, results) -> dict[str, float]:
    by: dict[str, list[float]] = {}
    for pg in pages:
        by.setdefault(pg.group, []).append(results[pg.dataset + "/" + pg.id][0])
    return {g: statistics.mean(v) for g, v in by.items()}


def misses(pages, results, peers: dict) -> int:
    n = 0
    for pg in pages:
        key = pg.dataset + "/" + pg.id
        best = max((r[key][0] for r in peers.values()), default=0.0)
        n += pg.group in MISS_GROUPS and results[key][0] < gate.MISS_F1 and best >= gate.MISS_PEER_F1
    return n


def headline_first(pages, results) -> tuple[int, int]:
    """(pages whose output's first line is the gold's, pages whose gold starts with an <h1>)."""
    hit = total = 0
    for pg in pages:
        if pg.kind != "full" or not pg.gold:
            continue
        first = fold_for_scoring(pg.gold.splitlines()[0]).strip()
        from mcecrawl.algorithms.parse import h1_headings

        if not any(fold_for_scoring(h).strip() == first for _, h in h1_headings(pg.text.encode("utf-8", "replace"))):
            continue
        total += 1
        out = results[pg.dataset + "/" + pg.id][1]
        hit += bool(out) and fold_for_scoring(out.splitlines()[0]).strip() == first
    return hit, total


def accuracy(args, pages) -> None:
    rows = {a: run_all(pages, a) for a in ALGORITHMS}
    peers = {f"peer:{p}": run_all(pages, f"peer:{p}") for p in PEERS if p.split("_")[0] in
             {x.split("_")[0] for x in available_peers()}} if args.peers else {}
    rows.update(peers)
    counts = {g: sum(pg.group == g for pg in pages) for g in GROUPS}
    print("\n#### Accuracy: mean word-LCS F1 (snippet F1 on trafilatura_eval)\n")
    print("| extractor | " + " | ".join(f"{g} ({counts[g]})" for g in GROUPS)
          + " | misses (r2l ar-script, aeb, wce) | first line = headline |")
    print("|---|" + "---:|" * (len(GROUPS) + 2))
    for name, res in rows.items():
        m = means(pages, res)
        hit, total = headline_first(pages, res)
        print(f"| {name} | " + " | ".join(f"{m.get(g, 0):.3f}" for g in GROUPS)
              + f" | {misses(pages, res, peers) if peers else 'n/a'} | {hit}/{total} |")
    real = [pg for pg in pages if pg.group == "readability_mozilla" and not pg.synthetic]
    print(f"\nreadability_mozilla without its synthetic fixtures ({len(real)} pages): "
          + ", ".join(f"{n} {statistics.mean(r[pg.dataset + '/' + pg.id][0] for pg in real):.3f}"
                      for n, r in rows.items()))
    ar = [pg for pg in pages if pg.group == "r2l Arabic-script"]
    print("\nPer page, r2l Arabic-script:\n")
    print("| page | " + " | ".join(rows) + " |")
    print("|---|" + "---:|" * len(rows))
    for pg in ar:
        print(f"| {pg.id} | " + " | ".join(f"{r[pg.dataset + '/' + pg.id][0]:.3f}" for r in rows.values()) + " |")


def _show(value) -> str:
    """A tunable's value for a table: a word list by its words ("off" when it matches nothing)."""
    pattern = getattr(value, "pattern", None)
    return str(value) if pattern is None else ("off" if pattern == "(?!)" else f"`{pattern}`")


def _with(name: str, value, pages) -> dict[str, tuple[float, str]]:
    """scored_regions with one tunable changed (module constant or parameter)."""
    if name == "gap":
        return run_all(pages, "scored_regions", gap=value)
    module = cleaning if hasattr(cleaning, name) else sr  # the cleaning rules' constants live in cleaning
    old = getattr(module, name)
    setattr(module, name, value)
    _clear_word_caches()  # cached word tests read the word lists (MEDIA)
    try:
        return run_all(pages, "scored_regions")
    finally:
        setattr(module, name, old)
        _clear_word_caches()


def _clear_word_caches() -> None:
    for cached in (cleaning._token_bits, cleaning.word_bits, cleaning.label):
        cached.cache_clear()


def _objective(pages, res, units: list[str], unit_of) -> float:
    """Mean over units of the unit's mean F1 (each dataset or site weighs the same)."""
    vals = [statistics.mean(res[pg.dataset + "/" + pg.id][0] for pg in pages if unit_of(pg) == u) for u in units]
    return statistics.mean(vals)


def heldout(args, pages) -> None:
    """For each held-out unit, every tunable is chosen (coordinate-wise from the defaults) on the
    other units and the unit is scored with those choices, beside the in-sample default."""
    grid = {(n, v): _with(n, v, pages) for n, values in TUNABLES.items() for v in values}
    default = run_all(pages, "scored_regions")
    defaults = {n: (getattr(cleaning if hasattr(cleaning, n) else sr, n) if n != "gap" else sr.GAP_DEFAULT)
                for n in TUNABLES}

    def study(title, scope, unit_of):
        units = sorted({unit_of(pg) for pg in scope})
        print(f"\n#### Held out: {title}\n")
        print("| held-out unit | pages | in-sample (defaults) | held-out (chosen on the others) "
              "| choices that differ |")
        print("|---|---:|---:|---:|---|")
        for u in units:
            others = [x for x in units if x != u]
            chosen = {}
            for n, values in TUNABLES.items():
                chosen[n] = max(values, key=lambda v: (_objective(scope, grid[(n, v)], others, unit_of),
                                                       v == defaults[n]))
            diff = {n: v for n, v in chosen.items() if v != defaults[n]}
            mine = [pg for pg in scope if unit_of(pg) == u]
            ins = statistics.mean(default[pg.dataset + "/" + pg.id][0] for pg in mine)
            if diff:
                saved = {n: getattr(sr, n) for n in diff if n != "gap"}
                for n, v in diff.items():
                    if n != "gap":
                        setattr(sr, n, v)
                try:
                    res = run_all(mine, "scored_regions", **({"gap": diff["gap"]} if "gap" in diff else {}))
                finally:
                    for n, v in saved.items():
                        setattr(sr, n, v)
                held = statistics.mean(res[pg.dataset + "/" + pg.id][0] for pg in mine)
            else:
                held = ins
            label = ", ".join(f"{n}={_show(v)}" for n, v in diff.items()) or "none"
            print(f"| {u} | {len(mine)} | {ins:.3f} | {held:.3f} | {label} |")

    scored = [pg for pg in pages if pg.group in ("r2l Arabic-script", "scrapinghub_aeb", "readability_mozilla",
                                                 "chinese_wce", "trafilatura_eval")]
    study("leave one dataset out", scored, lambda pg: pg.group)
    study("leave one site out inside r2l (Arabic-script)", [pg for pg in pages if pg.group == "r2l Arabic-script"],
          lambda pg: pg.site)
    print("\n#### Each tunable alone (mean per set)\n")
    print("| tunable | value | " + " | ".join(GROUPS) + " |")
    print("|---|---|" + "---:|" * len(GROUPS))
    for (n, v), res in grid.items():
        m = means(pages, res)
        mark = " (default)" if v == defaults[n] else ""
        print(f"| {n} | {_show(v)}{mark} | " + " | ".join(f"{m.get(g, 0):.3f}" for g in GROUPS) + " |")


def speed(args, pages) -> None:
    from resiliparse.extract.html2text import extract_plain_text

    print(f"\n#### Speed: MB/s of raw HTML, best of {args.rounds} interleaved rounds, decoding included\n")
    print("| dataset | pages | MB | scored_regions | article reading | danag | dana | resiliparse | "
          "scored_regions / resiliparse | article reading / resiliparse | danag / resiliparse | dana / resiliparse |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.sets or SPEED_SETS:
        items = [(pg.body, pg.content_type) for pg in pages if pg.dataset == name]
        if not items:  # a set timed but not scored here (wcxb_dev): its pages as they are
            items = [(p.body, p.content_type) for p in load_dataset(DATA / name)]
        mb = sum(len(b) for b, _ in items) / 1e6
        runs = {
            "scored_regions": lambda bc: mcecrawl.extract(bc[0], content_type=bc[1]),
            # the same without the page-type layer: every page read as an article (the line profile and cleaning)
            "article reading": lambda bc: mcecrawl.extract(bc[0], content_type=bc[1], page_type="article"),
            "danag": lambda bc: mcecrawl.extract(bc[0], algorithm="danag", content_type=bc[1]),
            "dana": lambda bc: mcecrawl.extract(bc[0], algorithm="dana", content_type=bc[1]),
            "resiliparse": lambda bc: extract_plain_text(decode(bc[0], bc[1], read_text=True).text, main_content=True),
        }
        best = {k: float("inf") for k in runs}
        for _ in range(args.rounds):
            for k, fn in runs.items():  # A B C A B C ...: the machine's state is shared fairly
                gc.collect()
                t0 = time.perf_counter()
                for bc in items:
                    fn(bc)
                best[k] = min(best[k], time.perf_counter() - t0)
        rate = {k: mb / t for k, t in best.items()}
        ratio = {k: rate[k] / rate["resiliparse"] for k in runs}
        print(f"| {name} | {len(items)} | {mb:.1f} | {rate['scored_regions']:.0f} | {rate['article reading']:.0f} | "
              f"{rate['danag']:.0f} | {rate['dana']:.0f} | {rate['resiliparse']:.0f} | "
              f"{ratio['scored_regions']:.2f}× | {ratio['article reading']:.2f}× | {ratio['danag']:.2f}× | "
              f"{ratio['dana']:.2f}× |", flush=True)


def pin_peers(args, pages) -> None:
    """Write ``peer_ok`` into mcecrawl/evaluation/baseline.json: per gated dataset, the pages (Arabic-script
    only for r2l) where the best peer reaches the miss threshold against the gate's gold."""
    import json

    baseline = gate.load_baseline(gate.DEFAULT_BASELINE)
    peer_ok: dict[str, list[str]] = {}
    for name in ("r2l", "scrapinghub_aeb", "chinese_wce"):
        for p in load_dataset(DATA / name):
            if p.gold_kind != "full" or (name == "r2l" and script_of(p.lang) != "arabic-script"):
                continue
            best = max(lcs_f1(run_peer(peer, p.text, p.url, p.lang).text, p.gold).f1 for peer in PEERS)
            if best >= gate.MISS_PEER_F1:
                peer_ok.setdefault(name, []).append(p.id)
    baseline["peer_ok"] = {k: sorted(v) for k, v in peer_ok.items()}
    gate.DEFAULT_BASELINE.write_text(json.dumps(baseline, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print({k: len(v) for k, v in peer_ok.items()})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("accuracy", "heldout", "speed", "all", "pin-peers"))
    ap.add_argument("--peers", action="store_true")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sets", nargs="+", default=None, help="speed: time only these sets")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"{DATA} not found: the dev sets live in ../shared/data beside the repository")
        return 2
    pages = load_pages()
    if args.what == "pin-peers":
        pin_peers(args, pages)
        return 0
    for step in (accuracy, heldout, speed):
        if args.what in (step.__name__, "all"):
            step(args, pages)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
