"""Scrapy settings for mcecrawl.

Grouped by component; each group starts with its enable flag.  Every MCE_* setting can be
overridden per spider (``custom_settings``), per site profile, or on the command line (``-s``).
"""
import os

BOT_NAME = "mcecrawl"
SPIDER_MODULES = ["mcecrawl.spiders"]
NEWSPIDER_MODULE = "mcecrawl.spiders"

# --- Crawling: politeness and robustness ---
# Other groups add their components with DOWNLOADER_MIDDLEWARES[...] = n / EXTENSIONS[...] = n.
ROBOTSTXT_OBEY = True
# Honest user agent; replace the placeholder with a real contact (-s USER_AGENT=...) before
# crawling any live site.
USER_AGENT = "mcecrawl/0.1 (R2L news research crawler; contact: CONTACT-NOT-SET)"
# Sites whose profile terms forbid crawling are crawled live only when listed here, e.g.
# -s MCE_PERMISSION_GRANTED=bbc.com (a spider name or a live host's domain).
MCE_PERMISSION_GRANTED: list[str] = []
# robots.txt rules for these user agents are obeyed as well as those for our own token
# ("mcecrawl"): mcecrawl is Scrapy-based, so a rule aimed at Scrapy is aimed at us (bbc.com has
# "User-agent: Scrapy / Disallow: /", docs/site_notes.md §0.1).  Refusals name the agent whose rule refused.
# Only a site's written permission to crawl despite that rule justifies -s MCE_ROBOTSTXT_ALSO_OBEY= (empty).
MCE_ROBOTSTXT_ALSO_OBEY = ["Scrapy"]
# Scrapy's 2.18 project template defaults: one request at a time per site, one second apart;
# site profiles ("politeness") override per site.
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 1
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DOWNLOAD_TIMEOUT = 30
# Real article pages are 100-500 KB (the r2l dev set, docs/evaluation.md); 10 MB leaves room for huge inline JSON
# and stops runaway downloads.
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
RETRY_ENABLED = True
RETRY_TIMES = 2
RETRY_HTTP_CODES = [500, 502, 503, 504, 522, 524, 408, 429]
# Retry-After on 429/503 is honoured up to this many seconds (downloadermiddlewares.RetryAfterMiddleware).
MCE_RETRY_AFTER_ENABLED = True
MCE_RETRY_AFTER_MAX = 300.0
# No listening port unless asked: Scrapy 2.19 starts a telnet console and a remote-control HTTP
# server (it runs any Python sent to it) in every crawl; a crawl running for days on a shared machine
# should not.  Turn them on for one crawl with -s TELNETCONSOLE_ENABLED=1 / -s REMOTE_CONTROL_ENABLED=1
# (README "Watching a running crawl"); tests/test_settings.py checks a crawl listens on no port.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
# Scrapy re-reads and re-parses a generator callback's source on every response to warn about
# "return value" in generators (its cache is keyed by the short-lived bound method): ~0.8 ms per
# page, a third of a bare crawl's per-page cost (BENCHMARKS.md).  Our callbacks are tested instead.
WARN_ON_GENERATOR_RETURN_VALUE = False
# Scrapy starts CONCURRENT_ITEMS asyncio tasks for every callback's output (default 100); an
# article page yields one item, a listing page a few dozen requests, so 8 suffices and saves
# ~90 task creations per page (BENCHMARKS.md).
CONCURRENT_ITEMS = 8
HTTPCACHE_ENABLED = False  # optional: -s HTTPCACHE_ENABLED=1 replays pages from .scrapy/httpcache
HTTPCACHE_DIR = "httpcache"
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "mcecrawl.downloadermiddlewares.RobotsTxtReportMiddleware": 100,
    "mcecrawl.downloadermiddlewares.RetryAfterMiddleware": 560,  # before RetryMiddleware (550) sees the response
    # Scrapy's decompression, capped at DOWNLOAD_MAXSIZE, with bombs counted and summarised.
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "mcecrawl.downloadermiddlewares.HttpCompressionReportMiddleware": 590,
}
# Crash-safe resume: with JOBDIR set, DoneRecord keeps an append-only record of written articles
# (mcecrawl/extensions.py); MCE_DONE_RECORD names a record directory without JOBDIR.
MCE_DONE_RECORD = None
EXTENSIONS = {
    "mcecrawl.extensions.DoneRecord": 500,
    # End-of-crawl summary: non-articles per host and reason with sample URLs, unreachable entry points.
    "mcecrawl.extensions.CrawlSummary": 510,
}

