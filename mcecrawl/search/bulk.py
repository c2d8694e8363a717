"""Elasticsearch/OpenSearch ``_bulk`` NDJSON and the index template that goes with it.

Only the stable REST formats are used (``_bulk`` NDJSON, ``PUT _index_template/<name>``), which
Elasticsearch 7.8+/8/9 and OpenSearch 1/2 all accept, so no client major can break them
(news-please's per-item client calls did: lessons c.8, #126/#247).

Analysis in the template:

- ``title``/``text`` are analysed by ``mce_fold``: a custom analyzer that applies the very tables
  of :mod:`mcecrawl.search.analysis` (letter folds, marks, ZWNJ joining, clitic joining, digits)
  as char filters, then the standard tokenizer and lower-casing.  It is the analyzer for Urdu and
  Pashto (Lucene has none) and the cross-language field for every document.
- ``title.fa``/``text.fa`` use the built-in ``persian`` analyzer and ``title.ar``/``text.ar`` the
  built-in ``arabic`` analyzer (stemming, stop words) for Persian and Arabic queries:
  ``multi_match`` over ``["text", "text.fa"]`` for Persian, ``["text", "text.ar"]`` for Arabic.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping

from mcecrawl.folding import DIGITS_TO_LATIN, ZWNJ
from mcecrawl.search.analysis import _INVISIBLE, LETTER_FOLDS, MARKS, PREFIX_CLITICS, SUFFIX_CLITICS
from mcecrawl.search.documents import METADATA_FIELDS, doc_id, is_searchable

__all__ = ["bulk_actions", "bulk_lines", "index_template", "ANALYZER"]

ANALYZER = "mce_fold"
# Template priority: above the built-in templates' 100 (ES "index templates" docs) so ours wins.
TEMPLATE_PRIORITY = 200


def bulk_actions(item: Mapping, index: str) -> tuple[dict, dict]:
    """The action and source objects of one item: ``index`` op (create or replace) by stable id."""
    source = {k: item.get(k) for k in METADATA_FIELDS}
    source["text"] = item["text"]
    if item.get("text_norm"):
        source["text_norm"] = item["text_norm"]
    return {"index": {"_index": index, "_id": doc_id(item)}}, source


def bulk_lines(items: Iterable[Mapping], index: str, *, skipped: list | None = None) -> Iterator[str]:
    """NDJSON lines (without ``\\n``) for ``items``: action line then source line per document.

    Unsearchable items (no text, failed extraction) are left out and appended to ``skipped``.
    ``ensure_ascii=False`` keeps R2L text readable; U+2028/2029 are escaped by ``json`` only with
    ensure_ascii, so they are escaped here to keep one record per line (lessons c.3).
    """
    for item in items:
        if not is_searchable(item):
            if skipped is not None:
                skipped.append(item)
            continue
        for obj in bulk_actions(item, index):
            yield _dumps(obj)


def _dumps(obj) -> str:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\u0085", "\\u0085"))


def _char_filters() -> dict:
    """``mce_fold``'s char filters, generated from the Python analysis tables (one source of truth)."""
    marks = "".join(f"\\u{ord(c):04x}" for c in MARKS + _INVISIBLE + ZWNJ)
    prefixes = "|".join(PREFIX_CLITICS)
    suffixes = "|".join(sorted(SUFFIX_CLITICS, key=len, reverse=True))
    return {
        "mce_marks": {"type": "pattern_replace", "pattern": f"[{marks}]", "replacement": ""},
        "mce_letters": {"type": "mapping",
                        "mappings": [f"{k} => {v}" for k, v in {**LETTER_FOLDS, **DIGITS_TO_LATIN}.items()]},
        # Same rules as analysis._AFFIX_JOIN, in Java regex syntax (\p{L} for Python's [^\W\d_]).
        "mce_clitics": {"type": "pattern_replace",
                        "pattern": f"(?<![\\p{{L}}\\p{{N}}])({prefixes}) (?=\\p{{L}})"
                                   f"|(?<=\\p{{L}}) (?=(?:{suffixes})(?![\\p{{L}}\\p{{N}}]))",
                        "replacement": "$1"},
    }


def index_template(name: str, *, shards: int = 1, replicas: int = 1) -> dict:
    """Composable index template (``PUT _index_template/<name>``) for indices ``<name>*``.

    Parameters
    ----------
    name : str
        Index name (or prefix); the template matches ``name`` and ``name-*``.
    shards, replicas : int
        ``number_of_shards``/``number_of_replicas`` (1/1 are the Elasticsearch 7+ defaults).
    """
    def text_field() -> dict:
        return {"type": "text", "analyzer": ANALYZER,
                "fields": {"fa": {"type": "text", "analyzer": "persian"},
                           "ar": {"type": "text", "analyzer": "arabic"}}}

    title = text_field()
    title["fields"]["raw"] = {"type": "keyword", "ignore_above": 512}
    return {
        "index_patterns": [name, f"{name}-*"],
        "priority": TEMPLATE_PRIORITY,
        "template": {
            "settings": {
                "number_of_shards": shards, "number_of_replicas": replicas,
                "analysis": {
                    "char_filter": _char_filters(),
                    "analyzer": {ANALYZER: {"type": "custom", "tokenizer": "standard",
                                            "char_filter": ["mce_marks", "mce_letters", "mce_clitics"],
                                            "filter": ["lowercase", "decimal_digit"]}},
                },
            },
            "mappings": {
                # Unknown item fields stay in _source but are not indexed: no mapping explosion.
                "dynamic": False,
                "properties": {
                    "url": {"type": "keyword"}, "canonical_url": {"type": "keyword"},
                    "site": {"type": "keyword"}, "lang": {"type": "keyword"},
                    "status": {"type": "keyword"}, "content_sha1": {"type": "keyword"},
                    "page_type": {"type": "keyword"},
                    "published": {"type": "date", "format": "strict_date_optional_time||epoch_millis",
                                  "ignore_malformed": True},
                    "title": title,
                    "text": text_field(),
                    # Already normalised by the corpus pipeline: a standard tokenizer is enough
                    # (lessons c.8); kept for exact-normalised matching and debugging.
                    "text_norm": {"type": "text", "analyzer": "standard"},
                },
            },
        },
        "_meta": {"created_by": "mcecrawl export-bulk --template",
                  "query_hint": "multi_match over text (all languages) plus text.fa or text.ar"},
    }
