"""mcecrawl's datatrove steps under datatrove's cluster executors, for real: ``SlurmPipelineExecutor`` on
a single-node Slurm the test starts (munged, slurmctld, slurmd) and ``RayPipelineExecutor`` on a
local Ray, 2 tasks in 2 processes sharing one Redis dedup store.  Both must keep the items
``mcecrawl from-warc`` keeps on the same WARCs (url, text hash, WARC) and write each text once.

Skips with the reason where Slurm/munge (Debian ``slurm-wlm``, ``munge``), Ray (the ``ray`` extra),
redis-server or datatrove are missing; ``.ci/run`` installs them all.  Jobs are tiny (5 WARCs,
1 CPU and 500 MB a task) and bounded in time; every daemon stops in its fixture's finalizer.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "archives"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cluster_services import SlurmCluster, Unavailable  # noqa: E402
from test_run import _corpus_warcs  # noqa: E402
from warcs import PARAS_FA, page, write_warc  # noqa: E402

from mcecrawl.archives.run import RunOptions, run  # noqa: E402
from mcecrawl.corpus.files import iter_items  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Longest a whole executor run may take here (2 tasks of ~5 s each on a shared 2-core machine).
JOB_TIMEOUT = 240.0
TASKS = 2



@pytest.fixture
def warcs(tmp_path):
    """4 WARCs of 3 Persian and 3 English pages, each with a copy of one page of the first WARC
    (5 copies of one text), and a 5th WARC re-visiting the 2nd one's Persian pages (same URLs,
    same texts: repeats) plus one new page."""
    (tmp_path / "in").mkdir()
    paths = _corpus_warcs(tmp_path / "in", n_files=4, per_file=3)
    revisit = [(item["url"], item["body"]) for item in _revisited(paths[1])]
    new = page([*PARAS_FA, "خبری تازه که پیش از این نبود و تنها اینجاست."]).encode()
    write_warc(tmp_path / "in" / "w4.warc.gz", [*revisit, ("http://new.ir/1", new)])
    return [*paths, str(tmp_path / "in" / "w4.warc.gz")]


def _revisited(warc):
    from warcio.archiveiterator import ArchiveIterator

    out = []
    with open(warc, "rb") as f:
        for rec in ArchiveIterator(f):
            url = rec.rec_headers.get_header("WARC-Target-URI")
            if rec.rec_type == "response" and ".ir/" in url and "copy" not in url:
                out.append({"url": url, "body": rec.content_stream().read()})
    assert len(out) == 3
    return out


def _reference(tmp_path, warcs):
    run(RunOptions(warcs, str(tmp_path / "fw"), workers=1))
    return [(Path(i["warc_file"]).name, i["url"], _sha(i["text"]), bool(i["duplicate_of"]))
            for i in iter_items([tmp_path / "fw"])]


def _sha(text):
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def _datatrove_items(out: Path):
    docs = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text("utf-8").splitlines()]
    return [(Path(d["metadata"]["warc_file"]).name, d["metadata"]["url"], _sha(d["text"]),
             bool(d["metadata"]["duplicate_of"])) for d in docs]


def _assert_same_kept_items_each_text_once(got, expected):
    assert sorted(g[:3] for g in got) == sorted(e[:3] for e in expected)  # the same items, the same texts
    originals = Counter(sha for _, _, sha, dup in got if not dup)
    assert originals == Counter(sha for _, _, sha, dup in expected if not dup)  # each text once
    assert set(originals.values()) == {1}
    # which copy of a text is the first may differ (two tasks reach the store in either order);
    # a text with one copy is never a duplicate, and the copies of each text agree in number
    assert Counter(sha for *_, sha, dup in got if dup) == Counter(sha for *_, sha, dup in expected if dup)


def _pipeline(tmp_path, dedup_db):
    from datatrove.pipeline.writers import JsonlWriter

    from mcecrawl.integrations.datatrove import McecrawlPages, WarcPagesReader

    return [WarcPagesReader(str(tmp_path / "in"), glob_pattern="*.warc.gz"), McecrawlPages(dedup_db=dedup_db),
            JsonlWriter(str(tmp_path / "dt"), compression=None)]


def _store_holds_each_text(redis_server, items) -> None:
    """The tasks' one store is the Redis database: one first copy per distinct text kept."""
    assert redis_server.client.hlen("mce:dedup:docs") == len({sha for _, _, sha, _ in items})


