"""WARC records with FastWARC, robust to bad input: response records as :class:`Record`, everything
else as a :class:`Rejected` with a reason.  No Scrapy here.

FastWARC 2 (its ``ArchiveIterator``) reads ``.warc``, per-record gzip (Common Crawl's layout) and
whole-file gzip; it no longer undoes the HTTP ``Content-Encoding`` by default, and we keep it that
way: :func:`undo_content_encoding` inflates with a size cap, so a decompression bomb is one
rejected record, not an exhausted machine.  FastWARC stops at the first record it cannot parse
(a truncated gzip member, a lying ``Content-Length``, garbage headers); :func:`iter_records` then
resynchronises at the next record start (the next gzip member, or the next ``WARC/1.`` line) and
goes on, so no good record after a bad one is lost.  Bodies are read up to :data:`MAX_BODY_BYTES`:
memory stays bounded whatever a record claims.

Common Crawl writes the charset its detector found in the ``metadata`` record that follows each
response (``charset-detected: windows-1256``); :func:`iter_records` attaches it to the response
(one record of look-ahead), and :func:`mcecrawl.encoding.decode` weighs it as evidence.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Union

from mcecrawl.exceptions import MceError

__all__ = ["MAX_BODY_BYTES", "MAX_INFLATED_BYTES", "Record", "Rejected", "iter_records", "undo_chunking",
           "undo_content_encoding"]

# Payload bytes read per record at most.  Web pages are below 2 MB almost always (HTTP Archive's
# page-weight report: median HTML ~30 KB, p99 under 1 MB); Common Crawl itself truncates
# payloads at 1 MiB (WARC-Truncated: length).  A larger record is rejected as "too_large".
MAX_BODY_BYTES = 8 << 20
# Bytes a Content-Encoding may inflate to: twice the read cap.  Real HTML compresses 5-10x, a
# gzip bomb ~1000x; inflation stops here and the record is rejected as a bomb.
MAX_INFLATED_BYTES = 16 << 20
# Check each page's WARC-Payload-Digest (SHA-1, ~0.1 ms per 100 KB page): a gzip member cut short
# and followed by the next one can inflate to a whole record of garbage that no length check sees.
VERIFY_PAYLOAD_DIGEST = True
# Bytes scanned per read when looking for the next record start after a bad one.
RESYNC_CHUNK = 1 << 20
_GZIP_MEMBER = b"\x1f\x8b\x08"
# Rejections that can be a gzip member cut short and inflated on into the members after it (FastWARC
# reads the next members' compressed bytes as the cut record's payload, swallowing their records):
# after one, the reader checks that it still meets the next member (:func:`_iter_file`).
CORRUPT_REASONS = frozenset({"bad_record", "bad_http_headers", "not_http", "digest_mismatch", "truncated_record"})
_WARC_LINE = re.compile(rb"(?:^|\n)WARC/1\.[01]\r?\n")
_CHARSET_DETECTED = re.compile(rb"^charset-detected:\s*([A-Za-z0-9._:-]+)", re.M)


@dataclass(frozen=True)
class Record:
    """An HTTP response record of a WARC file, the payload as archived (Content-Encoding undone)."""

    warc: str  # the WARC file
    offset: int  # byte offset of the record in the file (of its gzip member when per-record gzip)
    record_id: str
    url: str
    date: str | None  # WARC-Date, ISO-8601
    status: int
    content_type: str | None
    body: bytes
    charset_detected: str | None = None  # Common Crawl's metadata record: charset-detected
    # Why the payload is known to be cut short (read only with iter_records(keep_truncated=True)), else None
    truncated: str | None = None


@dataclass(frozen=True)
class Rejected:
    """A record (or a stretch of the file) not turned into a page, and why."""

    reason: str  # a short category, e.g. "not_html", "bad_record"
    offset: int
    url: str | None = None
    detail: str = ""


Item = Union[Record, Rejected]


class InflateError(MceError, ValueError):
    """A Content-Encoding that could not be undone; ``reason`` is the category."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason


