"""Loader for evaluation datasets in the format of docs/evaluation.md ("Data").

::

    <dataset>/manifest.jsonl          one JSON object per page
    <dataset>/pages/<id>.html         raw bytes as stored by the source (original encoding); or
    <dataset>/pages/<id>.html.gz      the same gzipped, as WCXB ships its pages (manifest ``page_file``)
    <dataset>/gold/<id>.txt           UTF-8 gold main content (gold_kind "full")
    <dataset>/gold_in_page/<id>.txt   optional variant keeping only gold text present in the page

Snippet pages (``gold_kind: "snippets"``) carry ``with``/``without`` lists instead of a gold file;
a manifest ``page_type`` (WCXB: article, listing, forum, ...) is kept on the page for per-type figures.
Pages are decoded through :func:`mcecrawl.encoding.decode` exactly as a crawl would, with a
manifest ``http_charset`` passed as the HTTP Content-Type.  Bodies are read lazily.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

from mcecrawl.encoding import Decoded, decode

GZIP_MAGIC = b"\x1f\x8b"
GOLD_VARIANTS = ("gold", "gold_in_page")


@dataclass(frozen=True)
class Page:
    """One page of a dataset: metadata, raw bytes, decoded text and gold."""

    id: str
    dataset: str
    path: Path
    lang: str | None
    site: str
    url: str | None
    gold_kind: str  # "full" | "snippets" | "none"
    gold: str | None = None
    gold_in_page: str | None = None
    with_: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    http_charset: str | None = None
    page_type: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def content_type(self) -> str | None:
        """The Content-Type a server would have sent (only when the manifest pins a charset)."""
        return f"text/html; charset={self.http_charset}" if self.http_charset else None

    @cached_property
    def body(self) -> bytes:
        """Raw page bytes, inflated when the file itself is gzip (by its magic bytes, whatever its
        name: a manifest ``stored_gzip`` says the *source* was gzipped, and ``pages/<id>.html.gz``
        files are gzipped as stored)."""
        data = self.path.read_bytes()
        if data[:2] == GZIP_MAGIC:
            data = gzip.decompress(data)
        return data

    @cached_property
    def decoded(self) -> Decoded:
        return decode(self.body, self.content_type)

    @property
    def text(self) -> str:
        return self.decoded.text

    def gold_text(self, variant: str = "gold") -> str | None:
        """Gold for ``variant`` ("gold" or "gold_in_page", which falls back to "gold")."""
        if variant not in GOLD_VARIANTS:
            raise ValueError(f"gold variant must be one of {GOLD_VARIANTS}, not {variant!r}")
        if variant == "gold_in_page" and self.gold_in_page is not None:
            return self.gold_in_page
        return self.gold


@dataclass(frozen=True)
class Dataset:
    name: str
    root: Path
    pages: tuple[Page, ...]

    def __iter__(self) -> Iterator[Page]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)

    def scored(self) -> tuple[Page, ...]:
        """Pages that have gold of some kind (full text or snippets)."""
        return tuple(p for p in self.pages if p.gold_kind in ("full", "snippets"))

    def filter(self, *, site: str | None = None, lang: str | None = None) -> "Dataset":
        pages = tuple(p for p in self.pages if (site is None or p.site == site) and (lang is None or p.lang == lang))
        return Dataset(self.name, self.root, pages)


def site_of(record: dict[str, Any]) -> str:
    """The manifest's ``site``, else the host of ``url`` without ``www.``, else ``"unknown"``."""
    if record.get("site"):
        return str(record["site"])
    host = urlsplit(record.get("url") or "").hostname or ""
    return host.removeprefix("www.") or "unknown"


def _read_text(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def page_path(root: Path, record: dict[str, Any]) -> Path | None:
    """The page file of a manifest record: its ``page_file`` (relative to ``root``), else
    ``pages/<id>.html``, else ``pages/<id>.html.gz``; None when none of them exists."""
    pid = str(record["id"])
    names = [record["page_file"]] if record.get("page_file") else [f"pages/{pid}.html", f"pages/{pid}.html.gz"]
    for name in names:
        if (root / name).is_file():
            return root / name
    return None


def load_dataset(root: str | Path) -> Dataset:
    """Read ``root/manifest.jsonl`` and attach gold; raise FileNotFoundError with the path when
    the manifest or a page file is missing and ValueError naming the line when it is not JSON."""
    root = Path(root)
    manifest = root / "manifest.jsonl"
    if not manifest.is_file():
        raise FileNotFoundError(f"{manifest}: no manifest.jsonl (not a dataset folder)")
    pages = []
    with open(manifest, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{manifest}:{number}: {exc}") from None
            pid = str(rec["id"])
            path = page_path(root, rec)
            if path is None:
                wanted = rec.get("page_file") or f"pages/{pid}.html (or .html.gz)"
                raise FileNotFoundError(f"{manifest}:{number}: page file {wanted} is missing")
            kind = rec.get("gold_kind") or "none"
            gold = _read_text(root / "gold" / f"{pid}.txt") if kind == "full" else None
            if kind == "full" and gold is None:
                kind = "none"  # a full-gold page whose gold file is missing cannot be scored
            pages.append(Page(
                id=pid,
                dataset=rec.get("dataset") or root.name,
                path=path,
                lang=rec.get("lang"),
                site=site_of(rec),
                url=rec.get("url"),
                gold_kind=kind,
                gold=gold,
                gold_in_page=_read_text(root / "gold_in_page" / f"{pid}.txt") if kind == "full" else None,
                with_=tuple(rec.get("with") or ()),
                without=tuple(rec.get("without") or ()),
                http_charset=rec.get("http_charset"),
                page_type=rec.get("page_type"),
                meta=rec,
            ))
    return Dataset(root.name, root, tuple(pages))


# A page's page-type markup: JSON-LD scripts, og:type metas, microdata attributes.  Removed, a dev
# page stands for the same page on a site that carries none (the generic news spider's "any site" case).
_LDJSON = re.compile(r"<script[^>]*ld\+json[^>]*>.*?</script>", re.S | re.I)
_OG_TYPE = re.compile(r"<meta[^>]*og:type[^>]*>", re.I)
_MICRODATA = re.compile(r"\sitem(?:scope|type|prop)(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?", re.I)


def strip_markup(text: str) -> str:
    """``text`` without its page-type markup (JSON-LD, og:type, itemscope/itemtype/itemprop)."""
    return _MICRODATA.sub("", _OG_TYPE.sub("", _LDJSON.sub("", text)))


def data_files(root: str | Path) -> list[Path]:
    """The files a dataset's scores depend on (manifest, pages, gold variants), sorted."""
    root = Path(root)
    files = [root / "manifest.jsonl"]
    for sub in ("pages", *GOLD_VARIANTS):
        if (root / sub).is_dir():
            files.extend(sorted(p for p in (root / sub).iterdir() if p.is_file()))
    return files


def dataset_sha256(root: str | Path) -> str:
    """SHA-256 over the relative path and bytes of every :func:`data_files` file, so that any
    changed, added or removed page or gold changes the digest."""
    root = Path(root)
    h = hashlib.sha256()
    for path in data_files(root):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


__all__ = ["Dataset", "GOLD_VARIANTS", "Page", "data_files", "dataset_sha256", "load_dataset", "page_path", "site_of",
           "strip_markup"]
