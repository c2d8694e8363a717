"""The project's one decoding function: bytes in any encoding -> text, with provenance.

Used by the downloader middleware, the CLI and the evaluation loader alike, so that
offline results equal crawled results.  :func:`decode` never trusts a label on its own
(docs/decisions.md c.1: Scrapy garbles 3 of 5 lying-label cases and general
detectors answer Latin code pages for mostly-markup windows-1256 pages).  It decides in
this order and records the deciding step in :attr:`Decoded.source`:

1. ``bom``      -- a byte-order mark;
   ``nul_pattern`` -- UTF-16 or UTF-32 without a BOM, told by where its NUL bytes stand (the
   high bytes of ASCII characters); ``header``/``meta`` instead when that label said so;
2. ``utf-8``    -- strict UTF-8 validity of the whole body, whatever the labels say;
3. ``header`` / ``meta`` -- a declared label, mapped to its superset, only if the body
   decodes strictly with it and the text is plausible for the code page's script;
4. ``r2l``      -- windows-1256, ISO-8859-6, windows-1255, ISO-8859-8 scored by the
   plausibility of their letters, the narrower (ISO) code page winning ties;
   then ``header`` / ``meta`` again, tolerantly: a *multi-byte* label whose decoding needs
   at most :data:`MAX_REPLACEMENT_SHARE` replacements (a GB2312 page with a few truncated
   characters), the replacements counted;
5. ``detected`` -- a detector's answer the caller brings (Common Crawl's ``charset-detected``
   metadata line, its index's ``content_charset``), validated like a label (strictly);
   then ``chardet`` -- on a bounded sample of the non-ASCII words, its answer validated
   (strictly; multi-byte answers of its ranking also tolerantly, as in step 4);
6. ``fallback`` -- windows-1252 with replacement characters, counted.

Speed: single-byte code pages are never scored character by character in Python.  Each
candidate gets a 256-entry *byte class table* (letter of the code page's script / mark /
foreign letter / control / undefined / other), and only the non-ASCII bytes of a body (2-5 %
of a real page) are scored, with ``bytes.translate``/``count`` and numpy for their
neighbourhoods.  A UTF-8 page costs one validity pass and is kept as its bytes (:attr:`Decoded.utf8`).
"""
from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import InitVar, dataclass
from functools import cached_property, lru_cache
from typing import Any, Iterator, NamedTuple

import chardet
import numpy as np
from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, resolve_encoding

from mcecrawl.algorithms.profile_impl import utf8_error_at

__all__ = ["Decoded", "decode", "resolve_label", "wide_codec", "R2L_CANDIDATES"]

