"""The project's own settings (``MCE_*``) as one frozen object read in ``from_crawler``.

Their defaults are written once, in ``mcecrawl/settings.py``; a crawl that does not load the project
settings (a component used in another Scrapy project, a unit test's bare ``Settings()``) gets the
same defaults from there.  A field ``x`` is the setting ``MCE_X``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Protocol

from mcecrawl import settings as _project_settings


class _Settings(Protocol):
    def get(self, name: str, default: Any = None) -> Any: ...
    def getbool(self, name: str, default: bool = False) -> bool: ...
    def getint(self, name: str, default: int = 0) -> int: ...
    def getfloat(self, name: str, default: float = 0.0) -> float: ...
    def getlist(self, name: str, default: list[Any] | None = None) -> list[Any]: ...


@dataclass(frozen=True)
class Config:
    permission_granted: list[str]
    robotstxt_also_obey: list[str]
    retry_after_enabled: bool
    retry_after_max: float
    done_record: str | None
    encoding_enabled: bool
    encoding_force: str
    encoding_rewrite_meta: bool
    encoding_warn_replacements: bool
    extraction_workers: int
    rejects_feed: str | None
    corpus_enabled: bool
    dates_enabled: bool
    dedup_enabled: bool
    dedup_db: str
    dedup_drop: bool
    dedup_threshold: float
    recrawl_unchanged: str
    langid_enabled: bool
    normalize_digits: str
    normalize_keep_harakat: bool
    normalize_zwnj: str
    warc_enabled: bool
    warc_dir: str
    warc_gzip: bool
    warc_max_bytes: int
    search_index_enabled: bool
    search_index_batch_size: int
    search_index_db: str
    redis_url: str
    crawl_id: str
    worker_id: str
    lease_seconds: float
    reap_other_host_after: float
    redis_dedup_prefix: str
    fault_kill_after_write: int

    @classmethod
    def from_settings(cls, settings: _Settings) -> Config:
        getters: dict[str, Callable[[str, Any], Any]] = {
            "bool": settings.getbool, "int": settings.getint, "float": settings.getfloat, "list[str]": settings.getlist}
        values = {}
        for f in fields(cls):
            name = "MCE_" + f.name.upper()
            default = getattr(_project_settings, name)
            values[f.name] = getters.get(str(f.type), settings.get)(name, default)
        return cls(**values)


def setting_names() -> list[str]:
    """The ``MCE_*`` names :class:`Config` reads."""
    return ["MCE_" + f.name.upper() for f in fields(Config)]


__all__ = ["Config", "setting_names"]
