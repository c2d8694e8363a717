"""Main-content extraction algorithms, free of Scrapy.

``ALGORITHMS`` maps a name to a function ``(text: str, **params) -> Extraction``; entries resolve
lazily to ``mcecrawl.algorithms.<name>:<name>``, so an algorithm plugs in by its module existing.
``BASELINES`` does the same for the seed papers' baselines (:mod:`mcecrawl.algorithms.baselines`):
they run when named (``extract(..., algorithm="bte")``, ``-a bte``) and stay out of every default set,
which iterates ``ALGORITHMS`` only.
:func:`extract` decodes bytes once (:func:`mcecrawl.encoding.decode`) and dispatches; for the
default algorithm it first judges the page's type (:mod:`mcecrawl.algorithms.pagetype`, when
installed) and extracts each type's main content (:func:`mcecrawl.algorithms.typed.extract_as`).
"""
from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Callable, Iterator

from mcecrawl.algorithms.baselines import BASELINE_MODULES, BASELINE_NAMES
from mcecrawl.algorithms.cleaning import is_blank
from mcecrawl.algorithms.common import ParamError
from mcecrawl.algorithms.result import PAGE_TYPES, Extraction, Region

logger = logging.getLogger(__name__)

# Every algorithm the project knows, in the order the CLI lists them.
ALGORITHM_NAMES = ("scored_regions", "dana", "danag", "r2l", "xpath_blocks")
DEFAULT_ALGORITHM = "scored_regions"
# Algorithms that read a page's UTF-8 bytes as they are (their line split works on bytes): a crawl's
# page, UTF-8 already, reaches them without a decode and a re-encode (~0.5 ms per 300 KB page).
# xpath_blocks parses them as they are: no str of the page beside its tree (memory, bench_memory.py).
UTF8_READERS = frozenset({"scored_regions", "dana", "danag", "r2l", "xpath_blocks"})

# Sniffing of non-HTML bytes: magic numbers of the formats a crawler meets instead of a page
# (PNG, PDF, gzip, zip, GIF, JPEG, WebP/RIFF, bzip2, 7z, zstd, xz, ELF).
BINARY_SIGNATURES = {
    b"\x89PNG": "PNG image", b"%PDF-": "PDF document", b"\x1f\x8b": "gzip data", b"PK\x03\x04": "zip archive",
    b"GIF8": "GIF image", b"\xff\xd8\xff": "JPEG image", b"RIFF": "RIFF (WebP/WAV) data", b"BZh": "bzip2 data",
    b"7z\xbc\xaf": "7z archive", b"\x28\xb5\x2f\xfd": "zstd data", b"\xfd7zXZ": "xz data", b"\x7fELF": "ELF binary",
}
# Bytes sampled for control characters, and the share above which the input is binary; text
# formats have (almost) no C0 controls besides \t \n \r \f (cf. file(1)'s text tests): at most 0.4 %
# of the first 4 KiB of any page in ../shared/data.  Compressed or encrypted data is close to uniform
# bytes, 27 of whose 256 values are such controls (10.5 %, with a standard deviation of 0.5 % over 4 KiB):
# the bound sits halfway, 11 deviations below that and 12 times the most any text page has.  (At 0.10,
# right under the uniform rate, one random 5,000-byte body in eight passed as text.)
BINARY_SAMPLE_BYTES = 4096
BINARY_CONTROL_SHARE = 0.05
_NOT_CONTROL = bytes(b for b in range(256) if b >= 0x20 or b in b"\t\n\r\f\x1b")


class _Registry(Mapping[str, Callable[..., Extraction]]):
    """Name -> algorithm function, imported on first use."""

    def __init__(self, modules: Mapping[str, str]):
        self._modules = dict(modules)  # name -> module defining the function ``name``
        self._loaded: dict[str, Callable[..., Extraction]] = {}

    def available(self) -> tuple[str, ...]:
        return tuple(n for n, m in self._modules.items() if importlib.util.find_spec(m) is not None)

    def __getitem__(self, name: str) -> Callable[..., Extraction]:
        if name not in self._loaded:
            if name not in self._modules or name not in self.available():
                raise KeyError(name)
            module = importlib.import_module(self._modules[name])
            self._loaded[name] = getattr(module, name)
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.available())

    def __len__(self) -> int:
        return len(self.available())


ALGORITHMS: Mapping[str, Callable[..., Extraction]] = _Registry(
    {n: f"mcecrawl.algorithms.{n}" for n in ALGORITHM_NAMES})
# The seed papers' baselines: selectable by name, never in a default set.
BASELINES: Mapping[str, Callable[..., Extraction]] = _Registry(
    {n: f"mcecrawl.algorithms.baselines.{m}" for n, m in BASELINE_MODULES.items()})


