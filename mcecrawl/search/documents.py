"""Corpus items -> search documents: stable ids, which items are searchable, reading JSONL."""
from __future__ import annotations

import gzip
import hashlib
import json
import logging
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from mcecrawl.exceptions import MceError

logger = logging.getLogger(__name__)

# Extraction statuses that carry no main content (failed extractions are written with a
# status, not dropped; mcecrawl.items: ok | empty | error | blocked); counted as skipped.
UNSEARCHABLE_STATUSES = frozenset({"error", "empty", "blocked", "not_article"})

# Item fields copied into every search document (the corpus JSONL schema, mcecrawl/schema/item.schema.json).
METADATA_FIELDS = ("url", "canonical_url", "site", "lang", "title", "published", "content_sha1", "status",
                   "page_type")


class SearchIndexError(MceError):
    """The search index or the corpus cannot be used; the message says why and what to do."""


def doc_id(item: Mapping) -> str:
    """Stable document id: sha1 of the canonical URL (else the URL).

    The same article re-crawled or re-exported gets the same id, so re-indexing updates it
    instead of adding a duplicate, both in SQLite and in Elasticsearch/OpenSearch (``_id``).
    """
    key = item.get("canonical_url") or item.get("url")
    if not key:
        raise ValueError("item has neither canonical_url nor url")
    return hashlib.sha1(str(key).encode("utf-8")).hexdigest()


def is_searchable(item: Mapping) -> bool:
    """True if the item has main-content text worth indexing and an address."""
    if item.get("status") in UNSEARCHABLE_STATUSES:
        return False
    text = item.get("text")
    return isinstance(text, str) and bool(text.strip()) and bool(item.get("canonical_url") or item.get("url"))


def read_jsonl(paths: Iterable[str | Path], *, errors: list[str] | None = None) -> Iterator[dict]:
    """Yield the JSON objects of corpus files, one per ``\\n``-terminated line (lessons c.3).

    A malformed line is skipped with a warning (and recorded in ``errors`` if given); a missing or
    unreadable file raises :class:`SearchIndexError`.  A directory stands for its corpus files
    (``mcecrawl from-warc``'s shards; :func:`mcecrawl.corpus.files.corpus_files`).
    """
    from mcecrawl.corpus.files import corpus_files

    for path in corpus_files(paths):
        try:
            # Rotated corpus files are gzipped (lessons c.3): read them as they are.
            f = (gzip.open(path, "rt", encoding="utf-8", newline="\n") if str(path).endswith(".gz")
                 else open(path, encoding="utf-8", newline="\n"))
        except OSError as e:
            raise SearchIndexError(f"cannot read corpus {path}: {e.strerror or e}") from e
        with f:
            for lineno, line in enumerate(_lines(f, path), 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as e:
                    msg = f"{path}:{lineno}: not JSON ({e.msg}), line skipped"
                    logger.warning(msg)
                    if errors is not None:
                        errors.append(msg)
                    continue
                if isinstance(obj, dict):
                    yield obj


def _lines(f, path) -> Iterator[str]:
    """Lines of an open corpus file; a truncated gzip member ends the file with an error."""
    try:
        yield from f
    except (OSError, EOFError) as e:
        raise SearchIndexError(f"cannot read corpus {path}: {e}") from e
