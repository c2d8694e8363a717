"""One WARC response record -> one corpus item (the crawl's item schema), or the reason it is none.

The phases, each the project's one implementation: :func:`mcecrawl.encoding.decode` (HTTP
Content-Type, ``<meta>``, BOM and Common Crawl's ``charset-detected`` as evidence), the Scrapy-free
extraction job (:func:`mcecrawl.extraction.run_job`), and the corpus quality step
(:class:`mcecrawl.corpus.quality.CorpusQuality`: language, text_norm, dates; duplicates are
marked by the run, which sees every worker's items).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from mcecrawl.archives.prefilter import Prefilter, scripts_for
from mcecrawl.archives.reader import Record, Rejected

__all__ = ["ARABIC_SCRIPT_LANGS", "CARRIED_FIELDS", "UNJUDGED", "PageConfig", "PageMaker", "host_matches"]

# --lang's default: the Arabic-script languages of the corpus.
ARABIC_SCRIPT_LANGS = ("fa", "ar", "ur", "ps")
# Fields a crawl's item knows better than the WARC (the spider read them with the site's rules).
CARRIED_FIELDS = ("url", "canonical_url", "site", "site_name", "lang", "title", "authors", "published_raw")
# --page-types' name for pages the page-type judgement did not type (page_type None).
UNJUDGED = "unjudged"


@dataclass(frozen=True)
class PageConfig:
    """What to keep and how to extract.  Picklable: each worker builds its :class:`PageMaker`."""

    langs: tuple[str, ...] | None = ARABIC_SCRIPT_LANGS  # None: every language
    algorithm: str | None = None  # None: the site profile's, else the package default
    params: dict[str, Any] = field(default_factory=dict)
    profile: str | None = None  # one site profile for every record
    all_pages: bool = False  # also pages at a known site's non-article URLs
    hosts: tuple[str, ...] | None = None  # names (and their subdomains) or suffixes such as ".ir"
    since: str | None = None  # ISO dates, on the page's publication date, else the WARC-Date
    until: str | None = None
    prefilter: bool = True
    keep_failed: bool = False  # write items whose extraction is empty or failed (reextract's way)
    items: dict[str, dict[str, Any]] | None = None  # a crawl's items by warc_record_id: only those
    page_types: tuple[str, ...] | None = None  # keep only these page types (UNJUDGED: page_type None); None: all


def host_matches(host: str, patterns: tuple[str, ...]) -> bool:
    """``host`` is one of ``patterns``, a subdomain of one, or ends with a ``.suffix`` pattern."""
    host = host.lower().rstrip(".")
    for p in patterns:
        p = p.lower().strip()
        bare = p.lstrip(".")
        if host == bare or host.endswith("." + bare):
            return True
    return False


class _ProfileMatcher:
    """Site profile of a URL: the first bundled profile whose article rules match it."""

    def __init__(self, forced: str | None):
        from mcecrawl.profile import PROFILES_DIR, load_profile

        self.forced = load_profile(forced) if forced else None
        self.all = [] if forced else [load_profile(p) for p in sorted(PROFILES_DIR.glob("*.json"))]

    def match(self, url: str) -> Any:
        if self.forced:
            return self.forced
        for profile in self.all:
            try:
                if profile.is_live(url) and profile.article_rule(profile.canonicalize(url)):
                    return profile
            except (ValueError, AttributeError):
                continue
        return None

    def claims(self, url: str) -> bool:
        """A bundled profile knows this site (so a URL it does not match is no article)."""
        return any(p.is_live(url) for p in self.all)


# The item's title: the page's og:title, else the text of its <h1>s, else its <title> (the CSS
# selectors meta[property="og:title"]::attr(content), "h1 ::text" and title::text as parsel
# compiles them, as a crawl's items read them), read from the page parsed once for the title and
# the dates (as HTML, as a crawl's selectors read it: parsel given a page's text alone reads one
# that starts with an XML declaration as XML, where an XHTML page's namespaced <title> is no
# "title", and the item had no title of its own).
_OG_TITLE = "descendant-or-self::meta[@property = 'og:title']/@content"
# The text of every <h1>: one step with a predicate, not ``h1/descendant-or-self::text()``, whose
# steps libxml2 merges in quadratic time (40,000 headings: 36 s).  The same nodes: the page's root
# element is never an <h1>.
_H1_TEXT = "descendant::text()[ancestor::h1]"
_TITLE_TEXT = "descendant-or-self::title/text()"
# A feed's titles are CDATA sections, which HTML's parser keeps as text.
_CDATA = re.compile(r"\A\s*<!\[CDATA\[(.*)\]\]>\s*\Z", re.S)


def _title(doc: Any) -> str | None:
    """The item title of a page parsed by :func:`mcecrawl.corpus.dates.parse_page` (None: no page)."""
    if doc is None:
        return None
    title = next(iter(doc.xpath(_OG_TITLE)), None) or " ".join(doc.xpath(_H1_TEXT)) \
        or next(iter(doc.xpath(_TITLE_TEXT)), None)
    if title and (cdata := _CDATA.match(title)):
        title = cdata.group(1)
    return (" ".join(title.split()) or None) if title else None


class PageMaker:
    """``make(record)`` -> item dict or :class:`Rejected`; one per process (profiles, langid model)."""

    def __init__(self, config: PageConfig):
        from mcecrawl.algorithms import DEFAULT_ALGORITHM
        from mcecrawl.corpus.quality import CorpusQuality

        self.config = config
        self.default_algorithm = DEFAULT_ALGORITHM
        self.profiles = _ProfileMatcher(config.profile)
        self.prefilter = Prefilter(scripts_for(config.langs) if config.prefilter and not config.items else None)
        self.quality = CorpusQuality(store=None)  # duplicates: the run's one store (mcecrawl.archives.run)

    def make(self, rec: Record, *, prefiltered: bool = False) -> dict[str, Any] | Rejected:
        """The item of ``rec``, or why there is none (``prefiltered``: the reader ran
        :attr:`prefilter` already, :func:`~mcecrawl.archives.reader.iter_records`'s ``want``)."""
        from mcecrawl.algorithms import sniff_binary
        from mcecrawl.corpus.dates import parse_page
        from mcecrawl.encoding import decode

        cfg = self.config
        old = None
        if cfg.items is not None:
            old = cfg.items.get(rec.record_id)
            if old is None:
                return Rejected("not_in_items", rec.offset, rec.url)
        host = urlsplit(rec.url).hostname or ""
        if cfg.hosts and not host_matches(host, cfg.hosts):
            return Rejected("host", rec.offset, rec.url)
        if rec.truncated and not cfg.keep_failed:
            return Rejected("truncated_record", rec.offset, rec.url, rec.truncated)
        if (kind := sniff_binary(rec.body)) is not None:
            return Rejected("binary_payload", rec.offset, rec.url, kind)
        if not prefiltered and not self.prefilter.passes(rec.body):
            return Rejected("prefilter", rec.offset, rec.url)
        profile = self.profiles.match((old or {}).get("canonical_url") or rec.url)
        if old is None and profile is None and not cfg.all_pages and not cfg.profile and self.profiles.claims(rec.url):
            return Rejected("not_article", rec.offset, rec.url, "a known site's non-article URL")
        # read_text: the item's title and dates read the text (the extraction takes the bytes)
        decoded = decode(rec.body, rec.content_type, detected=rec.charset_detected, read_text=True)
        algo, params = self._algorithm(profile, old)
        outcome = self._extract(decoded.page, algo, params, rec.url)
        if outcome.config_error:  # a site profile's or --param's parameter the algorithm does not know
            return Rejected("extraction_config", rec.offset, rec.url, outcome.reason)
        if outcome.status != "ok" and not cfg.keep_failed:
            return Rejected(f"extraction_{outcome.status}", rec.offset, rec.url, outcome.reason)
        if cfg.page_types and (outcome.page_type or UNJUDGED) not in cfg.page_types:
            return Rejected("page_type", rec.offset, rec.url, outcome.page_type or UNJUDGED)
        doc = parse_page(decoded.text)  # once, for the title and the dates
        item = self._item(rec, decoded, doc, profile, algo, outcome, host)
        if rec.truncated:  # kept by --keep-failed: the text is of a cut page, and the status says so
            item["status"] = "truncated_record"
            item["reason"] = rec.truncated + (f"; extraction {outcome.status}" if outcome.status != "ok" else "")
        if old:
            item.update({k: old[k] for k in CARRIED_FIELDS if old.get(k) is not None})
        self.quality.identify_language(item)  # first: a page in another language skips text_norm and dates
        if cfg.langs and item["lang_detected"] not in cfg.langs and old is None:
            return Rejected("lang", rec.offset, rec.url, item["lang_detected"])
        self.quality.apply(item, html=decoded.text, identified=True, doc=doc)
        if not item.get("lang"):  # no profile, no crawl: the detected language is the page's
            item["lang"] = item["lang_detected"]
            item["lang_mismatch"] = False
        if cfg.since or cfg.until:
            day = (item.get("published") or item.get("fetched_at") or "")[:10]
            if not day or (cfg.since and day < cfg.since) or (cfg.until and day > cfg.until):
                return Rejected("date", rec.offset, rec.url, day)
        return item

    def _algorithm(self, profile: Any, old: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        cfg = self.config
        if old and old.get("algorithm") and not cfg.algorithm:  # reproduce the crawl's choice
            return old["algorithm"], {**(old.get("params") or {}), **cfg.params}
        if profile is not None and not cfg.algorithm:
            return (profile.extraction.get("algorithm") or self.default_algorithm,
                    {**(profile.extraction.get("params") or {}), **cfg.params})
        return cfg.algorithm or self.default_algorithm, dict(cfg.params)

    @staticmethod
    def _extract(page: str | bytes, algo: str, params: dict[str, Any], url: str) -> Any:
        """The extraction of the decoded page (its text, or the body when that is valid UTF-8 as it is)."""
        from mcecrawl.extraction import ExtractionJob, run_job

        data = page if isinstance(page, bytes) else page.encode("utf-8", errors="replace")
        return run_job(ExtractionJob(page=data, algorithm=algo, params=params, url=url))

    @staticmethod
    def _item(rec: Record, decoded: Any, doc: Any, profile: Any, algo: str, outcome: Any, host: str) -> dict[str, Any]:
        from mcecrawl.itemschema import SCHEMA_VERSION
        from mcecrawl.jsonlines import sanitize

        text = sanitize(outcome.text or "")
        return {
            "url": rec.url,
            "canonical_url": profile.canonicalize(rec.url) if profile is not None else rec.url,
            "site": profile.name if profile is not None else host,
            "site_name": profile.site if profile is not None else host,
            "lang": profile.lang if profile is not None else None,
            "title": _title(doc) or outcome.title,
            "authors": [],
            "text": text,
            "paragraphs": [sanitize(p) for p in outcome.paragraphs],
            "algorithm": algo,
            "params": outcome.params,
            "status": outcome.status,
            "reason": outcome.reason or "",
            "page_type": outcome.page_type,
            "page_type_reason": outcome.page_type_reason,
            **decoded.provenance(),
            "content_sha1": hashlib.sha1(text.encode("utf-8")).hexdigest() if text else None,
            "fetched_at": rec.date or "",
            "extraction_ms": round(outcome.ms, 2),
            "schema_version": SCHEMA_VERSION,
            "warc_record_id": rec.record_id,
            "warc_file": rec.warc,
            "warc_offset": rec.offset,
        }
