"""The one item mcecrawl writes: an article page with its main content (schema in
``mcecrawl/schema/item.schema.json``; bump :data:`SCHEMA_VERSION` when a field changes meaning).

Design: the spider yields an :class:`ArticleItem` that carries the page as UTF-8 bytes in ``html`` plus
what the page itself says (title, dates, authors from JSON-LD/meta) and the encoding provenance;
:class:`mcecrawl.pipelines.ExtractionPipeline` runs the site's extraction algorithm, fills the
content fields and removes ``html`` (so raw markup never reaches the feed).  Keeping extraction out
of the spider lets ``-s MCE_ALGORITHM=...`` and other pipelines act on every spider alike.
"""
from __future__ import annotations

import scrapy

from mcecrawl.algorithms.result import EXTRACTION_STATUSES
from mcecrawl.itemschema import SCHEMA_VERSION as SCHEMA_VERSION  # bumped there (read without Scrapy too)

# An item's status: the extraction's, or one the spider decides before any extraction (an anti-bot
# challenge page, a page that is not an article), or from-warc's --keep-failed for a cut WARC payload.
ITEM_STATUSES = (*EXTRACTION_STATUSES, "blocked", "not_article", "truncated_record")


class ArticleItem(scrapy.Item):
    # identity
    url = scrapy.Field()  # URL fetched (after redirects)
    canonical_url = scrapy.Field()  # live URL the article is known by (AMP/lite/tracking folded)
    site = scrapy.Field()  # stable site id: the profile/spider name, e.g. "bbc_persian"
    site_name = scrapy.Field()  # human-readable site name from the profile
    lang = scrapy.Field()  # declared by the site profile
    # what the page declares
    title = scrapy.Field()
    published = scrapy.Field()  # ISO-8601 when the page gives an ISO date, else None
    published_raw = scrapy.Field()  # the page's own string
    authors = scrapy.Field()  # list of names; [] when the page names none
    # main content
    text = scrapy.Field()  # faithful: ZWNJ and the page's letters kept; paragraphs joined by "\n"
    paragraphs = scrapy.Field()
    algorithm = scrapy.Field()
    params = scrapy.Field()
    status = scrapy.Field()  # ok | empty | error | blocked | not_article
    reason = scrapy.Field()
    page_type = scrapy.Field()  # article | listing | forum | ... (PAGE_TYPES); None when not judged
    page_type_reason = scrapy.Field()  # the evidence that decided page_type
    # encoding provenance (mcecrawl.encoding.decode via the middleware)
    encoding_original = scrapy.Field()
    encoding_source = scrapy.Field()
    encoding_declared_header = scrapy.Field()
    encoding_declared_meta = scrapy.Field()
    encoding_replacements = scrapy.Field()
    # bookkeeping
    content_sha1 = scrapy.Field()  # sha1 of text (UTF-8), None when text is empty
    fetched_at = scrapy.Field()  # ISO-8601 UTC
    extraction_ms = scrapy.Field()
    schema_version = scrapy.Field()
    # corpus quality (mcecrawl.corpus, CorpusQualityPipeline)
    text_norm = scrapy.Field()  # normalised copy of text for dedup/search (mcecrawl.corpus.normalize)
    lang_detected = scrapy.Field()  # py3langid among fa/ar/ur/ps/en/he, "und" when unsure
    lang_confidence = scrapy.Field()
    lang_mismatch = scrapy.Field()  # detected differs from the declared lang
    duplicate_of = scrapy.Field()  # URL of the first copy (this or an earlier run), None if new
    duplicate_kind = scrapy.Field()  # exact | near | None
    duplicate_similarity = scrapy.Field()  # 1.0 exact, estimated Jaccard for near
    duplicate_cross_site = scrapy.Field()  # the first copy came from another site (syndication)
    unchanged_since = scrapy.Field()  # re-crawl: this URL had this text already, first seen then (ISO-8601)
    previous_content_sha1 = scrapy.Field()  # re-crawl: this URL's text changed; the previous text's hash
    calendar = scrapy.Field()  # calendar published_raw was written in: gregorian | jalali | hijri
    published_source = scrapy.Field()  # jsonld | meta | time | raw | text
    warc_record_id = scrapy.Field()  # WARC-Record-ID of the archived response (MCE_WARC_ENABLED)
    # internal: the page as UTF-8 bytes (always; the encoding middleware's output, or the spider's
    # own decoding encoded) — consumed and removed by ExtractionPipeline
    html = scrapy.Field()
