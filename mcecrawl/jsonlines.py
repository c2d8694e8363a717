"""JSON lines that stay valid, free of Scrapy: :func:`sanitize` and :func:`dumps_line`.

Every writer of the project's JSON lines uses them: the crawl's feed exporter
(:mod:`mcecrawl.exporters`, which re-exports both), ``from-warc`` / ``reextract``
(:mod:`mcecrawl.archives`) and ``merge``.  Lone surrogates and C0 controls are dropped (Scrapy's
stock exporter raises on a lone surrogate, and the item is lost); U+2028/U+2029/U+0085, which
``str.splitlines()`` readers split into several records, are escaped (docs/decisions.md c.3).
"""
from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["dumps_line", "sanitize"]

# Lone surrogates (undecodable bytes smuggled through surrogateescape) and C0 controls except
# \t \n \r; DEL and C1 are kept except U+0085 (a line break for splitlines()).
_DROP = re.compile(r"[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f]")
# Characters that str.splitlines() treats as line breaks but JSON leaves raw (docs/decisions.md c.3).
_ESCAPE = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"}
_ESCAPE_RE = re.compile("[\u2028\u2029\u0085]")


def sanitize(value: Any) -> Any:
    """Strings without lone surrogates and C0 controls (except tab/newline/CR), recursively."""
    if isinstance(value, str):
        return _DROP.sub("", value)
    if isinstance(value, dict):
        return {sanitize(k): sanitize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [sanitize(v) for v in value]
    return value


# What json.dumps(ensure_ascii=False) leaves in a line when the record holds something sanitize()
# drops: lone surrogates stay raw (found by a strict UTF-8 encode: a scan of a character class over
# a wide string is ~5x slower), C0 controls become \u00XX, \b or \f (\t \n \r are kept).  A
# backslash written in the text itself can match too: that only costs the slow path.
_NEEDS_SANITIZE_RE = re.compile(r"\\u00[01]|\\[bf]")


def _needs_sanitize(line: str) -> bool:
    if _NEEDS_SANITIZE_RE.search(line):
        return True
    if line.isascii():
        return False
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # only lone surrogates fail a strict UTF-8 encode
        return True
    return False


def dumps_line(record: dict[str, Any]) -> str:
    """One JSON record on one line, UTF-8 friendly, with the splitlines() breakers escaped."""
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
    if _needs_sanitize(line):  # rare: serialise the sanitised record instead
        line = json.dumps(sanitize(record), ensure_ascii=False, separators=(",", ":"), default=str)
    if any(ch in line for ch in _ESCAPE):  # str's own search, faster than a regex scan
        line = _ESCAPE_RE.sub(lambda m: _ESCAPE[m.group()], line)
    return line + "\n"
