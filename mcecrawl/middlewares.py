"""Scrapy downloader middlewares of mcecrawl.

Each class is self-contained (its own settings, stats namespace and logger use) and enabled
in ``mcecrawl/settings.py`` under its group.
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, TextResponse, XmlResponse

from mcecrawl.encoding import Decoded, decode, resolve_label

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


# --- Encoding normalisation (issue 4) ------------------------------------------------------

# Characters of the decoded text searched for stale charset declarations when no </head> is
# found: w3lib and browsers read declarations near the top (WHATWG prescan: 1024 bytes;
# w3lib: 4096), lxml reads them anywhere in <head>.
HEAD_SCAN_CHARS = 16 * 1024
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
    head, n_meta = _META_CHARSET_RE.subn(r"\g<1>utf-8", text[:cut])
    head, n_xml = _XML_ENCODING_RE.subn(r"\g<1>utf-8", head, count=1)
    return (head + text[cut:], n_meta + n_xml) if n_meta + n_xml else (text, 0)


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
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.force = settings.get("MCE_ENCODING_FORCE") or None
        self.rewrite_meta = settings.getbool("MCE_ENCODING_REWRITE_META", True)
        self.warn_replacements = settings.getbool("MCE_ENCODING_WARN_REPLACEMENTS", True)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> EncodingNormalizationMiddleware:
        if not crawler.settings.getbool("MCE_ENCODING_ENABLED", True):
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
        content_type = response.headers.get("Content-Type")
        content_type = content_type.decode("latin-1") if content_type else None
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
        return response.replace(body=body, headers=headers, encoding="utf-8")

    def _record(self, request: Request, response: Response, decoded: Decoded) -> None:
        request.meta.update(zip(META_KEYS, (decoded.encoding, decoded.source, decoded.declared_header,
                                            decoded.declared_meta, decoded.replacements)))
        inc = self.stats.inc_value
        inc("mcecrawl/encoding/responses")
        inc(f"mcecrawl/encoding/original/{decoded.encoding}")
        inc(f"mcecrawl/encoding/source/{decoded.source}")
        for where, label in (("header", decoded.declared_header), ("meta", decoded.declared_meta)):
            # An ASCII body reads the same under any ASCII-compatible label: no lie to count.
            if label and resolve_label(label) != decoded.encoding and not decoded.text.isascii():
                inc(f"mcecrawl/encoding/label_ignored/{where}")
        if decoded.replacements:
            inc("mcecrawl/encoding/replacements", decoded.replacements)
            inc("mcecrawl/encoding/responses_with_replacements")
            if self.warn_replacements:
                logger.warning("%d replacement character(s) decoding %s as %s (step %s; header %s, meta %s)",
                               decoded.replacements, response.url, decoded.encoding, decoded.source,
                               decoded.declared_header, decoded.declared_meta)