def undo_content_encoding(body: bytes, encoding: str | None, cap: int = MAX_INFLATED_BYTES) -> bytes:
    """``body`` with the HTTP ``Content-Encoding`` chain undone (gzip, x-gzip, deflate, br, identity).

    Raises :class:`InflateError` ("decompression_bomb" past ``cap`` bytes, "bad_content_encoding"
    for corrupt data or an unknown coding).  A body that is not compressed although labelled so
    (servers and archivers that decoded it already) is returned as is.
    """
    codings = [c.strip().lower() for c in (encoding or "").split(",") if c.strip()]
    for coding in reversed(codings):  # applied in order listed: undo the last first
        if coding in ("identity", "none"):
            continue
        if coding in ("gzip", "x-gzip", "deflate"):
            if coding != "deflate" and not body.startswith(b"\x1f\x8b"):
                continue  # labelled gzip, stored inflated (wget, some archivers)
            wbits = 31 if body.startswith(b"\x1f\x8b") else (15 if body[:1] in (b"\x78", b"\x58") else -15)
            d = zlib.decompressobj(wbits)
            try:
                out = d.decompress(body, cap + 1)
            except zlib.error as e:
                if coding == "deflate" and b"<" in body[:64]:
                    continue  # labelled deflate, stored plain
                raise InflateError("bad_content_encoding", f"{coding}: {e}") from None
            if len(out) > cap:
                raise InflateError("decompression_bomb", f"{coding} inflates past {cap} bytes")
            if not out and not d.eof:  # a cut stream still yields its start (Common Crawl cuts at 1 MiB)
                raise InflateError("bad_content_encoding", f"{coding}: no data inflates")
            body = out
        elif coding == "br":
            import brotli

            try:
                dec = brotli.Decompressor()
                out = dec.process(body, output_buffer_limit=cap + 1)
            except (brotli.error, TypeError) as e:  # TypeError: brotli older than 1.2 (no output limit)
                raise InflateError("bad_content_encoding", f"br: {e}") from None
            if len(out) > cap or not dec.is_finished() and len(out) >= cap:
                raise InflateError("decompression_bomb", f"br inflates past {cap} bytes")
            body = out
        else:
            raise InflateError("bad_content_encoding", f"unsupported Content-Encoding {coding!r}")
    return body


def undo_chunking(body: bytes) -> bytes:
    """``body`` with HTTP/1.1 chunked transfer coding removed, or as is when it is not validly
    chunked (archivers that stored the de-chunked body but kept the header: warcio's
    example-wrong-chunks)."""
    out: list[bytes] = []
    pos = 0
    while True:
        eol = body.find(b"\r\n", pos, pos + 64)
        if eol < 0:
            return body
        size_field = body[pos:eol].split(b";", 1)[0].strip()
        try:
            size = int(size_field, 16)
        except ValueError:
            return body
        if size == 0:
            return b"".join(out)
        start = eol + 2
        if start + size > len(body):  # cut in the last chunk: keep what arrived
            out.append(body[start:])
            return b"".join(out)
        out.append(body[start:start + size])
        pos = start + size
        if body[pos:pos + 2] == b"\r\n":
            pos += 2
        if pos >= len(body):
            return b"".join(out)


def _next_start(f: BinaryIO, pos: int, gz: bool) -> int | None:
    """Offset of the first record start (gzip member or ``WARC/1.x`` line) at or after ``pos``."""
    f.seek(pos)
    carry = b""
    base = pos
    while True:
        chunk = f.read(RESYNC_CHUNK)
        if not chunk:
            return None
        data = carry + chunk
        if gz:
            i = data.find(_GZIP_MEMBER)
            if i >= 0:
                return base + i
        else:
            m = _WARC_LINE.search(data)
            if m is not None:
                return base + m.start() + (1 if data[m.start():m.start() + 1] == b"\n" else 0)
        carry = data[-8:]
        base += len(data) - len(carry)


def _header(headers: object, name: str) -> str | None:
    value = headers.get(name) if headers is not None else None  # type: ignore[attr-defined]
    return str(value) if value else None


def iter_records(path: str | Path, *, max_body: int = MAX_BODY_BYTES, html_only: bool = True,
                 fileobj: BinaryIO | None = None, want: Callable[[bytes], bool] | None = None,
                 keep_truncated: bool = False) -> Iterator[Item]:
    """Response records of the WARC ``path`` as :class:`Record`, every other record, bad record or
    unreadable stretch as :class:`Rejected` (in file order).  Never raises for bad content; a
    file that cannot be opened or is no WARC at all ends in one ``Rejected`` (``unreadable_file``,
    ``not_warc``).  ``fileobj``: the file already open (seekable; e.g. fsspec's), ``path`` names it.
    ``want``: a test of the payload (the script prefilter) run before the digest check, so that the
    pages it drops cost no hashing; they come out as ``Rejected("prefilter")``.

    A payload cut short -- the file or its gzip member ends inside the record, the record carries
    ``WARC-Truncated``, or the payload is shorter than its HTTP ``Content-Length`` -- is
    ``Rejected("truncated_record")``; with ``keep_truncated`` it is a :class:`Record` whose
    ``truncated`` says why (``--keep-failed`` keeps such pages with that status)."""
    from contextlib import nullcontext

    path = str(path)
    if fileobj is None:
        try:
            fileobj = open(path, "rb")
        except OSError as e:
            yield Rejected("unreadable_file", 0, detail=str(e))
            return
        opened: Any = fileobj
    else:
        opened = nullcontext(fileobj)
    with opened:
        yield from _iter_file(fileobj, path, max_body, html_only, want, keep_truncated)