def get_algorithm(name: str) -> Callable[..., Extraction]:
    """The algorithm (or baseline) function called ``name``; ValueError naming the known ones otherwise."""
    for registry in (ALGORITHMS, BASELINES):
        if name in registry:
            return registry[name]
    raise ValueError(f"unknown algorithm {name!r}; available: {', '.join(ALGORITHMS)}; "
                     f"baselines: {', '.join(BASELINES)}")


def sniff_binary(body: bytes) -> str | None:
    """What non-HTML format ``body`` is (e.g. "PNG image"), or None if it looks like text."""
    head = body.lstrip()[:16]
    for magic, kind in BINARY_SIGNATURES.items():
        if head.startswith(magic):
            return kind
    from mcecrawl.encoding import decoded_prefix, wide_codec

    sample = body[:BINARY_SAMPLE_BYTES]
    # UTF-16/32 text with its byte-order mark is full of NUL bytes (UTF-32-LE reads as UTF-16); random
    # bytes after a BOM are no text: their UTF-16 code units hold unpaired surrogates
    if sample.startswith((b"\xff\xfe", b"\xfe\xff")) and decoded_prefix(sample, "utf-16") is not None:
        return None
    controls = len(sample.translate(None, _NOT_CONTROL))
    if sample and controls > BINARY_CONTROL_SHARE * len(sample):
        if wide_codec(sample) is None:  # BOM-less UTF-16/32 text: NULs by the pattern of its ASCII
            return "binary data (control characters)"
    return None


# The module holding the page-type judgement ``judge(html, url=None, *, tree=None) -> Judgement``.
PAGETYPE_MODULE = "mcecrawl.algorithms.pagetype"


def _judge() -> Callable[..., Any] | None:
    """The page-type judgement, or None when its module is not installed."""
    if importlib.util.find_spec(PAGETYPE_MODULE) is None:
        return None
    return getattr(importlib.import_module(PAGETYPE_MODULE), "judge", None)


def acted_on(page_type: str, confidence: float, reason: str) -> tuple[str, str]:
    """The type a page is read as, and why, given its judgement: a judgement under its type's bound
    (:func:`mcecrawl.algorithms.typed.min_confidence`) is not acted on (read as an article)."""
    from mcecrawl.algorithms.typed import min_confidence

    bound = min_confidence(page_type)
    if page_type == "article" or confidence >= bound:
        return page_type, reason
    return "article", (f"{page_type} judged at {confidence:.2f}, under the {bound:.2f} needed: "
                       f"read as an article ({reason})")


def _judged(page: str | bytes, url: str | None, page_type: str, confidence: float, reason: str,
            params: dict[str, Any]) -> Extraction:
    """The default algorithm's extraction of ``page`` as judged: as its type when the judgement is
    sure enough (:func:`acted_on`) and the typed reading grows well past the article reading
    (:func:`mcecrawl.algorithms.typed.grown_enough`), else as an article."""
    from mcecrawl.algorithms.typed import each_block_once, extract_as, grown_enough, min_growth, too_large

    read_as, why = acted_on(page_type, confidence, reason)
    article = get_algorithm(DEFAULT_ALGORITHM)(page, **params)
    if read_as in ("article", "other"):
        return replace(article, page_type=read_as, page_type_reason=why)
    large = too_large(page)
    if large:  # its tree would cost many times the page: memory stays bounded
        why = f"{page_type} judged at {confidence:.2f}, but {large}: read as an article ({reason})"
        return replace(article, page_type="article", page_type_reason=why)
    try:
        typed = extract_as(page, read_as, url=url, base=article, once=False, **params)
    except (Exception, RecursionError) as e:  # the article reading stands: a typed reading never costs the page
        logger.warning("reading %s as %s failed: %r", url or "<page>", read_as, e)
        why = f"{page_type} judged at {confidence:.2f}, but its reading failed ({e!r}): read as an article"
        return replace(article, page_type="article", page_type_reason=why)
    if not grown_enough(article, typed, confidence):
        why = (f"{page_type} judged at {confidence:.2f}, but its reading is under "
               f"{min_growth(read_as, confidence):g} times the article's text: read as an article ({reason})")
        return replace(article, page_type="article", page_type_reason=why)
    return replace(each_block_once(typed), page_type_reason=why)


def _typed(page: str | bytes, url: str | None, page_type: str | None, params: dict[str, Any]) -> Extraction:
    """The default algorithm's extraction of ``page`` read as its page type: ``page_type`` when the
    caller gives it, else the judgement's when acted on (:func:`_judged`); an article (or a page not
    judged) is extracted as today."""
    from mcecrawl.algorithms.typed import extract_as, too_large

    reason = "given by the caller"
    if page_type is None:
        judge = _judge()
        if judge is None:
            return get_algorithm(DEFAULT_ALGORITHM)(page, **params)
        try:
            judgement = judge(page, url)
        except Exception as e:  # a failed judgement leaves the page unjudged, extracted as an article
            logger.warning("page-type judgement failed on %s: %r", url or "<page>", e)
            result = get_algorithm(DEFAULT_ALGORITHM)(page, **params)
            return replace(result, page_type_reason=f"judgement failed: {e!r}")
        return _judged(page, url, judgement.page_type, judgement.confidence, judgement.reason, params)
    large = too_large(page) if page_type not in ("article", "other") else None
    if large:
        return replace(get_algorithm(DEFAULT_ALGORITHM)(page, **params), page_type="article",
                       page_type_reason=f"{page_type} given by the caller, but {large}: read as an article")
    return replace(extract_as(page, page_type, url=url, **params), page_type_reason=reason)


