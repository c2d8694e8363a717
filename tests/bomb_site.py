"""A generated news site some of whose pages are decompression bombs (tests of the crawl path).

Each bomb is a small body that inflates far beyond ``DOWNLOAD_MAXSIZE`` (10 MB): gzip (1 GiB of
zeros in 100 concatenated members, ~1 MB), deflate (200 MiB), brotli and zstd (1 GiB), nested
(``Content-Encoding: gzip, gzip`` and ``br, gzip``: the outer layer alone is harmless), and a plain
body over the limit as sent.  Bodies are built once per process and cached.

A test helper, not shipped in the wheel: imported by name like ``synthetic_site``.
"""
from __future__ import annotations

import gzip
import zlib
from functools import lru_cache

from synthetic_site import SyntheticSite

MIB = 2**20
_ZEROS = bytes(10 * MIB)


@lru_cache(maxsize=None)
def gzip_bomb(mib: int = 1024) -> bytes:
    return gzip.compress(_ZEROS, 9) * (mib // 10)  # a gzip file may hold many members


@lru_cache(maxsize=None)
def deflate_bomb(mib: int = 200) -> bytes:
    c = zlib.compressobj(9)
    return b"".join(c.compress(_ZEROS) for _ in range(mib // 10)) + c.flush()


@lru_cache(maxsize=None)
def brotli_bomb(mib: int = 1024) -> bytes:
    import brotli

    c = brotli.Compressor(quality=5)
    return b"".join(c.process(_ZEROS) for _ in range(mib // 10)) + c.finish()


@lru_cache(maxsize=None)
def zstd_bomb(mib: int = 1024) -> bytes:
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14
    except ImportError:
        from backports import zstd  # Scrapy's own dependency before 3.14
    c = zstd.ZstdCompressor(level=3)
    return b"".join(c.compress(_ZEROS) for _ in range(mib // 10)) + c.flush()


def bombs() -> dict[str, tuple[str | None, bytes, str]]:
    """Article number -> (Content-Encoding, body, the reason its drop is counted under)."""
    return {
        "gzip": ("gzip", gzip_bomb(), "decompressed_too_large"),
        "deflate": ("deflate", deflate_bomb(), "decompressed_too_large"),
        "br": ("br", brotli_bomb(), "decompressed_too_large"),
        "zstd": ("zstd", zstd_bomb(), "decompressed_too_large"),
        "gzip-in-gzip": ("gzip, gzip", gzip.compress(gzip_bomb()), "decompressed_too_large"),
        "gzip-in-br": ("gzip, br", _brotli(gzip_bomb()), "decompressed_too_large"),
        "plain-11MiB": (None, b"<html><body>" + b"<p>x</p>" * (11 * MIB // 8) + b"</body></html>", "too_large"),
    }


def _brotli(data: bytes) -> bytes:
    import brotli

    return brotli.compress(data, quality=5)


class BombSite(SyntheticSite):
    """Articles ``0 .. n-1`` as usual, except that the first ``len(bombs())`` are bombs."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.bombs = list(bombs().items())

    def bomb_of(self, i: int) -> tuple[str, tuple[str | None, bytes, str]] | None:
        return self.bombs[i] if i < len(self.bombs) else None

    def resolver(self, path, query):
        if path.startswith("/news/") and path[6:].isdigit() and (bomb := self.bomb_of(int(path[6:]))) is not None:
            encoding, body, _ = bomb[1]
            headers = {"Content-Type": "text/html; charset=utf-8"}
            if encoding:
                headers["Content-Encoding"] = encoding
            return 200, headers, body
        return super().resolver(path, query)
