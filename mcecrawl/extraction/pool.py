"""Extraction worker processes for the crawl: ``python -m mcecrawl.extraction.pool``.

Why not ``concurrent.futures.ProcessPoolExecutor``: its feeder and manager threads take the GIL
from the crawl's one thread at every submit (measured ~1.5 ms per page, as much as bare Scrapy
spends on a whole page).  Here the crawl talks to each worker over its stdin/stdout pipes through
the asyncio event loop Scrapy already runs: no extra thread in the crawl process.  A worker exits
at end of input, so it also ends when the crawl is killed (its stdin closes).

Frames both ways: 4-byte big-endian length + pickle.  Request ``(job_id, ExtractionJob)``; reply
``(job_id, ExtractionOutcome)`` (:mod:`mcecrawl.extraction.job`).  Neither side of a worker imports
Scrapy (tests/test_extraction.py).
"""
from __future__ import annotations

import asyncio
import logging
import os
import pickle
import struct
import sys
from typing import BinaryIO

from mcecrawl.exceptions import MceError
from mcecrawl.extraction.job import ExtractionJob, ExtractionOutcome, run_job

logger = logging.getLogger(__name__)

_HEADER = struct.Struct(">I")
# Pipe capacity asked for each worker's stdin: a whole 100-500 KB page fits, so a job is one
# write() instead of ~5 event-loop wake-ups on the default 64 KB pipe (BENCHMARKS.md, crawl);
# 1 MiB is Linux's default /proc/sys/fs/pipe-max-size.
PIPE_BYTES = 1 << 20


class WorkerDied(MceError, RuntimeError):
    """The worker process ended while a job was pending."""


def _read_exact(stream: BinaryIO, n: int) -> bytes | None:
    buf = b""
    while len(buf) < n:
        chunk = stream.read(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        header = _read_exact(stdin, _HEADER.size)
        if header is None:
            return 0
        body = _read_exact(stdin, _HEADER.unpack(header)[0])
        if body is None:
            return 0
        job_id, job = pickle.loads(body)
        try:
            outcome = run_job(job)
        except Exception as e:  # extract() never raises for pages; keep the worker alive anyway
            outcome = ExtractionOutcome.error(job, f"worker: {e!r}")
        out = pickle.dumps((job_id, outcome), protocol=pickle.HIGHEST_PROTOCOL)
        stdout.write(_HEADER.pack(len(out)) + out)
        stdout.flush()


def _widen_pipe(writer: asyncio.StreamWriter) -> None:
    """Raise the pipe's capacity to :data:`PIPE_BYTES` where the OS allows (Linux); else keep it."""
    import fcntl

    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None)
    pipe = writer.transport.get_extra_info("pipe")
    if setpipe is None or pipe is None:
        return
    try:
        fcntl.fcntl(pipe.fileno(), setpipe, PIPE_BYTES)
    except OSError:  # above pipe-max-size for an unprivileged user, or not a pipe
        pass


class WorkerPool:
    """``n`` worker processes driven from the asyncio loop; jobs go to the least busy worker."""

    def __init__(self, n: int):
        self.n = n
        self._procs: list[asyncio.subprocess.Process] = []
        self._pending: dict[int, tuple[asyncio.Future[ExtractionOutcome], int]] = {}
        self._load: list[int] = []
        self._readers: list[asyncio.Task[None]] = []
        self._next = 0
        self._started: asyncio.Future[None] | None = None

    async def start(self) -> None:
        if self._started is None:
            self._started = asyncio.get_running_loop().create_future()
            env = dict(os.environ)
            pkg_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [pkg_parent, env.get("PYTHONPATH")]))
            for i in range(self.n):
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "mcecrawl.extraction.pool", env=env,
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
                assert proc.stdin is not None  # stdin=PIPE
                _widen_pipe(proc.stdin)
                self._procs.append(proc)
                self._load.append(0)
                self._readers.append(asyncio.create_task(self._read(i)))
            self._started.set_result(None)
        await self._started

    async def _read(self, i: int) -> None:
        stream = self._procs[i].stdout
        assert stream is not None  # started with stdout=PIPE
        try:
            while True:
                size = _HEADER.unpack(await stream.readexactly(_HEADER.size))[0]
                job_id, outcome = pickle.loads(await stream.readexactly(size))
                fut, _ = self._pending.pop(job_id)
                self._load[i] -= 1
                if not fut.done():
                    fut.set_result(outcome)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        for job_id, (fut, w) in list(self._pending.items()):  # fail what this worker still owed
            if w == i:
                self._pending.pop(job_id)
                if not fut.done():
                    fut.set_exception(WorkerDied(f"extraction worker {i} ended"))
        self._load[i] = 1 << 30  # never pick it again

    async def run(self, job: ExtractionJob) -> ExtractionOutcome:
        await self.start()
        i = min(range(self.n), key=self._load.__getitem__)
        if self._load[i] >= 1 << 30:
            raise WorkerDied("no extraction worker left")
        job_id, self._next = self._next, self._next + 1
        fut: asyncio.Future[ExtractionOutcome] = asyncio.get_running_loop().create_future()
        self._pending[job_id] = (fut, i)
        self._load[i] += 1
        body = pickle.dumps((job_id, job), protocol=pickle.HIGHEST_PROTOCOL)
        stdin = self._procs[i].stdin
        assert stdin is not None  # started with stdin=PIPE
        try:
            stdin.write(_HEADER.pack(len(body)))
            stdin.write(body)
            await stdin.drain()
        except (ConnectionError, BrokenPipeError) as e:
            self._pending.pop(job_id, None)
            raise WorkerDied(str(e)) from e
        return await fut

    async def close(self) -> None:
        for proc in self._procs:
            if proc.stdin and not proc.stdin.is_closing():
                proc.stdin.close()
        for proc in self._procs:
            try:
                await asyncio.wait_for(proc.wait(), timeout=30)
            except asyncio.TimeoutError:
                proc.kill()
        for task in self._readers:
            task.cancel()


__all__ = ["PIPE_BYTES", "WorkerDied", "WorkerPool", "main"]

if __name__ == "__main__":
    raise SystemExit(main())
