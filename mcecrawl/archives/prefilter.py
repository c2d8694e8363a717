"""Script prefilter on raw bytes: does a page hold enough letters of the wanted script to be worth
decoding, parsing and language identification?  Most of a Common Crawl WARC is not Arabic script;
this test costs a few byte scans per page and drops those pages before any parse.

The byte classes are the R2L paper's (Mohammadzadeh et al. 2011, §3: in UTF-8 every Arabic-script
character is a two-byte sequence whose lead byte is 0xD8-0xDB (U+0600-06FF) or 0xDD (Arabic
Supplement); Hebrew's lead bytes are 0xD6-0xD7), counted with ``bytes.translate`` in C.  A UTF-8
test alone would drop exactly the pages our decoding exists for, so two more readings keep them:

* legacy code pages: a page that is not UTF-8 is scored on the letters of the script in its
  legacy code pages (windows-1256 and ISO-8859-6 for Arabic, windows-1255 and ISO-8859-8 for
  Hebrew), counting only letters next to another such letter: words of the script are runs of
  them, while the accented letters of a windows-1252 page sit alone inside ASCII words;
* UTF-16/32 (a byte-order mark or NUL bytes between ASCII ones): decoded and counted as text.

A page passes with at least :data:`MIN_SCRIPT_LETTERS` letters of a wanted script.  A legacy page
must also be written in the script's code pages: at most :data:`MAX_FOREIGN_SHARE` of its
non-ASCII bytes may be other characters there (GBK and windows-1252 pages are ~0.3).
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["LANG_SCRIPTS", "MIN_SCRIPT_LETTERS", "Prefilter", "script_letters", "scripts_for"]

# Letters of the wanted script a page needs.  An article of ~20 words holds ~100 letters; the
# dev data's real R2L pages hold 2,396-19,164 (UTF-8 lead bytes), its 380 non-target pages at
# most 148 (Wikipedia's language menu), the 600-byte legacy samples of `encodings` 313-401
# (docs/history.md, "Script prefilter", with the held-out check).
MIN_SCRIPT_LETTERS = 100
# Share of a legacy page's non-ASCII bytes that may be no character of the script in its code
# pages: windows-1256 / ISO-8859-6 copies of the r2l pages and the `encodings` samples have at
# most 0.012, GBK pages (chinese_wce) at least 0.28 and windows-1252 pages (trafilatura_eval)
# at least 0.32 (docs/history.md, "Script prefilter").
MAX_FOREIGN_SHARE = 0.1
# Script of each language the corpus tools know; languages of other scripts get no prefilter.
LANG_SCRIPTS = {"fa": "arabic", "ar": "arabic", "ur": "arabic", "ps": "arabic", "ku": "arabic", "sd": "arabic",
                "ug": "arabic", "he": "hebrew", "yi": "hebrew"}
# UTF-8 lead bytes of each script (R2L paper, byte classes), as (first, count) ranges.
_UTF8_LEAD_RANGES = {"arabic": ((0xD8, 4), (0xDD, 1)), "hebrew": ((0xD6, 2),)}
# Legacy code pages of each script (the candidates of mcecrawl.encoding's r2l step).
_LEGACY = {"arabic": ("cp1256", "iso8859-6"), "hebrew": ("cp1255", "iso8859-8")}
_UNICODE_NAME = {"arabic": "ARABIC", "hebrew": "HEBREW"}
# Bytes of a body's start looked at for UTF-16/32, and the share of its odd (or even) bytes that
# must be UTF-16 high bytes of ASCII/Hebrew/Arabic (0x00, 0x05, 0x06): ~1.0 in UTF-16 text, ~0.0
# in any 8-bit encoding (NUL never occurs in text; 0x05/0x06 are controls).
_WIDE_SAMPLE = 512
WIDE_HIGH_SHARE = 0.9


@lru_cache(maxsize=None)
def _legacy_tables(script: str) -> tuple[np.ndarray, np.ndarray]:
    """256 booleans each: the byte is a letter of ``script`` in one of its legacy code pages; the
    byte is a character of the script there (letters, marks, tatweel) or a joiner/direction mark."""
    letters = np.zeros(256, dtype=bool)
    native = np.zeros(256, dtype=bool)
    for codec in _LEGACY[script]:
        for b in range(0x80, 256):
            try:
                ch = bytes([b]).decode(codec)
            except UnicodeDecodeError:
                continue
            ours = _UNICODE_NAME[script] in unicodedata.name(ch, "")
            letters[b] |= ours and unicodedata.category(ch).startswith("L")
            native[b] |= ours or ch in "\u200c\u200d\u200e\u200f"
    return letters, native


def _wide_high(half: bytes) -> bool:
    """The high bytes of UTF-16 code units of ASCII, Hebrew or Arabic text: 0x00, 0x05, 0x06."""
    return len(half) - len(half.translate(None, b"\x00\x05\x06")) > WIDE_HIGH_SHARE * len(half)


def _is_wide(head: bytes) -> bool:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    return _wide_high(head[1::2]) or _wide_high(head[0::2])


def _wide_codec(head: bytes) -> str:
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return "utf-16-le" if _wide_high(head[1::2]) else "utf-16-be"


def _utf8_letters(arr: np.ndarray, script: str) -> int:
    return sum(int(np.count_nonzero((arr - np.uint8(first)) < n)) for first, n in _UTF8_LEAD_RANGES[script])


def script_letters(body: bytes, script: str) -> int:
    """Letters of ``script`` in ``body`` by the cheapest reading that finds them: UTF-8 lead bytes,
    else UTF-16/32 text, else letter pairs in the script's legacy code pages.

    A few vectorised comparisons decide which reading applies: in UTF-8 every lead byte (0xC0 and
    above) has a continuation byte (0x80-0xBF) after it, while the letters of a windows-1256 or
    ISO-8859-6 page are mostly lead-range bytes with no continuation bytes around them."""
    head = body[:_WIDE_SAMPLE]
    if b"\x00" in head and _is_wide(head):
        text = body.decode(_wide_codec(head), errors="replace")
        return _utf8_letters(np.frombuffer(text.encode("utf-8", errors="replace"), dtype=np.uint8), script)
    if body.isascii():
        return 0
    arr = np.frombuffer(body, dtype=np.uint8)
    leads = int(np.count_nonzero(arr >= 0xC0))
    if leads < MIN_SCRIPT_LETTERS:  # too few for either reading: the UTF-8 count, exact and below
        return _utf8_letters(arr, script)
    continuations = int(np.count_nonzero(arr >= 0x80)) - leads
    if continuations >= leads:  # UTF-8
        return _utf8_letters(arr, script)
    letters_table, native_table = _legacy_tables(script)
    high = arr[arr >= 0x80]
    if np.count_nonzero(~native_table[high]) > MAX_FOREIGN_SHARE * len(high):
        return 0  # another script's legacy encoding (GBK, windows-1251, ...)
    letters = letters_table[arr]
    return int(np.count_nonzero(letters[1:] & letters[:-1]))




def scripts_for(langs: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Scripts to test for ``langs`` (None: keep every page, when a language has no known script)."""
    if not langs:
        return None
    scripts = []
    for lang in langs:
        script = LANG_SCRIPTS.get(lang)
        if script is None:
            return None
        if script not in scripts:
            scripts.append(script)
    return tuple(scripts)


@dataclass(frozen=True)
class Prefilter:
    """``passes(body)``: the page holds :data:`MIN_SCRIPT_LETTERS` letters of one of ``scripts``
    (no scripts: every page passes)."""

    scripts: tuple[str, ...] | None
    min_letters: int = MIN_SCRIPT_LETTERS

    def passes(self, body: bytes) -> bool:
        if not self.scripts:
            return True
        return any(script_letters(body, s) >= self.min_letters for s in self.scripts)
