"""Accuracy measures for main-content extraction, as pure functions.

The primary figure is the LCS-based precision, recall and F1 of the R2L paper (seed 000, §4.3,
formula (3); after Gottron 2007) computed over *word tokens* so that it is comparable with the
peers, with Arabic-script orthographic variation folded on both sides.  Also here: the same
measure over characters (the paper's own HUMAN/CHIMPANZEE example is over characters),
bag-of-words F1, the Zyte/Scrapinghub article-extraction-benchmark 4-gram shingle F1, the
XPath paper's length-based precision and recall (seed 001, §D, expressions 1-3) and snippet
scoring for ``with``/``without`` gold.

Edge cases, the same for every measure: empty gold and empty output score 1.0 (nothing to find,
nothing found); an empty output against a non-empty gold, or a non-empty output against an
empty gold, scores 0 for precision, recall and F1.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

from mcecrawl.folding import (
    BIDI_CONTROLS,
    BOM,
    DIGITS_TO_LATIN,
    EZAFE_HEH,
    HEBREW_POINTS,
    MARK_CHART,
    PERSIAN_LETTERS,
    SOFT_HYPHEN,
    TATWEEL,
    ZWJ,
    ZWNJ,
    fold_table,
)

# --- Folding ---------------------------------------------------------------------------------

# Both sides of a comparison are folded, so the evaluation folds the most (mcecrawl/folding.py):
# every sign of the Arabic mark ranges and the Hebrew points; tatweel, ZWJ, bidi controls, BOM and
# soft hyphen; ZWNJ (the Persian half-space, which writers and extractors replace by a space or drop)
# is a word boundary; Arabic yeh/alef maksura/kaf -> Persian yeh/keheh and the ezafe heh ۀ -> heh
# (the decomposed heh + U+0654 loses its mark with the harakat); Arabic-script digits -> ASCII.
_FOLD_TABLE = fold_table(
    delete=MARK_CHART + HEBREW_POINTS + TATWEEL + ZWJ + BIDI_CONTROLS + BOM + SOFT_HYPHEN,
    replace={ZWNJ: " ", **PERSIAN_LETTERS, **EZAFE_HEH, **DIGITS_TO_LATIN})


def fold_for_scoring(text: str) -> str:
    """NFKC, then fold Arabic-script and Hebrew orthographic variation (see the tables above).

    Applied identically to gold and output, so variants are not scored as errors.  Presentation
    forms (U+FB50-U+FEFF) are mapped to base letters by NFKC itself.
    """
    return unicodedata.normalize("NFKC", text).translate(_FOLD_TABLE)


# --- Tokenisation ----------------------------------------------------------------------------

# Scripts written without spaces between words get one token per character (Unicode blocks):
# CJK unified ideographs + extension A + compatibility ideographs, hiragana, katakana (+ phonetic
# extensions), Thai, Lao, Khmer, Myanmar.  Hangul is space-separated and keeps word tokens.
_NO_SPACE = ("\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff"
             "\u0e00-\u0e7f\u0e80-\u0eff\u1780-\u17ff\u1000-\u109f")
_TOKEN_RE = re.compile(rf"[{_NO_SPACE}]|[^\W_{_NO_SPACE}]+")


def tokenize(text: str | None) -> list[str]:
    """Word tokens of ``text`` after :func:`fold_for_scoring`: runs of letters/digits, one token per
    character for scripts without word spaces (CJK, Thai...).  Punctuation and ``_`` are dropped."""
    if not text:
        return []
    return _TOKEN_RE.findall(fold_for_scoring(text))


def characters(text: str | None) -> list[str]:
    """Non-space characters of ``text`` after :func:`fold_for_scoring` (for the character-level measures;
    whitespace differences are layout, not content, as the XPath paper also argues)."""
    if not text:
        return []
    return [c for c in fold_for_scoring(text) if not c.isspace()]


# --- LCS -------------------------------------------------------------------------------------

def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Exact length of the longest common subsequence of two sequences of hashables.

    Bit-parallel algorithm (Allison & Dix 1986; Hyyrö 2004, "Bit-parallel LCS-length
    computation revisited"): for each symbol a bitmask of its positions in the shorter
    sequence; each element of the other sequence updates the row vector with
    ``V = (V + (V & M)) | (V & ~M)``; the LCS is the number of zero bits.  O(n·m/w) word
    operations with Python's arbitrary-precision integers as the bit vectors, which is what
    makes a 20,000 x 20,000-token pair take well under a second (Hirschberg's O(n·m) cell
    loop, cited by DANAg §4.2, would take minutes in Python).
    """
    if len(a) < len(b):
        a, b = b, a  # bits over the longer sequence, Python-level loop over the shorter
    if not b:
        return 0
    masks: dict[Hashable, int] = {}
    for i, symbol in enumerate(a):
        masks[symbol] = masks.get(symbol, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    get = masks.get
    for symbol in b:
        m = get(symbol)
        if m:
            u = v & m
            v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


# --- Scores ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Score:
    """Precision, recall and F1 of one output against one gold."""

    precision: float
    recall: float
    f1: float

    def as_dict(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}


PERFECT = Score(1.0, 1.0, 1.0)
ZERO = Score(0.0, 0.0, 0.0)


def prf(common: float, output_len: float, gold_len: float) -> Score:
    """Formula (3) of the R2L paper: ``r = k/g``, ``p = k/m``, ``F1 = 2pr/(p+r)``, with the
    module's edge cases for empty sides."""
    if output_len == 0 and gold_len == 0:
        return PERFECT
    if output_len == 0 or gold_len == 0:
        return ZERO
    p, r = common / output_len, common / gold_len
    return Score(p, r, 2 * p * r / (p + r) if p + r else 0.0)


def lcs_score(output: Sequence[Hashable], gold: Sequence[Hashable]) -> Score:
    """LCS precision/recall/F1 over two already tokenised sequences."""
    return prf(lcs_length(output, gold), len(output), len(gold))


def lcs_f1(output: str | None, gold: str | None) -> Score:
    """The primary figure: formula (3) over folded word tokens (:func:`tokenize`)."""
    return lcs_score(tokenize(output), tokenize(gold))


def char_lcs_f1(output: str | None, gold: str | None) -> Score:
    """Formula (3) over folded non-space characters, as in the paper's own example."""
    return lcs_score(characters(output), characters(gold))


def bow_f1(output: str | None, gold: str | None) -> Score:
    """Bag-of-words F1: multiset overlap of folded word tokens, order ignored."""
    out, ref = Counter(tokenize(output)), Counter(tokenize(gold))
    return prf(sum((out & ref).values()), sum(out.values()), sum(ref.values()))


_WCXB_TOKEN_RE = re.compile(r"\w+")


def wcxb_f1(output: str | None, gold: str | None) -> Score:
    r"""WCXB's own measure (its ``evaluate.py``; ``../shared/data/wcxb_dev/README.md``): bag-of-words
    F1 over lowercase ``\w+`` tokens, no folding; empty gold and empty output score 1.  Reported
    beside LCS-F1 so figures compare with the benchmark's leaderboard."""
    out = Counter(_WCXB_TOKEN_RE.findall((output or "").lower()))
    ref = Counter(_WCXB_TOKEN_RE.findall((gold or "").lower()))
    return prf(sum((out & ref).values()), sum(out.values()), sum(ref.values()))


def length_pr(output: str | None, gold: str | None) -> Score:
    """The XPath paper's length-based measures (seed 001, §D, expressions 1-3).

    ``Precision = (LEC - (LEC - LEP + LM)) / LEC`` and ``Recall = (LEC - (LEC - LEP + LM)) /
    LEP``, i.e. ``(LEP - LM)/LEC`` and ``(LEP - LM)/LEP``, with lengths counted without spaces.
    LEC is the extracted length, LEP the expected length and LM the length of the expected
    content the extraction misses; the paper measured LM by hand, here it is ``LEP - LCS`` over
    non-space characters (the part of the expected text not found in order in the output).
    With LM measured that way the expressions reduce to formula (3) over non-space characters,
    so this equals :func:`char_lcs_f1`; it is kept under the paper's own definition so the two
    papers' figures can be cited side by side.
    """
    out, ref = characters(output), characters(gold)
    lec, lep = len(out), len(ref)
    lm = lep - lcs_length(out, ref)
    return prf(lec - (lec - lep + lm), lec, lep)


# Zyte/Scrapinghub article-extraction-benchmark (evaluate.py): 4-token shingles.
SHINGLE_N = 4


def _shingles(tokens: list[str], n: int = SHINGLE_N) -> Counter[tuple[str, ...]]:
    if not tokens:
        return Counter()
    if len(tokens) < n:  # a text shorter than one shingle is one shingle of itself
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def shingle_counts(output: str | None, gold: str | None, n: int = SHINGLE_N) -> tuple[float, float, float]:
    """Per-page (TP, FP, FN) of n-token shingle multisets, normalised to sum to 1 so that
    long pages do not weigh more, as the article-extraction-benchmark does.  Both empty is a
    perfect page (1, 0, 0)."""
    out, ref = _shingles(tokenize(output), n), _shingles(tokenize(gold), n)
    tp = sum((out & ref).values())
    fp = sum((out - ref).values())
    fn = sum((ref - out).values())
    total = tp + fp + fn
    if total == 0:
        return 1.0, 0.0, 0.0
    return tp / total, fp / total, fn / total


def shingle_f1(counts: Iterable[tuple[float, float, float]]) -> Score:
    """Aggregate per-page :func:`shingle_counts`: P and R of the summed normalised counts
    (macro over pages), F1 of those two, as the benchmark reports."""
    tp = fp = fn = 0.0
    for a, b, c in counts:
        tp, fp, fn = tp + a, fp + b, fn + c
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return Score(p, r, 2 * p * r / (p + r) if p + r else 0.0)


# --- Snippets --------------------------------------------------------------------------------

@dataclass(frozen=True)
class SnippetScore:
    """Snippet gold (trafilatura's evaluation format): ``with`` snippets must be in the output,
    ``without`` snippets must not.  ``accuracy`` is the share of snippets handled correctly;
    precision/recall/F1 count found ``with`` as TP, missing ``with`` as FN, found ``without`` as FP."""

    with_found: int
    with_total: int
    without_found: int
    without_total: int

    @property
    def accuracy(self) -> float:
        total = self.with_total + self.without_total
        ok = self.with_found + self.without_total - self.without_found
        return ok / total if total else 1.0

    @property
    def score(self) -> Score:
        tp, fp, fn = self.with_found, self.without_found, self.with_total - self.with_found
        if tp + fp + fn == 0:
            return PERFECT
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 1.0
        return Score(p, r, 2 * p * r / (p + r) if p + r else 0.0)


def _joined(text: str | None) -> str:
    # Token boundaries on both sides so that a snippet matches whole words only.
    return " " + " ".join(tokenize(text)) + " "


def snippet_score(output: str | None, with_: Sequence[str], without: Sequence[str]) -> SnippetScore:
    """Look for each snippet's folded token sequence in the output's, ignoring whitespace and
    punctuation differences.  Snippets with no tokens are skipped (they cannot be judged)."""
    hay = _joined(output)
    wants = [s for s in (_joined(x) for x in with_) if s.strip()]
    avoids = [s for s in (_joined(x) for x in without) if s.strip()]
    return SnippetScore(sum(s in hay for s in wants), len(wants), sum(s in hay for s in avoids), len(avoids))


__all__ = [
    "wcxb_f1",
    "PERFECT", "SHINGLE_N", "Score", "SnippetScore", "ZERO", "bow_f1", "char_lcs_f1", "characters", "fold_for_scoring",
    "lcs_f1", "lcs_length", "lcs_score", "length_pr", "prf", "shingle_counts", "shingle_f1", "snippet_score",
    "tokenize",
]
