"""benchmarks/bench_memory.py's fresh-process measure, for the tests that hold a page's peak under 10x."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_CODE = ("import json, resource, sys, mcecrawl\n"
         "page = open(sys.argv[1], 'rb').read() if sys.argv[1] != '-' else None\n"
         "ex = mcecrawl.extract(page, **json.loads(sys.argv[2])) if page else None\n"
         "if ex is not None:\n"
         "    {check}\n"
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")


def peak_over_page(path: Path, check: str, **params: str) -> float:
    """The peak RSS of a fresh process that imports mcecrawl, reads ``path`` and extracts it
    (``mcecrawl.extract(page, **params)``, then the statement ``check`` on its result ``ex``), over that of
    one that only imports mcecrawl, per byte of the page."""
    code = _CODE.format(check=check)
    kb = [int(subprocess.run([sys.executable, "-c", code, arg, json.dumps(params)], capture_output=True, text=True,
                             check=True, timeout=300).stdout) for arg in (str(path), "-")]
    return (kb[0] - kb[1]) * 1024 / path.stat().st_size
