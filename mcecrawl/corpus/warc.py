"""Reading the WARC archives written by ``WarcArchiveMiddleware``.

The writer lives in :mod:`mcecrawl.middlewares`; this side turns response records back into
``(url, headers, original bytes)`` for ``mcecrawl reextract``.  warcio undoes the
Content-Encoding (gzip, deflate, br) the server applied, so ``body`` is what Scrapy's
HttpCompressionMiddleware would have handed to the encoding middleware.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

__all__ = ["WarcResponse", "iter_responses"]


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
