"""The item schema's version, apart from the Scrapy item class (:mod:`mcecrawl.items`), so that the
Scrapy-free archive path (``from-warc`` workers, the datatrove steps) stamps items without importing
Scrapy (~0.9 s and ~30 MB per worker process, measured with ``python -X importtime``)."""
from __future__ import annotations

__all__ = ["SCHEMA_VERSION"]

SCHEMA_VERSION = "1.2"  # 1.1: status not_article; 1.2: page_type, page_type_reason, status truncated_record