def _iter_file(f: BinaryIO, path: str, max_body: int, html_only: bool,
               want: Callable[[bytes], bool] | None, keep_truncated: bool) -> Iterator[Item]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    gz = f.read(2) == b"\x1f\x8b"
    # where to (re)start reading; (offset, rank) of the last record handed out: records of a
    # whole-file gzip all report the offset of the compressed block they end in
    start: int | None = 0
    last = (-1, 0)
    seen_any = False
    in_bad_stretch = False  # failed again before reading a record: the same bad stretch
    pending: Record | None = None
    member: int | None = None  # the gzip member after a corrupt-looking record: the next record must not skip it
    while start is not None:
        f.seek(start)
        failed_at = start
        try:
            prev, rank = -1, 0
            for rec in ArchiveIterator(f, parse_http=False):
                pos = rec.stream_pos
                rank = rank + 1 if pos == prev else 0
                prev = pos
                if (pos, rank) <= last:
                    continue  # read again after a resync
                if member is not None and pos > member:
                    break  # the records of the members in between were swallowed: read again from there
                member = None
                last, failed_at, seen_any, in_bad_stretch = (pos, rank), pos, True, False
                rtype = rec.record_type
                headers = rec.headers
                if rtype == WarcRecordType.metadata and pending is not None:
                    refers = _header(headers, "WARC-Concurrent-To") or _header(headers, "WARC-Refers-To")
                    if refers == pending.record_id:
                        m = _CHARSET_DETECTED.search(rec.reader.read(64 * 1024))
                        if m:
                            pending = _with_charset(pending, m.group(1).decode("ascii"))
                if pending is not None:
                    yield pending
                    pending = None
                url = _header(headers, "WARC-Target-URI")
                if url and url.startswith("<") and url.endswith(">"):  # wget 1.20 wrote <uri>
                    url = url[1:-1]
                if rtype == WarcRecordType.revisit:
                    yield Rejected("revisit", pos, url)
                    continue
                if rtype != WarcRecordType.response:
                    yield Rejected("not_response", pos, url, str(rtype))
                    continue
                item = _response(rec, path, pos, url, max_body, html_only, want, keep_truncated)
                if isinstance(item, Record):
                    pending = item
                else:
                    yield item
                    if gz and item.reason in CORRUPT_REASONS:
                        here = f.tell()
                        member = _next_start(f, pos + 1, gz)
                        f.seek(here)  # FastWARC reads on from where it was
            # the stream ended or passed ``member`` (always after the last record read) unread
            start = member  # None: the file is read; else a member the stream swallowed
            member = None
        except (OSError, ValueError, UnicodeDecodeError) as e:  # FastWARC: OSError on bad records
            if pending is not None:
                yield pending
                pending = None
            if not seen_any and failed_at == 0:
                yield Rejected("not_warc", 0, detail=f"{e} (not a WARC file: ARC and other formats are not read)")
                return
            if not in_bad_stretch:
                yield Rejected("bad_record", failed_at, detail=str(e))
            in_bad_stretch = True
            start = _next_start(f, max(failed_at, last[0]) + 1, gz)
    if pending is not None:
        yield pending


def _digest_ok(payload: bytes, digest: str) -> bool:
    """``payload`` matches a ``sha1:`` WARC-Payload-Digest (base32 or hex); other algorithms pass."""
    import base64
    import hashlib

    algo, _, value = digest.partition(":")
    if algo.strip().lower() != "sha1":
        return True
    raw = hashlib.sha1(payload).digest()
    value = value.strip()
    return value.upper() == base64.b32encode(raw).decode("ascii") or value.lower() == raw.hex()


def _with_charset(rec: Record, charset: str) -> Record:
    from dataclasses import replace

    return replace(rec, charset_detected=charset)


