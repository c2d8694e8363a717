"""Search analysis: one folding for documents and queries, so variants find each other.

Built on the corpus normaliser's tables (:mod:`mcecrawl.corpus.normalize`: bidi/invisible
controls, tatweel, harakat, presentation forms, digits) but language-independent, because a
query's language is unknown, and with ONE canonical spelling:

1. ``FOLD_MAP``: the normaliser's deletions and presentation-form folds, plus every
   yeh/kaf/alef-hamza/teh-marbuta variant to one letter (the folds of Lucene's
   ``ArabicNormalizer`` + ``PersianNormalizer``, docs/decisions.md c.8), digits to
   Latin, ZWNJ removed, i.e. ZWNJ compounds indexed *joined* (``می‌خواهم`` -> ``میخواهم``).
   Applied by one regex scan plus ``str.replace`` per distinct character present: calling
   ``normalize()`` and then a second ``str.translate`` cost 4-6x more (per-character dict
   lookups, ~0.3 ms per 2.8 KB article each) and alone would keep indexing under 2,000
   articles/s.  ``fold_for_search(normalize(t, lang)) == fold_for_search(t)`` is tested, so ``text`` and ``text_norm``
   index alike.
2. ``_affix_join``: the space variant of the Persian clitics that are never words on their own is
   joined too (``می خواهم`` -> ``میخواهم``, ``کتاب ها`` -> ``کتابها``).
3. Documents only (``expand=True``): the parts of every joined form are indexed as well, so the
   bare stem still finds them (``خواهم`` finds ``می‌خواهم`` and ``می خواهم``).

Queries additionally get *segmentation variants* (:func:`query_variants`): every space or ZWNJ
inside the query may be a compound boundary, so ``هاشمی نسب`` is also searched as ``هاشمینسب``
and a ZWNJ written in the query is also tried as a space (for documents that used a space).
The one pairing no rule can recover without a dictionary is a document that wrote an arbitrary
compound with a space and a query that wrote it with no separator at all.
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

from mcecrawl.folding import (
    ALEF_VARIANTS,
    DIGITS_TO_LATIN,
    EZAFE_HEH,
    HARAKAT,
    HONORIFICS,
    INVISIBLE,
    PERSIAN_LETTERS,
    TATWEEL,
    TEH_MARBUTA,
    ZWJ,
    ZWNJ,
    presentation_forms,
)

__all__ = ["fold_for_search", "fold_query", "query_variants", "title_key", "WORD_RE",
           "LETTER_FOLDS", "MARKS", "PREFIX_CLITICS", "SUFFIX_CLITICS", "ANALYZER_VERSION"]

# Bump when the folding changes: an index built with another version must be rebuilt.
ANALYZER_VERSION = 1

# Letter variants folded to one form in every language.  Source: Lucene ArabicNormalizer
# (alef with hamza/madda/wasla -> alef, alef maqsura -> yeh, teh marbuta -> heh) and
# PersianNormalizer (heh+hamza, Arabic yeh/kaf), but folding towards the Persian/Urdu letters
# (keheh U+06A9, farsi yeh U+06CC) because 3 of our 4 languages write those.  Urdu/Pashto letters
# (ے ہ ھ ٹ ...) are deliberately absent: they are distinct letters there.
LETTER_FOLDS = {**PERSIAN_LETTERS, **ALEF_VARIANTS, **TEH_MARBUTA, **EZAFE_HEH}
# Marks removed: the normaliser's harakat and tatweel plus U+0610-061A (Arabic honorific signs).
MARKS = HONORIFICS + HARAKAT + TATWEEL
_INVISIBLE = INVISIBLE + ZWJ  # the normaliser's bidi/format controls, and ZWJ

FOLD_MAP = {**presentation_forms(LETTER_FOLDS, drop=MARKS), **LETTER_FOLDS, **DIGITS_TO_LATIN,
            **{c: "" for c in MARKS + _INVISIBLE + ZWNJ}}
_FOLD_CHARS = re.compile("[" + "".join(re.escape(c) for c in FOLD_MAP) + "]")

# Persian clitics that are not words on their own, so joining their space variant is safe for
# recall and costs almost no precision (hazm's Normalizer joins the same affixes with ZWNJ).
# Deliberately NOT here: است, ای, ام, اند, بی — they are also words (Arabic أي/أم fold to ای/ام).
PREFIX_CLITICS = ("می", "نمی")
SUFFIX_CLITICS = ("ها", "های", "هایی", "هایم", "هایت", "هایش", "هایمان", "هایتان", "هایشان",
                  "تر", "ترین")
# Literal-first patterns (" ها", " تر", "می "), so the regex engine jumps to candidates instead
# of testing every space (4x faster); clitic joins apply to single-space separation only.
_SUFFIXES = {head: [c for c in sorted(SUFFIX_CLITICS, key=len, reverse=True) if c.startswith(head)]
             for head in {c[:2] for c in SUFFIX_CLITICS}}
_SUFFIX_RES = [re.compile(rf" (?<=[^\W\d_] )(?=(?:{'|'.join(tails)})(?![^\W_]))") for tails in _SUFFIXES.values()]
_PREFIX = re.compile(r"می (?=[^\W\d_])")
assert {c[-2:] for c in PREFIX_CLITICS} == {"می"}
# A token as FTS5's unicode61 tokenizer sees it after folding: letters and digits.
TOKEN_RE = re.compile(r"[^\W_]+")
# A word in *faithful* text (for snippets): letters/digits plus the marks and joiners inside words.
WORD_RE = re.compile(rf"(?:[^\W_]|[{MARKS}{ZWNJ}\u200d])+")

# Longest query (in pieces) whose segmentations are all enumerated: 2**(n-1) variants.
MAX_SEGMENTED_PIECES = 6  # 32 OR-ed variants; longer queries are searched as typed


_WORD_AFTER = re.compile(r"[^\W_]+")
_WORD_BEFORE = re.compile(r"[^\W_]+$")
_FOLD_CHARS_KEEP_ZWNJ = re.compile("[" + "".join(re.escape(c) for c in FOLD_MAP if c != ZWNJ) + "]")


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _affix_join(text: str, stems: list | None = None) -> str:
    """Join clitics separated by one space; with ``stems``, collect the bare stems too."""
    if " " not in text:
        return text

    def prefix(m: re.Match) -> str:
        start, string = m.start(), m.string
        if start and _is_word_char(string[start - 1]):
            # "نمی " at a word start is a clitic too; "سلامی " is not.
            if not (string[start - 1] == "ن" and (start < 2 or not _is_word_char(string[start - 2]))):
                return m.group()
        if stems is not None:
            after = _WORD_AFTER.match(string, m.end())
            stems.append(after.group() if after else "")
        return "می"

    def suffix(m: re.Match) -> str:
        if stems is not None:
            before = _WORD_BEFORE.search(m.string, max(0, m.start() - 64), m.start())
            stems.append(before.group() if before else "")
        return ""

    text = _PREFIX.sub(prefix, text)
    for pattern in _SUFFIX_RES:
        text = pattern.sub(suffix, text)
    return text


def _fold_chars(text: str, pattern: re.Pattern = _FOLD_CHARS) -> str:
    for ch in set(pattern.findall(text)):
        text = text.replace(ch, FOLD_MAP[ch])
    return text


def fold_for_search(text: str, lang: str | None = None, *, expand: bool = False) -> str:
    """Fold a document field (title, text) or a query to its indexed form.

    ``lang`` is accepted for symmetry with ``normalize(text, lang)`` and deliberately unused:
    documents and queries must fold identically whatever the language.

    ``expand=True`` (documents only) also indexes the parts of every joined form: a ZWNJ
    compound ``a‌b`` adds ``a b`` and a clitic join ``می خواهم`` -> ``میخواهم`` adds
    ``خواهم``, so a query for the bare stem (``خواهم``, ``کند``) still finds the document.
    Queries are never expanded (an extra part would be one more required term).
    """
    if not text:
        return ""
    text = unicodedata.normalize("NFC", text)
    if not expand:
        return _affix_join(_fold_chars(text).lower())
    # Token order is irrelevant to the index (AND/OR of single terms, BM25 is a bag of words),
    # so the parts are appended as a trailing line instead of being spliced in place.
    text = _fold_chars(text, _FOLD_CHARS_KEEP_ZWNJ).lower()
    parts: list[str] = []
    if ZWNJ in text:
        parts = [w for w in text.split() if ZWNJ in w]
        text = text.replace(ZWNJ, "")
    text = _affix_join(text, parts)
    if parts:
        text += "\n" + " ".join(parts).replace(ZWNJ, " ")
    return text


def fold_query(text: str) -> str:
    """Fold a query exactly like a document of unknown language."""
    return fold_for_search(text, None)


def title_key(title: str, lang: str | None = None) -> str:
    """A title with every separator removed: equal keys mean 'exact title match' across variants."""
    return "".join(TOKEN_RE.findall(fold_for_search(title or "", lang)))


@lru_cache(maxsize=1024)
def query_variants(query: str) -> tuple[tuple[str, ...], ...]:
    """All token sequences a query may stand for, the as-typed one first.

    Pieces are separated by spaces/punctuation or by ZWNJ in the query; each boundary between two
    pieces is tried both as a separator and joined (up to :data:`MAX_SEGMENTED_PIECES` pieces).

    >>> query_variants("هاشمی نسب")
    (('هاشمی', 'نسب'), ('هاشمینسب',))
    """
    # Pieces: fold with ZWNJ turned into a space first, so ZWNJ positions become boundaries.
    pieces = TOKEN_RE.findall(fold_query(query.replace(ZWNJ, " ")))
    typed = tuple(TOKEN_RE.findall(fold_query(query)))
    if not pieces:
        return ()
    variants: list[tuple[str, ...]] = [typed] if typed else []
    if len(pieces) <= MAX_SEGMENTED_PIECES:
        for joins in itertools.product((False, True), repeat=len(pieces) - 1):
            tokens = [pieces[0]]
            for piece, join in zip(pieces[1:], joins):
                if join and not (piece.isdigit() or tokens[-1].isdigit()):
                    tokens[-1] += piece
                else:
                    tokens.append(piece)
            variant = TOKEN_RE.findall(_affix_join(" ".join(tokens)))
            if variant and tuple(variant) not in variants:
                variants.append(tuple(variant))
    return tuple(variants)