def extract(html: bytes | str, *, algorithm: str = DEFAULT_ALGORITHM, url: str | None = None,
            content_type: str | None = None, utf8: bool = False, page_type: str | None = None,
            **params: Any) -> Extraction:
    """Extract the main content of one page.

    Parameters
    ----------
    html : bytes or str
        The page; bytes in any encoding are decoded by :func:`mcecrawl.encoding.decode`.
    algorithm : str
        One of :data:`ALGORITHMS` ("scored_regions", "dana", "danag", "r2l", "xpath_blocks") or of
        :data:`BASELINES` ("plain", "bte", "dsc", "fe", "kfe", "lqf", "crunch", "ccb", "accb", "tccb", "density").
    url : str, optional
        The page's address (kept for algorithms and callers that log it).
    content_type : str, optional
        HTTP Content-Type header, whose charset guides decoding.
    utf8 : bool
        ``html`` is bytes known to be valid UTF-8 (a crawled page after the encoding middleware):
        not decoded again; the algorithms of :data:`UTF8_READERS` read the bytes as they are.
    page_type : str, optional
        For the default algorithm: read the page as this type (one of
        :data:`mcecrawl.algorithms.result.PAGE_TYPES`; "article" gives the article extraction
        alone) instead of judging it.  Unset, the page is judged when the judgement is installed
        and ``page_type`` / ``page_type_reason`` of the result say what it was judged and why.
    **params
        Algorithm parameters (e.g. ``P=8``); strings are converted to the parameter's type.

    Returns
    -------
    Extraction
        Never raises for bad input: empty, binary, undecodable or pathological pages give
        status ``"empty"`` or ``"error"`` with a reason.

    Raises
    ------
    ValueError
        For usage errors only: an unknown algorithm or parameter, or a bad parameter value.
    """
    func = get_algorithm(algorithm)
    if page_type is not None and page_type not in PAGE_TYPES:
        raise ValueError(f"page_type must be one of {', '.join(PAGE_TYPES)}, not {page_type!r}")
    if algorithm == DEFAULT_ALGORITHM:
        def func(page: str | bytes, **params: Any) -> Extraction:
            return _typed(page, url, page_type, params)
    encoding = source = None
    page: str | bytes
    if isinstance(html, (bytes, bytearray, memoryview)):
        body = bytes(html)
        kind = sniff_binary(body)
        if kind:
            return Extraction("", (), algorithm, params, status="error", reason=f"not HTML: {kind}")
        if utf8:  # UTF-8 already: read as it is, or decoded once without detection
            page = body if algorithm in UTF8_READERS else body.decode("utf-8", "replace")
        else:
            try:
                from mcecrawl.encoding import decode

                decoded = decode(body, content_type)
            except Exception as e:  # decoding must never take the caller down
                logger.warning("decoding failed for %s: %r", url or "<bytes>", e)
                return Extraction("", (), algorithm, params, status="error", reason=f"decoding failed: {e!r}")
            encoding, source = decoded.encoding, decoded.source
            # Valid UTF-8: the body itself, neither decoded nor encoded again (no str of the page is
            # held while the algorithm runs).
            page = decoded.page if algorithm in UTF8_READERS else decoded.text
            del decoded
    elif isinstance(html, str):
        page = html
    else:
        return Extraction("", (), algorithm, params, status="error",
                          reason=f"expected bytes or str, not {type(html).__name__}")
    if is_blank(page):
        return Extraction("", (), algorithm, params, status="empty", reason="empty page",
                          encoding=encoding, encoding_source=source)
    try:
        result = func(page, **params)
    except ParamError:
        raise
    except (Exception, RecursionError, MemoryError) as e:  # a bad page becomes a result, never a crash
        logger.warning("%s failed on %s: %r", algorithm, url or "<page>", e)
        return Extraction("", (), algorithm, params, status="error", reason=f"{algorithm} failed: {e!r}",
                          encoding=encoding, encoding_source=source)
    if encoding is not None:
        result = replace(result, encoding=encoding, encoding_source=source)
    return result


__all__ = ["ALGORITHMS", "ALGORITHM_NAMES", "BASELINES", "BASELINE_NAMES", "DEFAULT_ALGORITHM", "UTF8_READERS",
           "Extraction", "ParamError", "Region",
           "extract", "get_algorithm", "sniff_binary"]
