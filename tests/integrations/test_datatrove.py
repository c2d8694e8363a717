"""mcecrawl's steps in datatrove's LocalPipelineExecutor: several WARCs, 2 workers, the same kept pages
and texts as ``mcecrawl from-warc`` (skips when the ``datatrove`` extra is not installed)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "archives"))
from test_run import _corpus_warcs  # noqa: E402

from mcecrawl.archives.run import RunOptions, run  # noqa: E402
from mcecrawl.corpus.files import iter_items  # noqa: E402


def test_module_imports_without_touching_datatrove():
    import mcecrawl.integrations.datatrove as dt

    with pytest.raises(AttributeError):
        dt.NoSuchStep  # noqa: B018


def test_local_executor_matches_from_warc(tmp_path):
    pytest.importorskip("datatrove", reason="the datatrove extra is not installed (pip install mcecrawl[datatrove])")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter

    from mcecrawl.integrations.datatrove import McecrawlPages, WarcPagesReader

    (tmp_path / "in").mkdir()
    warcs = _corpus_warcs(tmp_path / "in", n_files=4, per_file=3)
    bad = tmp_path / "in" / "zz.warc.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00 not a warc at all")
    out = tmp_path / "dt"
    LocalPipelineExecutor(
        pipeline=[WarcPagesReader(str(tmp_path / "in"), glob_pattern="*.warc.gz"),
                  McecrawlPages(dedup_db=str(tmp_path / "dedup.sqlite")),
                  JsonlWriter(str(out), compression=None)],
        tasks=3, workers=2, logging_dir=str(tmp_path / "logs")).run()
    docs = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text("utf-8").splitlines()]
    run(RunOptions(warcs, str(tmp_path / "fw"), workers=1))
    ours = list(iter_items([tmp_path / "fw"]))
    assert len(ours) == 4 * 4
    assert sorted((d["metadata"]["url"], d["text"]) for d in docs) == sorted((i["url"], i["text"]) for i in ours)
    assert sum(1 for d in docs if d["metadata"]["duplicate_of"]) == 4  # 5 copies of one text across tasks
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text("utf-8"))
    assert "rejected_prefilter" in json.dumps(stats)


def test_extractor_block():
    pytest.importorskip("datatrove", reason="the datatrove extra is not installed (pip install mcecrawl[datatrove])")
    from warcs import PARAS_FA, page

    from mcecrawl.integrations.datatrove import McecrawlExtractor

    text = McecrawlExtractor().extract(page(PARAS_FA))
    assert PARAS_FA[0] in text and "بخش" not in text
