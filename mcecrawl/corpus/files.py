"""Corpus files as every command reads them: ``.jsonl``, ``.jsonl.gz`` (gzip members, as
``mcecrawl from-warc`` appends them) and directories of such shards.

A ``.jsonl.gz`` cut inside its last member (a run killed while writing) is read up to the last
whole line of what inflates; the lost tail is reported once on the logger, never raised.
"""
from __future__ import annotations

import json
import logging
import zlib
from pathlib import Path
from typing import Any, Iterable, Iterator

__all__ = ["CORPUS_SUFFIXES", "corpus_files", "iter_items", "iter_lines"]

logger = logging.getLogger(__name__)

CORPUS_SUFFIXES = (".jsonl", ".jsonl.gz", ".json.gz", ".ndjson", ".ndjson.gz")


def _is_corpus(path: Path) -> bool:
    return path.name.endswith(CORPUS_SUFFIXES) and not path.name.startswith((".", "_"))


def corpus_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files of ``paths``: a file as given, a directory's corpus files (recursively, sorted)."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.is_file() and _is_corpus(f))
        else:
            files.append(p)
    return files


def _gzip_lines(path: Path) -> Iterator[str]:
    """Lines of a gzip file of one or more members, up to the last whole line that inflates."""
    with open(path, "rb") as f:
        d = zlib.decompressobj(31)
        buf = b""
        broken = False
        while not broken and (chunk := f.read(1 << 20)):
            while chunk:
                try:
                    buf += d.decompress(chunk)
                except zlib.error as e:
                    logger.warning("%s: corrupt gzip data, the rest is skipped (%s)", path, e)
                    broken = True
                    break
                chunk, d = (d.unused_data, zlib.decompressobj(31)) if d.eof else (b"", d)
            *lines, buf = buf.split(b"\n")
            for line in lines:
                yield line.decode("utf-8", errors="replace")
        if buf.strip():
            logger.warning("%s: ends inside a line (cut while written?); its last %d bytes are skipped", path, len(buf))


def iter_lines(path: str | Path) -> Iterator[str]:
    """Lines (without ``\\n``) of a ``.jsonl`` or gzip corpus file."""
    path = Path(path)
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    if gz:
        yield from _gzip_lines(path)
        return
    with open(path, encoding="utf-8", errors="replace", newline="\n") as f:
        for line in f:
            yield line.rstrip("\n")


def iter_items(paths: Iterable[str | Path]) -> Iterator[dict[str, Any]]:
    """Records of the corpus files of ``paths`` (:func:`corpus_files`); lines that are not JSON
    objects are skipped."""
    for path in corpus_files(paths):
        for line in iter_lines(path):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                yield rec