# Bytes fed to chardet at most: it runs at about 1 MB/s on markup-heavy pages.
CHARDET_SAMPLE_BYTES = 64 * 1024
# Step 4 candidates (docs/decisions.md c.1): the legacy code pages of Arabic-script and
# Hebrew pages.  Order only matters for exact score ties between codecs of equal width.
R2L_CANDIDATES = ("cp1256", "iso8859-6", "cp1255", "iso8859-8")
# Minimum script score (see _script_score).  Measured on the round-trip corpus of
# tests/encoding_cases.py: every right reading scores 1.0; ISO-8859-6 Arabic read as
# windows-1256 scores 0.63-0.69, windows-1255 Hebrew read as windows-1256 0.21-0.34,
# windows-1251 Russian and ISO-8859-7 Greek read as windows-1256 0.09-0.14.
MIN_SCRIPT_SCORE = 0.8
# Share of letter-run edges touching an ASCII letter.  Non-ASCII letters of Latin-script
# languages sit inside ASCII words ("für", "élève": ~0.8-1.0); Arabic, Hebrew, Cyrillic and
# Greek words are whole runs of non-ASCII letters (~0.0-0.05), and so is their mojibake
# read as Latin-1, which is what makes a lying ISO-8859-1 label detectable.
LATIN_MIN_MIX = 0.5
NON_LATIN_MAX_MIX = 0.5
# Decoded text of a multi-byte label (gb18030, shift_jis, utf-16, ...) may hold at most this
# share of C0/C1 controls and private-use characters; right decodings hold ~0.
MAX_BAD_CHAR_SHARE = 0.01
# UTF-16/32 decodings of real documents contain ASCII (markup, spaces, digits); ASCII bytes
# misread as UTF-16 become CJK-range characters and never ASCII.
WIDE_MIN_ASCII_SHARE = 0.01
# UTF-16/32 without a BOM: every ASCII character puts a NUL at its unit's high byte(s), and
# about none at the low byte (only U+xx00 characters do: U+4E00, a U+DC00 trail surrogate).  The
# high-byte position must hold NULs for WIDE_MIN_ASCII_SHARE of the units and this many times as
# many as the low-byte position.  Text in any ASCII-compatible encoding has no NUL at all (a stray
# one is far below the share); chardet's UTF-16 BE/LE files without a BOM: ratio >= 100.
WIDE_NUL_RATIO = 4.0
# Bytes searched for a <meta> charset when w3lib's 4 KB window has none: browsers honour a
# later declaration by re-parsing (HTML Standard, "change the encoding"), and 4 of the 18
# real pages of the r2l dev set (docs/evaluation.md) declare their charset after the first 4 KB.
META_SCAN_BYTES = 64 * 1024
# Share of non-ASCII characters that must decode as valid UTF-8 for a body with broken
# sequences to still count as UTF-8 (with replacements).  Legacy bodies of the round-trip
# corpus reach at most 0.03 (an Urdu windows-1256 page); a UTF-8 page with a corrupted byte
# or a cut last character is above 0.999.
UTF8_MIN_VALID_SHARE = 0.9
# Share of the non-ASCII characters of a *multi-byte* decoding (gb18030, big5, shift_jis,
# euc-kr, ...) that may be replacements for a declared label or a chardet answer to win over
# the windows-1252 fallback anyway.  GB2312 pages of the chinese_wce dev set (docs/evaluation.md) with a few
# truncated characters need 0.07-0.09 %; wrong multi-byte readings of the round-trip corpus
# (tests/encoding_cases.py: R2L, Cyrillic, Greek, Latin pages read as gb18030, big5, cp932,
# euc-jp, cp949) need at least 4.2 % (cp932 of ISO-8859-2 Polish; 5.4 % for windows-1256
# Arabic, >= 14 % for the other codecs).  0.5 % sits 5x above the one and 8x below the other.
# Single-byte code pages get no tolerance: an undefined byte there is evidence of a wrong
# code page (ISO-8859-6 read on windows-1256 bytes), not of a damaged page.
MAX_REPLACEMENT_SHARE = 0.005
# Chardet's ranked answers tried when its top answer fails validation (step 5).
CHARDET_RANKED_ANSWERS = 3
# Decoder differences of Python codecs from the WHATWG Encoding Standard that real pages hit:
# its gb18030 decodes 0xA3 0xA0 to U+3000 (ideographic space) "to be compatible with deployed
# content" where Python yields the private-use U+E5E5 (GBK pages indent paragraphs with it:
# 126 of them on one chinese_wce page, which failed MAX_BAD_CHAR_SHARE).
WHATWG_REPLACE = {"gb18030": (("\ue5e5", "\u3000"),)}
# Labels browsers know (WHATWG Encoding Standard) that Python's codec registry does not.
EXTRA_LABELS = {
    "iso-8859-8-i": "iso8859-8", "iso_8859-8-i": "iso8859-8", "csiso88598i": "iso8859-8",
    "logical": "iso8859-8", "visual": "iso8859-8",
    "x-mac-arabic": "mac-arabic", "x-mac-hebrew": "cp1255",
    "windows-874": "cp874", "x-user-defined": "cp1252",
}
# Characters a right decoding practically never yields (controls except \t\n\r, private use).
_BAD_CHARS_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd]")
_DECLARATION_RE = re.compile(rb"<meta\b[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)"
                             rb"|<\?xml\b[^>]*?\bencoding\s*=\s*[\"']([A-Za-z0-9._:-]+)", re.I)
