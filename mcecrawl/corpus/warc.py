"""WARC/1.1 archives of the crawl's responses: written with :class:`WarcWriter`, read back with
:func:`iter_responses`.

The writer is driven by ``WarcArchiveMiddleware`` (:mod:`mcecrawl.downloadermiddlewares`), which
hands it each request/response pair as the server sent it; ``mcecrawl reextract`` turns the
response records back into ``(url, headers, original bytes)``.  warcio undoes the
Content-Encoding (gzip, deflate, br) the server applied, so a read ``body`` is what Scrapy's
HttpCompressionMiddleware would have handed to the encoding middleware.  No Scrapy here.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import Any, Iterable, Iterator

__all__ = ["WarcResponse", "WarcWriter", "iter_responses"]

logger = logging.getLogger(__name__)


class WarcWriter:
    """Request/response pairs as WARC/1.1 records in ``directory``.

    Files are ``<name>-<UTC time>-<serial>.warc.gz`` (``.warc`` without gzip), each starting with
    a warcinfo record, written as ``*.open`` and renamed when rotated at ``max_bytes`` or closed.
    The first file is opened by the first record, so a run that archives nothing leaves no file.
    """

    def __init__(self, directory: str | Path, name: str, *, max_bytes: int, gzip: bool = True,
                 software: str = "mcecrawl", description: str = ""):
        self.directory = Path(directory)
        self.name = name
        self.max_bytes = max_bytes
        self.gzip = gzip
        self.software = software
        self.description = description
        self.files = 0  # files opened so far
        # Open file, its warcio WARCWriter (warcio is untyped) and path while a file is being written.
        self._file: Any = None
        self._writer: Any = None
        self._path: Path | None = None

    def _open(self) -> None:
        from warcio.warcwriter import WARCWriter

        self.directory.mkdir(parents=True, exist_ok=True)
        self.files += 1
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d%H%M%S")
        filename = f"{self.name}-{stamp}-{self.files:05d}.warc" + (".gz" if self.gzip else "")
        self._path = self.directory / filename
        self._file = open(str(self._path) + ".open", "wb")
        self._writer = WARCWriter(self._file, gzip=self.gzip, warc_version="1.1")
        self._writer.write_record(self._writer.create_warcinfo_record(filename, {
            "software": self.software, "format": "WARC File Format 1.1", "description": self.description}))

    def _finish_file(self) -> None:
        if self._file is not None:
            self._file.close()
            os.replace(str(self._path) + ".open", str(self._path))
            logger.info("WARC archive written: %s", self._path)
        self._file = self._writer = None

    def close(self) -> None:
        """Finish the open file (rename it from ``*.open``)."""
        self._finish_file()

    def write_exchange(self, *, url: str, status_line: str, protocol: str, headers: list[tuple[str, str]],
                       body: bytes, request_url: str, request_line: str, request_headers: list[tuple[str, str]],
                       request_body: bytes) -> tuple[str, int]:
        """Write a response record and its request record (``WARC-Concurrent-To`` the response).

        ``status_line`` is e.g. ``"200 OK"``, ``request_line`` e.g. ``"GET /a?b=1 HTTP/1.1"``.
        Returns the response record's ``WARC-Record-ID`` and the bytes the two records took.
        """
        from warcio.statusandheaders import StatusAndHeaders

        if self._file is not None and self._file.tell() >= self.max_bytes:
            self._finish_file()
        if self._file is None:
            self._open()
        record = self._writer.create_warc_record(
            url, "response", payload=BytesIO(body),
            http_headers=StatusAndHeaders(status_line, headers, protocol=protocol))
        record_id = record.rec_headers.get_header("WARC-Record-ID")
        request_record = self._writer.create_warc_record(
            request_url, "request", payload=BytesIO(request_body),
            http_headers=StatusAndHeaders(request_line, request_headers, is_http_request=True),
            warc_headers_dict={"WARC-Concurrent-To": record_id})
        before = self._file.tell()
        self._writer.write_record(record)
        self._writer.write_record(request_record)
        return record_id, self._file.tell() - before


@dataclass(frozen=True)
class WarcResponse:
    record_id: str
    url: str
    date: str | None  # WARC-Date (fetch time, ISO-8601)
    status: int
    content_type: str | None
    body: bytes


def iter_responses(paths: Iterable[str | Path], *, html_only: bool = True) -> Iterator[WarcResponse]:
    """Response records of ``paths`` in file order (``*.warc``, ``*.warc.gz``, ``*.open`` too)."""
    from warcio.archiveiterator import ArchiveIterator

    for path in paths:
        with open(path, "rb") as f:
            for record in ArchiveIterator(f):
                if record.rec_type != "response" or record.http_headers is None:
                    continue
                ctype = record.http_headers.get_header("Content-Type")
                if html_only and ctype and "html" not in ctype.lower():
                    continue
                status = int((record.http_headers.get_statuscode() or "0")[:3] or 0)
                yield WarcResponse(
                    record_id=record.rec_headers.get_header("WARC-Record-ID"),
                    url=record.rec_headers.get_header("WARC-Target-URI"),
                    date=record.rec_headers.get_header("WARC-Date"),
                    status=status,
                    content_type=ctype,
                    body=record.content_stream().read(),
                )
