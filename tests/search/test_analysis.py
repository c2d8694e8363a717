"""Search folding: variants fold alike; the ES analyzer emulated from the template agrees."""
from __future__ import annotations

import re

import pytest

from mcecrawl.search.analysis import TOKEN_RE, fold_for_search, fold_query, query_variants, title_key
from mcecrawl.search.bulk import index_template

# Spellings that must be indistinguishable for search, whatever the document's language.
EQUIVALENT = [
    ("می‌خواهم", "میخواهم", "می خواهم", "مي‌خواهم"),  # ZWNJ / joined / space; Arabic yeh
    ("نمی‌شود", "نمیشود", "نمی شود"),
    ("کتاب‌ها", "کتابها", "کتاب ها", "كتاب‌ها"),  # plural clitic; Arabic kaf
    ("بزرگ‌ترین", "بزرگترین", "بزرگ ترین"),
    ("محمد", "مُحَمَّد", "مـحـمـد"),  # harakat, tatweel
    ("علی", "علي", "على"),  # farsi yeh, Arabic yeh, alef maqsura
    ("أحمد", "احمد", "إحمد"),
    ("مدرسة", "مدرسه"),
    ("۱۴۰۲", "١٤٠٢", "1402"),
    ("Tehran", "TEHRAN"),
]


@pytest.mark.parametrize("group", EQUIVALENT, ids=lambda g: g[0])
@pytest.mark.parametrize("lang", [None, "fa", "ar", "ur"])
def test_equivalent_spellings_fold_alike(group, lang):
    assert len({fold_for_search(s, lang) for s in group}) == 1, [fold_for_search(s, lang) for s in group]


def test_folding_does_not_depend_on_the_document_language():
    text = "كتاب‌هاي ايراني ۱۲۳ مي خواهم"
    assert fold_for_search(text, "fa") == fold_for_search(text, "ar") == fold_for_search(text, "ur") == fold_query(text)


def test_text_and_text_norm_fold_alike(r2l_corpus):
    """fold_for_search() is built on the normaliser's tables: pre-normalising (with the item's language or
    none) changes no token, so ``text`` and ``text_norm`` index alike."""
    from mcecrawl.corpus.normalize import normalize

    for item in r2l_corpus:
        for lang in (item["lang"], None):
            folded = fold_for_search(normalize(item["text"], lang))
            assert TOKEN_RE.findall(folded) == TOKEN_RE.findall(fold_for_search(item["text"]))


def test_presentation_forms_fold_to_letters():
    assert fold_for_search("\ufee3\ufea4\ufee4\ufeaa") == "محمد"  # ﻣﺤﻤﺪ in presentation forms B


def test_distinct_words_stay_distinct():
    # Urdu/Pashto letters are letters, not variants; clitics that are also words are not joined.
    assert fold_for_search("ٹ") != fold_for_search("ت") and fold_for_search("ے") != fold_for_search("ی")
    assert fold_for_search("غنت أم كلثوم") == "غنت ام کلثوم"  # Arabic أم is a word: never glued to "غنت"
    assert fold_for_search("تهران") == "تهران"


def test_query_variants_offer_joined_and_split_compounds():
    assert ("هاشمینسب",) in query_variants("هاشمی نسب")
    assert ("هاشمی", "نسب") in query_variants("هاشمی‌نسب")
    assert query_variants("هاشمی‌نسب")[0] == ("هاشمینسب",)  # the typed form first
    assert query_variants("   ") == ()


def test_title_key_ignores_separators_and_punctuation():
    assert title_key("مربی آبی‌ها: محروم!") == title_key("مربي آبي ها محروم")


def _emulate_es(text: str) -> list[str]:
    """Apply the template's mce_fold char filters with Python's re (Java \\p{L} -> [^\\W\\d_])."""
    filters = index_template("news")["template"]["settings"]["analysis"]["char_filter"]
    text = re.sub(filters["mce_marks"]["pattern"].encode().decode("unicode_escape"), "", text)
    mapping = dict(m.split(" => ") for m in filters["mce_letters"]["mappings"])
    text = text.translate(str.maketrans(mapping))
    pattern = (filters["mce_clitics"]["pattern"].replace("\\p{L}", "[^\\W\\d_]").replace("\\p{N}", "\\d")
               .replace("[[^\\W\\d_]\\d]", "[^\\W_]"))
    text = re.sub(pattern, lambda m: m.group(1) or "", text)
    return TOKEN_RE.findall(text.lower())


@pytest.mark.parametrize("text", [s for group in EQUIVALENT for s in group]
                         + ["به گزارش همشهری، زلزله ۲۴ مهر در عمق ۱۰ کیلومتری رخ داد و می خواهم کتاب ها را"])
def test_es_analyzer_char_filters_match_python_folding(text):
    assert _emulate_es(text) == TOKEN_RE.findall(fold_for_search(text))
