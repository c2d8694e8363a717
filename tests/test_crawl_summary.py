"""End-to-end: a crawl whose host cannot be reached ends with one readable summary, not tracebacks.

The hamshahri spider against a 127.0.0.1 port nobody listens on (as an offline run against the
live host would be): robots.txt and every entry point fail; the log names each entry point with
the error, says robots.txt could not be fetched, and holds no traceback.
"""
from __future__ import annotations

import socket

from mcecrawl.demo.crawl import run_crawl, stats_from_log
from mcecrawl.profile import load_profile


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_entry_points_are_named_without_tracebacks(tmp_path):
    port = _closed_port()
    proc = run_crawl("hamshahri", base_url=f"http://127.0.0.1:{port}", output=tmp_path / "out.jsonl", cwd=tmp_path,
                     timeout=120, settings={"RETRY_TIMES": "0", "MCE_DEDUP_DB": str(tmp_path / "d.sqlite")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    log = proc.stderr
    assert "Traceback" not in log
    entry = load_profile("hamshahri").entry_points
    n = sum(len(v) for v in entry.values())
    assert f"{n} of the profile's entry points could not be fetched" in log
    for url in [u for urls in entry.values() for u in urls]:
        path = url.split("hamshahrionline.ir", 1)[1]
        assert f"http://127.0.0.1:{port}{path}: " in log, path
    assert "Connection was refused" in log or "Connection refused" in log
    assert "robots.txt of 127.0.0.1 could not be fetched" in log
    assert int(stats_from_log(log)["mcecrawl/entry_points/failed"]) == n
