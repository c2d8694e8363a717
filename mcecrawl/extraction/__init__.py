"""Main-content extraction as a job, free of Scrapy: :class:`ExtractionJob` in, :class:`ExtractionOutcome`
out, run in-process by :func:`run_job` or in worker processes by :class:`mcecrawl.extraction.pool.WorkerPool`.
``mcecrawl.pipelines.ExtractionPipeline`` is the crawl's adapter (item -> job, outcome -> item)."""
from mcecrawl.extraction.job import ExtractionJob, ExtractionOutcome, run_job

__all__ = ["ExtractionJob", "ExtractionOutcome", "run_job"]
