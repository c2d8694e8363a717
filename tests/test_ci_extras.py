"""CI installs every optional extra, so no test skips there for a missing package."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _extras() -> list[str]:
    """The requirements of pyproject.toml's [project.optional-dependencies] (no tomllib on Python 3.10)."""
    text = (ROOT / "pyproject.toml").read_text()
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    lists = re.findall(r"^\w[\w-]*\s*=\s*\[(.*?)\]", section, flags=re.M)
    return [r for body in lists for r in re.findall(r'"([^"]+)"', body)]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_ci_installs_every_extra():
    extras = _extras()
    assert {"matplotlib", "trafilatura", "datatrove>=0.10"} <= set(extras)
    script = (ROOT / ".ci" / "run").read_text().lower().replace("_", "-")
    missing = sorted({_name(r) for r in extras if _name(r) not in script})
    assert not missing, f".ci/run does not install {missing}"
