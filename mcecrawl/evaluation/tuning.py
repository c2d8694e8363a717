"""Site-profile side of ``mcecrawl tune``: find a site's profile and rewrite only its ``extraction``.

The rest of a profile (entry points, URL rules, lang, politeness, terms) belongs to the crawler,
so the file is read, only the ``extraction`` key is replaced, and every other key is written
back unchanged and in its original order.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"


def _bare(host: str) -> str:
    return host.lower().removeprefix("www.")


def find_profile(site: str, profiles_dir: Path = PROFILES_DIR) -> Path | None:
    """The profile whose file stem/``name`` is ``site`` or whose ``live_hosts`` include it."""
    if not profiles_dir.is_dir():
        return None
    for path in sorted(profiles_dir.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        hosts = {_bare(h) for h in data.get("live_hosts", []) if isinstance(h, str)}
        if site in (path.stem, data.get("name")) or _bare(site) in hosts:
            return path
    return None


def merge_extraction(path: str | Path, algorithm: str, params: dict, tuning: dict) -> dict:
    """Set ``extraction = {"algorithm", "params", "tuning"}`` in the profile at ``path``.

    When the profile already uses the same algorithm its other parameters are kept; a new file
    is created with the ``extraction`` key only.  Written atomically (temp file + rename).
    """
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    old = data.get("extraction") or {}
    merged = dict(old.get("params") or {}) if old.get("algorithm") == algorithm else {}
    merged.update(params)
    data["extraction"] = {**{k: v for k, v in old.items() if k not in ("algorithm", "params", "tuning")},
                          "algorithm": algorithm, "params": merged, "tuning": tuning}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".json.tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    os.replace(tmp, path)
    return data


__all__ = ["PROFILES_DIR", "find_profile", "merge_extraction"]