_HEADER_LABEL_RE = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9._:-]+)", re.I)
# A word holding non-ASCII bytes, with a bounded ASCII prefix: an unbounded one backtracks
# quadratically on long tokens such as base64 data URIs (6 s on a 40 KB one).
# A non-ASCII byte keeps the ASCII byte after it: GBK, Big5 and Shift_JIS trail bytes may be
# 0x40-0x7E (and GB18030 four-byte sequences hold digits); cutting them off left stray lead
# bytes that made chardet answer nothing for a clean GBK page.
_NON_ASCII_WORD_RE = re.compile(rb"[A-Za-z]{0,12}[\x80-\xff][0-9@-~]?(?:[\x80-\xff][0-9@-~]?|[A-Za-z])*")
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass(frozen=True)
class Decoded:
    """Decoded text and how the encoding was decided.

    A body that is UTF-8 as it is (step 2) is kept as its bytes: a reader of UTF-8 bytes takes
    :attr:`utf8`, and :attr:`text` is decoded from them when first read (not at all by
    ``mcecrawl.extract``, whose default reads the bytes)."""

    page: str | bytes  # the text, or the body itself when it is valid UTF-8 (the same characters)
    encoding: str  # Python codec name actually used, e.g. "utf-8", "cp1256"
    # deciding step: "bom", "nul_pattern", "utf-8", "header", "meta", "r2l", "detected", "chardet", "fallback",
    # "forced", "empty"
    source: str
    declared_header: str | None = None  # charset label of the HTTP Content-Type, as given
    declared_meta: str | None = None  # <meta>/XML declaration label, as given
    replacements: int = 0  # U+FFFD characters inserted by decoding
    # The text of a UTF-8 body when decode() built it already (``read_text``): kept, not decoded again.
    built_text: InitVar[str | None] = None

    def __post_init__(self, built_text: str | None) -> None:
        if built_text is not None:
            object.__setattr__(self, "text", built_text)  # the value of the cached property below

    @cached_property
    def text(self) -> str:
        """The decoded text."""
        return self.page.decode("utf-8") if isinstance(self.page, bytes) else self.page

    @property
    def utf8(self) -> bytes | None:
        """The body, when it is the text's UTF-8 as it is (valid UTF-8, nothing replaced, no BOM); else None."""
        return self.page if isinstance(self.page, bytes) else None

    def provenance(self) -> dict[str, Any]:
        """How the page was decoded, as the item fields (and request meta keys) :data:`PROVENANCE_KEYS`."""
        return dict(zip(PROVENANCE_KEYS, (self.encoding, self.source, self.declared_header, self.declared_meta,
                                          self.replacements)))


# The item fields that record how a page was decoded (the encoding middleware sets them as request meta).
PROVENANCE_KEYS = ("encoding_original", "encoding_source", "encoding_declared_header", "encoding_declared_meta",
                   "encoding_replacements")


# --- labels -------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def resolve_label(label: str | None) -> str | None:
    """Map a charset label to the Python codec a browser would use, or ``None``.

    w3lib's WHATWG-style translation maps labels to their supersets (iso-8859-1 and ascii ->
    windows-1252, gb2312 -> gb18030, ...); :data:`EXTRA_LABELS` adds labels it lacks.
    """
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    if label in EXTRA_LABELS:
        return codecs.lookup(EXTRA_LABELS[label]).name
    return resolve_encoding(label)


def _header_label(content_type: str | None) -> str | None:
    """The charset label of a ``Content-Type`` value, as sent (read with w3lib when it can)."""
    if not content_type:
        return None
    m = _HEADER_LABEL_RE.search(content_type)
    if m is None:
        return http_content_type_encoding(content_type)
    return m.group(1)


def _meta_label(body: bytes) -> str | None:
    """The ``<meta>``/XML declaration label, as written.

    w3lib finds the declaration (its 4 KB scan, which skips comments and stops at
    ``<body>``); the lenient scan of :data:`META_SCAN_BYTES` recovers the label as written,
    finds later declarations and keeps labels w3lib cannot resolve (``iso-8859-8-i``).
    """
    found = html_body_declared_encoding(body)
    for m in _DECLARATION_RE.finditer(body, 0, META_SCAN_BYTES):
        label = (m.group(1) or m.group(2)).decode("ascii")
        if found is None or resolve_label(label) == found:
            return label
    return found


# --- plausibility of single-byte code pages -----------------------------------------------------

# Byte classes.  ASCII: letter "a", other ".".  Non-ASCII byte decoded by the code page:
# letter of its script "S", combining mark of its script "M", letter of another script "F",
# control "C", undefined "U", anything else (punctuation, symbols, NBSP, ZWNJ) ".".
@dataclass(frozen=True, eq=False)
class _Table:
    codec: str
    script: str  # dominant script of the code page's letters, e.g. "ARABIC", "LATIN"
    classes: bytes  # 256-entry translate table to the classes above
    run_letter: np.ndarray  # 256 booleans: letters whose runs the mix is measured on (see mix)
    foreign: np.ndarray  # 256 booleans: class F
    width: int  # number of defined non-ASCII bytes: narrower code pages win ties


_ASCII_BYTES = bytes(range(128))
_ASCII_LETTER = np.zeros(256, dtype=bool)
_ASCII_LETTER[0x41:0x5B] = _ASCII_LETTER[0x61:0x7B] = True


class _Neighbours(NamedTuple):
    """Of each non-ASCII byte of a body, in order: whether the next non-ASCII byte follows it at
    once (one run of bytes), and whether an ASCII letter stands before it / after it / either."""

    adjacent: np.ndarray
    left_ascii_letter: np.ndarray
    right_ascii_letter: np.ndarray
    touches_ascii_letter: np.ndarray


