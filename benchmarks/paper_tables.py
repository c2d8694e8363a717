"""The seed papers' comparison tables, beside the same layout measured on today's dev data.

    python benchmarks/paper_tables.py accuracy [--no-peers]   # both F1 tables, published then measured
    python benchmarks/paper_tables.py speed [--rounds 3]      # the slides' MB/s table, then measured
    python benchmarks/paper_tables.py statuses                # every method on every dev page: statuses
    python benchmarks/paper_tables.py sensitivity             # the thresholds the seeds do not give, held out
    python benchmarks/paper_tables.py all                     # everything, Markdown for BENCHMARKS.md

The tables: the DANA slides' F1 table over ten R2L sites and their MB/s table
(../shared/seeds/003_*), and DANAg's Table 2 over twelve sites (../shared/seeds/004_*).  The
papers' sites are not in the dev data, so the measured tables keep the papers' rows and put the
dev data in the columns: every site of ``r2l`` (its Arabic-script and Hebrew pages), then every
dataset as benchmarks/bench_default.py groups them; each row also gets ``scored_regions`` (the
default) and the installed peers.  Scores are bench_default's: word-token LCS F1 with Arabic-script
folding (r2l against ``gold_in_page``), snippet F1 on snippet pages; a cell is the mean over its
pages.  Speed is measured as bench_default measures it: MB/s of raw HTML, decoding included, all
pages of a set per round, the methods' rounds interleaved, best round of each.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_default import DATA, GROUPS, PEERS, Page, load_pages, run_all  # noqa: E402

import mcecrawl  # noqa: E402
from mcecrawl.algorithms import BASELINE_NAMES  # noqa: E402
from mcecrawl.encoding import decode  # noqa: E402
from mcecrawl.evaluation import load_dataset  # noqa: E402
from mcecrawl.evaluation.peers import available_peers, run_peer  # noqa: E402

# A table row: label -> (algorithm, parameters).
Row = tuple[str, dict[str, Any]]

# DANA slides (TIR 2011), "Evaluation results based on F1-measure".
DANA_SITES = ("Al Ahram", "BBC Arabic", "BBC Pashto", "BBC Persian", "BBC Urdu", "Embassy", "Hamshahri",
              "Jame Jam", "Reuters", "Wikipedia")
DANA_PUBLISHED = {
    "ACCB-40": (0.8714, 0.8255, 0.8594, 0.8925, 0.9476, 0.7837, 0.8420, 0.8398, 0.8997, 0.7364),
    "BTE": (0.8534, 0.4957, 0.8544, 0.5895, 0.9606, 0.8095, 0.4801, 0.7906, 0.8891, 0.8167),
    "DSC": (0.8706, 0.8849, 0.8398, 0.9505, 0.8962, 0.8238, 0.9482, 0.9142, 0.8510, 0.7471),
    "FE": (0.8086, 0.0600, 0.1652, 0.0626, 0.0023, 0.0173, 0.2251, 0.0275, 0.2408, 0.2250),
    "KFE": (0.6905, 0.7186, 0.8349, 0.7480, 0.7504, 0.7620, 0.6777, 0.7833, 0.8253, 0.6244),
    "LQF-25": (0.7877, 0.7796, 0.8436, 0.8410, 0.9566, 0.8596, 0.7650, 0.7372, 0.8699, 0.7735),
    "LQF-50": (0.7855, 0.7772, 0.8374, 0.8279, 0.9544, 0.8561, 0.7673, 0.7240, 0.8699, 0.7719),
    "LQF-75": (0.7733, 0.7727, 0.8374, 0.8190, 0.9544, 0.8516, 0.7560, 0.7240, 0.8699, 0.7497),
    "TCCB-18": (0.8861, 0.8265, 0.9121, 0.9253, 0.9898, 0.8867, 0.8712, 0.9292, 0.9593, 0.8142),
    "TCCB-25": (0.8737, 0.8608, 0.9091, 0.9271, 0.9916, 0.8832, 0.8884, 0.9240, 0.9583, 0.8142),
    "Density": (0.8787, 0.2016, 0.9081, 0.7415, 0.9579, 0.8818, 0.9197, 0.9063, 0.9336, 0.6649),
    "DANA": (0.9845, 0.9633, 0.9363, 0.9944, 1.0, 0.9350, 0.9797, 0.9452, 0.9670, 0.6740),
}
DANA_ROWS: dict[str, Row] = {
    "ACCB-40": ("accb", {"K": 40}), "BTE": ("bte", {}), "DSC": ("dsc", {}), "FE": ("fe", {}), "KFE": ("kfe", {}),
    "LQF-25": ("lqf", {"q": 25}), "LQF-50": ("lqf", {"q": 50}), "LQF-75": ("lqf", {"q": 75}),
    "TCCB-18": ("tccb", {"K": 18}), "TCCB-25": ("tccb", {"K": 25}), "Density": ("density", {}),
    "DANA": ("dana", {}),
}
# DANA slides, "Average processing time (MB/s)".
DANA_MBS = {"ACCB-40": 0.40, "BTE": 0.17, "DSC": 7.76, "FE": 14.33, "KFE": 11.76, "LQF-25": 1.25, "LQF-50": 1.25,
            "LQF-75": 1.25, "TCCB-18": 17.09, "TCCB-25": 15.86, "Density": 7.62, "DANA": 19.43}

# DANAg (KDIR 2011), Table 2.
DANAG_SITES = ("BBC", "Economist", "Zdf", "Golem", "Heise", "Republica", "Spiegel", "Telepolis", "Yahoo", "Manual",
               "Slashdot", "Wikipedia")
DANAG_PUBLISHED = {
    "Plain": (0.5950, 0.6130, 0.5140, 0.5020, 0.5750, 0.7040, 0.5490, 0.9060, 0.5820, 0.3710, 0.1060, 0.8230),
    "LQF": (0.8260, 0.7200, 0.5780, 0.8060, 0.7870, 0.8160, 0.7750, 0.9100, 0.6700, 0.3810, 0.1270, 0.7520),
    "Crunch": (0.7560, 0.8150, 0.7720, 0.8370, 0.8100, 0.8870, 0.7060, 0.8590, 0.7380, 0.3820, 0.1230, 0.7250),
    "DSC": (0.9370, 0.8810, 0.8470, 0.9580, 0.8770, 0.9250, 0.9020, 0.9020, 0.7800, 0.4030, 0.2520, 0.5940),
    "TCCB": (0.9140, 0.9030, 0.7450, 0.9470, 0.8210, 0.9180, 0.9100, 0.9130, 0.7580, 0.4040, 0.2690, 0.6600),
    "CCB": (0.9230, 0.9140, 0.9290, 0.9350, 0.8410, 0.9640, 0.8580, 0.9080, 0.7420, 0.4200, 0.1600, 0.4030),
    "ACCB": (0.9240, 0.8900, 0.9290, 0.9590, 0.9160, 0.9680, 0.8610, 0.9080, 0.7320, 0.4190, 0.1770, 0.6820),
    "Density": (0.5754, 0.8741, 0.7081, 0.8734, 0.9060, 0.3442, 0.7609, 0.8043, 0.8856, 0.3539, 0.3622, 0.7077),
    "DANAg": (0.9240, 0.8996, 0.9120, 0.9794, 0.9450, 0.9704, 0.9488, 0.9317, 0.9518, 0.4012, 0.2092, 0.6455),
}
DANAG_ROWS: dict[str, Row] = {
    "Plain": ("plain", {}), "LQF": ("lqf", {}), "Crunch": ("crunch", {}), "DSC": ("dsc", {}), "TCCB": ("tccb", {}),
    "CCB": ("ccb", {}), "ACCB": ("accb", {}), "Density": ("density", {}), "DANAg": ("danag", {}),
}
# Rows every measured table adds: the default and today's peers.
EXTRA_ROWS: dict[str, Row] = {"scored_regions": ("scored_regions", {})}


def row_key(row: Row) -> str:
    name, params = row
    return name + "".join(f" {k}={v}" for k, v in sorted(params.items()))


def columns(pages: list[Page]) -> dict[str, list[Page]]:
    """Column label -> its pages: each r2l site, then each dataset group of bench_default."""
    cols: dict[str, list[Page]] = {}
    for pg in sorted((p for p in pages if p.dataset == "r2l"), key=lambda p: (p.lang != "he", p.site)):
        cols.setdefault(f"r2l {pg.site} ({pg.lang})", []).append(pg)
    for group in GROUPS:
        cols[group] = [pg for pg in pages if pg.group == group]
    return {c: ps for c, ps in cols.items() if ps}


def published(title: str, sites: tuple[str, ...], rows: dict[str, tuple[float, ...]]) -> None:
    print(f"\n#### {title}: published\n")
    print("| method | " + " | ".join(sites) + " | mean |")
    print("|---|" + "---:|" * (len(sites) + 1))
    for label, values in rows.items():
        print(f"| {label} | " + " | ".join(f"{v:.3f}" for v in values) + f" | {statistics.mean(values):.3f} |")


def measured(title: str, rows: dict[str, Row], results: dict[str, dict[str, tuple[float, str]]],
             cols: dict[str, list[Page]]) -> None:
    print(f"\n#### {title}: measured on today's dev data (mean F1 per column; pages per column in its header)\n")
    print("| method | " + " | ".join(f"{c} [{len(ps)}]" for c, ps in cols.items()) + " |")
    print("|---|" + "---:|" * len(cols))
    for label, row in rows.items():
        res = results[row_key(row)]
        cells = [statistics.mean(res[pg.dataset + "/" + pg.id][0] for pg in ps) for ps in cols.values()]
        print(f"| {label} | " + " | ".join(f"{v:.3f}" for v in cells) + " |")


def table_rows(rows: dict[str, Row], peers: list[str]) -> dict[str, Row]:
    return {**rows, **EXTRA_ROWS, **{f"peer:{p}": (f"peer:{p}", {}) for p in peers}}


def accuracy(args: argparse.Namespace) -> None:
    pages = load_pages()
    peers = [] if args.no_peers else [p for p in PEERS if p in available_peers()]
    dana_rows, danag_rows = table_rows(DANA_ROWS, peers), table_rows(DANAG_ROWS, peers)
    results: dict[str, dict[str, tuple[float, str]]] = {}
    for row in [*dana_rows.values(), *danag_rows.values()]:
        key = row_key(row)
        if key not in results:
            t0 = time.process_time()
            results[key] = run_all(pages, row[0], **row[1])
            print(f"<!-- {key}: {time.process_time() - t0:.1f} s CPU -->", file=sys.stderr, flush=True)
    cols = columns(pages)
    published("DANA slides, F1 over ten R2L sites", DANA_SITES, DANA_PUBLISHED)
    measured("DANA slides' rows", dana_rows, results, cols)
    published("DANAg Table 2, F1 over twelve sites", DANAG_SITES, DANAG_PUBLISHED)
    measured("DANAg Table 2's rows", danag_rows, results, cols)


def speed(args: argparse.Namespace) -> None:
    # DANAg's rows that are a DANA row at its default (LQF, TCCB, ACCB, DSC, Density) are not timed twice.
    in_dana = {name for name, _ in DANA_ROWS.values()}
    rows = {**DANA_ROWS, **{k: v for k, v in DANAG_ROWS.items() if v[0] not in in_dana}, **EXTRA_ROWS}
    peers = [p for p in ("resiliparse", "trafilatura") if p in available_peers()]
    sets = ("r2l", "scrapinghub_aeb")
    items = {name: [(p.body, p.content_type, p.url) for p in load_dataset(DATA / name)] for name in sets}
    mb = {name: sum(len(b) for b, _, _ in its) / 1e6 for name, its in items.items()}

    def runner(row: Row) -> Any:
        name, params = row
        if name.startswith("peer:"):
            return lambda bcu: run_peer(name[5:], decode(bcu[0], bcu[1], read_text=True).text, bcu[2])
        return lambda bcu: mcecrawl.extract(bcu[0], algorithm=name, content_type=bcu[1], **params)

    runs = {label: runner(row) for label, row in rows.items()}
    runs.update({f"peer:{p}": runner((f"peer:{p}", {})) for p in peers})
    best = {(label, s): float("inf") for label in runs for s in sets}
    for _ in range(args.rounds):
        for s in sets:
            for label, fn in runs.items():  # A B C A B C ...: the machine's state is shared fairly
                gc.collect()
                t0 = time.perf_counter()
                for item in items[s]:
                    fn(item)
                best[label, s] = min(best[label, s], time.perf_counter() - t0)
    print(f"\n#### Speed: MB/s of raw HTML, best of {args.rounds} interleaved rounds, decoding included\n")
    print("| method | published (DANA slides) | " + " | ".join(f"{s} ({mb[s]:.1f} MB)" for s in sets) + " |")
    print("|---|---:|" + "---:|" * len(sets))
    for label in runs:
        pub = DANA_MBS.get(label)
        print(f"| {label} | {'' if pub is None else f'{pub:.2f}'} | "
              + " | ".join(f"{mb[s] / best[label, s]:.1f}" for s in sets) + " |")


def statuses(args: argparse.Namespace) -> None:
    """Every baseline (and the tables' DANA, DANAg) on every page of every dev set: status counts."""
    sets = [d for d in sorted(DATA.iterdir()) if (d / "manifest.jsonl").is_file()]
    pages = [p for d in sets for p in load_dataset(d)]
    print(f"\n#### Every method on every dev page ({len(pages)} pages of {len(sets)} sets)\n")
    print("| method | ok | empty | error | exceptions | error reasons |")
    print("|---|---:|---:|---:|---:|---|")
    for name in (*BASELINE_NAMES, "dana", "danag"):
        counts = {"ok": 0, "empty": 0, "error": 0, "exceptions": 0}
        reasons: set[str] = set()
        for p in pages:
            try:
                ex = mcecrawl.extract(p.text, algorithm=name)
            except Exception:  # noqa: BLE001 - counted: the target is zero
                counts["exceptions"] += 1
                continue
            counts[ex.status] += 1
            if ex.status == "error":
                reasons.add(ex.reason.split(";")[0])
        print(f"| {name} | {counts['ok']} | {counts['empty']} | {counts['error']} | {counts['exceptions']} | "
              + "; ".join(sorted(reasons)) + " |")


# Thresholds the seeds do not give (docs/algorithms.md: our readings are the first value), and the
# values tried to see how much the tables' conclusions depend on them.
SENSITIVITY: dict[str, tuple[str, tuple[float, ...]]] = {
    "ccb": ("t", (0.5, 0.6, 0.7, 0.8)), "accb": ("t", (0.5, 0.6, 0.7, 0.8)), "tccb": ("t", (0.5, 0.6, 0.7, 0.8)),
    "dsc": ("slope", (0.5, 0.4, 0.3, 0.2)),
}
SENSITIVITY_GROUPS = ("r2l Arabic-script", "scrapinghub_aeb", "chinese_wce")


def sensitivity(args: argparse.Namespace) -> None:
    """Mean F1 per value and group, and leave one group out: the value best on the other groups, scored
    on the held-out one (what a reader who tuned these thresholds on data would get)."""
    pages = [pg for pg in load_pages() if pg.group in SENSITIVITY_GROUPS]
    print("\n#### Thresholds the seeds do not give: mean F1 per value; held out = the value best on the other "
          "two groups, scored on this one\n")
    print("| method | value | " + " | ".join(SENSITIVITY_GROUPS) + " |")
    print("|---|---|" + "---:|" * len(SENSITIVITY_GROUPS))
    for name, (param, values) in SENSITIVITY.items():
        f1: dict[float, dict[str, float]] = {}
        for value in values:
            res = run_all(pages, name, **{param: value})
            f1[value] = {g: statistics.mean(res[pg.dataset + "/" + pg.id][0] for pg in pages if pg.group == g)
                         for g in SENSITIVITY_GROUPS}
            print(f"| {name} | {param}={value} | " + " | ".join(f"{f1[value][g]:.3f}" for g in SENSITIVITY_GROUPS)
                  + " |", flush=True)
        held = []
        for g in SENSITIVITY_GROUPS:
            best = max(values, key=lambda v: sum(f1[v][o] for o in SENSITIVITY_GROUPS if o != g))
            held.append(f"{f1[best][g]:.3f} ({param}={best})")
        print(f"| {name} | held out | " + " | ".join(held) + " |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("accuracy", "speed", "statuses", "sensitivity", "all"))
    ap.add_argument("--no-peers", action="store_true", help="leave the peers' rows out")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.what in ("accuracy", "all"):
        accuracy(args)
    if args.what in ("statuses", "all"):
        statuses(args)
    if args.what in ("sensitivity", "all"):
        sensitivity(args)
    if args.what in ("speed", "all"):
        speed(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
