"""Corpus quality: normalisation, language ID, dedup, dates, WARC archive (docs/architecture.md).

Scrapy-free building blocks; the Scrapy glue is ``CorpusQualityPipeline`` in
:mod:`mcecrawl.pipelines` and ``WarcArchiveMiddleware`` in :mod:`mcecrawl.downloadermiddlewares`.
"""
from mcecrawl.corpus.normalize import normalize

__all__ = ["normalize"]