class _NonAscii:
    """The non-ASCII bytes of a body and their neighbourhoods, computed once per body.

    Everything per code page is then done on these (a few % of a markup-heavy page), with
    ``bytes.translate``/``count`` and numpy, never a Python loop per byte.
    """

    def __init__(self, body: bytes):
        self._body = body
        # The bytes alone are all the UTF-8 steps need: one C pass, no index array.
        self.bytes = body.translate(None, _ASCII_BYTES)

    @cached_property
    def values(self) -> np.ndarray:
        return np.frombuffer(self.bytes, dtype=np.uint8)

    @cached_property
    def neighbours(self) -> _Neighbours:
        """Built on first use only: the positions of a mostly non-ASCII page are 4-8 bytes per
        byte (the code-page steps need them; a broken-UTF-8 page is settled before)."""
        arr = np.frombuffer(self._body, dtype=np.uint8)
        pos = np.flatnonzero(arr >= 0x80)
        if len(arr) < 2**31:
            pos = pos.astype(np.int32)
        # Clipping at the ends reads the byte itself, which is non-ASCII, so no special case.
        left = _ASCII_LETTER[arr.take(pos - 1, mode="clip")]
        right = _ASCII_LETTER[arr.take(pos + 1, mode="clip")]
        return _Neighbours(np.diff(pos) == 1, left, right, left | right)

    def stray_foreign(self, table: _Table) -> int:
        """Foreign letters (class F) not touching an ASCII letter.  The French letters of
        windows-1256 inside French words of a bilingual Maghreb/Lebanese page touch ASCII
        letters; the same bytes as mojibake of ISO-8859-6 sit inside Arabic runs."""
        return int(np.count_nonzero(table.foreign[self.values] & ~self.neighbours.touches_ascii_letter))

    def mix(self, table: _Table) -> float:
        """Share of the edges of non-ASCII letter runs (as ``table`` reads the bytes) that
        touch an ASCII letter.  For a non-Latin code page only its own script's letters make
        runs: French "été" in a windows-1256 page is no evidence against Arabic, but an
        Arabic letter inside an ASCII word (German "ä" read as windows-1256 "ن") is."""
        letter = table.run_letter[self.values]
        nb = self.neighbours
        joined = nb.adjacent & letter[:-1] & letter[1:]  # letter i continues into letter i+1
        starts = letter.copy()
        starts[1:] &= ~joined
        ends = letter.copy()
        ends[:-1] &= ~joined
        runs = np.count_nonzero(starts)
        if not runs:
            return 0.0
        edges = np.count_nonzero(starts & nb.left_ascii_letter) + np.count_nonzero(ends & nb.right_ascii_letter)
        return float(edges) / (2 * runs)


def _script(ch: str) -> str:
    return unicodedata.name(ch, "?").split(" ")[0]


@lru_cache(maxsize=64)
def _table(codec: str) -> _Table | None:
    """Byte class tables of an ASCII-compatible single-byte codec, else ``None``."""
    try:
        if bytes(range(128)).decode(codec) != bytes(range(128)).decode("ascii"):
            return None
        chars = [bytes([b]).decode(codec, errors="replace") for b in range(128, 256)]
        # A multi-byte codec pairs these bytes up when they are decoded together.
        whole = bytes(range(128, 256)).decode(codec, errors="replace")
    except (LookupError, UnicodeDecodeError):
        return None
    if whole != "".join(chars) or len(whole) != 128 or whole.count("\ufffd") == 128:
        return None
    scripts = [_script(c) for c in chars if unicodedata.category(c).startswith("L")]
    script = max(set(scripts), key=scripts.count) if scripts else "LATIN"
    classes = bytearray(b"." * 256)
    classes[0x41:0x5B] = classes[0x61:0x7B] = b"a" * 26
    run_letter = np.zeros(256, dtype=bool)
    foreign = np.zeros(256, dtype=bool)
    for b, c in enumerate(chars, start=128):
        cat = unicodedata.category(c)
        if c == "\ufffd":
            cls = b"U"
        elif cat == "Cc":
            cls = b"C"
        elif cat[0] in "LM":
            cls = (b"M" if cat[0] == "M" else b"S") if _script(c) == script else b"F"
            foreign[b] = cls == b"F"
            run_letter[b] = cls != b"F" or script == "LATIN"
        else:
            cls = b"."
        classes[b] = cls[0]
    return _Table(codec, script, bytes(classes), run_letter, foreign, 128 - classes[128:].count(b"U"))


def _script_score(counts: dict[str, int]) -> float:
    """Letters of the code page's script against stray foreign letters, in [-1, 1].

    Marks count as good only up to the number of letters they can sit on (Arabic harakat,
    Hebrew niqqud): Arabic windows-1256 read as windows-1255 is mostly Hebrew points.
    """
    s, m, f = counts["S"], counts["M"], counts["F"]
    good = s + min(m, s)
    bad = f + max(0, m - s)
    return (good - bad) / (good + bad) if good + bad else 1.0


