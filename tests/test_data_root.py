"""The shared evaluation data is found through MCE_DATA_ROOT, and tests without it say what to set."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from data_root import DATA_ROOT_ENV

ROOT = Path(__file__).resolve().parent.parent
PROBE = "tests/evaluation/test_datasets.py::test_shared_r2l_loads"  # a test taking the shared_data fixture


def _pytest(data_root: Path) -> str:
    env = {**os.environ, DATA_ROOT_ENV: str(data_root)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", PROBE],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    return proc.stdout + proc.stderr


def test_shared_data_follows_mce_data_root_and_the_skip_names_it(tmp_path, shared_data):
    (tmp_path / "elsewhere").symlink_to(shared_data, target_is_directory=True)
    assert "1 passed" in _pytest(tmp_path / "elsewhere")
    out = _pytest(tmp_path / "absent")
    assert "1 skipped" in out, out
    assert f"no evaluation data at {tmp_path / 'absent'}: set {DATA_ROOT_ENV} to the folder" in out, out


def test_no_test_or_benchmark_names_a_path_of_one_machine():
    """Data comes from MCE_DATA_ROOT (else ../shared/data), third-party files from a variable a test
    names (MCE_WARCIO_TEST_DATA): no absolute path of the machine the suite was written on."""
    machine = "/" + "work/"  # split: this file must not match itself
    files = [p for folder in ("tests", "benchmarks") for p in sorted((ROOT / folder).rglob("*.py"))]
    named = [f"{p.relative_to(ROOT)}:{n}" for p in files
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if f'"{machine}' in line]
    assert not named, named
