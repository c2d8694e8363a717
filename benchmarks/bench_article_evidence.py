"""Held-out check of the rule by which a page without markup is recognised as an article from its own
content (mcecrawl/spiders/evidence.py: article_verdict, its thresholds ARTICLE_PROSE_CHARS, ARTICLE_PROSE_LINES).

Every page of the dev sets, its page-type markup stripped (JSON-LD, og:type, microdata), is extracted with the
default algorithm and judged as the news spider judges a page without markup at a URL shape with no article
yet: its URL names one page among many, its extraction is no list, and holds >= C characters of punctuated
prose in >= L lines.  "prose only" is the last test alone; "rule" the whole one.
Articles: the article sets and wcxb_dev's articles; non-articles: wcxb_dev's other six types.  Leave one
dataset out (wcxb_dev split by page type: its articles one fold, its non-articles another): (C, L) chosen on
the other folds by balanced accuracy, then measured on the left-out fold, beside the shipped constants.

    python benchmarks/bench_article_evidence.py [--data ../shared/data]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ARTICLE_SETS = ("r2l", "scrapinghub_aeb", "readability_mozilla", "trafilatura_eval", "chinese_wce")
GRID_CHARS = (100, 200, 300, 400, 500, 700, 1000, 1500)
GRID_LINES = (1, 2, 3, 4, 5)
_LDJSON = re.compile(r"<script[^>]*ld\+json[^>]*>.*?</script>", re.S | re.I)
_OG_TYPE = re.compile(r"<meta[^>]*og:type[^>]*>", re.I)
_MICRODATA = re.compile(r"\sitem(?:scope|type|prop)(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?", re.I)


def features(data: Path) -> list[tuple[str, bool, int, int, bool, str]]:
    """(fold, is_article, prose chars, prose lines, passes the rest of the rule, page type) per page."""
    import mcecrawl
    from mcecrawl.encoding import decode
    from mcecrawl.evaluation.datasets import load_dataset
    from mcecrawl.spiders.discovery import page_links
    from mcecrawl.spiders.evidence import _SENTENCE_END, link_lines, list_items
    from mcecrawl.spiders.urlshapes import url_shapes

    out = []
    for name in (*ARTICLE_SETS, "wcxb_dev"):
        if not (data / name / "manifest.jsonl").exists():
            continue
        for p in load_dataset(data / name).pages:
            text = decode(p.body, p.content_type).text
            page = _MICRODATA.sub("", _OG_TYPE.sub("", _LDJSON.sub("", text))).encode("utf-8")
            r = mcecrawl.extract(page, url=p.url, utf8=True)
            prose = [ln for ln in r.text.split("\n") if _SENTENCE_END.search(ln)]
            article = (p.page_type or "article") == "article"
            fold = name if name != "wcxb_dev" else f"wcxb_dev:{'article' if article else 'non-article'}"
            rest = ("{" in url_shapes(p.url or "/{n}")[0] and not list_items(r.text, page, page_links(page).headlines)
                    and not link_lines(r.text, page))
            out.append((fold, article, sum(map(len, prose)), len(prose), rest, p.page_type or "article"))
    return out


def ok(r, c: int, n: int, whole: bool) -> bool:
    return r[2] >= c and r[3] >= n and (r[4] or not whole)


def balanced(rows, c: int, n: int, whole: bool = True) -> float:
    arts = [r for r in rows if r[1]]
    others = [r for r in rows if not r[1]]
    tpr = sum(ok(r, c, n, whole) for r in arts) / len(arts) if arts else 1.0
    tnr = sum(not ok(r, c, n, whole) for r in others) / len(others) if others else 1.0
    return (tpr + tnr) / 2


def passed(rows, c: int, n: int, whole: bool = True) -> float:
    return sum(ok(r, c, n, whole) for r in rows) / len(rows)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    args = ap.parse_args(argv)
    from mcecrawl.spiders.evidence import ARTICLE_PROSE_CHARS, ARTICLE_PROSE_LINES

    rows = features(Path(args.data))
    folds = sorted({r[0] for r in rows})
    best = max(((c, n) for c in GRID_CHARS for n in GRID_LINES), key=lambda cn: balanced(rows, *cn))
    shipped = (ARTICLE_PROSE_CHARS, ARTICLE_PROSE_LINES)
    print(f"in-sample best (C, L) = {best}, balanced accuracy {balanced(rows, *best):.3f}; shipped "
          f"{shipped}: rule {balanced(rows, *shipped):.3f}, prose only {balanced(rows, *shipped, whole=False):.3f}")
    print("| left out | pages | kind | (C, L) chosen on the others | judged article, held out | "
          "judged article, shipped | shipped, prose only |")
    print("|---|---:|---|---|---:|---:|---:|")
    for fold in folds:
        train = [r for r in rows if r[0] != fold]
        test = [r for r in rows if r[0] == fold]
        cn = max(((c, n) for c in GRID_CHARS for n in GRID_LINES), key=lambda x: balanced(train, *x))
        kind = "articles" if test[0][1] else "non-articles"
        print(f"| {fold} | {len(test)} | {kind} | {cn} | {passed(test, *cn):.3f} | "
              f"{passed(test, *shipped):.3f} | {passed(test, *shipped, whole=False):.3f} |")
    print("\nwcxb_dev non-articles judged articles by the shipped rule, per page type:")
    for kind in sorted({r[5] for r in rows if not r[1]}):
        of = [r for r in rows if not r[1] and r[5] == kind]
        print(f"  {kind}: {passed(of, *shipped):.3f} of {len(of)} (prose only {passed(of, *shipped, whole=False):.3f})")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main(sys.argv[1:]))
