"""Scrapy downloader middlewares of mcecrawl.

Each class is self-contained (its own settings, stats namespace and logger use) and enabled
in ``mcecrawl/settings.py`` under its group.
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, TextResponse, XmlResponse

from mcecrawl.config import Config
from mcecrawl.encoding import META_SCAN_BYTES, Decoded, decode, resolve_label

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


# --- Encoding normalisation ----------------------------------------------------------------

# Characters of the decoded text searched for stale charset declarations (up to </head>):
# as far as decode() itself looks for them (w3lib reads 4 KB, browsers honour later ones).
HEAD_SCAN_CHARS = META_SCAN_BYTES
_HEAD_END_RE = re.compile(r"</head\s*>", re.I)
# <meta charset=X> and <meta http-equiv=Content-Type content="...; charset=X">.
_META_CHARSET_RE = re.compile(r"(<meta\b[^>]*?\bcharset\s*=\s*[\"']?\s*)([A-Za-z0-9._:-]+)", re.I)
_XML_ENCODING_RE = re.compile(r"(<\?xml\b[^>]*?\bencoding\s*=\s*[\"'])([A-Za-z0-9._:-]+)", re.I)
_CT_CHARSET_RE = re.compile(r";\s*charset\s*=\s*[\"']?[^;\"'\s]*[\"']?", re.I)
# Content-Type given to a normalised response that had none, per Scrapy response class.
_DEFAULT_MIME = ((HtmlResponse, "text/html"), (XmlResponse, "text/xml"), (TextResponse, "text/plain"))
# Request/response meta keys the pipeline copies into every item.
META_KEYS = ("encoding_original", "encoding_source", "encoding_declared_header", "encoding_declared_meta",
             "encoding_replacements")


def rewrite_declarations(text: str) -> tuple[str, int]:
    """Point the ``<meta>`` charset and XML declarations of ``text``'s head at UTF-8.

    Returns the new text and the number of declarations rewritten; the rest of the text is
    left byte-for-byte alone.
    """
    end = _HEAD_END_RE.search(text, 0, HEAD_SCAN_CHARS + 8)
    if end is not None:
        cut = end.start()
    else:  # cut after a tag end, so no declaration is split
        cut = text.rfind(">", 0, HEAD_SCAN_CHARS) + 1 if len(text) > HEAD_SCAN_CHARS else len(text)
    changed = 0

    def to_utf8(m: re.Match) -> str:
        nonlocal changed
        if m.group(2).lower() in ("utf-8", "utf8"):
            return m.group(0)
        changed += 1
        return m.group(1) + "utf-8"

    head = _META_CHARSET_RE.sub(to_utf8, text[:cut])
    head = _XML_ENCODING_RE.sub(to_utf8, head, count=1)
    return (head + text[cut:], changed) if changed else (text, 0)


def utf8_content_type(content_type: str | None, response: TextResponse) -> str:
    """``content_type`` with its charset parameter set to utf-8 (added when missing)."""
    if not content_type:
        content_type = next(mime for cls, mime in _DEFAULT_MIME if isinstance(response, cls))
    return _CT_CHARSET_RE.sub("", content_type).rstrip("; ") + "; charset=utf-8"


class EncodingNormalizationMiddleware:
    """Re-encode every text response as UTF-8 with :func:`mcecrawl.encoding.decode`.

    The replacement response (``response.replace``: never mutated) has a UTF-8 body, a
    ``Content-Type`` whose charset is utf-8 and its stale ``<meta>``/XML declarations rewritten,
    so anything re-parsing the bytes sees one truth.  Provenance goes into the request meta,
    which the spider sees as ``response.meta``: see :data:`META_KEYS`.

    Forcing an encoding, most specific first: ``Request.meta["mce_encoding"]``; the spider
    attribute ``mce_encoding`` (a site profile sets it); the setting ``MCE_ENCODING_FORCE``.

    Settings: ``MCE_ENCODING_ENABLED`` (True), ``MCE_ENCODING_FORCE`` ("" = detect),
    ``MCE_ENCODING_REWRITE_META`` (True), ``MCE_ENCODING_WARN_REPLACEMENTS`` (True).
    Stats: ``mcecrawl/encoding/{responses,non_text,original/<codec>,source/<step>,
    declarations_rewritten,label_ignored/{header,meta},replacements,responses_with_replacements}``.
    """

    def __init__(self, crawler: Crawler):
        cfg = Config.from_settings(crawler.settings)
        self.crawler = crawler
        self.stats = crawler.stats
        self.force = cfg.encoding_force or None
        self.rewrite_meta = cfg.encoding_rewrite_meta
        self.warn_replacements = cfg.encoding_warn_replacements

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> EncodingNormalizationMiddleware:
        if not Config.from_settings(crawler.settings).encoding_enabled:
            raise NotConfigured("MCE_ENCODING_ENABLED is off")
        return cls(crawler)

    def _forced(self, request: Request) -> str | None:
        spider = getattr(self.crawler, "spider", None)
        label = request.meta.get("mce_encoding") or getattr(spider, "mce_encoding", None) or self.force
        if label and not resolve_label(label):
            logger.warning("Ignoring unknown forced encoding %r for %s", label, request.url)
            return None
        return label or None

    def process_response(self, request: Request, response: Response) -> Response:
        if not isinstance(response, TextResponse):
            self.stats.inc_value("mcecrawl/encoding/non_text")
            return response
        raw_type = response.headers.get("Content-Type")
        content_type = raw_type.decode("latin-1") if raw_type else None
        decoded = decode(response.body, content_type, force=self._forced(request))
        self._record(request, response, decoded)

        text, rewritten = rewrite_declarations(decoded.text) if self.rewrite_meta else (decoded.text, 0)
        if rewritten:
            self.stats.inc_value("mcecrawl/encoding/declarations_rewritten", rewritten)
        # Valid UTF-8 left unchanged keeps its bytes (no copy); a BOM is dropped.
        unchanged = decoded.encoding == "utf-8" and not rewritten and not decoded.replacements
        body = response.body if unchanged else text.encode("utf-8")
        headers = response.headers.copy()
        headers["Content-Type"] = utf8_content_type(content_type, response)
        new = response.replace(body=body, headers=headers, encoding="utf-8")
        # ``body`` is exactly ``text`` in UTF-8: seed Scrapy's cache of ``response.text`` so the
        # next reader (MetaRefreshMiddleware, the spider) does not decode 100-500 KB again.
        if getattr(new, "_cached_ubody", False) is None:
            new._cached_ubody = text
        return new

    def _record(self, request: Request, response: Response, decoded: Decoded) -> None:
        request.meta.update(zip(META_KEYS, (decoded.encoding, decoded.source, decoded.declared_header,
                                            decoded.declared_meta, decoded.replacements)))
        inc = self.stats.inc_value
        inc("mcecrawl/encoding/responses")
        inc(f"mcecrawl/encoding/original/{decoded.encoding}")
        inc(f"mcecrawl/encoding/source/{decoded.source}")
        used = decoded.encoding.removesuffix("-sig")  # a UTF-8 BOM agrees with a utf-8 label
        for where, label in (("header", decoded.declared_header), ("meta", decoded.declared_meta)):
            # An ASCII body reads the same under any ASCII-compatible label: no lie to count.
            if label and resolve_label(label) != used and not decoded.text.isascii():
                inc(f"mcecrawl/encoding/label_ignored/{where}")
        if decoded.replacements:
            inc("mcecrawl/encoding/replacements", decoded.replacements)
            inc("mcecrawl/encoding/responses_with_replacements")
            if self.warn_replacements:
                logger.warning("%d replacement character(s) decoding %s as %s (step %s; header %s, meta %s)",
                               decoded.replacements, response.url, decoded.encoding, decoded.source,
                               decoded.declared_header, decoded.declared_meta)


# --- Corpus quality: WARC archive of original responses ------------------------------------

# Request meta key carrying the WARC-Record-ID of the response record (copied into the item).
WARC_META_KEY = "warc_record_id"


class WarcArchiveMiddleware:
    """Archive every downloaded response with its request as WARC/1.1 records (warcio).

    It sits nearer the downloader than the encoding and decompression middlewares (order 595 >
    HttpCompressionMiddleware 590 > EncodingNormalizationMiddleware 585), so the record holds the
    bytes and headers as the server sent them (compressed, original charset; ``Transfer-Encoding``
    is dropped because the body is already de-chunked).  Redirect responses are handled by
    RedirectMiddleware (600) first and are not archived; their targets are.  The response record's
    ``WARC-Record-ID`` goes into ``request.meta["warc_record_id"]`` (the spider sees it as
    ``response.meta``; :class:`WarcRecordIdSpiderMiddleware` copies it into items).
    ``mcecrawl reextract`` rebuilds a corpus from these files without crawling again.

    Files: ``MCE_WARC_DIR/<spider>-<UTC time>-<serial>.warc.gz``, written as ``*.open`` and renamed
    when rotated at ``MCE_WARC_MAX_BYTES`` or when the spider closes.
    Settings: ``MCE_WARC_ENABLED`` (False), ``MCE_WARC_DIR``, ``MCE_WARC_MAX_BYTES``, ``MCE_WARC_GZIP``.
    Stats: ``mcecrawl/warc/{records,bytes,files}``.
    """

    def __init__(self, crawler: Crawler):
        cfg = Config.from_settings(crawler.settings)
        self.crawler = crawler
        self.stats = crawler.stats
        self.directory = cfg.warc_dir
        self.max_bytes = cfg.warc_max_bytes
        self.gzip = cfg.warc_gzip
        # Open file, its WARCWriter (warcio is untyped) and path while a WARC file is being written.
        self._file: Any = None
        self._writer: Any = None
        self._path: Any = None
        self._serial = 0
        from scrapy import signals

        crawler.signals.connect(self.close, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcArchiveMiddleware:
        if not Config.from_settings(crawler.settings).warc_enabled:
            raise NotConfigured  # off by default: no "Disabled ..." warning on every crawl
        return cls(crawler)

    def _spider_name(self) -> str:
        spider = getattr(self.crawler, "spider", None)
        return getattr(spider, "name", None) or "crawl"

    def _open(self) -> None:
        from datetime import datetime, timezone
        from pathlib import Path

        from warcio.warcwriter import WARCWriter

        name = self._spider_name()
        directory = Path(self.directory % {"name": name})
        directory.mkdir(parents=True, exist_ok=True)
        self._serial += 1
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d%H%M%S")
        filename = f"{name}-{stamp}-{self._serial:05d}.warc" + (".gz" if self.gzip else "")
        self._path = directory / filename
        self._file = open(str(self._path) + ".open", "wb")
        self._writer = WARCWriter(self._file, gzip=self.gzip, warc_version="1.1")
        import mcecrawl

        self._writer.write_record(self._writer.create_warcinfo_record(filename, {
            "software": f"mcecrawl/{mcecrawl.__version__} (warcio)",
            "format": "WARC File Format 1.1",
            "description": f"responses of spider {name} as received, before decompression and re-encoding",
        }))
        self.stats.inc_value("mcecrawl/warc/files")

    def _finish_file(self) -> None:
        import os

        if self._file is not None:
            self._file.close()
            os.replace(str(self._path) + ".open", self._path)
            logger.info("WARC archive written: %s", self._path)
        self._file = self._writer = None

    def close(self) -> None:
        self._finish_file()

    def process_response(self, request: Request, response: Response) -> Response:
        from http import HTTPStatus
        from io import BytesIO
        from urllib.parse import urlsplit

        from warcio.statusandheaders import StatusAndHeaders

        if self._file is not None and self._file.tell() >= self.max_bytes:
            self._finish_file()
        if self._file is None:
            self._open()
        try:
            reason = HTTPStatus(response.status).phrase
        except ValueError:
            reason = "Unknown"
        protocol = getattr(response, "protocol", None) or "HTTP/1.1"
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, vs in response.headers.items() for v in vs
                   if k.lower() != b"transfer-encoding"]
        http_headers = StatusAndHeaders(f"{response.status} {reason}", headers, protocol=protocol)
        record = self._writer.create_warc_record(response.url, "response", payload=BytesIO(response.body),
                                                 http_headers=http_headers)
        record_id = record.rec_headers.get_header("WARC-Record-ID")
        parts = urlsplit(request.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        req_headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, vs in request.headers.items() for v in vs]
        req_headers.insert(0, ("Host", parts.netloc))
        request_record = self._writer.create_warc_record(
            request.url, "request", payload=BytesIO(request.body or b""),
            http_headers=StatusAndHeaders(f"{request.method} {target} HTTP/1.1", req_headers, is_http_request=True),
            warc_headers_dict={"WARC-Concurrent-To": record_id})
        before = self._file.tell()
        self._writer.write_record(record)
        self._writer.write_record(request_record)
        self.stats.inc_value("mcecrawl/warc/records", 2)
        self.stats.inc_value("mcecrawl/warc/bytes", self._file.tell() - before)
        request.meta[WARC_META_KEY] = record_id
        return response


class WarcRecordIdSpiderMiddleware:
    """Copy ``response.meta["warc_record_id"]`` into every item the spider yields for that response."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcRecordIdSpiderMiddleware:
        if not Config.from_settings(crawler.settings).warc_enabled:
            raise NotConfigured  # off by default: no "Disabled ..." warning on every crawl
        return cls(crawler)

    def _fill(self, item, response):
        from itemadapter import ItemAdapter, is_item

        record_id = response.meta.get(WARC_META_KEY) if response is not None else None
        if record_id and is_item(item):
            try:
                ItemAdapter(item)[WARC_META_KEY] = record_id
            except KeyError:  # an item class without the field
                pass
        return item

    def process_spider_output(self, response, result):
        for o in result:
            yield self._fill(o, response)

    async def process_spider_output_async(self, response, result):
        async for o in result:
            yield self._fill(o, response)