class _Reading(NamedTuple):
    valid: bool  # strictly decodable, without C1 controls
    score: float  # see _script_score
    mix: float  # see _NonAscii.mix
    home: int  # letters and marks of the code page's script
    foreign: int  # letters of other scripts (stray or not)


def _reading(na: _NonAscii, table: _Table) -> _Reading:
    """How a body reads in ``table.codec``; score and mix only for valid readings.

    Only the non-ASCII bytes are scored (docs/decisions.md c.1: the naive per-character scorer
    took 20-50 ms on a 340 KB page).
    """
    cls = na.bytes.translate(table.classes)
    # A C1 control is never text: bytes 0x80-0x9F in a page labelled ISO-8859-x are the
    # windows-125x sibling's punctuation (the reason WHATWG maps latin1 to windows-1252).
    if b"U" in cls or b"C" in cls:
        return _Reading(False, -1.0, 0.0, 0, 0)
    counts = {k: cls.count(k.encode()) for k in "SMF"}
    foreign = counts["F"]
    if foreign:
        counts["F"] = na.stray_foreign(table)
    return _Reading(True, _script_score(counts), na.mix(table), counts["S"] + counts["M"], foreign)


def _plausible_single_byte(na: _NonAscii, table: _Table) -> tuple[bool, _Reading]:
    """Is the body strictly valid and plausible text in ``table.codec``?"""
    p = _reading(na, table)
    if not p.valid:
        return False, p
    if table.script == "LATIN":
        # Latin mojibake of a non-Latin page is all letters, so the script score cannot tell;
        # where the letters sit can.  A page without non-ASCII letters has no evidence against.
        ok = p.score >= MIN_SCRIPT_SCORE and (p.mix >= LATIN_MIN_MIX or p.home + p.foreign == 0)
    else:
        ok = p.score >= MIN_SCRIPT_SCORE and p.mix <= NON_LATIN_MAX_MIX
    return ok, p


def _plausible_text(text: str, codec: str) -> bool:
    """Plausibility of a multi-byte decoding: almost no controls or private-use characters."""
    if not text:
        return True
    if len(_BAD_CHARS_RE.findall(text)) > MAX_BAD_CHAR_SHARE * len(text):
        return False
    if codec.startswith(("utf-16", "utf-32")):
        return len(text.encode("ascii", errors="ignore")) >= WIDE_MIN_ASCII_SHARE * len(text)
    return True


def _try_codec(body: bytes, na: _NonAscii, codec: str) -> str | None:
    """The strict decoding of ``body`` with ``codec`` if it is plausible, else ``None``."""
    table = _table(codec)
    if table is not None:
        if not _plausible_single_byte(na, table)[0]:
            return None
        return body.decode(codec)
    try:
        text = _decode_with(body, codec)
    except (UnicodeDecodeError, LookupError):
        return None
    return text if _plausible_text(text, codec) else None


def _try_codec_tolerant(body: bytes, codec: str) -> tuple[str, int] | None:
    """The decoding of ``body`` with a *multi-byte* ``codec`` and its replacement count, if
    at most :data:`MAX_REPLACEMENT_SHARE` of its non-ASCII characters are replacements and
    the text is plausible; else ``None``.  Single-byte code pages are never tolerated (see
    :data:`MAX_REPLACEMENT_SHARE`), and UTF-8 has its own rule (step 2)."""
    if _table(codec) is not None or codec in ("utf-8", "utf-8-sig"):
        return None
    try:
        text, replacements = _decode_replacing(body, codec)
    except LookupError:
        return None
    non_ascii = len(text) - len(text.encode("ascii", errors="ignore"))
    if replacements > MAX_REPLACEMENT_SHARE * non_ascii or not _plausible_text(text, codec):
        return None
    return text, replacements


# --- the steps ----------------------------------------------------------------------------------

def _decode_with(body: bytes, codec: str, errors: str = "strict") -> str:
    """``body.decode(codec, errors)`` as a browser decodes it (:data:`WHATWG_REPLACE`)."""
    text = body.decode(codec, errors)
    for old, new in WHATWG_REPLACE.get(codec, ()):
        if old in text:
            text = text.replace(old, new)
    return text


