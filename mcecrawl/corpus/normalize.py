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

__all__ = ["normalize", "DIGIT_POLICIES", "ZWNJ_POLICIES", "LETTER_MAPS", "PROTECTED_LETTERS"]

ZWNJ = "\u200c"

# Letters the normaliser must never change: Urdu/Pashto-specific letters.
PROTECTED_LETTERS = frozenset("ٹڈڑںےښږځڅډړټڼېۍګ")

# Bidi formatting controls and other invisible format characters that carry no text
# (Unicode 15 chapter 23.2 / UAX #9): LRM, RLM, ALM, LRE..RLO, LRI..PDI, ZWSP, word joiner,
# BOM/ZWNBSP, soft hyphen.  ZWNJ (U+200C) and ZWJ (U+200D) are orthography, not listed.
INVISIBLE = (
    "\u200e\u200f\u061c"  # LRM, RLM, ARABIC LETTER MARK
    "\u202a\u202b\u202c\u202d\u202e"  # LRE, RLE, PDF, LRO, RLO
    "\u2066\u2067\u2068\u2069"  # LRI, RLI, FSI, PDI
    "\u200b\u2060\ufeff\u00ad"  # ZWSP, WORD JOINER, ZWNBSP/BOM, SOFT HYPHEN
)

TATWEEL = "\u0640"  # ARABIC TATWEEL (kashida): justification only, no letter

# Harakat and Quranic annotation marks (Unicode Arabic block, general category Mn):
# fathatan..sukun, maddah/hamza above/below, the U+0656-065F marks, superscript (dagger) alef,
# and the Quranic small high/low signs U+06D6-06ED.  Removed only when ``harakat=False``.
HARAKAT = (
    "".join(chr(c) for c in range(0x064B, 0x0660))
    + "\u0670"
    + "".join(chr(c) for c in range(0x06D6, 0x06EE) if unicodedata.category(chr(c)) == "Mn")
)

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

_ARABIC_INDIC = "٠١٢٣٤٥٦٧٨٩"  # U+0660..0669 (Arabic)
_PERSIAN = "۰۱۲۳۴۵۶۷۸۹"  # U+06F0..06F9 (Extended Arabic-Indic: fa, ur, ps)
_LATIN = "0123456789"

# Digit policies: "latin" (default; dates, numbers and queries match whatever the site used),
# "native" (the language's own digits: Arabic-Indic for ar, Extended for fa/ur/ps), "keep".
DIGIT_POLICIES = ("latin", "native", "keep")

# ZWNJ policies: "keep" (default, Persian orthography kept, only misplaced ZWNJ removed),
# "space" (ZWNJ -> space, as Lucene's Persian char filter does for tokenisation), "remove".
ZWNJ_POLICIES = ("keep", "space", "remove")

# Arabic presentation forms A/B (legacy PDFs/pages): folded to base letters by NFKC, per char.
_PRESENTATION = [*range(0xFB50, 0xFE00), *range(0xFE70, 0xFEFD)]

# A ZWNJ is meaningful only between two letters; next to space, punctuation, another ZWNJ or the
# text edge it is an editing artefact.  (hazm's Normalizer applies the same spacing rule.)
_ARABIC_MARKS = frozenset(chr(c) for c in [*range(0x0610, 0x061B), *range(0x064B, 0x0660), 0x0670,
                                            *range(0x06D6, 0x06EE)])
_ZWNJ_RUNS = re.compile("\u200c+")


def _digit_map(lang: str | None, policy: str) -> dict[str, str]:
    """Digits translation for ``policy`` (see ``DIGIT_POLICIES``)."""
    if policy == "keep":
        return {}
    if policy == "latin":
        return {**dict(zip(_ARABIC_INDIC, _LATIN)), **dict(zip(_PERSIAN, _LATIN))}
    if policy == "native":
        if lang == "ar":
            return {**dict(zip(_PERSIAN, _ARABIC_INDIC)), **dict(zip(_LATIN, _ARABIC_INDIC))}
        if lang in ("fa", "ur", "ps"):
            return {**dict(zip(_ARABIC_INDIC, _PERSIAN)), **dict(zip(_LATIN, _PERSIAN))}
        return {}
    raise ValueError(f"digits must be one of {DIGIT_POLICIES}, not {policy!r}")


@lru_cache(maxsize=64)
def _table(lang: str | None, digits: str, harakat: bool, zwnj: str) -> dict[int, str | None]:
    """The combined ``str.translate`` table for one configuration (built once, cached)."""
    table: dict[int, str | None] = {}
    for cp in _PRESENTATION:
        folded = unicodedata.normalize("NFKC", chr(cp))
        if folded != chr(cp) and " " not in folded:
            table[cp] = folded
    table.update({ord(c): None for c in INVISIBLE + TATWEEL})
    if not harakat:
        table.update({ord(c): None for c in HARAKAT})
    letters = LETTER_MAPS.get(lang, {})
    # Letter folds also apply to presentation-form outputs (e.g. ﻙ -> ك -> ک for fa).
    for cp, out in list(table.items()):
        if out:
            table[cp] = "".join(letters.get(ch, ch) for ch in out)
    table.update({ord(k): v for k, v in letters.items()})
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
