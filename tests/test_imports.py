"""Every module of the package imports alone, in a fresh set of mcecrawl modules: no import cycle
and no module that works only when another was imported first."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import importlib, json, pkgutil, sys, traceback
import mcecrawl
# __main__ runs the command line when imported: it is a script, not a module to import
names = sorted(m.name for m in pkgutil.walk_packages(mcecrawl.__path__, "mcecrawl.") if not m.name.endswith("__main__"))
failed = {}
for name in names:
    for loaded in [m for m in sys.modules if m == "mcecrawl" or m.startswith("mcecrawl.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed[name] = traceback.format_exc(limit=3)
print(json.dumps({"modules": len(names), "failed": failed}))
"""


def test_every_module_imports_alone():
    out = subprocess.run([sys.executable, "-c", _CHILD], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["modules"] > 60
    assert report["failed"] == {}, "\n".join(report["failed"].values())


def test_archives_import_no_scrapy_module():
    """The WARC path (mcecrawl.archives) and the JSON-lines writer it uses import no Scrapy module."""
    code = ("import sys, json, mcecrawl.archives.run, mcecrawl.archives.output, mcecrawl.archives.pages, "
            "mcecrawl.jsonlines\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('scrapy', 'itemadapter'))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert json.loads(out.stdout) == []
