"""A throwaway redis-server on 127.0.0.1 (tests and benchmarks of distributed crawls).

Runs the ``redis-server`` binary (Debian package ``redis-server``) on a free port with its working
directory in a given temporary directory, no persistence, and stops it on ``stop()``/exit.

A test helper, not shipped in the wheel: imported by name (pytest puts ``tests/`` on sys.path for the
top-level conftest; the benchmarks add it themselves).
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

# How long redis-server may take to answer PING after start (it starts in ~10 ms).
START_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """``with RedisServer(tmpdir) as r: r.url``; raises FileNotFoundError without redis-server."""

    def __init__(self, directory: Path | str):
        exe = shutil.which("redis-server")
        if exe is None:
            raise FileNotFoundError("redis-server is not installed (apt-get install redis-server)")
        import redis

        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen(
            [exe, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(directory), "--save", "",
             "--appendonly", "no", "--protected-mode", "yes", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.client = redis.Redis(host="127.0.0.1", port=self.port)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                self.client.ping()
                break
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "RedisServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start_redis(directory) -> RedisServer:
    """A real redis-server on 127.0.0.1 in ``directory``, or a skip saying what installs it."""
    import pytest

    try:
        return RedisServer(directory)
    except FileNotFoundError as e:
        pytest.skip(f"{e}; .ci/run installs it")

