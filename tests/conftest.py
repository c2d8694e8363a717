"""Shared fixtures.  Tests that read ../shared/data skip with a clear reason when it is absent."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path to ../shared/data (real pages with gold), or skip."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent: the shared evaluation data lives only in the workplace")
    return SHARED_DATA


def load_manifest(dataset: Path) -> list[dict]:
    with open(dataset / "manifest.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
