"""WARC archives -> corpus (``mcecrawl from-warc``), free of Scrapy.

One module per phase: :mod:`~mcecrawl.archives.reader` (FastWARC records, bad input as reasons),
:mod:`~mcecrawl.archives.prefilter` (the R2L paper's byte classes on the raw bytes),
:mod:`~mcecrawl.archives.pages` (record -> item: decoding, extraction job, corpus quality),
:mod:`~mcecrawl.archives.output` (``.jsonl``/``.jsonl.gz``/shard directory, resume state) and
:mod:`~mcecrawl.archives.run` (workers, dedup across the run, progress, summary).
"""
