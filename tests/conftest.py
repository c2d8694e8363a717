"""Shared fixtures.  Tests that read the shared evaluation data ($MCE_DATA_ROOT, else ../shared/data)
skip, saying what to set, when it is absent.

No test reaches a live site: in the test process, connecting to or resolving anything but the
loopback fails as an unreachable host would (live URLs in tests are strings to canonicalise and
route, or hosts a crawl maps onto a local server with ``-a base_url=http://127.0.0.1:...``)."""
from __future__ import annotations

import ipaddress
import json
import socket
from pathlib import Path

import pytest

from data_root import MISSING, SHARED_DATA
from redis_server import start_redis

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_loopback(host) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host is None or host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def no_live_network(monkeypatch):
    """Refuse every connection and name lookup that is not the loopback (see the module docstring)."""
    real_getaddrinfo = socket.getaddrinfo
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def getaddrinfo(host, *args, **kwargs):
        if not _is_loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, f"tests reach no live site ({host})")
        return real_getaddrinfo(host, *args, **kwargs)

    def local(address) -> bool:
        return not isinstance(address, tuple) or _is_loopback(address[0])  # AF_UNIX paths are local

    def connect(self, address):
        if not local(address):
            raise ConnectionRefusedError(f"tests reach no live site ({address[0]})")
        return real_connect(self, address)

    def connect_ex(self, address):
        if not local(address):
            return 111  # ECONNREFUSED
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared evaluation data (real pages with gold): ``$MCE_DATA_ROOT``, else ../shared/data; or skip."""
    if not SHARED_DATA.is_dir():
        pytest.skip(MISSING)
    return SHARED_DATA


def load_manifest(dataset: Path) -> list[dict]:
    with open(dataset / "manifest.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A real redis-server for the module's tests (no fake Redis)."""
    server = start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()

