"""The test process cannot reach a live site (tests/conftest.py ``no_live_network``); the loopback works."""
from __future__ import annotations

import socket

import pytest


def test_live_hosts_are_neither_resolved_nor_connected():
    with pytest.raises(socket.gaierror):
        socket.getaddrinfo("www.bbc.com", 443)
    with socket.socket() as s, pytest.raises(ConnectionRefusedError):
        s.connect(("93.184.216.34", 80))


def test_the_loopback_still_works():
    assert socket.getaddrinfo("localhost", 80)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.socket() as client:
            client.connect(server.getsockname())
