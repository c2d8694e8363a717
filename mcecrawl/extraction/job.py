"""One extraction: a frozen job in, a frozen outcome out, plain picklable types (a worker process runs
it too; the algorithms' ``Extraction`` holds a mappingproxy, which does not pickle).  Imports no Scrapy
module (tests/test_extraction.py)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcecrawl.corpus.quality import TextQuality


@dataclass(frozen=True)
class ExtractionJob:
    page: bytes  # the page as valid UTF-8 (the crawl's item page: the encoding middleware's output)
    algorithm: str
    params: dict[str, Any] = field(default_factory=dict)
    url: str | None = None
    # Corpus quality's text steps to run on the extracted text, beside the extraction:
    # ``(norm_lang, CorpusQuality.text_inputs(record))``; None: none (mcecrawl.corpus.quality.TextQuality).
    quality: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class ExtractionOutcome:
    text: str
    paragraphs: list[str]
    status: str
    reason: str
    title: str | None
    params: dict[str, Any]  # the parameters the algorithm used (its defaults filled in)
    ms: float  # wall time of the extraction
    config_error: bool = False  # unknown algorithm or parameter: the site profile is wrong
    cpu_ms: float = 0.0  # CPU time of the extraction in the process that ran it
    quality: TextQuality | None = None  # the job's ``quality`` steps on ``text``, when asked
    page_type: str | None = None  # the extraction's page type (mcecrawl.algorithms.result.PAGE_TYPES)
    page_type_reason: str = ""

    @classmethod
    def error(cls, job: ExtractionJob, reason: str, ms: float = 0.0, *, config_error: bool = False
              ) -> ExtractionOutcome:
        return cls("", [], "error", reason, None, job.params, ms, config_error)


def run_job(job: ExtractionJob) -> ExtractionOutcome:
    """Run ``job`` with :func:`mcecrawl.extract`; a configuration error is an outcome, not an exception.
    The page is UTF-8 already: not decoded again (``utf8=True``).  With ``job.quality``, corpus
    quality's text steps run on the extracted text too (their CPU counts in ``cpu_ms``, not in ``ms``)."""
    from mcecrawl.algorithms import extract

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        r = extract(job.page, algorithm=job.algorithm, url=job.url, utf8=True, **job.params)
    except ValueError as e:  # unknown algorithm or parameter: a configuration error
        return ExtractionOutcome.error(job, f"configuration: {e}", (time.perf_counter() - t0) * 1000,
                                       config_error=True)
    ms, quality = (time.perf_counter() - t0) * 1000, None
    if job.quality is not None:
        from mcecrawl.corpus.quality import CorpusQuality

        norm_lang, inputs = job.quality
        try:
            quality = CorpusQuality.from_settings_key(inputs[-1]).analyse(r.text, norm_lang, inputs)
        except Exception:  # never the extraction's failure: the crawl process runs the steps itself
            quality = None
    return ExtractionOutcome(r.text, list(r.paragraphs), r.status, r.reason, r.title, dict(r.params),
                             ms, cpu_ms=(time.process_time() - c0) * 1000,
                             quality=quality, page_type=r.page_type, page_type_reason=r.page_type_reason)


__all__ = ["ExtractionJob", "ExtractionOutcome", "run_job"]
