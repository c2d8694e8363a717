"""Offline language identification for the corpus: fa, ar, ur, ps, en, he.

py3langid (the langid.py model re-packaged, shipped inside the wheel, no download) constrained
to the corpus languages with ``set_languages``.  docs/decisions.md c.6 compared it with lingua and
langdetect: only py3langid covers Pashto, and constraining it fixes most short-title errors
(unconstrained, Persian headlines come out as Uzbek).

py3langid walks its byte DFA in a Python loop, ~0.25 ms of a crawl's ~5 ms per article in the crawl
process (its bottleneck).  Where ``_langid.pyx`` is built, the walk is its compiled twin: the same
counts in the same order, so the same guesses and confidences (``tests/corpus/test_langid.py``
compares both, and ``benchmarks/fuzz_core.py`` fuzzes it); ``MCE_PURE_PYTHON=1`` forces py3langid's
own, as for the extraction core.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["IMPLEMENTATIONS", "LANGUAGES", "LangGuess", "default_implementation", "describe", "detect", "is_mismatch",
           "walk_tables", "warm_up"]

compiled: ModuleType | None
try:
    from mcecrawl.corpus import _langid as compiled  # type: ignore[attr-defined,no-redef]
except ImportError:  # not built: py3langid's own walk
    compiled = None

# The extraction core's switch (mcecrawl.algorithms.profile_impl.FORCE_REFERENCE_ENV), read here
# without importing the extraction core into the corpus steps.
FORCE_REFERENCE_ENV = "MCE_PURE_PYTHON"
COMPILED, REFERENCE = "compiled", "reference"
IMPLEMENTATIONS = (COMPILED, REFERENCE)

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
_identifiers: dict[tuple[tuple[str, ...], str], object] = {}


@dataclass(frozen=True)
class LangGuess:
    """A detected language and its probability among the allowed languages."""

    lang: str  # ISO 639-1 code, or "und" when nothing scores above MIN_CONFIDENCE
    confidence: float


def default_implementation() -> str:
    """The walk :func:`detect` uses: compiled where built, unless ``MCE_PURE_PYTHON`` forces py3langid's."""
    forced = os.environ.get(FORCE_REFERENCE_ENV, "") not in ("", "0")
    return COMPILED if compiled is not None and not forced else REFERENCE


def describe() -> str:
    """One line for ``mcecrawl --version``."""
    if compiled is None:
        return "language ID walk: reference (py3langid's own; _langid not built)"
    if default_implementation() == REFERENCE:
        return f"language ID walk: reference (py3langid's own; forced by {FORCE_REFERENCE_ENV})"
    return "language ID walk: compiled (Cython: _langid)"


def walk_tables(ident: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    """A py3langid identifier's DFA as the compiled walk reads it: the transitions (its own array,
    not copied, when it holds 32-bit states), each state's row offset and each state's feature."""
    nm = ident.tk_nextmove
    if getattr(nm, "itemsize", 0) != 4 or getattr(nm, "typecode", "") not in ("I", "L"):
        nm = np.asarray(nm, dtype=np.uint32)
    rowbase = np.asarray(ident.tk_row, dtype=np.int64) << 8  # py3langid's own _rowbase
    return nm, rowbase, np.asarray(ident.tk_output, dtype=np.int64)


def _compiled_identifier_class() -> Any:
    from py3langid.langid import LanguageIdentifier

    class CompiledWalkIdentifier(LanguageIdentifier):  # type: ignore[misc]
        """py3langid's identifier with its feature walk compiled (``_langid.visit_counts``)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.walk_tables = walk_tables(self)

        def _raw_score(self, text: bytes) -> np.ndarray:
            # py3langid 0.4's _raw_score with its walk swapped (requirements.txt pins 0.4.x; the
            # tests compare every guess with py3langid's own); a text that meets no feature is
            # scored by py3langid itself
            visits = compiled.visit_counts(*self.walk_tables, text)  # type: ignore[union-attr]
            scores: np.ndarray = self._sparse_score(visits, self.nb_ptc) if visits else super()._raw_score(text)
            return scores

    return CompiledWalkIdentifier


def _identifier(languages: tuple[str, ...], implementation: str | None = None) -> Any:
    """One constrained py3langid identifier per language set and walk (the model loads in ~0.3 s)."""
    implementation = implementation or default_implementation()
    if implementation not in IMPLEMENTATIONS or (implementation == COMPILED and compiled is None):
        raise ValueError(f"language ID walk {implementation!r} is not available here")
    key = (languages, implementation)
    with _lock:
        ident = _identifiers.get(key)
        if ident is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            cls: Any = _compiled_identifier_class() if implementation == COMPILED else LanguageIdentifier
            ident = cls.from_model_file(MODEL_FILE, norm_probs=True)
            ident.set_languages(list(languages))
            _identifiers[key] = ident
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
           min_confidence: float = MIN_CONFIDENCE, implementation: str | None = None) -> LangGuess:
    """Identify the language of ``text`` among ``languages``.

    Feed the faithful extracted text (not ``text_norm``): the model was trained on unnormalised
    text, and the kaf/yeh variants are themselves evidence (ي vs ی separates ar from fa).
    ``implementation``: the walk (:data:`IMPLEMENTATIONS`; default :func:`default_implementation`).
    """
    sample = _sample(text.strip(), max_chars) if text else ""
    if not sample or not any(ch.isalpha() for ch in sample):
        return LangGuess("und", 0.0)
    lang, conf = _identifier(tuple(languages), implementation).classify(sample)
    if conf < min_confidence:
        return LangGuess("und", float(conf))
    return LangGuess(lang, float(conf))


def is_mismatch(declared: str | None, detected: str) -> bool:
    """True when both are known and differ (``fa-IR`` and ``fa`` agree; ``und`` never mismatches)."""
    if not declared or detected == "und":
        return False
    return declared.strip().lower().replace("_", "-").split("-")[0] != detected