@lru_cache(maxsize=64)
def _own_replacement_bytes(codec: str) -> bytes | None:
    """U+FFFD as ``codec`` encodes it, if it can (UTF-8, GB18030): a page's own replacement
    characters are not counted as inserted.  UTF-16/32 matches could straddle characters."""
    if codec.startswith(("utf-16", "utf-32")):
        return None
    try:
        return "\ufffd".encode(codec)
    except (UnicodeEncodeError, LookupError):
        return None


def _decode_replacing(body: bytes, codec: str) -> tuple[str, int]:
    """``body`` decoded with replacement, and the number of U+FFFD the decoding inserted
    (a page's own U+FFFD characters are not counted)."""
    text = _decode_with(body, codec, errors="replace")
    own_bytes = _own_replacement_bytes(codec)
    own = body.count(own_bytes) if own_bytes else 0
    return text, max(0, text.count("\ufffd") - own)


def _step_bom(body: bytes) -> tuple[str, str, int] | None:
    """Step 1: a byte-order mark decides (UTF-32 before UTF-16: FF FE 00 00 starts with FF FE)."""
    for bom, enc in _BOMS:
        if body.startswith(bom):
            text, replacements = _decode_replacing(body, enc)
            return text, enc, replacements
    return None


# (codec, unit width, byte position of the NUL every ASCII character has, of the one it never has)
_WIDE = (("utf-32-le", 4, 3, 0), ("utf-32-be", 4, 0, 3), ("utf-16-le", 2, 1, 0), ("utf-16-be", 2, 0, 1))


def _wide_candidates(body: bytes, whole: bool) -> Iterator[str]:
    """The UTF-16/32 codecs whose NUL pattern ``body`` shows (:data:`WIDE_NUL_RATIO`); ``whole``: the
    body must be a whole number of units (a sample's cut end need not)."""
    if 0 not in body or body.count(0) < WIDE_MIN_ASCII_SHARE * len(body) / 4:  # `in` stops at the first NUL
        return
    for codec, width, high, low in _WIDE:
        units = len(body) // width
        if (whole and len(body) % width) or not units:
            continue
        unit_body = body[:units * width]
        at_high = unit_body[high::width].count(0)
        if at_high >= WIDE_MIN_ASCII_SHARE * units and at_high >= WIDE_NUL_RATIO * unit_body[low::width].count(0):
            yield codec


def _step_nul_pattern(body: bytes) -> tuple[str, str] | None:
    """Step 1, continued: UTF-16 or UTF-32 without a BOM (LE or BE), by the NUL bytes its ASCII
    characters leave at one position of each unit (:data:`WIDE_NUL_RATIO`), validated by a strict,
    plausible decoding.  Before UTF-8: ASCII-only UTF-16 is valid UTF-8 with NULs.  One C pass
    (``count``) on a body without NUL, which every ASCII-compatible page is."""
    for codec in _wide_candidates(body, whole=True):
        try:
            text = body.decode(codec)
        except UnicodeDecodeError:
            continue
        if _plausible_text(text, codec):
            return text, codec
    return None


def decoded_prefix(sample: bytes, codec: str) -> str | None:
    """``sample`` (the start of a body) decoded strictly with ``codec`` up to its cut end, or None when
    it does not decode: incremental, so a character cut at the sample's end is not an error."""
    try:
        return codecs.getincrementaldecoder(codec)().decode(sample, final=False)
    except UnicodeDecodeError:
        return None


def wide_codec(sample: bytes) -> str | None:
    """The UTF-16/32 codec (``"utf-16-le"``, ...) whose NUL pattern the start of a body shows, its
    decoding strict and plausible up to the sample's cut end; else None.  For a binary sniffer that
    must not take BOM-less wide text (NUL bytes everywhere) for binary data."""
    for codec in _wide_candidates(sample, whole=False):
        text = decoded_prefix(sample, codec)
        if text is not None and _plausible_text(text, codec):
            return codec
    return None


def _step_utf8(body: bytes, *, build: bool) -> tuple[bool, str | None]:
    """Step 2: whether the whole body is strict UTF-8, and its text when ``build``.  Built, the codec
    checks the bytes in the same pass; else they are checked alone (a C pass where compiled: 6-18 GB/s
    on the dev sets' pages, 3-6x the codec)."""
    if not build:
        return utf8_error_at(body) < 0, None
    try:
        return True, body.decode("utf-8")
    except UnicodeDecodeError:
        return False, None


def _utf8_share(data: bytes, ascii_bytes: int) -> tuple[str, int, float]:
    """(text decoded with replacement, broken sequences, share of valid non-ASCII chars)."""
    text = data.decode("utf-8", errors="replace")
    marks = text.count("\ufffd")
    broken = marks - data.count(b"\xef\xbf\xbd")  # minus U+FFFD the page itself contains
    valid = len(text) - ascii_bytes - marks
    return text, broken, valid / (valid + broken) if valid + broken else 1.0


