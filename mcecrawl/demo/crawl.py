"""Run a real ``scrapy crawl`` in a subprocess (demo, end-to-end tests, benchmarks).

A subprocess keeps Twisted's one-reactor-per-process rule out of the caller and is exactly what a
user runs.  The project settings are found through ``SCRAPY_SETTINGS_MODULE``, so the crawl works
from any directory, installed or from a checkout.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Iterable

PACKAGE_PARENT = Path(__file__).resolve().parents[2]

# A local fixture server needs no politeness delay; everything else stays as configured.
LOCAL_SETTINGS = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
}


def crawl_env() -> dict[str, str]:
    env = dict(os.environ)
    env["SCRAPY_SETTINGS_MODULE"] = "mcecrawl.settings"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_PARENT), env.get("PYTHONPATH")]))
    env.setdefault("PYTHONIOENCODING", "utf-8")
    return env


def crawl_command(spider: str, *, output: Path | str | None = None, base_url: str | None = None,
                  args: dict[str, str] | None = None, settings: dict[str, str] | None = None,
                  local: bool = True) -> list[str]:
    """``python -m scrapy crawl SPIDER [-a base_url=...] [-O output] [-s K=V ...]``."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", spider]
    if base_url:
        cmd += ["-a", f"base_url={base_url}"]
    for k, v in (args or {}).items():
        cmd += ["-a", f"{k}={v}"]
    if output is not None:
        cmd += ["-O", str(output)]
    merged = {**(LOCAL_SETTINGS if local else {}), **(settings or {})}
    for k, v in merged.items():
        cmd += ["-s", f"{k}={v}"]
    return cmd


def run_crawl(spider: str, *, cwd: Path | str | None = None, timeout: float = 300,
              **kwargs) -> subprocess.CompletedProcess:
    """Run the crawl to completion; stdout/stderr captured as text."""
    return subprocess.run(crawl_command(spider, **kwargs), cwd=cwd, env=crawl_env(), capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=timeout)


def start_crawl(spider: str, *, cwd: Path | str | None = None, log_path: Path | str | None = None,
                **kwargs) -> subprocess.Popen:
    """Start the crawl in the background (the crash/resume test kills it)."""
    log = open(log_path, "w", encoding="utf-8") if log_path else subprocess.DEVNULL
    return subprocess.Popen(crawl_command(spider, **kwargs), cwd=cwd, env=crawl_env(), stdout=log,
                            stderr=subprocess.STDOUT)


def read_jsonl(paths: Path | str | Iterable[Path | str]) -> list[dict]:
    """Records of one or more JSON-lines files; raises ValueError on an invalid line."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    records = []
    for path in paths:
        with open(path, encoding="utf-8", newline="") as f:
            for n, line in enumerate(f.read().split("\n"), 1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except ValueError as e:
                        raise ValueError(f"{path}:{n}: invalid JSON line: {e}") from None
    return records


def summarize_crawl(records: list[dict]) -> dict:
    """Items, statuses and a sample title, for the demo's closing report."""
    statuses = Counter(r.get("status") for r in records)
    sample = next((r for r in records if r.get("status") == "ok" and r.get("title")), None)
    return {"items": len(records), "statuses": dict(statuses),
            "sample_title": sample.get("title") if sample else None,
            "sample_url": sample.get("canonical_url") if sample else None,
            "sample_text": (sample.get("text") or "")[:160] if sample else None}


def stats_from_log(log: str) -> dict[str, str]:
    """``'key': value`` lines of Scrapy's closing stats dump (values as text)."""
    out = {}
    started = False
    for line in log.splitlines():
        if "Dumping Scrapy stats" in line:
            started = True
            continue
        if started:
            s = line.strip().strip("{},")
            if s.startswith("'") and "':" in s:
                k, _, v = s.partition("':")
                out[k.strip("'")] = v.strip().rstrip(",")
            elif "INFO:" in line or "DEBUG:" in line:
                break
    return out
