"""WARC/1.1 archives of the crawl's responses, written with :class:`WarcWriter`.

The writer is driven by ``WarcArchiveMiddleware`` (:mod:`mcecrawl.downloadermiddlewares`), which
hands it each request/response pair as the server sent it (original bytes, Content-Encoding
kept).  They are read back by :func:`mcecrawl.archives.reader.iter_records`, the one WARC reader
(``mcecrawl reextract`` / ``from-warc``).  No Scrapy here.
"""
from __future__ import annotations

import logging
import os
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import Any

__all__ = ["WarcWriter"]

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