def _step_utf8_broken(body: bytes, na: _NonAscii) -> tuple[str, int] | None:
    """Step 2, continued: a body that is UTF-8 but for a few broken sequences (a corrupted
    byte, a cut last character) is UTF-8 too, its replacement characters counted.

    Read as windows-1256, one bad byte would otherwise turn a whole UTF-8 Arabic page into
    plausible, replacement-free mojibake.  Legacy bodies are far from the threshold
    (:data:`UTF8_MIN_VALID_SHARE`).
    """
    # Estimate on the non-ASCII bytes alone (a few % of a page): UTF-8 sequences contain
    # no ASCII byte, so this differs from the real decoding only at run ends.
    if _utf8_share(na.bytes, 0)[2] < UTF8_MIN_VALID_SHARE:
        return None
    text, broken, share = _utf8_share(body, len(body) - len(na.bytes))
    return (text, broken) if share >= UTF8_MIN_VALID_SHARE else None


def _step_r2l(body: bytes, na: _NonAscii) -> tuple[str, str] | None:
    """Step 4: the plausible R2L candidate with the best script score; on a tie the narrower
    code page (fewer defined bytes: ISO-8859-6 over windows-1256), since windows-1256 decodes
    any byte and "it decoded" is no evidence for it.  Without letters of the script (curly
    quotes, NBSP only) there is no evidence for any: left to chardet."""
    best = None
    for codec in R2L_CANDIDATES:
        table = _table(codec)
        assert table is not None  # every R2L candidate is an ASCII-compatible single-byte codec
        ok, p = _plausible_single_byte(na, table)
        # Positive evidence: the script's letters outnumber foreign ones (a French windows-1252
        # page reads as windows-1256 with French letters and the odd Arabic "É").
        if ok and p.home > p.foreign and (best is None or (p.score, -table.width) > (best[0], -best[1].width)):
            best = (p.score, table)
    return (body.decode(best[1].codec), best[1].codec) if best else None


def _step_tolerant_labels(body: bytes, labels: dict[str, str | None]) -> tuple[str, str, str, int] | None:
    """Step 4, continued: a declared multi-byte label whose decoding needs only a tiny share
    of replacements (:func:`_try_codec_tolerant`).  After the R2L candidates, so a lying
    label still loses to windows-1256 bytes; before chardet, so a true label is not second-
    guessed by a sample."""
    for step in ("header", "meta"):
        codec = resolve_label(labels[f"declared_{step}"])
        if codec and (found := _try_codec_tolerant(body, codec)) is not None:
            return found[0], codec, step, found[1]
    return None


def _step_chardet(body: bytes, na: _NonAscii) -> tuple[str, str, int] | None:
    """Step 5: chardet on the words holding non-ASCII bytes (a mostly-markup page's first
    64 KB may be pure ASCII), bounded to :data:`CHARDET_SAMPLE_BYTES`; answer validated.

    If the top answer fails, its ranking (``detect_all``) is tried tolerantly: one invalid
    sequence switches chardet's GB2312 prober off, so ``detect`` answers nothing, but the
    ranking still lists it (0.99 on the truncated GB2312 pages of chinese_wce).  Only
    multi-byte answers can win there (:func:`_try_codec_tolerant`).
    """
    sample = b" ".join(_NON_ASCII_WORD_RE.findall(body[: 16 * CHARDET_SAMPLE_BYTES]))[:CHARDET_SAMPLE_BYTES]
    guess = resolve_label(chardet.detect(sample).get("encoding"))
    if guess and (text := _try_codec(body, na, guess)) is not None:
        return text, guess, 0
    for result in chardet.detect_all(sample)[:CHARDET_RANKED_ANSWERS]:
        codec = resolve_label(result.get("encoding"))
        if codec and (found := _try_codec_tolerant(body, codec)) is not None:
            return found[0], codec, found[1]
    return None


