"""mcecrawl.extraction: the job, its outcome, the worker pool and its frames; no Scrapy in either process."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from mcecrawl.extraction import ExtractionJob, ExtractionOutcome, run_job
from mcecrawl.extraction.pool import WorkerPool

ROOT = Path(__file__).resolve().parents[1]
PAGE = ("<html><head><title>خبر</title></head><body><nav>خانه | ورزش | سیاست</nav><article><h1>خبر</h1>"
        + "".join(f"<p>این پاراگراف شماره {i} از متن اصلی خبر است و به اندازه کافی طولانی است.</p>" for i in range(8))
        + "</article><footer>حق نشر</footer></body></html>").encode("utf-8")  # a job's page: UTF-8 bytes


def test_run_job_gives_a_plain_outcome():
    outcome = run_job(ExtractionJob(PAGE, "scored_regions", {}, "https://example.ir/news/1"))
    assert isinstance(outcome, ExtractionOutcome) and outcome.status == "ok"
    assert "پاراگراف شماره 3" in outcome.text and isinstance(outcome.paragraphs, list)
    assert outcome.ms >= 0 and not outcome.config_error


def test_configuration_errors_are_outcomes():
    outcome = run_job(ExtractionJob(PAGE, "no_such_algorithm", {"P": 3}))
    assert (outcome.status, outcome.config_error, outcome.params) == ("error", True, {"P": 3})
    assert outcome.reason.startswith("configuration: ")


def test_the_page_is_not_decoded_again(monkeypatch):
    """The crawl's page is UTF-8 already (the encoding middleware's output): the job reads it as
    such, without the encoding detection a page of unknown bytes goes through."""
    import mcecrawl.encoding

    def refuse(*args, **kwargs):
        raise AssertionError("decoded again")

    monkeypatch.setattr(mcecrawl.encoding, "decode", refuse)
    for name in ("scored_regions", "dana"):
        outcome = run_job(ExtractionJob(PAGE, name))
        assert outcome.status == "ok" and "پاراگراف شماره 3" in outcome.text, outcome.reason


def test_corpus_text_steps_run_beside_the_extraction():
    from mcecrawl.corpus.quality import CorpusQuality

    quality = CorpusQuality()
    inputs = quality.text_inputs({"published_raw": "۱۴۰۲/۰۸/۱۵", "lang": "fa"})
    outcome = run_job(ExtractionJob(PAGE, "scored_regions", quality=("fa", inputs)))
    assert outcome.quality == quality.analyse(outcome.text, "fa", inputs)
    assert outcome.quality.date is not None and outcome.quality.date.calendar == "jalali"
    assert run_job(ExtractionJob(PAGE, "scored_regions")).quality is None


def test_the_pool_returns_what_run_job_returns():
    jobs = [ExtractionJob(PAGE, name) for name in ("scored_regions", "dana", "r2l")]
    jobs.append(ExtractionJob(PAGE, "scored_regions", quality=("fa", (None, False, ((), True)))))

    async def through_pool():
        pool = WorkerPool(2)
        try:
            return await asyncio.gather(*(pool.run(job) for job in jobs))
        finally:
            await pool.close()

    got = asyncio.run(through_pool())
    for outcome, job in zip(got, jobs):
        assert {**outcome.__dict__, "ms": 0, "cpu_ms": 0} == {**run_job(job).__dict__, "ms": 0, "cpu_ms": 0}


def test_job_and_worker_import_no_scrapy_module():
    code = ("import sys, json, mcecrawl.extraction.pool as pool\n"
            "from mcecrawl.extraction import ExtractionJob, run_job\n"
            f"run_job(ExtractionJob({PAGE!r}, 'scored_regions'))\n"
            "print(json.dumps(sorted(m for m in sys.modules if m == 'scrapy' or m.startswith('scrapy.'))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert json.loads(out.stdout) == []
