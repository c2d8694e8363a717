"""Project settings a user relies on without reading them: a crawl offers no listening port."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from mcecrawl.demo.crawl import start_crawl
from mcecrawl.demo.server import FixtureServer, site_dir

LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's st column


def listening_ports(pid: int) -> set[int]:
    """TCP ports on which process ``pid`` or its children hold a listening socket (Linux /proc)."""
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    inodes: set[str] = set()
    for p in pids:
        try:
            for fd in Path(f"/proc/{p}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except (FileNotFoundError, ProcessLookupError):
            continue
    ports = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == LISTEN and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads listening sockets from Linux /proc")
def test_a_crawl_listens_on_no_port(tmp_path):
    """Scrapy 2.19 would open its telnet console and its remote-control server (it runs any Python
    sent to it) in every crawl; ours opens neither unless asked (-s TELNETCONSOLE_ENABLED=1 ...)."""
    seen: set[int] = set()
    with FixtureServer(site_dir("hamshahri")) as srv:
        proc = start_crawl("hamshahri", base_url=srv.url, output=tmp_path / "out.jsonl", cwd=tmp_path,
                           log_path=tmp_path / "crawl.log",
                           settings={"MCE_DEDUP_DB": str(tmp_path / "dedup.sqlite")})
        try:
            deadline = time.monotonic() + 120
            while proc.poll() is None and time.monotonic() < deadline:
                seen |= listening_ports(proc.pid)
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    log = (tmp_path / "crawl.log").read_text(encoding="utf-8")
    assert proc.returncode == 0, log[-3000:]
    assert "Spider closed (finished)" in log  # the crawl ran to the end while we watched
    assert seen == set(), f"the crawl listened on {sorted(seen)}"
    assert "Telnet console listening" not in log and "Remote control HTTP server" not in log