def decode(body: bytes, content_type: str | None = None, *, force: str | None = None,
           detected: str | None = None, read_text: bool = False) -> Decoded:
    """Decode ``body`` to text without trusting a label on its own.

    Parameters
    ----------
    body : bytes
        The raw response body.
    content_type : str, optional
        The HTTP ``Content-Type`` header value; its charset is the header label.
    force : str, optional
        A charset label to use unconditionally (with replacement), for a site known to
        need it.  Unknown labels are ignored.
    detected : str, optional
        A charset another detector found for these bytes (Common Crawl's ``charset-detected``);
        weighed after the labels and the R2L code pages, before chardet, and only if the body
        decodes strictly and plausibly with it.
    read_text : bool
        The caller reads :attr:`Decoded.text` (the encoding middleware, the archive path): a UTF-8
        body's text is then built by the codec's one pass, which also checks it, instead of the
        check alone and a second pass when the text is read.  Either way the body is kept as
        :attr:`Decoded.utf8`.

    Returns
    -------
    Decoded
        The text, the codec used, the deciding step (see the module docstring), both
        declared labels and the number of replacement characters inserted.
    """
    body = bytes(body or b"")
    labels: dict[str, Any] = dict(declared_header=_header_label(content_type),
                                  declared_meta=_meta_label(body) if body else None)
    forced = resolve_label(force)
    if forced:
        text, replacements = _decode_replacing(body, forced)
        return Decoded(text, forced, "forced", replacements=replacements, **labels)
    if not body:
        return Decoded("", "utf-8", "empty", **labels)
    if (bom := _step_bom(body)) is not None:
        return Decoded(bom[0], bom[1], "bom", replacements=bom[2], **labels)
    if (wide := _step_nul_pattern(body)) is not None:
        said = [step for step in ("header", "meta") if resolve_label(labels[f"declared_{step}"]) == wide[1]]
        return Decoded(wide[0], wide[1], said[0] if said else "nul_pattern", **labels)
    valid, utf8_text = _step_utf8(body, build=read_text)
    if valid:
        return Decoded(body, "utf-8", "utf-8", **labels, built_text=utf8_text)
    na = _NonAscii(body)
    if (utf8 := _step_utf8_broken(body, na)) is not None:
        return Decoded(utf8[0], "utf-8", "utf-8", replacements=utf8[1], **labels)
    for step in ("header", "meta"):
        codec = resolve_label(labels[f"declared_{step}"])
        if codec and (declared_text := _try_codec(body, na, codec)) is not None:
            return Decoded(declared_text, codec, step, **labels)
    if (found := _step_r2l(body, na)) is not None:
        return Decoded(found[0], found[1], "r2l", **labels)
    if (tolerated := _step_tolerant_labels(body, labels)) is not None:
        return Decoded(tolerated[0], tolerated[1], tolerated[2], replacements=tolerated[3], **labels)
    detected_codec = resolve_label(detected)
    if detected_codec and (detected_text := _try_codec(body, na, detected_codec)) is not None:
        return Decoded(detected_text, detected_codec, "detected", **labels)
    if (guessed := _step_chardet(body, na)) is not None:
        return Decoded(guessed[0], guessed[1], "chardet", replacements=guessed[2], **labels)
    replacements = sum(na.bytes.count(bytes([b])) for b in (0x81, 0x8D, 0x8F, 0x90, 0x9D))
    return Decoded(body.decode("cp1252", errors="replace"), "cp1252", "fallback", replacements=replacements, **labels)


# --- declarations of a decoded page ---------------------------------------------------------

# Characters of the decoded text searched for stale charset declarations (up to </head>):
# as far as decode() itself looks for them (w3lib reads 4 KB, browsers honour later ones).
HEAD_SCAN_CHARS = META_SCAN_BYTES
_HEAD_END_RE = re.compile(r"</head\s*>", re.I)
# <meta charset=X> and <meta http-equiv=Content-Type content="...; charset=X">.
_META_CHARSET_RE = re.compile(r"(<meta\b[^>]*?\bcharset\s*=\s*[\"']?\s*)([A-Za-z0-9._:-]+)", re.I)
_XML_ENCODING_RE = re.compile(r"(<\?xml\b[^>]*?\bencoding\s*=\s*[\"'])([A-Za-z0-9._:-]+)", re.I)


def rewrite_declarations(text: str) -> tuple[str, int]:
    """Point the ``<meta>`` charset and XML declarations of ``text``'s head at UTF-8.

    Returns the new text and the number of declarations rewritten; the rest of the text is
    left byte-for-byte alone.
    """
    end = _HEAD_END_RE.search(text, 0, HEAD_SCAN_CHARS + 8)
    if end is not None:
        cut = end.start()
    else:  # cut after a tag end, so no declaration is split
        cut = text.rfind(">", 0, HEAD_SCAN_CHARS) + 1 if len(text) > HEAD_SCAN_CHARS else len(text)
    changed = 0

    def to_utf8(m: re.Match[str]) -> str:
        nonlocal changed
        if m.group(2).lower() in ("utf-8", "utf8"):
            return m.group(0)
        changed += 1
        return m.group(1) + "utf-8"

    head = _META_CHARSET_RE.sub(to_utf8, text[:cut])
    head = _XML_ENCODING_RE.sub(to_utf8, head, count=1)
    return (head + text[cut:], changed) if changed else (text, 0)
