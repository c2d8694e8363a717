"""Each normalisation rule, one test (the per-language normalisation table of docs/corpus.md)."""
from __future__ import annotations

import pytest

from mcecrawl.corpus.normalize import DIGIT_POLICIES, LETTER_MAPS, PROTECTED_LETTERS, normalize
from mcecrawl.folding import HARAKAT, INVISIBLE, ZWNJ

ZW = ZWNJ
LANGS = ("fa", "ar", "ur", "ps", None, "en", "he")


@pytest.mark.parametrize("lang", LANGS)
def test_never_alters_urdu_pashto_letters(lang):
    text = "ٹ ڈ ڑ ں ے ښ ږ ځ څ ډ ړ ټ ڼ ې ۍ ګ"
    assert normalize(text, lang) == text
    assert set(normalize("".join(sorted(PROTECTED_LETTERS)), lang)) == PROTECTED_LETTERS


def test_letter_tables_never_map_protected_letters():
    for table in LETTER_MAPS.values():
        assert not PROTECTED_LETTERS & (set(table) | set(table.values()))


def test_persian_kaf_yeh():
    assert normalize("كتاب هاي ايراني مى", "fa") == "کتاب های ایرانی می"


def test_persian_heh_doachashmee():
    assert normalize("ھمه", "fa") == "همه"


def test_arabic_reverse_kaf_yeh_and_alef():
    assert normalize("کتاب علی", "ar") == "كتاب علي"
    assert normalize("أحمد إلى آخر ٱلله", "ar") == "احمد الي اخر الله"


def test_urdu_keeps_its_letters_but_folds_arabic_kaf_yeh():
    assert normalize("كيا ہے ھ", "ur") == "کیا ہے ھ"


def test_pashto_keeps_all_yeh_forms():
    text = "زه ي ی ې ۍ ئ"
    assert normalize(text, "ps") == text
    assert normalize("ك", "ps") == "ک"


def test_unknown_language_folds_no_letters():
    assert normalize("ك ي ک ی", None) == "ك ي ک ی"


def test_lang_tags_are_canonicalised():
    assert normalize("ك", "fa-IR") == normalize("ك", "FA") == normalize("ك", "pes") == "ک"


@pytest.mark.parametrize("policy,expected", [("latin", "123 456 789"), ("keep", "۱۲۳ ٤٥٦ 789"),
                                             ("native", "۱۲۳ ۴۵۶ ۷۸۹")])
def test_digit_policies(policy, expected):
    assert normalize("۱۲۳ ٤٥٦ 789", "fa", digits=policy) == expected


def test_native_digits_arabic():
    assert normalize("۱۲ 34", "ar", digits="native") == "١٢ ٣٤"


def test_bad_policy_raises():
    assert "latin" in DIGIT_POLICIES
    with pytest.raises(ValueError):
        normalize("x", "fa", digits="roman")
    with pytest.raises(ValueError):
        normalize("x", "fa", zwnj="maybe")


def test_tatweel_removed():
    assert normalize("محـــمد", "ar") == "محمد"


def test_harakat_optional():
    assert normalize("مُحَمَّدٌ", "ar") == "محمد"
    assert normalize("مُحَمَّدٌ", "ar", harakat=True) == "مُحَمَّدٌ"
    assert all(c not in normalize("ب" + HARAKAT, "ar") for c in HARAKAT)


def test_bidi_and_invisible_controls_removed():
    assert normalize("\u200fسلام\u202b دنیا\u202c\u2067x\u2069\ufeff\u200b", "fa") == "سلام دنیاx"
    assert not set(normalize("a" + INVISIBLE + "b")) & set(INVISIBLE)


def test_zwnj_kept_between_letters():
    assert normalize(f"می{ZW}خواهد خبرگزاری{ZW}ها", "fa") == f"می{ZW}خواهد خبرگزاری{ZW}ها"


def test_zwnj_next_to_space_or_edge_removed():
    assert normalize(f"{ZW}می {ZW}خواهد{ZW} .{ZW}", "fa") == "می خواهد ."


def test_zwnj_runs_collapsed():
    assert normalize(f"ها{ZW}{ZW}{ZW}ی", "fa") == f"ها{ZW}ی"


def test_zwnj_after_harakat_kept():
    assert normalize(f"مُ{ZW}ب", "fa", harakat=True) == f"مُ{ZW}ب"


def test_zwnj_policies_space_and_remove():
    assert normalize(f"می{ZW}خواهد", "fa", zwnj="space") == "می خواهد"
    assert normalize(f"می{ZW}خواهد", "fa", zwnj="remove") == "میخواهد"


def test_presentation_forms_folded():
    assert normalize("ﻛﺘﺎﺏ", "fa") == "کتاب"  # ﻛ is a form of Arabic kaf, then folded for fa
    assert normalize("ﻛﺘﺎﺏ", "ar") == "كتاب"


def test_whitespace_collapsed_lines_kept():
    assert normalize("  الف\u00a0\t ب \n\n\n  ج  \n", "fa") == "الف ب\nج"


def test_nfc_composes_decomposed_letters():
    assert normalize("ا\u0654", None, harakat=True) == "أ"


def test_empty():
    assert normalize("", "fa") == ""


def test_faithful_text_not_modified():
    text = f"كتاب{ZW}ها"
    normalize(text, "fa")
    assert text == f"كتاب{ZW}ها"
