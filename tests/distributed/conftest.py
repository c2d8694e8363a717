"""A real redis-server on 127.0.0.1, on a free port, in a temporary directory (no fake Redis)."""
from __future__ import annotations

import pytest

from redis_server import start_redis  # the module's redis_server fixture is tests/conftest.py's


@pytest.fixture
def redis_url(redis_server):
    """An empty database of the module's server."""
    redis_server.client.flushall()
    return redis_server.url


@pytest.fixture
def own_redis(tmp_path_factory):
    """A server of the test's own (a test that stops it)."""
    server = start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()
