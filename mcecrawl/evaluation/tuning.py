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
from typing import Any

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"


def _bare(host: str) -> str:
    return host.lower().removeprefix("www.")


def find_profiles(site: str, profiles_dir: Path = PROFILES_DIR) -> list[Path]:
    """Profiles whose file stem/``name`` is ``site`` or whose ``live_hosts`` include it (several
    when sites share a host, e.g. the BBC language services on www.bbc.com)."""
    if not profiles_dir.is_dir():
        return []
    found = []
    for path in sorted(profiles_dir.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        hosts = {_bare(h) for h in data.get("live_hosts", []) if isinstance(h, str)}
        if site in (path.stem, data.get("name")):
            return [path]  # a name match is exact
        if _bare(site) in hosts:
            found.append(path)
    return found


def merge_extraction(path: str | Path, algorithm: str, params: dict[str, Any], tuning: dict[str, Any],
                     measured: str | None = None) -> dict[str, Any]:
    """Set ``extraction = {"algorithm", "params", "tuning"}`` in the profile at ``path``.

    When the profile already uses the same algorithm its other parameters are kept; a new file
    is created with the ``extraction`` key only.  ``measured`` (the schema's human-readable note
    of how the choice was made) replaces a previous note, which would otherwise be stale.
    Written atomically (temp file + rename) in the profiles' own format (2-space indent, UTF-8).
    """
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    old = data.get("extraction") or {}
    merged = dict(old.get("params") or {}) if old.get("algorithm") == algorithm else {}
    merged.update(params)
    data["extraction"] = {**{k: v for k, v in old.items() if k not in ("algorithm", "params", "tuning")},
                          "algorithm": algorithm, "params": merged, "tuning": tuning}
    if measured is not None:
        data["extraction"]["measured"] = measured
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".json.tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    os.replace(tmp, path)
    return data


__all__ = ["PROFILES_DIR", "find_profiles", "merge_extraction"]
