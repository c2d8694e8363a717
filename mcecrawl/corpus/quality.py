"""One corpus-quality pass over an article record: text_norm, language, duplicates, date.

Shared by :class:`mcecrawl.pipelines.CorpusQualityPipeline` (crawl time), ``mcecrawl from-warc`` /
``reextract`` (:mod:`mcecrawl.archives`) and the datatrove steps, so all write the same fields:

``text_norm``, ``lang_detected``, ``lang_confidence``, ``lang_mismatch``, ``duplicate_of``,
``duplicate_kind``, ``duplicate_similarity``, ``duplicate_cross_site``, ``unchanged_since``,
``previous_content_sha1``, ``published`` (ISO-8601), ``published_raw``, ``calendar``, ``published_source``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, MutableMapping

from mcecrawl.corpus.dates import PublishedDate, extract_published, parse_page
from mcecrawl.corpus.langid import detect, is_mismatch
from mcecrawl.corpus.normalize import normalize

if TYPE_CHECKING:
    from mcecrawl.corpus.dedup import DedupSequence, Fingerprint

__all__ = ["CorpusQuality", "QUALITY_FIELDS", "TextQuality"]

QUALITY_FIELDS = ("text_norm", "lang_detected", "lang_confidence", "lang_mismatch", "duplicate_of",
                  "duplicate_kind", "duplicate_similarity", "duplicate_cross_site", "unchanged_since",
                  "previous_content_sha1", "published", "published_raw", "calendar", "published_source")


@dataclass(frozen=True)
class TextQuality:
    """The steps of :meth:`CorpusQuality.apply` that read the text and a few record fields only, once
    the language is known: ``text_norm``, the date read from ``published_raw`` or the text, and the
    duplicate check's fingerprint of ``text_norm`` (:func:`mcecrawl.corpus.dedup.fingerprint_of`).

    A crawl computes it in the extraction worker, beside the extraction, on the worker's core
    (:mod:`mcecrawl.extraction.job`), for the profile's declared language; the crawl process then
    only copies it into the item.  It holds what it was computed from (``norm_lang`` and
    ``inputs``, all but the text itself, which the caller keeps): :meth:`CorpusQuality.apply` uses
    it only when they all still hold, else computes afresh.  Language ID stays in the crawl
    process: its model costs ~77 MB per process (BENCHMARKS.md, crawl CPU).
    """

    norm_lang: str | None  # the language text_norm was folded for (and dates read in)
    inputs: tuple[Any, ...]  # CorpusQuality.text_inputs()
    text_norm: str
    date: PublishedDate | None  # found in published_raw or the text
    date_from_spider: bool = False  # none found, but the spider's own ``published`` stands
    fingerprint: Fingerprint | None = None  # for the dedup store the settings name; None: no store


@dataclass
class CorpusQuality:
    """Configured pass; ``store`` is None to skip dedup.  ``normalize_params`` go to :func:`normalize`."""

    store: DedupSequence | None = None  # SQLite or Redis (open_dedup_store)
    normalize_params: dict[str, Any] = field(default_factory=dict)
    langid: bool = True
    dates: bool = True
    precomputed_used: int = 0  # apply() calls that took their text steps from ``precomputed``

    def settings_key(self) -> tuple[Any, ...]:
        """The configuration :class:`TextQuality` depends on (plain values: sent to a worker): the
        normalisation, the dates, and the dedup store's signature size and shortest near-checked text."""
        store = (self.store.num_perm, self.store.min_chars) if self.store is not None else None
        return tuple(sorted(self.normalize_params.items())), self.dates, store

    @classmethod
    def from_settings_key(cls, key: tuple[Any, ...]) -> CorpusQuality:
        """A store-less pass configured by :meth:`settings_key` (in an extraction worker)."""
        return cls(store=None, normalize_params=dict(key[0]), langid=False, dates=key[1])

    def text_inputs(self, record: MutableMapping[str, Any]) -> tuple[Any, ...]:
        """The record values :meth:`analyse` reads besides the text and the language, and :meth:`settings_key`."""
        return record.get("published_raw"), bool(record.get("published")), self.settings_key()

    def analyse(self, text: str, norm_lang: str | None, inputs: tuple[Any, ...], *, dates: bool = True
                ) -> TextQuality:
        """``text_norm`` and the date of ``text`` in ``norm_lang``, with ``inputs`` (:meth:`text_inputs`);
        ``dates=False`` leaves the date to the caller (it has the page)."""
        raw, has_published, (_, _, store) = inputs
        text_norm = normalize(text, norm_lang, **self.normalize_params)
        fingerprint = None
        if store is not None and text_norm.strip():
            from mcecrawl.corpus.dedup import fingerprint_of

            fingerprint = fingerprint_of(text_norm, *store)
        found, from_spider = None, False
        if self.dates and dates:
            found = extract_published(None, raw=raw, lang=norm_lang, visible=False)
            if found is None and has_published:  # the spider parsed a form we do not know
                from_spider = True
            elif found is None:  # last resort: a date written in the article text
                found = extract_published(None, text=text, lang=norm_lang)
        return TextQuality(norm_lang, inputs, text_norm, found, from_spider, fingerprint)

    def identify_language(self, record: MutableMapping[str, Any]) -> None:
        """The language step of :meth:`apply` alone: ``lang_detected``, ``lang_confidence`` and
        ``lang_mismatch`` from ``text`` (else ``title``) and the declared ``lang``."""
        text = record.get("text") or ""
        guess = detect(text) if text else None
        if guess is None or guess.lang == "und":  # no body text: the title still tells
            title_guess = detect(record.get("title") or "")
            guess = title_guess if title_guess.lang != "und" else guess
        record["lang_detected"] = guess.lang if guess else "und"
        record["lang_confidence"] = round(guess.confidence, 4) if guess else 0.0
        record["lang_mismatch"] = is_mismatch(record.get("lang"), record["lang_detected"])

    def apply(self, record: MutableMapping[str, Any], html: str | None = None,
              precomputed: tuple[str, TextQuality] | None = None, *, identified: bool = False,
              doc: Any = None) -> MutableMapping[str, Any]:
        """Fill the quality fields of ``record`` (a dict or an ItemAdapter) in place and return it.

        ``record`` needs ``text`` and may have ``lang`` (declared), ``url``/``canonical_url``,
        ``site``, ``title``, ``published``/``published_raw`` (from the spider).  ``html`` (the
        decoded page) lets the date step read JSON-LD/meta itself, as ``from-warc`` does.
        ``precomputed``: ``(text, TextQuality)``, :meth:`analyse` done elsewhere (an extraction
        worker); used when the text, language and inputs are this record's, else computed here.
        ``identified``: :meth:`identify_language` ran on the record already (``from-warc`` rejects
        a page by its language before the other steps).  ``doc``: ``html`` already parsed
        (:func:`mcecrawl.corpus.dates.parse_page`; ``from-warc`` reads its item title there too).
        """
        text = record.get("text") or ""
        declared = record.get("lang")
        if self.langid and not identified:
            self.identify_language(record)
        norm_lang = declared or (record.get("lang_detected") if record.get("lang_detected") != "und" else None)
        inputs = self.text_inputs(record)
        if (html is None and precomputed is not None and precomputed[1].norm_lang == norm_lang
                and precomputed[1].inputs == inputs and precomputed[0] == text):
            tq = precomputed[1]
            self.precomputed_used += 1
        else:
            tq = self.analyse(text, norm_lang, inputs, dates=html is None)
        record["text_norm"] = tq.text_norm
        self.mark_duplicates(record, tq.fingerprint)
        if not self.dates:
            return record
        if html is not None:
            self._date(record, html, norm_lang, doc)
        elif tq.date is not None:
            self._set_date(record, tq.date)
        elif tq.date_from_spider:
            record["calendar"], record["published_source"] = "gregorian", "spider"
        else:
            self._no_date(record, inputs[0])
        return record

    def mark_duplicates(self, record: MutableMapping[str, Any], fingerprint: Fingerprint | None = None
                        ) -> MutableMapping[str, Any]:
        """The duplicate step of :meth:`apply` alone, on a record whose ``text_norm`` is set already
        (a ``from-warc`` worker's item, marked by the run's one store); a no-op without ``store``.
        ``fingerprint``: of ``text_norm``, computed elsewhere (:class:`TextQuality`)."""
        if self.store is None:
            return record
        url = record.get("canonical_url") or record.get("url") or ""
        res = self.store.check(record["text_norm"], url, record.get("site"),
                               content_sha1=record.get("content_sha1"), fingerprint=fingerprint)
        record["duplicate_of"] = res.duplicate_of
        record["duplicate_kind"] = res.kind
        record["duplicate_similarity"] = round(res.similarity, 4) if res.kind else None
        record["duplicate_cross_site"] = res.cross_site
        record["unchanged_since"] = res.unchanged_since  # a re-crawl of the same text
        record["previous_content_sha1"] = res.previous_content_sha1  # an update of this URL
        return record

    @staticmethod
    def _set_date(record: MutableMapping[str, Any], found: PublishedDate) -> None:
        record["published"] = found.published
        record["published_raw"] = found.published_raw
        record["calendar"] = found.calendar
        record["published_source"] = found.source

    @staticmethod
    def _no_date(record: MutableMapping[str, Any], raw: str | None) -> None:
        for key in ("published", "published_raw", "calendar", "published_source"):
            record.setdefault(key, None)
        # keep the page's own string even when nothing could be parsed
        record["published_raw"] = raw

    @classmethod
    def _date(cls, record: MutableMapping[str, Any], html: str | None, lang: str | None, doc: Any = None) -> None:
        raw = record.get("published_raw")
        if doc is None:
            doc = parse_page(html)  # parsed once for both look-ups
        found = extract_published(raw=raw, lang=lang, visible=False, doc=doc)
        if found is None and record.get("published"):  # the spider parsed a form we do not know
            record["calendar"], record["published_source"] = "gregorian", "spider"
            return
        if found is None:  # last resort: a date written in the article text, then in the page
            found = extract_published(text=record.get("text"), lang=lang, doc=doc)
        if found is None:
            cls._no_date(record, raw)
        else:
            cls._set_date(record, found)
