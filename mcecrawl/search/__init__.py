"""Search-index feed: an embedded SQLite FTS5 index, Elasticsearch/OpenSearch bulk export.

- :mod:`~mcecrawl.search.analysis`: one folding for documents and queries (harakat, kaf/yeh,
  digits, ZWNJ/space variants).
- :mod:`~mcecrawl.search.index`: :class:`SearchIndex`, SQLite FTS5 + BM25 + metadata filters.
- :mod:`~mcecrawl.search.bulk`: ``_bulk`` NDJSON and the index template.
- :mod:`~mcecrawl.search.push`: streaming ``_bulk`` batches with retries and 429 back-off.
"""
from mcecrawl.search.documents import SearchIndexError, doc_id

__all__ = ["SearchIndexError", "doc_id"]
