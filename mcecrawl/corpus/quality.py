"""One corpus-quality pass over an article record: text_norm, language, duplicates, date.

Shared by :class:`mcecrawl.pipelines.CorpusQualityPipeline` (crawl time), ``mcecrawl from-warc`` /
``reextract`` (:mod:`mcecrawl.archives`) and the datatrove steps, so all write the same fields:

``text_norm``, ``lang_detected``, ``lang_confidence``, ``lang_mismatch``, ``duplicate_of``,
``duplicate_kind``, ``duplicate_similarity``, ``duplicate_cross_site``, ``unchanged_since``,
``previous_content_sha1``, ``published`` (ISO-8601), ``published_raw``, ``calendar``, ``published_source``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, MutableMapping

from mcecrawl.corpus.dates import extract_published
from mcecrawl.corpus.dedup import DedupStore
from mcecrawl.corpus.langid import detect, is_mismatch
from mcecrawl.corpus.normalize import normalize

__all__ = ["CorpusQuality", "QUALITY_FIELDS"]

QUALITY_FIELDS = ("text_norm", "lang_detected", "lang_confidence", "lang_mismatch", "duplicate_of",
                  "duplicate_kind", "duplicate_similarity", "duplicate_cross_site", "unchanged_since",
                  "previous_content_sha1", "published", "published_raw", "calendar", "published_source")


@dataclass
class CorpusQuality:
    """Configured pass; ``store`` is None to skip dedup.  ``normalize_params`` go to :func:`normalize`."""

    store: DedupStore | None = None
    normalize_params: dict[str, Any] = field(default_factory=dict)
    langid: bool = True
    dates: bool = True

    def apply(self, record: MutableMapping[str, Any], html: str | None = None) -> MutableMapping[str, Any]:
        """Fill the quality fields of ``record`` (a dict or an ItemAdapter) in place and return it.

        ``record`` needs ``text`` and may have ``lang`` (declared), ``url``/``canonical_url``,
        ``site``, ``title``, ``published``/``published_raw`` (from the spider).  ``html`` (the
        decoded page) lets the date step read JSON-LD/meta itself, as ``from-warc`` does.
        """
        text = record.get("text") or ""
        declared = record.get("lang")
        if self.langid:
            guess = detect(text) if text else None
            if guess is None or guess.lang == "und":  # no body text: the title still tells
                title_guess = detect(record.get("title") or "")
                guess = title_guess if title_guess.lang != "und" else guess
            record["lang_detected"] = guess.lang if guess else "und"
            record["lang_confidence"] = round(guess.confidence, 4) if guess else 0.0
            record["lang_mismatch"] = is_mismatch(declared, record["lang_detected"])
        norm_lang = declared or (record.get("lang_detected") if record.get("lang_detected") != "und" else None)
        record["text_norm"] = normalize(text, norm_lang, **self.normalize_params)
        if self.store is not None:
            url = record.get("canonical_url") or record.get("url") or ""
            res = self.store.check(record["text_norm"], url, record.get("site"),
                                   content_sha1=record.get("content_sha1"))
            record["duplicate_of"] = res.duplicate_of
            record["duplicate_kind"] = res.kind
            record["duplicate_similarity"] = round(res.similarity, 4) if res.kind else None
            record["duplicate_cross_site"] = res.cross_site
            record["unchanged_since"] = res.unchanged_since  # a re-crawl of the same text
            record["previous_content_sha1"] = res.previous_content_sha1  # an update of this URL
        if self.dates:
            self._date(record, html, norm_lang)
        return record

    @staticmethod
    def _date(record: MutableMapping[str, Any], html: str | None, lang: str | None) -> None:
        raw = record.get("published_raw")
        found = extract_published(html, raw=raw, lang=lang, visible=False)
        if found is None and record.get("published"):  # the spider parsed a form we do not know
            record["calendar"], record["published_source"] = "gregorian", "spider"
            return
        if found is None:  # last resort: a date written in the article text, then in the page
            found = extract_published(html, text=record.get("text"), lang=lang)
        if found is None:
            for key in ("published", "published_raw", "calendar", "published_source"):
                record.setdefault(key, None)
            # keep the page's own string even when nothing could be parsed
            record["published_raw"] = raw
            return
        record["published"] = found.published
        record["published_raw"] = found.published_raw
        record["calendar"] = found.calendar
        record["published_source"] = found.source