def _cut_record(headers: object, body: bytes, declared: int) -> str | None:
    """Why the record itself says its payload ``body`` is cut short, or None."""
    if len(body) < declared:  # the file or its gzip member ends inside the record
        return f"{len(body)} of the record's {declared} payload bytes"
    marked = _header(headers, "WARC-Truncated")
    return f"WARC-Truncated: {marked}" if marked else None


def _http_shortfall(http: object, raw: bytes) -> str | None:
    """The payload is shorter than its HTTP ``Content-Length`` (which counts the bytes as sent, still
    Content-Encoded as archived; a chunked body has none that counts), or None.  Asked only when no
    payload digest vouches for the payload: warcio's example-wrong-chunks.warc.gz holds a whole page,
    its digest right, one byte under the Content-Length its server sent."""
    length = (_header(http, "Content-Length") or "").strip()
    if not length.isdigit() or "chunked" in (_header(http, "Transfer-Encoding") or "").lower():
        return None
    return f"{len(raw)} of the HTTP Content-Length's {int(length)} bytes" if len(raw) < int(length) else None


def _response(rec: object, path: str, pos: int, url: str | None, max_body: int, html_only: bool,
              want: Callable[[bytes], bool] | None, keep_truncated: bool = False) -> Item:
    """One response record -> :class:`Record`, or the reason it is none."""
    headers = rec.headers  # type: ignore[attr-defined]
    if not url:
        return Rejected("bad_record", pos, None, "response without WARC-Target-URI")
    if not url.startswith(("http://", "https://")):
        return Rejected("not_http", pos, url)
    try:
        rec.parse_http()  # type: ignore[attr-defined]
        http = rec.http_headers  # type: ignore[attr-defined]
    except (OSError, ValueError) as e:
        return Rejected("bad_http_headers", pos, url, str(e))
    if http is None or not http.status_code:
        return Rejected("bad_http_headers", pos, url, "no HTTP status line")
    ctype = _header(http, "Content-Type")
    if html_only and ctype and not any(t in ctype.lower() for t in ("html", "xml")):
        return Rejected("not_html", pos, url, ctype.split(";")[0])
    # Common Crawl's own MIME detection of the payload (Tika): a PDF served as text/html says so here.
    identified = _header(headers, "WARC-Identified-Payload-Type")
    if html_only and identified and not any(t in identified.lower() for t in ("html", "xml")):
        return Rejected("not_html", pos, url, identified)
    status = int(http.status_code)
    if status != 200:
        return Rejected("http_status", pos, url, str(status))
    declared = rec.content_length  # type: ignore[attr-defined]  # of the payload, once HTTP is parsed
    if declared > max_body:
        return Rejected("too_large", pos, url, f"payload of {declared} bytes, over {max_body}")
    body = rec.reader.read(max_body + 1)  # type: ignore[attr-defined]
    if len(body) > max_body:
        return Rejected("too_large", pos, url, f"payload over {max_body} bytes")
    truncated = _cut_record(headers, body, declared)
    if truncated and not keep_truncated:
        return Rejected("truncated_record", pos, url, truncated)
    raw = dechunked = body
    if "chunked" in (_header(http, "Transfer-Encoding") or "").lower():
        dechunked = undo_chunking(raw)
    try:
        body = undo_content_encoding(dechunked, _header(http, "Content-Encoding"))
    except InflateError as e:
        return Rejected(e.reason, pos, url, str(e))
    if not body.strip():
        return Rejected("empty_payload", pos, url)
    if want is not None and not want(body):
        return Rejected("prefilter", pos, url)
    digest = _header(headers, "WARC-Payload-Digest")
    # writers digest the chunked or the de-chunked body
    verified = None if not (VERIFY_PAYLOAD_DIGEST and digest) or truncated \
        else _digest_ok(raw, digest) or (dechunked is not raw and _digest_ok(dechunked, digest))
    if not truncated and not verified:
        truncated = _http_shortfall(http, raw)
        if truncated and not keep_truncated:
            return Rejected("truncated_record", pos, url, truncated)
    if verified is False and not truncated:
        return Rejected("digest_mismatch", pos, url, digest or "")
    date = _header(headers, "WARC-Date")
    return Record(warc=path, offset=pos, record_id=_header(headers, "WARC-Record-ID") or f"{path}@{pos}", url=url,
                  date=date, status=status, content_type=ctype, body=bytes(body), truncated=truncated)
