"""A small Common Crawl columnar index built from WARCs the tests wrote: Common Crawl's column names
and types (commoncrawl/cc-index-table's flat schema), one row per response record."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator

_ARABIC = re.compile("[\u0600-\u06ff]")


def script_languages(url: str, body: bytes) -> str:
    """content_languages as CLD2 would give it for the test pages: Persian/Arabic by the URL's TLD
    when the page has Arabic script, else English."""
    text = body.decode("utf-8", "replace")
    if _ARABIC.search(text) or not body.isascii():
        return "ara,eng" if urlsplit(url).hostname.endswith(".eg") else "fas,eng"
    return "eng"


def build_index(warcs: list[Path], root: Path, out: Path,
                languages: Callable[[str, bytes], str] = script_languages) -> int:
    """Write the index of ``warcs`` (warc_filename relative to ``root``) to the Parquet file ``out``;
    returns its rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows: dict[str, list] = {k: [] for k in ("url", "url_host_name", "url_host_tld", "fetch_time", "fetch_status",
                                             "content_mime_detected", "content_charset", "content_languages",
                                             "warc_filename", "warc_record_offset", "warc_record_length")}
    for warc in warcs:
        by_id: dict[str, int] = {}
        with open(warc, "rb") as f:
            it = ArchiveIterator(f)
            for rec in it:
                rtype = rec.rec_type
                if rtype == "metadata":
                    ref = rec.rec_headers.get_header("WARC-Concurrent-To")
                    m = re.search(rb"charset-detected:\s*(\S+)", rec.content_stream().read())
                    if ref in by_id and m:
                        rows["content_charset"][by_id[ref]] = m.group(1).decode()
                    continue
                if rtype != "response":
                    continue
                url = rec.rec_headers.get_header("WARC-Target-URI")
                body = rec.content_stream().read()
                it.read_to_end()
                host = urlsplit(url).hostname or ""
                ctype = (rec.http_headers.get_header("Content-Type") or "").split(";")[0].strip() or None
                by_id[rec.rec_headers.get_header("WARC-Record-ID")] = len(rows["url"])
                rows["url"].append(url)
                rows["url_host_name"].append(host)
                rows["url_host_tld"].append(host.rsplit(".", 1)[-1])
                rows["fetch_time"].append(datetime.fromisoformat(
                    rec.rec_headers.get_header("WARC-Date").replace("Z", "+00:00")))
                rows["fetch_status"].append(int(rec.http_headers.get_statuscode()))
                rows["content_mime_detected"].append(ctype)
                rows["content_charset"].append(None)
                rows["content_languages"].append(languages(url, body))
                rows["warc_filename"].append(str(Path(warc).resolve().relative_to(root.resolve())))
                rows["warc_record_offset"].append(it.get_record_offset())
                rows["warc_record_length"].append(it.get_record_length())
    schema = pa.schema([("url", pa.string()), ("url_host_name", pa.string()), ("url_host_tld", pa.string()),
                        ("fetch_time", pa.timestamp("us", tz="UTC")), ("fetch_status", pa.int16()),
                        ("content_mime_detected", pa.string()), ("content_charset", pa.string()),
                        ("content_languages", pa.string()), ("warc_filename", pa.string()),
                        ("warc_record_offset", pa.int32()), ("warc_record_length", pa.int32())])
    out.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(rows, schema=schema), out, row_group_size=64)
    return len(rows["url"])