def _both_tasks_kept_items(logs: Path) -> None:
    """Each of the 2 tasks (2 processes: Slurm array jobs, Ray actors) checked and kept pages itself."""
    for rank in range(TASKS):
        stats = json.loads((logs / "stats" / f"{rank:05d}.json").read_text("utf-8"))
        kept = [s for s in stats if "pages" in s["name"]][0]["stats"].get("kept", {})
        assert (kept.get("total") if isinstance(kept, dict) else kept), (rank, stats)


# --- Slurm ----------------------------------------------------------------------------------------

@pytest.fixture
def slurm(tmp_path_factory, monkeypatch):
    pytest.importorskip("datatrove", reason="the datatrove extra is not installed (pip install mcecrawl[datatrove])")
    try:
        cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    except Unavailable as e:
        pytest.skip(str(e))
    monkeypatch.setenv("SLURM_CONF", str(cluster.conf))  # datatrove calls sbatch itself
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    yield cluster
    cluster.stop()


def test_slurm_executor_matches_from_warc_with_one_redis_store(tmp_path, warcs, slurm, redis_server):
    from datatrove.executor import SlurmPipelineExecutor

    redis_server.client.flushall()
    logs = tmp_path / "logs"
    SlurmPipelineExecutor(
        pipeline=_pipeline(tmp_path, redis_server.url), tasks=TASKS, workers=TASKS, time="00:05:00",
        partition="test", job_name="mce-test", cpus_per_task=1, logging_dir=str(logs),
        slurm_logs_folder=str(tmp_path / "slurm-logs"), sbatch_args={"mem-per-cpu": "500M"}, with_srun=False,
    ).run()
    slurm.wait_idle(JOB_TIMEOUT)
    completed = sorted(p.name for p in (logs / "completions").iterdir()) if (logs / "completions").is_dir() else []
    job_logs = "\n".join(p.read_text(errors="replace")[-1500:] for p in (tmp_path / "slurm-logs").glob("*.out"))
    assert completed == [f"{r:05d}" for r in range(TASKS)], job_logs
    _both_tasks_kept_items(logs)
    got = _datatrove_items(tmp_path / "dt")
    _store_holds_each_text(redis_server, got)
    _assert_same_kept_items_each_text_once(got, _reference(tmp_path, warcs))


# --- Ray ------------------------------------------------------------------------------------------

@pytest.fixture
def local_ray(monkeypatch):
    pytest.importorskip("datatrove", reason="the datatrove extra is not installed (pip install mcecrawl[datatrove])")
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install mcecrawl[ray]; .ci/run installs it)")
    # Ray's socket paths must stay under 107 bytes: a short temporary directory of its own
    temp = tempfile.mkdtemp(prefix="mceray", dir="/tmp")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=TASKS, include_dashboard=False, _temp_dir=temp, object_store_memory=80 * 1024 * 1024,
             log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


def test_ray_executor_matches_from_warc_with_one_redis_store(tmp_path, warcs, local_ray, redis_server):
    from datatrove.executor import RayPipelineExecutor

    redis_server.client.flushall()
    logs = tmp_path / "logs"
    RayPipelineExecutor(pipeline=_pipeline(tmp_path, redis_server.url), tasks=TASKS, workers=TASKS,
                        cpus_per_task=1, mem_per_cpu_gb=0.5, logging_dir=str(logs), time=int(JOB_TIMEOUT)).run()
    completed = sorted(p.name for p in (logs / "completions").iterdir())
    assert completed == [f"{r:05d}" for r in range(TASKS)]
    _both_tasks_kept_items(logs)
    got = _datatrove_items(tmp_path / "dt")
    _store_holds_each_text(redis_server, got)
    _assert_same_kept_items_each_text_once(got, _reference(tmp_path, warcs))
