"""Language ID: accuracy on real fa/ar/ur paragraphs (target >= 0.97), titles, Pashto."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from py3langid.langid import visit_counts

from evalsets import langid_samples
from fuzz_pages import fuzz_inputs, langid_differences, seed_pages
from mcecrawl.corpus import langid
from mcecrawl.corpus.langid import LANGUAGES, detect, is_mismatch

# Real pages to mutate, when the dev data is there (MCE_DATA_ROOT, else ../shared/data).
DATA_ROOT = Path(os.environ.get("MCE_DATA_ROOT") or Path(__file__).resolve().parents[2].parent / "shared" / "data")

# Target for paragraphs (>= 0.97 on real fa/ar/ur paragraphs); titles are reported, with a lower floor
# (short, ambiguous).
PARAGRAPH_ACCURACY = 0.97
TITLE_ACCURACY = 0.90
PASHTO = [line for line in (Path(__file__).parent / "data" / "pashto_samples.txt").read_text("utf-8").splitlines()
          if line.strip() and not line.startswith("#")]


def _accuracy(samples):
    return sum(detect(text).lang == lang for lang, text in samples) / len(samples)


def test_paragraph_accuracy_real_text(shared_data):
    paragraphs, _ = langid_samples(shared_data)
    langs = {lang for lang, _ in paragraphs}
    assert {"fa", "ar", "ur"} <= langs
    for lang in ("fa", "ar", "ur"):
        subset = [p for p in paragraphs if p[0] == lang]
        assert _accuracy(subset) >= PARAGRAPH_ACCURACY, lang


def test_title_accuracy_real_text_including_pashto(shared_data):
    _, titles = langid_samples(shared_data)
    assert sum(lang == "ps" for lang, _ in titles) >= 5  # BBC Pashto news-sitemap titles
    assert _accuracy(titles) >= TITLE_ACCURACY


def test_pashto_from_packages():
    assert len(PASHTO) >= 4
    assert all(detect(s).lang == "ps" for s in PASHTO)


def test_english_and_hebrew():
    assert detect("The minister said on Monday that the talks would resume next week.").lang == "en"
    assert detect("ראש הממשלה ביטל את הדיון בוועדת החוץ והביטחון").lang == "he"


def test_confidence_and_und():
    guess = detect("وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هفته آینده ادامه خواهد یافت.")
    assert guess.lang == "fa" and 0.5 < guess.confidence <= 1.0
    assert detect("").lang == "und"
    assert detect("12345 !!! ...").lang == "und"


def test_constrained_to_corpus_languages():
    # Unconstrained py3langid says Uzbek/other for short Persian headlines (lessons.md c.6).
    assert detect("بازگشت به خانه").lang in LANGUAGES


def test_long_text_is_sampled():
    text = "این یک متن فارسی است که برای آزمایش نوشته شده. " * 500
    assert detect(text).lang == "fa"


@pytest.mark.parametrize("declared,detected,expected", [
    ("fa", "fa", False), ("fa-IR", "fa", False), ("fa", "ar", True), (None, "fa", False), ("ur", "und", False)])
def test_is_mismatch(declared, detected, expected):
    assert is_mismatch(declared, detected) is expected


# --- the compiled feature walk (mcecrawl/corpus/_langid.pyx) against py3langid's own -------------

compiled_walk = pytest.mark.skipif(langid.compiled is None, reason="the compiled language ID walk is not built "
                                   "here; `pip install -e .` with a C compiler builds it")
FUZZ_INPUTS = 300


@compiled_walk
def test_compiled_walk_gives_py3langids_guesses_on_real_text(shared_data):
    paragraphs, titles = langid_samples(shared_data)
    texts = [text for _, text in paragraphs + titles] + PASHTO
    texts += ["\n".join(t for _, t in paragraphs[i:i + 12]) for i in range(0, len(paragraphs), 12)]  # article-size
    assert len(texts) > 200
    for text in texts:
        assert detect(text, implementation=langid.COMPILED) == detect(text, implementation=langid.REFERENCE), text


@compiled_walk
def test_compiled_walk_counts_in_py3langids_order():
    """The same counts, first met first: the scores sum the features in that order."""
    ref = langid._identifier(LANGUAGES, langid.REFERENCE)
    tables = langid._identifier(LANGUAGES, langid.COMPILED).walk_tables
    for data in ("وزارت امور خارجه ایران".encode(), b"The minister said", b"x" * 5000):
        want = visit_counts(ref.tk_nextmove, ref._rowbase, ref.tk_output, data)
        got = langid.compiled.visit_counts(*tables, data)
        assert want and list(got.items()) == list(want.items())
    for data in (b"", b"\x00\xff\xfe", b"ab"):  # no feature met
        assert visit_counts(ref.tk_nextmove, ref._rowbase, ref.tk_output, data) is None
        assert langid.compiled.visit_counts(*tables, data) is None


@compiled_walk
def test_compiled_walk_refuses_tables_that_do_not_fit():
    """A model whose transitions lead outside its tables is an error, never a read past a buffer."""
    nm = np.ones(256, dtype=np.uint32)  # state 0 leads to state 1 ...
    rowbase = np.array([0], dtype=np.int64)  # ... but only state 0 exists
    with pytest.raises(ValueError, match="outside its tables"):
        langid.compiled.visit_counts(nm, rowbase, np.array([-1], dtype=np.int64), b"a")
    with pytest.raises(ValueError, match="outside its tables"):  # a row past the transitions
        langid.compiled.visit_counts(nm, np.array([1 << 8], dtype=np.int64), np.array([-1], dtype=np.int64), b"a")
    with pytest.raises(ValueError, match="does not cover its states"):
        langid.compiled.visit_counts(nm, np.array([0, 0], dtype=np.int64), np.array([-1], dtype=np.int64), b"a")
    ok = langid.compiled.visit_counts(np.zeros(256, dtype=np.uint32), np.array([0], dtype=np.int64),
                                      np.array([7], dtype=np.int64), b"abc")
    assert ok == {7: 3}


@compiled_walk
def test_compiled_walk_fuzz_bounded():
    """Random bytes, random markup and mutated real pages: no crash, the same counts and guesses."""
    pages = seed_pages(DATA_ROOT)
    for i, data in enumerate(fuzz_inputs(seed=20261127, count=FUZZ_INPUTS, pages=pages)):
        assert langid_differences(data) == [], f"input {i} ({len(data)} bytes): {data[:200]!r}"


def test_pure_python_switch_forces_py3langids_walk(monkeypatch):
    monkeypatch.setenv(langid.FORCE_REFERENCE_ENV, "1")
    assert langid.default_implementation() == langid.REFERENCE
    monkeypatch.setenv(langid.FORCE_REFERENCE_ENV, "0")
    assert langid.default_implementation() == (langid.COMPILED if langid.compiled else langid.REFERENCE)
    with pytest.raises(ValueError, match="not available"):
        detect("متن", implementation="fast")


def test_the_compiled_walk_is_built_where_required():
    """CI sets MCE_REQUIRE_COMPILED=1 (.ci/run): there the compiled walk must be the one in use."""
    if os.environ.get("MCE_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("MCE_REQUIRE_COMPILED is not set (CI sets it): py3langid's own walk is allowed here")
    assert langid.compiled is not None and langid.describe().startswith("language ID walk: compiled")


def test_one_switch_for_both_compiled_parts():
    """``MCE_PURE_PYTHON`` forces both references; langid spells the name itself so as not to import the
    extraction core, and it must stay the same name."""
    from mcecrawl.algorithms import profile_impl

    assert langid.FORCE_REFERENCE_ENV == profile_impl.FORCE_REFERENCE_ENV
    assert (langid.COMPILED, langid.REFERENCE) == (profile_impl.COMPILED, profile_impl.REFERENCE)