# --- Encoding normalisation ---
# Every text response is re-encoded as UTF-8 by mcecrawl.encoding.decode (BOM, strict UTF-8,
# plausible declared label, R2L candidates, chardet, windows-1252); provenance in response.meta.
MCE_ENCODING_ENABLED = True
# Force one charset label for the whole crawl ("" = detect).  Per site: the spider attribute
# mce_encoding; per request: Request.meta["mce_encoding"].
MCE_ENCODING_FORCE = ""
MCE_ENCODING_REWRITE_META = True  # rewrite stale <meta charset>/XML declarations to utf-8
MCE_ENCODING_WARN_REPLACEMENTS = True  # one warning per response that needed U+FFFD
# 585: after HttpCompressionMiddleware (590) decompressed the body, before MetaRefreshMiddleware
# (580) parses it; HttpCacheMiddleware (900) still stores the original bytes.
DOWNLOADER_MIDDLEWARES["mcecrawl.downloadermiddlewares.EncodingNormalizationMiddleware"] = 585

# --- Extraction pipeline and feeds ---
# Other groups add pipelines with ITEM_PIPELINES[...] = n (ExtractionPipeline runs first, at 300).
ITEM_PIPELINES = {
    "mcecrawl.pipelines.ExtractionPipeline": 300,
}
# Extraction in worker processes, overlapping with the crawl (0 = in the crawl process).  Two where the machine
# has two cores: the crawl of 2,000 real-size articles took 3.7x bare Scrapy with one worker and 2.9x with two on
# 2 cores; with more cores the crawl process itself (~5 ms of CPU per article against ~6 ms of extraction) is the
# limit that two workers already keep up with (BENCHMARKS.md, crawl throughput).
MCE_EXTRACTION_WORKERS = min(2, os.cpu_count() or 1)
FEED_EXPORT_ENCODING = "utf-8"
# One feed per run at a predictable path; -O/-o on the command line replace it as usual.
FEEDS = {
    "output/%(name)s/%(time)s.jsonl": {"format": "jsonlines", "encoding": "utf-8"},
}
FEED_EXPORTERS = {
    "jsonlines": "mcecrawl.exporters.SafeJsonLinesItemExporter",
    "jsonl": "mcecrawl.exporters.SafeJsonLinesItemExporter",
}
# Empty/error/blocked pages go to the main feed with their status; set a path (e.g.
# "output/%(name)s/%(time)s.rejects.jsonl") to write them to a separate rejects feed instead.
MCE_REJECTS_FEED = None

