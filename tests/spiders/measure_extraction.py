"""Mean word-LCS P/R/F1 of each algorithm on the article pages of the non-BBC fixture sites.

This is how the ``extraction.algorithm`` of the six profiles was chosen (their ``measured`` note
quotes the figures).  The pages are synthetic (written for the fixtures in each site's real page
structure) because ../shared/data holds no raw page of these sites, so the figures say which
algorithm copes with that structure, not how it scores on the live site.

Run: ``python tests/spiders/measure_extraction.py [site ...]``; to measure committed code while the
working tree changes, export it first: ``git archive HEAD mcecrawl | tar -x -C /tmp/head`` and run
with ``PYTHONPATH=/tmp/head``.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
try:  # an installed mcecrawl or PYTHONPATH wins (e.g. a clean export of HEAD), else this checkout
    import mcecrawl
except ImportError:
    sys.path.insert(1, str(HERE.parents[1]))
    import mcecrawl
from mcecrawl.evaluation.metrics import lcs_f1  # noqa: E402

from build_news_sites import SITES, generate  # noqa: E402

ALGORITHMS = ("r2l", "dana", "danag", "xpath_blocks")


def measure(site: str) -> dict[str, tuple[float, float, float]]:
    """{algorithm: (precision, recall, f1)} averaged over the site's articles; gold = the lead (when
    the page has one) and the body paragraphs, without headline, dates or bylines."""
    pages, expected = generate(site)
    out = {}
    for algorithm in ALGORITHMS:
        scores = []
        for article in expected["articles"]:
            page = pages[article["path"]]
            result = mcecrawl.extract(page.body.encode(page.encoding), algorithm=algorithm)
            gold = ([article["lead"]] if article.get("lead") else []) + article["body"]
            s = lcs_f1(result.text, "\n".join(gold))
            scores.append((s.precision, s.recall, s.f1))
        out[algorithm] = tuple(round(sum(x[i] for x in scores) / len(scores), 3) for i in range(3))
    return out


def main(argv: list[str]) -> int:
    for site in argv or SITES:
        row = measure(site)
        best = max(row, key=lambda a: row[a][2])
        cells = "  ".join(f"{a} P={p:.2f} R={r:.2f} F1={f:.2f}" for a, (p, r, f) in row.items())
        print(f"{site:15s} best={best:12s} {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
