"""The project's one decoding function: bytes in any encoding -> text, with provenance.

Used by the downloader middleware, the CLI and the evaluation loader alike, so that
offline results equal crawled results.  (Minimal chain for now; the encoding issue grows it.)
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass

import chardet
from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, resolve_encoding

# Bytes fed to chardet at most: it runs at about 1 MB/s on markup-heavy pages.
CHARDET_SAMPLE_BYTES = 64 * 1024


@dataclass(frozen=True)
class Decoded:
    """Decoded text and how the encoding was decided."""

    text: str
    encoding: str  # Python codec name actually used, e.g. "utf-8", "cp1256"
    source: str  # deciding step: "bom", "utf-8", "header", "meta", "r2l", "chardet", "fallback", "forced", "empty"
    declared_header: str | None = None  # charset label of the HTTP Content-Type, as given
    declared_meta: str | None = None  # <meta>/XML declaration label, as given
    replacements: int = 0  # U+FFFD characters inserted by decoding


_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode(body: bytes, content_type: str | None = None, *, force: str | None = None) -> Decoded:
    """Decode ``body``: BOM, strict UTF-8, declared label, chardet, windows-1252."""
    header = http_content_type_encoding(content_type) if content_type else None
    meta = html_body_declared_encoding(body[:4096]) if body else None
    labels = dict(declared_header=header, declared_meta=meta)
    if force:
        text = body.decode(force, errors="replace")
        return Decoded(text, force, "forced", replacements=text.count("\ufffd"), **labels)
    if not body:
        return Decoded("", "utf-8", "empty", **labels)
    for bom, enc in _BOMS:
        if body.startswith(bom):
            text = body.decode(enc, errors="replace")
            return Decoded(text, enc, "bom", replacements=text.count("\ufffd"), **labels)
    try:
        return Decoded(body.decode("utf-8"), "utf-8", "utf-8", **labels)
    except UnicodeDecodeError:
        pass
    for step, label in (("header", header), ("meta", meta)):
        enc = resolve_encoding(label) if label else None
        if enc:
            try:
                return Decoded(body.decode(enc), enc, step, **labels)
            except (UnicodeDecodeError, LookupError):
                pass
    guess = chardet.detect(body[:CHARDET_SAMPLE_BYTES]).get("encoding")
    if guess:
        try:
            return Decoded(body.decode(guess), guess.lower(), "chardet", **labels)
        except (UnicodeDecodeError, LookupError):
            pass
    text = body.decode("cp1252", errors="replace")
    return Decoded(text, "cp1252", "fallback", replacements=text.count("\ufffd"), **labels)
