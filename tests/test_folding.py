"""One Arabic-script folding (mcecrawl/folding.py): the evaluation, the normaliser and the search analyser agree
where they should, differ only where their options say so, and the evaluation's tokens did not move."""
from __future__ import annotations

import hashlib

import pytest

from mcecrawl.corpus.normalize import normalize
from mcecrawl.evaluation.metrics import characters, tokenize
from mcecrawl.evaluation.metrics import fold_for_scoring as eval_fold
from mcecrawl.folding import BIDI_CONTROLS, BOM, HARAKAT, MARK_CHART, SOFT_HYPHEN, TATWEEL, ZWJ, ZWNJ
from mcecrawl.search.analysis import fold_for_search as search_fold

# sha256 of the evaluation's tokenisation (tokenize and characters) of every gold file of the dev data
# (<data>/*/gold*/*.txt), computed on the code before the folding tables moved to mcecrawl/folding.py
# (576 files of the first six sets); wcxb_dev's 1,497 golds, added to the data later, are pinned apart
# so the first pin keeps its meaning.  Changes only if the folding or tokenising changes, or the data does.
GOLD_TOKENS_SHA256 = "fd1efaf52757d29e2a7e9f7a76cd4c5938329a02f6b5fd02dc29de4813108a3e"
WCXB_GOLD_TOKENS = (1497, "10d5a5e90646550bf81c6741b14eb6c85eb61b2b046b38cd7141b9aa35125b00")
LATER_SETS = ("wcxb_dev",)


def gold_tokens_sha256(root, sets=None) -> tuple[int, str]:
    """Over the gold of ``sets``, or of every set but LATER_SETS when None."""
    h = hashlib.sha256()
    n = 0
    for p in sorted(root.glob("*/gold*/*.txt")):
        dataset = p.relative_to(root).parts[0]
        if dataset not in sets if sets is not None else dataset in LATER_SETS:
            continue
        text = p.read_text("utf-8")
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update("\x1f".join(tokenize(text)).encode() + b"\0")
        h.update("".join(characters(text)).encode() + b"\0")
        n += 1
    return n, h.hexdigest()


def test_evaluation_tokens_of_every_gold_file_unchanged(shared_data):
    n, digest = gold_tokens_sha256(shared_data)
    assert n == 576
    assert digest == GOLD_TOKENS_SHA256


def test_evaluation_tokens_of_wcxb_gold_unchanged(shared_data):
    if not (shared_data / "wcxb_dev").is_dir():
        pytest.skip(f"{shared_data}/wcxb_dev is absent (set MCE_DATA_ROOT to a data folder that holds it)")
    assert gold_tokens_sha256(shared_data, LATER_SETS) == WCXB_GOLD_TOKENS


FOLDERS = {
    "evaluation": eval_fold,
    "normaliser (fa)": lambda t: normalize(t, "fa"),
    "search": search_fold,
}


@pytest.mark.parametrize("name", FOLDERS)
@pytest.mark.parametrize("removed", [TATWEEL, *BIDI_CONTROLS, BOM, SOFT_HYPHEN, "\u064e", "\u0651", "\u0670"])
def test_all_three_remove_tatweel_bidi_controls_and_harakat(name, removed):
    assert FOLDERS[name](f"کتاب{removed}خانه") == FOLDERS[name]("کتابخانه")


@pytest.mark.parametrize("name", FOLDERS)
def test_all_three_fold_arabic_kaf_yeh_and_digits_to_persian_and_latin(name):
    fold = FOLDERS[name]
    assert fold("كتاب علي ۱۴۰۲ ٢٠٢٣") == fold("کتاب علی 1402 2023") == "کتاب علی 1402 2023"


def test_presentation_forms_fold_in_the_normaliser_and_the_search_as_nfkc_does_in_the_evaluation():
    word = "\ufedb\ufe98\ufe8e\ufe8f"  # کتاب in presentation forms (Arabic kaf)
    assert eval_fold(word) == normalize(word, "fa") == search_fold(word) == "کتاب"


def test_intended_differences():
    # ZWNJ: a space for scoring, kept by the normaliser (orthography), removed by search (compounds joined).
    assert eval_fold(f"می{ZWNJ}خواهم") == "می خواهم"
    assert normalize(f"می{ZWNJ}خواهم", "fa") == f"می{ZWNJ}خواهم"
    assert search_fold(f"می{ZWNJ}خواهم") == "میخواهم"
    # ZWJ is orthography for the normaliser only.
    assert ZWJ in normalize(f"ه{ZWJ}", "fa") and ZWJ not in eval_fold(f"ه{ZWJ}") + search_fold(f"ه{ZWJ}")
    # Non-combining signs of the Quranic range (U+06DD END OF AYAH) are dropped by the evaluation only.
    assert "\u06dd" in MARK_CHART and "\u06dd" not in HARAKAT
    assert eval_fold("آیه\u06dd") == "آیه" and "\u06dd" in normalize("آیه\u06dd", "fa")
    # Alef variants and teh marbuta fold in search (any language), not in the evaluation.
    assert search_fold("مدرسة أحمد") == "مدرسه احمد" and eval_fold("مدرسة أحمد") == "مدرسة أحمد"
