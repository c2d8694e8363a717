"""Word-LCS P/R/F1 of each algorithm (and a few parameter values) on the article pages of the
non-BBC fixture sites, plus the share of pages whose text is "clean" (every lead/body paragraph
present, none of the site's boilerplate lines).

This is how the ``extraction`` key of the six profiles was chosen (their ``measured`` note quotes
the figures).  The pages are synthetic (written for the fixtures in each site's real page
structure) because ../shared/data holds no raw page of these sites, so the figures say which
algorithm copes with that structure, not how it scores on the live site.

Run: ``python tests/spiders/measure_extraction.py [site ...]``; to measure committed code while the
working tree changes, export it first: ``git archive HEAD mcecrawl | tar -x -C /tmp/head`` and run
with ``PYTHONPATH=/tmp/head``.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
try:  # an installed mcecrawl or PYTHONPATH wins (e.g. a clean export of HEAD), else this checkout
    import mcecrawl
except ImportError:
    sys.path.insert(1, str(HERE.parents[1]))
    import mcecrawl
from build_news_sites import SITES, generate  # noqa: E402
from mcecrawl.evaluation.metrics import lcs_f1  # noqa: E402

# Algorithm -> parameter sets tried ({} = the algorithm's defaults).  P and gap are the papers'
# tolerance in lines (R2L §3, DANAg §3.3); the defaults were tuned on whole-page benchmarks, and
# short news pages with a footer close to the body may want less.
GRID = {
    "scored_regions": [{}],
    "r2l": [{}],
    "dana": [{}, {"P": 10}, {"P": 20}],
    "danag": [{}, {"gap": 10}, {"gap": 20}],
    "xpath_blocks": [{}],
}


def _ws(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def measure(site: str) -> dict[tuple[str, str], tuple[float, float, float, float]]:
    """{(algorithm, params): (precision, recall, f1, clean share)} averaged over the site's articles;
    gold = the lead (when the page has one) and the body paragraphs, without headline or dates."""
    pages, expected = generate(site)
    out = {}
    for algorithm, grid in GRID.items():
        for params in grid:
            scores = []
            for article in expected["articles"]:
                page = pages[article["path"]]
                result = mcecrawl.extract(page.body.encode(page.encoding), algorithm=algorithm, **params)
                gold = ([article["lead"]] if article.get("lead") else []) + article["body"]
                s = lcs_f1(result.text, "\n".join(gold))
                text = _ws(result.text)
                clean = all(_ws(g) in text for g in gold) and not any(_ws(b) in text for b in expected["boilerplate"])
                scores.append((s.precision, s.recall, s.f1, float(clean)))
            key = (algorithm, ",".join(f"{k}={v}" for k, v in params.items()) or "defaults")
            out[key] = tuple(round(sum(x[i] for x in scores) / len(scores), 3) for i in range(4))
    return out


def main(argv: list[str]) -> int:
    for site in argv or SITES:
        rows = measure(site)
        print(site)
        for (algorithm, params), (p, r, f, clean) in sorted(rows.items(), key=lambda kv: -kv[1][2]):
            print(f"  {algorithm:12s} {params:10s} P={p:.2f} R={r:.2f} F1={f:.2f} clean={clean:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
