"""A ``from-warc`` worker imports only what the page path uses (no Scrapy, no datasketch: the run's
parent alone holds the dedup store), and workers are forked warm from a preloaded forkserver."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from warcs import PARAS_FA, page, write_warc

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scrapy", "twisted", "datasketch", "itemadapter")

_WORKER = """
import json, sys
from mcecrawl.archives.pages import PageConfig
from mcecrawl.archives.run import _init_worker, process_warc
_init_worker(PageConfig(), None)
warc, part = sys.argv[1:3]
counts = process_warc((warc, part))[2]
print(json.dumps({"kept_lines": sum(1 for _ in open(part)), "records": counts["records"],
                  "heavy": sorted({m.split('.')[0] for m in sys.modules} & set(%r))}))
""" % (HEAVY,)

_PRELOAD = """
import json, sys
import multiprocessing.forkserver as fs
from mcecrawl.archives.run import RunOptions, run
s = run(RunOptions(sys.argv[1:3], sys.argv[3], workers=2))
print(json.dumps({"kept": s.kept, "preload": list(getattr(fs._forkserver, "_preload_modules", [])),
                  "heavy_warm": sorted({m.split('.')[0] for m in sys.modules} & set(%r))}))
""" % (HEAVY,)


def _python(code, *args):
    out = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_worker_making_pages_imports_no_scrapy_and_no_datasketch(tmp_path):
    write_warc(tmp_path / "a.warc.gz", [("http://a.ir/1", page(PARAS_FA).encode())])
    got = _python(_WORKER, tmp_path / "a.warc.gz", tmp_path / "part.jsonl")
    assert got == {"kept_lines": 1, "records": 1, "heavy": []}


def test_workers_are_forked_from_a_warm_forkserver(tmp_path):
    for k in range(2):
        write_warc(tmp_path / f"{k}.warc.gz", [(f"http://a.ir/{k}", page([*PARAS_FA, f"بند {k}"]).encode())])
    got = _python(_PRELOAD, tmp_path / "0.warc.gz", tmp_path / "1.warc.gz", tmp_path / "out.jsonl")
    assert got["kept"] == 2 and got["preload"] == ["mcecrawl.archives.warm"]
    warm = subprocess.run([sys.executable, "-c", "import sys, mcecrawl.archives.warm; "
                           f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"],
                          cwd=ROOT, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert warm.stdout.strip() == "[]"  # the warm-up itself pulls in nothing heavy
