"""Evaluation sets for the corpus-quality targets, built from real texts in the dev data (docs/evaluation.md).

Used by ``tests/corpus`` and ``benchmarks/bench_corpus.py`` alike, so the figures in
BENCHMARKS.md are the ones the tests assert:

* language ID: paragraphs of the r2l gold files and Hamshahri articles; titles separately
  (r2l manifest titles, Hamshahri titles, BBC World Service news-sitemap titles incl. Pashto);
* near-duplicates: every real article text, copies of it with 1-10% of the words edited
  (substituted, deleted or inserted), and the other real texts of the same site as negatives.

A test helper, not shipped in the wheel: imported by name (pytest puts ``tests/`` on sys.path for the
top-level conftest; the benchmarks add it themselves).
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Doc", "article_texts", "langid_samples", "edit_words", "near_dup_eval"]

# Paragraphs shorter than this are not "paragraphs" (bylines, captions): measured separately as titles.
MIN_PARAGRAPH_CHARS = 40
# Edit rates of the near-duplicate copies (the dedup target: "copies with 1-10% of words edited").
EDIT_RATES = (0.01, 0.02, 0.05, 0.10)
_ARABIC_SCRIPT = re.compile(r"[\u0600-\u06FF]")


@dataclass(frozen=True)
class Doc:
    site: str
    lang: str
    url: str
    text: str


def article_texts(shared: Path, langs: tuple[str, ...] = ("fa", "ar", "ur")) -> list[Doc]:
    """Real article texts: r2l gold (full) plus the Hamshahri reference articles."""
    docs = []
    with open(shared / "r2l" / "manifest.jsonl", encoding="utf-8") as f:
        for rec in map(json.loads, filter(str.strip, f)):
            if rec["gold_kind"] == "full" and rec["lang"] in langs:
                text = (shared / "r2l" / "gold" / f"{rec['id']}.txt").read_text(encoding="utf-8").strip()
                if text:
                    docs.append(Doc(rec.get("site") or rec["url"].split("/")[2], rec["lang"], rec["url"], text))
    if "fa" in langs:
        for path in sorted((shared / "sites" / "hamshahrionline").glob("*/*.json")):
            rec = json.loads(path.read_text(encoding="utf-8"))
            paras = [c["text"].strip() for c in rec.get("content", []) if c.get("text", "").strip()]
            if paras:
                docs.append(Doc("hamshahrionline.ir", "fa", rec.get("url", path.name), "\n".join(paras)))
    return docs


def _sitemap_titles(path: Path, langs) -> list[tuple[str, str]]:
    xml = path.read_text(encoding="utf-8")
    out = []
    for url in re.findall(r"<url>.*?</url>", xml, re.S):
        lang = re.search(r"<news:language>\s*([^<\s]+)", url)
        title = re.search(r"<news:title>(.*?)</news:title>", url, re.S)
        if lang and title and lang.group(1) in langs:
            out.append((lang.group(1), re.sub(r"<!\[CDATA\[|\]\]>", "", title.group(1)).strip()))
    return out


def langid_samples(shared: Path, langs=("fa", "ar", "ur", "ps")) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(paragraphs, titles)`` as ``(lang, text)`` pairs.

    Paragraphs are gold lines of at least MIN_PARAGRAPH_CHARS in Arabic script (a gold line in
    English, e.g. a widget's error message, is not Urdu whatever the page's language).
    """
    paragraphs, titles = [], []
    for doc in article_texts(shared, tuple(lang for lang in langs if lang != "ps")):
        for line in doc.text.split("\n"):
            line = line.strip()
            letters = [c for c in line if c.isalpha()]
            if len(line) >= MIN_PARAGRAPH_CHARS and letters and \
                    sum(bool(_ARABIC_SCRIPT.match(c)) for c in letters) > len(letters) / 2:
                paragraphs.append((doc.lang, line))
    with open(shared / "r2l" / "manifest.jsonl", encoding="utf-8") as f:
        for rec in map(json.loads, filter(str.strip, f)):
            if rec.get("title") and rec["lang"] in langs:
                titles.append((rec["lang"], rec["title"]))
    for path in sorted((shared / "sites" / "hamshahrionline").glob("*/*.json")):
        title = json.loads(path.read_text(encoding="utf-8")).get("title")
        if title and "fa" in langs:
            titles.append(("fa", title))
    for path in sorted((shared / "sites" / "bbc_worldservice").glob("*.xml")):
        titles += _sitemap_titles(path, langs)
    return paragraphs, titles


def edit_words(text: str, rate: float, rng: random.Random, vocabulary: list[str]) -> str:
    """A copy of ``text`` with ``rate`` of its words edited: a third each substituted (by a word of
    ``vocabulary``), deleted, or preceded by an inserted word.  At least one edit."""
    words = text.split(" ")
    n = max(1, round(rate * len(words)))
    for i in sorted(rng.sample(range(len(words)), min(n, len(words))), reverse=True):
        op = rng.randrange(3)
        if op == 0:
            words[i] = rng.choice(vocabulary)
        elif op == 1:
            del words[i]
        else:
            words.insert(i, rng.choice(vocabulary))
    return " ".join(words)


def near_dup_eval(docs: list[Doc], make_store, normalize, *, rates=EDIT_RATES, seed: int = 0,
                  min_chars: int = 0) -> dict:
    """Recall and precision of near-duplicate detection on edited copies of real texts.

    Every original is added to a fresh store (an original matched to another original is a false
    positive: they are unrelated articles), then every edited copy is checked without recording:
    a copy matched to its own original is a true positive, to another original a false positive,
    unmatched a false negative.
    """
    rng = random.Random(seed)
    docs = [d for d in docs if len(normalize(d.text, d.lang)) >= min_chars]
    vocab = [w for d in docs for w in d.text.split() if len(w) > 2]
    store = make_store()
    tp = fp = fn = 0
    fp_pairs = []
    for d in docs:
        res = store.check(normalize(d.text, d.lang), d.url, d.site)
        if res.duplicate_of:
            fp += 1
            fp_pairs.append((d.url, res.duplicate_of, res.similarity))
    sims = []
    for d in docs:
        for rate in rates:
            res = store.check(normalize(edit_words(d.text, rate, rng, vocab), d.lang), "copy:" + d.url, d.site,
                              record=False)
            sims.append(res.similarity)
            if res.duplicate_of == d.url:
                tp += 1
            elif res.duplicate_of:
                fp += 1
                fp_pairs.append(("copy:" + d.url, res.duplicate_of, res.similarity))
            else:
                fn += 1
    return {"originals": len(docs), "copies": len(docs) * len(rates), "tp": tp, "fp": fp, "fn": fn,
            "recall": tp / (tp + fn) if tp + fn else 0.0, "precision": tp / (tp + fp) if tp + fp else 1.0,
            "min_copy_similarity": min(sims) if sims else None, "false_positives": fp_pairs}
