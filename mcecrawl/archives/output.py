"""Where ``from-warc`` writes, and how a killed run resumes.

``OUT`` is a ``.jsonl`` file, a ``.jsonl.gz`` file (one gzip member per WARC: concatenated members
are one valid gzip stream) or a directory of per-WARC shards (``<warc name>.jsonl.gz``).  The items
of one WARC are committed together, after the WARC is read to its end: appended (and fsync'ed),
then the state file records the WARC as done together with the output's committed length.  A run
killed at any moment therefore leaves at most one uncommitted tail, which the next run cuts off
(a ``.jsonl.gz`` cut mid-member is repaired this way) before it skips the done WARCs and reads the
rest: no record is written twice, none is lost.

State: ``OUT.state.json`` beside a file, ``OUT/_state.json`` in a directory; worker scratch files
in ``OUT.parts/`` (``OUT/_parts/``).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from mcecrawl.jsonlines import dumps_line

__all__ = ["Output", "output_kind"]

STATE_VERSION = 1


def output_kind(path: str | Path) -> str:
    """``"gz"``, ``"plain"`` or ``"dir"`` for an output path."""
    name = str(path)
    if name.endswith(".gz"):
        return "gz"
    if name.endswith((".jsonl", ".json", ".ndjson")):
        return "plain"
    return "dir"


def warc_key(warc: str) -> str:
    """The state's key of a WARC: its absolute path, or its URL as given."""
    if warc.startswith(("http://", "https://")):
        return warc
    return str(Path(warc).resolve())


@dataclass
class Output:
    """The output of one run and its resume state."""

    path: Path
    kind: str = ""
    done: dict[str, dict[str, Any]] = field(default_factory=dict)  # WARC key -> its counts
    length: int = 0  # committed bytes of a file output
    shards: dict[str, str] = field(default_factory=dict)  # WARC key -> shard file name (dir output)
    resumed: bool = False

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self.kind = self.kind or output_kind(self.path)

    @property
    def state_path(self) -> Path:
        return self.path / "_state.json" if self.kind == "dir" else self.path.with_name(self.path.name + ".state.json")

    @property
    def parts_dir(self) -> Path:
        return self.path / "_parts" if self.kind == "dir" else self.path.with_name(self.path.name + ".parts")

    def open(self) -> None:
        """Load the state of an earlier run of this output (and cut its uncommitted tail), or
        start a new output."""
        if self.kind == "dir":
            self.path.mkdir(parents=True, exist_ok=True)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        state = None
        if self.state_path.is_file():
            try:
                state = json.loads(self.state_path.read_text("utf-8"))
            except ValueError:
                state = None
        if state and state.get("version") == STATE_VERSION:
            self.done, self.length, self.shards = state["done"], state["length"], state.get("shards", {})
            self.resumed = True
        if self.kind != "dir":
            with open(self.path, "ab") as f:  # creates it
                f.truncate(self.length if self.resumed else 0)
        shutil.rmtree(self.parts_dir, ignore_errors=True)
        self.parts_dir.mkdir(parents=True, exist_ok=True)

    def _save(self) -> None:
        tmp = self.state_path.with_name(self.state_path.name + ".tmp")
        tmp.write_text(json.dumps({"version": STATE_VERSION, "done": self.done, "length": self.length,
                                   "shards": self.shards}, ensure_ascii=False), "utf-8")
        os.replace(tmp, self.state_path)

    def part_path(self, warc: str) -> Path:
        return self.parts_dir / (hashlib.sha1(warc_key(warc).encode()).hexdigest()[:16] + ".jsonl")

    def _shard_name(self, warc: str) -> str:
        name = Path(warc).name
        for suffix in (".gz", ".warc", ".arc"):
            name = name.removesuffix(suffix)
        taken = set(self.shards.values())
        shard = f"{name}.jsonl.gz"
        if shard in taken:
            shard = f"{name}-{hashlib.sha1(warc_key(warc).encode()).hexdigest()[:8]}.jsonl.gz"
        return shard

    def commit(self, warc: str, items: Iterable[dict[str, Any]], counts: dict[str, Any]) -> int:
        """Write ``items`` of ``warc`` and record it as done; returns the number written."""
        key = warc_key(warc)
        n = 0
        if self.kind == "dir":
            shard = self._shard_name(warc)
            target = self.path / shard
            tmp = target.with_name(target.name + ".part")
            with gzip.open(tmp, "wb") as g:
                for item in items:
                    g.write(dumps_line(item).encode("utf-8"))
                    n += 1
            os.replace(tmp, target)
            self.shards[key] = shard
        else:
            with open(self.path, "r+b") as f:
                f.seek(self.length)
                f.truncate()
                if self.kind == "gz":
                    with gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as g:
                        for item in items:
                            g.write(dumps_line(item).encode("utf-8"))
                            n += 1
                    if n == 0:  # no empty member
                        f.seek(self.length)
                        f.truncate()
                else:
                    for item in items:
                        f.write(dumps_line(item).encode("utf-8"))
                        n += 1
                f.flush()
                os.fsync(f.fileno())
                self.length = f.tell()
        self.done[key] = dict(counts, kept=n)
        self._save()
        return n

    def committed_files(self) -> list[Path]:
        if self.kind == "dir":
            return [self.path / s for s in self.shards.values() if (self.path / s).is_file()]
        return [self.path] if self.length else []

    def close(self) -> None:
        shutil.rmtree(self.parts_dir, ignore_errors=True)