# --- Corpus quality: normalisation, language ID, dedup, dates, WARC ---
# CorpusQualityPipeline adds text_norm, lang_detected/lang_confidence, duplicate_of, published/calendar.
MCE_CORPUS_ENABLED = True
MCE_DATES_ENABLED = True  # JSON-LD/meta/raw then text; Jalali and Umm al-Qura Hijri -> ISO-8601
MCE_DEDUP_ENABLED = True
# One store for every spider and run: cross-run and cross-site (syndicated) copies are found.
MCE_DEDUP_DB = "output/dedup.sqlite"
MCE_DEDUP_DROP = False  # False: write duplicates marked duplicate_of; True: drop them
MCE_DEDUP_THRESHOLD = 0.5  # estimated Jaccard of char-5-gram shingles (mcecrawl/corpus/dedup.py)
# A re-crawled URL whose text has not changed is no duplicate (of itself): "mark" writes it with
# unchanged_since (when the text was first seen there), "skip" leaves it out of the feed.  A
# changed text is always written, with previous_content_sha1.
MCE_RECRAWL_UNCHANGED = "mark"  # mark | skip
MCE_LANGID_ENABLED = True
MCE_NORMALIZE_DIGITS = "latin"  # latin | native | keep
MCE_NORMALIZE_KEEP_HARAKAT = False
MCE_NORMALIZE_ZWNJ = "keep"  # keep | space | remove
# WARC/1.1 archive of every response as received (original bytes and headers), for reextract.
MCE_WARC_ENABLED = False
MCE_WARC_DIR = "output/%(name)s/warc"
MCE_WARC_GZIP = True
MCE_WARC_MAX_BYTES = 1024**3  # rotate at 1 GB (docs/decisions.md c.7: ~1 GB, the common crawler convention)
# 400: after ExtractionPipeline (300) produced text.
ITEM_PIPELINES["mcecrawl.pipelines.CorpusQualityPipeline"] = 400
# 595: nearer the downloader than HttpCompressionMiddleware (590) and EncodingNormalizationMiddleware
# (585), so the archive holds the server's bytes, not the decompressed/re-encoded ones.
DOWNLOADER_MIDDLEWARES["mcecrawl.downloadermiddlewares.WarcArchiveMiddleware"] = 595
# Copies response.meta["warc_record_id"] into the spider's items (other groups add with SPIDER_MIDDLEWARES[...]).
SPIDER_MIDDLEWARES = {
    "mcecrawl.spidermiddlewares.WarcRecordIdSpiderMiddleware": 800,
}

# --- Search index ---
# Optional: index items into an SQLite FTS5 file while crawling (`mcecrawl search` reads it).
# `mcecrawl index CORPUS.jsonl --db F` does the same after the crawl.
MCE_SEARCH_INDEX_ENABLED = False
MCE_SEARCH_INDEX_BATCH_SIZE = 200  # items per write transaction, written in a thread
MCE_SEARCH_INDEX_DB = "corpus.sqlite"
# 900: last, on the finished item (after extraction 300 and corpus quality 400).
ITEM_PIPELINES["mcecrawl.pipelines.SearchIndexPipeline"] = 900

# --- Distributed crawling: one frontier and one corpus in Redis (docs: README "Many workers") ---
# redis://host:port/db switches the crawl to scrapy-redis's scheduler, queue and dupefilter
# (mcecrawl.distributed.RedisAddon); empty: the single-process crawl, no server needed.
MCE_REDIS_URL = ""
# Keys live under mce:<crawl id>:; the same id resumes a crawl, a new id starts a fresh one.
# Empty: the spider name.
MCE_CRAWL_ID = ""
# Empty: assigned from a Redis counter (w1, w2, ...) and put into the feed name.
MCE_WORKER_ID = ""
# A worker's requests go back to the queue this long after its last heartbeat (it beats every
# third of it).  Longer than any pause of a busy worker's event loop (a 10 MB page parses in < 2 s).
MCE_LEASE_SECONDS = 30.0
# A dead worker's half-written articles are settled from its feed by a worker on its host; other
# hosts wait this much longer, then treat its unrecorded articles as not written.
MCE_REAP_OTHER_HOST_AFTER = 600.0
# Near-duplicate store of distributed crawls: one for every crawl id (like MCE_DEDUP_DB).
MCE_REDIS_DEDUP_PREFIX = "mce:dedup"
# Tests only: SIGKILL this process after its N-th feed line, before the article is recorded.
MCE_FAULT_KILL_AFTER_WRITE = 0
ADDONS = {"mcecrawl.distributed.RedisAddon": 0}
# Each turns itself off without MCE_REDIS_URL.  290: claim an article before extraction (300);
# 950: the shared per-host schedule, after robots.txt (100) gave its Crawl-delay; 50: spider output.
ITEM_PIPELINES["mcecrawl.distributed.record.WrittenRecord"] = 290
DOWNLOADER_MIDDLEWARES["mcecrawl.distributed.politeness.SharedPolitenessMiddleware"] = 950
SPIDER_MIDDLEWARES["mcecrawl.distributed.record.SharedFrontierMiddleware"] = 50
