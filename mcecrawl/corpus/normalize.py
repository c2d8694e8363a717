"""Table-driven orthographic normaliser for Arabic-script text (fa, ar, ur, ps).

``normalize(text, lang)`` produces ``text_norm``: the folded form used for dedup and search,
stored beside the faithful ``text``.  The rules are data (the tables below) applied by
``str.translate`` plus two regular expressions; every table is tested on its own.

Conventions follow docs/decisions.md c.4 (hazm/parsivar disagree, so we
pick one policy and document it) and Lucene's ``PersianNormalizer``/``ArabicNormalizer``
(kaf/yeh folding, alef-hamza folding for Arabic, tatweel and harakat removal).

Never touched, in any language: the Urdu and Pashto letters
ٹ ڈ ڑ ں ے ښ ږ ځ څ ډ ړ ټ ڼ ې ۍ ګ; Urdu also keeps ہ ھ ۂ ۓ (only Persian folds ھ -> ه).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from mcecrawl.folding import (
    ARABIC_INDIC_DIGITS,
    DIGITS_TO_LATIN,
    HARAKAT,
    HONORIFICS,
    INVISIBLE,
    LATIN_DIGITS,
    MARK_CHART,
    PERSIAN_DIGITS,
    TATWEEL,
    ZWNJ,
    fold_table,
    presentation_forms,
)

__all__ = ["normalize", "DIGIT_POLICIES", "ZWNJ_POLICIES", "LETTER_MAPS", "PROTECTED_LETTERS"]

# Letters the normaliser must never change: Urdu/Pashto-specific letters.
PROTECTED_LETTERS = frozenset("ٹڈڑںےښږځڅډړټڼېۍګ")

# Removed in every configuration: the invisible format characters (mcecrawl/folding.py; ZWNJ and ZWJ
# are orthography here and kept) and tatweel.  Harakat (combining marks only, so no sign is lost) are
# removed unless ``harakat=True``.

# Letter variants per language (the folding Lucene's Persian/Arabic normalisers apply, plus the
# Urdu/Pashto keyboards' conventions).  Keys are what we fold *from*.
LETTER_MAPS: dict[str | None, dict[str, str]] = {
    # Persian: Arabic kaf/yeh/alef-maqsura -> Persian keheh/farsi yeh (cp1256 pages give ي, c.1 #7);
    # heh doachashmee (Urdu keyboards) -> heh.
    "fa": {"ك": "ک", "ي": "ی", "ى": "ی", "ھ": "ه"},
    # Arabic: the reverse (Persian keyboards typing Arabic), and Lucene ArabicNormalizer's
    # alef-hamza/madda/wasla -> bare alef and alef maqsura -> yeh.
    "ar": {"ک": "ك", "ی": "ي", "ى": "ي", "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا"},
    # Urdu: Arabic kaf/yeh -> Urdu keheh/farsi yeh; ے (barree yeh) and ہ/ھ are letters, kept.
    "ur": {"ك": "ک", "ي": "ی", "ى": "ی"},
    # Pashto: only Arabic kaf -> keheh.  ي (U+064A) is a distinct Pashto letter (masculine
    # final yeh), as are ی ې ۍ ئ, so no yeh folding at all.
    "ps": {"ك": "ک"},
}

# Digit policies: "latin" (default; dates, numbers and queries match whatever the site used),
# "native" (the language's own digits: Arabic-Indic for ar, Extended for fa/ur/ps), "keep".
DIGIT_POLICIES = ("latin", "native", "keep")

# ZWNJ policies: "keep" (default, Persian orthography kept, only misplaced ZWNJ removed),
# "space" (ZWNJ -> space, as Lucene's Persian char filter does for tokenisation), "remove".
ZWNJ_POLICIES = ("keep", "space", "remove")

# A ZWNJ is meaningful only between two letters; next to space, punctuation, another ZWNJ or the
# text edge it is an editing artefact.  (hazm's Normalizer applies the same spacing rule.)
_ARABIC_MARKS = frozenset(HONORIFICS + MARK_CHART)
_ZWNJ_RUNS = re.compile(ZWNJ + "+")


def _digit_map(lang: str | None, policy: str) -> dict[str, str]:
    """Digits translation for ``policy`` (see ``DIGIT_POLICIES``)."""
    if policy == "keep":
        return {}
    if policy == "latin":
        return dict(DIGITS_TO_LATIN)
    if policy == "native":
        if lang == "ar":
            return {**dict(zip(PERSIAN_DIGITS, ARABIC_INDIC_DIGITS)), **dict(zip(LATIN_DIGITS, ARABIC_INDIC_DIGITS))}
        if lang in ("fa", "ur", "ps"):
            return {**dict(zip(ARABIC_INDIC_DIGITS, PERSIAN_DIGITS)), **dict(zip(LATIN_DIGITS, PERSIAN_DIGITS))}
        return {}
    raise ValueError(f"digits must be one of {DIGIT_POLICIES}, not {policy!r}")


@lru_cache(maxsize=64)
def _table(lang: str | None, digits: str, harakat: bool, zwnj: str) -> dict[int, str | None]:
    """The combined ``str.translate`` table for one configuration (built once, cached)."""
    letters = LETTER_MAPS.get(lang, {})
    # Presentation forms to base letters, the letter folds applied to them too (e.g. ﻙ -> ك -> ک for fa).
    table = fold_table(INVISIBLE + TATWEEL + ("" if harakat else HARAKAT),
                       {**presentation_forms(letters), **letters})
    table.update({ord(k): v for k, v in _digit_map(lang, digits).items()})
    if zwnj == "space":
        table[ord(ZWNJ)] = " "
    elif zwnj == "remove":
        table[ord(ZWNJ)] = None
    elif zwnj != "keep":
        raise ValueError(f"zwnj must be one of {ZWNJ_POLICIES}, not {zwnj!r}")
    return table


def _lang_key(lang: str | None) -> str | None:
    """'fa-IR' / 'FA' / 'pes' -> 'fa'; unknown languages get no letter folding."""
    if not lang:
        return None
    base = lang.strip().lower().replace("_", "-").split("-")[0]
    return {"fas": "fa", "per": "fa", "pes": "fa", "prs": "fa", "ara": "ar", "arb": "ar",
            "urd": "ur", "pus": "ps", "pbt": "ps", "pbu": "ps"}.get(base, base)


def normalize(text: str, lang: str | None = None, *, digits: str = "latin", harakat: bool = False,
              zwnj: str = "keep") -> str:
    """Fold ``text`` to its normalised form for dedup/search.

    Parameters
    ----------
    text : str
        Faithful extracted text (never modified in place; the caller keeps it as ``text``).
    lang : str, optional
        ISO 639-1/3 code or BCP-47 tag; selects the kaf/yeh table (``LETTER_MAPS``).  Unknown or
        ``None``: no letter folding, only the language-independent rules.
    digits : {"latin", "native", "keep"}
        Digit policy (``DIGIT_POLICIES``).
    harakat : bool
        Keep harakat/Quranic marks (default False: removed, as in Lucene's normalisers).
    zwnj : {"keep", "space", "remove"}
        What to do with ZWNJ after removing misplaced ones (``ZWNJ_POLICIES``).

    Returns
    -------
    str
        NFC text without bidi controls or tatweel, letters/digits folded, horizontal whitespace
        collapsed to single spaces, one ``\\n`` between non-empty lines, stripped.
    """
    if not text:
        return ""
    table, changing = _compiled(_lang_key(lang), digits, harakat, zwnj)
    # Only runs of characters the table changes are translated: str.translate over the whole text
    # costs ~0.1 us per character, the regex scan a tenth of that.
    out = changing.sub(lambda m: m.group().translate(table), unicodedata.normalize("NFC", text))
    if zwnj == "keep" and ZWNJ in out:
        out = _ZWNJ_RUNS.sub(lambda m: _zwnj_kept(m, out), out)
    # Whitespace: str.split() (C, every Unicode space incl. NBSP) per line, empty lines dropped.
    return "\n".join(filter(None, (" ".join(line.split()) for line in out.split("\n"))))


def _is_letter(ch: str) -> bool:
    return ch.isalpha() or ch in _ARABIC_MARKS


def _zwnj_kept(m: re.Match[str], text: str) -> str:
    """A run of ZWNJ becomes one ZWNJ between two letters (or marks), nothing elsewhere."""
    start, end = m.start(), m.end()
    if start > 0 and end < len(text) and _is_letter(text[start - 1]) and _is_letter(text[end]):
        return ZWNJ
    return ""


@lru_cache(maxsize=64)
def _compiled(lang: str | None, digits: str, harakat: bool, zwnj: str) -> tuple[dict[int, str | None], re.Pattern[str]]:
    """The translate table and a regex matching runs of the characters it changes."""
    table = _table(lang, digits, harakat, zwnj)
    return table, re.compile("[" + "".join(re.escape(chr(cp)) for cp in sorted(table)) + "]+")
