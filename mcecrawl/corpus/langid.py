"""Offline language identification for the corpus: fa, ar, ur, ps, en, he.

py3langid (the langid.py model re-packaged, shipped inside the wheel, no download) constrained
to the corpus languages with ``set_languages``.  docs/decisions.md c.6 compared it with lingua and
langdetect: only py3langid covers Pashto, and constraining it fixes most short-title errors
(unconstrained, Persian headlines come out as Uzbek).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["LANGUAGES", "LangGuess", "detect", "is_mismatch", "warm_up"]

# The corpus languages: the four R2L targets plus en and he (Hebrew sites, English
# pages on R2L sites).
LANGUAGES = ("fa", "ar", "ur", "ps", "en", "he")

# Characters classified at most (the middle of the text): the cost is linear in the length
# (~0.2 ms per 1000 chars here) and 500 chars already label all 26 real articles of
# the dev data (docs/evaluation.md) right (benchmarks/bench_corpus.py); paragraphs and titles are shorter anyway.
MAX_CHARS = 1000

# Below this normalised probability the guess is reported as "und" (undetermined); py3langid's
# probabilities are calibrated with T = sqrt(bytes), so short titles hover around 0.5-0.9.
MIN_CONFIDENCE = 0.5

_lock = threading.Lock()
_identifiers: dict[tuple[str, ...], object] = {}


@dataclass(frozen=True)
class LangGuess:
    """A detected language and its probability among the allowed languages."""

    lang: str  # ISO 639-1 code, or "und" when nothing scores above MIN_CONFIDENCE
    confidence: float


def _identifier(languages: tuple[str, ...]) -> Any:  # py3langid.langid.LanguageIdentifier (untyped)
    """One constrained py3langid identifier per language set (the model loads in ~0.3 s)."""
    with _lock:
        ident = _identifiers.get(languages)
        if ident is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
            ident.set_languages(list(languages))
            _identifiers[languages] = ident
        return ident


def warm_up(languages: tuple[str, ...] = LANGUAGES) -> None:
    """Load the model now (a crawl's first item would otherwise pay ~0.3 s)."""
    _identifier(tuple(languages))


def _sample(text: str, max_chars: int) -> str:
    """The middle ``max_chars`` characters: past headline/byline, before footer leftovers."""
    if len(text) <= max_chars:
        return text
    start = (len(text) - max_chars) // 2
    return text[start:start + max_chars]


def detect(text: str, *, languages: tuple[str, ...] = LANGUAGES, max_chars: int = MAX_CHARS,
           min_confidence: float = MIN_CONFIDENCE) -> LangGuess:
    """Identify the language of ``text`` among ``languages``.

    Feed the faithful extracted text (not ``text_norm``): the model was trained on unnormalised
    text, and the kaf/yeh variants are themselves evidence (ي vs ی separates ar from fa).
    """
    sample = _sample(text.strip(), max_chars) if text else ""
    if not sample or not any(ch.isalpha() for ch in sample):
        return LangGuess("und", 0.0)
    lang, conf = _identifier(tuple(languages)).classify(sample)
    if conf < min_confidence:
        return LangGuess("und", float(conf))
    return LangGuess(lang, float(conf))


def is_mismatch(declared: str | None, detected: str) -> bool:
    """True when both are known and differ (``fa-IR`` and ``fa`` agree; ``und`` never mismatches)."""
    if not declared or detected == "und":
        return False
    return declared.strip().lower().replace("_", "-").split("-")[0] != detected
