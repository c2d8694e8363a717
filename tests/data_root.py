"""Where the tests and benchmarks find the shared evaluation data (real pages with gold).

``$MCE_DATA_ROOT`` (the variable ``mcecrawl evaluate --gate`` reads too), else ``../shared/data``
beside the checkout.  Tests that need it skip with :data:`MISSING` when it is absent.

A test helper, not shipped in the wheel: imported by name like ``synthetic_site``.
"""
from __future__ import annotations

import os
from pathlib import Path

DATA_ROOT_ENV = "MCE_DATA_ROOT"
SHARED_DATA = Path(os.environ.get(DATA_ROOT_ENV) or Path(__file__).resolve().parents[2] / "shared" / "data")
MISSING = (f"no evaluation data at {SHARED_DATA}: set {DATA_ROOT_ENV} to the folder holding the datasets "
           f"(r2l/, encodings/, chinese_wce/, ...; format in docs/evaluation.md)")
