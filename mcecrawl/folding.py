"""Arabic-script (and Hebrew) folding: the one home of the character classes and letter folds.

Three consumers build their ``str.translate`` tables from these pieces; what differs between them is
a choice made where the table is built, with its reason there:

================  ==============================  ==============================  ==============================
                  evaluation                      corpus                          search
                  (``metrics.fold_for_scoring``)  (``normalize``)                 (``analysis.fold_for_search``)
================  ==============================  ==============================  ==============================
Unicode form      NFKC, whole text                NFC + presentation forms        NFC + presentation forms
marks removed     :data:`MARK_CHART` + Hebrew     :data:`HARAKAT` (optional)      :data:`HARAKAT` +
                  points (every sign, scoring)                                    :data:`HONORIFICS`
invisible         bidi, BOM, soft hyphen, ZWJ     :data:`INVISIBLE` (+ ZWSP,      :data:`INVISIBLE` + ZWJ
                  (no ZWSP / word joiner)         word joiner), ZWJ kept
tatweel           removed                         removed                         removed
ZWNJ              space                           keep / space / remove (option)  removed (compounds joined)
letters           :data:`PERSIAN_LETTERS` + ۀ     per language (``LETTER_MAPS``)  Persian letters, alef
                                                                                  variants, ة, ۀ (any language)
digits            Latin                           latin / native / keep (option)  Latin
================  ==============================  ==============================  ==============================

The evaluation folds the most (both sides of a comparison are folded, so nothing is lost); the
normaliser keeps what is orthography in some language (ZWJ, ZWNJ, Urdu/Pashto letters); the search
analyser folds documents and queries of unknown language to one spelling.  Tables: Unicode Arabic
block chart, UAX #9 (bidi controls), Lucene's ``ArabicNormalizer``/``PersianNormalizer``
(docs/decisions.md c.4, c.8).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

ZWNJ = "\u200c"  # the Persian half-space
ZWJ = "\u200d"
TATWEEL = "\u0640"  # ARABIC TATWEEL (kashida): justification only, no letter

# Bidi formatting controls (UAX #9): LRM, RLM, ARABIC LETTER MARK, LRE..RLO, LRI..PDI.
BIDI_CONTROLS = "\u200e\u200f\u061c" "\u202a\u202b\u202c\u202d\u202e" "\u2066\u2067\u2068\u2069"
ZWSP_AND_WORD_JOINER = "\u200b\u2060"
BOM = "\ufeff"  # ZWNBSP / byte-order mark
SOFT_HYPHEN = "\u00ad"
# Invisible format characters that carry no text (Unicode 15 chapter 23.2).  ZWNJ and ZWJ are
# orthography in Persian/Urdu, not listed.
INVISIBLE = BIDI_CONTROLS + ZWSP_AND_WORD_JOINER + BOM + SOFT_HYPHEN

# Arabic marks by the block chart's ranges: tashkil U+064B-065F, superscript alef U+0670 and the
# Quranic annotation signs U+06D6-06ED, every code point (including the few that are not combining
# marks, e.g. U+06DD END OF AYAH).
MARK_CHART = "".join(chr(c) for c in (*range(0x064B, 0x0660), 0x0670, *range(0x06D6, 0x06EE)))
# The same, combining marks (category Mn) only: what a normaliser may delete without deleting a sign.
HARAKAT = (
    "".join(chr(c) for c in range(0x064B, 0x0660))
    + "\u0670"
    + "".join(chr(c) for c in range(0x06D6, 0x06EE) if unicodedata.category(chr(c)) == "Mn")
)
# Arabic honorific signs U+0610-061A (small high ligatures above words).
HONORIFICS = "".join(chr(c) for c in range(0x0610, 0x061B))
# Hebrew points and cantillation U+0591-05C7 except the punctuation maqaf, paseq, sof pasuq, nun hafukha.
HEBREW_POINTS = "".join(chr(c) for c in range(0x0591, 0x05C8) if chr(c) not in "\u05be\u05c0\u05c3\u05c6")

ARABIC_INDIC_DIGITS = "٠١٢٣٤٥٦٧٨٩"  # U+0660..0669 (Arabic)
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"  # U+06F0..06F9 (Extended Arabic-Indic: fa, ur, ps)
LATIN_DIGITS = "0123456789"
# Both Arabic-script digit sets -> ASCII (NFKC leaves them alone).
DIGITS_TO_LATIN = {**dict(zip(ARABIC_INDIC_DIGITS, LATIN_DIGITS)), **dict(zip(PERSIAN_DIGITS, LATIN_DIGITS))}

# Arabic kaf U+0643, yeh U+064A and alef maqsura U+0649 -> Persian keheh U+06A9 and farsi yeh U+06CC
# (the variants cp1256-era pages and Persian keyboards mix, docs/decisions.md c.1).
PERSIAN_LETTERS = {"ك": "ک", "ي": "ی", "ى": "ی"}
# Heh with yeh above U+06C0, the precomposed Persian ezafe form that NFKC keeps -> heh.
EZAFE_HEH = {"ۀ": "ه"}
# Alef with hamza above/below, madda, wasla -> bare alef (Lucene ArabicNormalizer).
ALEF_VARIANTS = {"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا"}
TEH_MARBUTA = {"ة": "ه"}

# Arabic presentation forms A and B (legacy PDFs and pages).
_PRESENTATION = (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFEFD))


def presentation_forms(letters: Mapping[str, str] | None = None, drop: str = "") -> dict[str, str]:
    """Presentation form -> base letters (NFKC per character; forms whose NFKC has a space are left
    alone), then ``letters`` applied to the result and the characters in ``drop`` removed from it."""
    letters = letters or {}
    out = {}
    for cp in _PRESENTATION:
        folded = unicodedata.normalize("NFKC", chr(cp))
        if folded != chr(cp) and " " not in folded:
            out[chr(cp)] = "".join(letters.get(c, c) for c in folded if c not in drop)
    return out


def fold_table(delete: Iterable[str] = (), replace: Mapping[str, str] | None = None) -> dict[int, str | None]:
    """A ``str.translate`` table: each character of ``delete`` removed, ``replace`` applied."""
    table: dict[int, str | None] = {ord(c): None for c in delete}
    table.update({ord(k): v for k, v in (replace or {}).items()})
    return table


__all__ = ["ALEF_VARIANTS", "ARABIC_INDIC_DIGITS", "BIDI_CONTROLS", "BOM", "DIGITS_TO_LATIN", "EZAFE_HEH",
           "HARAKAT", "HEBREW_POINTS", "HONORIFICS", "INVISIBLE", "LATIN_DIGITS", "MARK_CHART", "PERSIAN_DIGITS",
           "PERSIAN_LETTERS", "SOFT_HYPHEN", "TATWEEL", "TEH_MARBUTA", "ZWJ", "ZWNJ", "ZWSP_AND_WORD_JOINER",
           "fold_table", "presentation_forms"]
